/*
 * The compiled schemas say exactly what the general validator says: on every shared vector, and
 * on tens of thousands of mutations of the valid ones (members dropped, added, or replaced by
 * values at and beyond every bound, of every type), each judged by both paths. A compiled check
 * that accepted one message the general validator refuses would widen the contract; this is the
 * proof that it does not.
 */
package io.drivequal.schemas;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

class CompiledSchemaTest {

	private static final Path EXAMPLES = Path.of("examples");

	private static final int MUTANTS_PER_TYPE = 30_000;

	/** Values at and beyond the schemas' bounds, of every JSON type. */
	private static final List<String> PALETTE = List.of("0", "1", "-1", "1.0", "1.5", "-0.0", "1e2", "1E0", "2592000",
			"2592001", "255", "256", "1024", "1025", "100", "101", "9223372036854775807", "9223372036854775808",
			"-9223372036854775808", "1e400", "\"\"", "\"j\"", "\"12\"", "\"../etc\"", "\"a\\n\"", "\" a\"", "\"a \"",
			"\"" + "x".repeat(64) + "\"", "\"" + "x".repeat(65) + "\"", "\"\\u00c4\"", "\"p-1\"", "\"P\"", "\"-p\"",
			"true", "false", "null", "[]", "[1]", "{}", "{\"p50\":1,\"p99\":1,\"p999\":1,\"max\":1}",
			"{\"ios\":0,\"bytes\":0}", "{\"ios\":3,\"bytes\":1}",
			"{\"ios\":3,\"bytes\":1,\"latencyNs\":{\"p50\":1,\"p99\":2,\"p999\":3,\"max\":4}}");

	private final Contracts contracts = Contracts.load();

	@Test
	void theSampleSchemaCompiles() {
		// the lever of the ingest benchmark: valid samples never reach the general
		// validator
		System.out.println("compiled schemas: " + this.contracts.compiled.keySet());
		assertThat(this.contracts.compiled).containsKey(MessageType.SAMPLE);
	}

	@Test
	void everyVectorGetsTheSameVerdict() throws IOException {
		int checked = 0;
		for (MessageType type : this.contracts.compiled.keySet()) {
			for (String kind : List.of("valid", "invalid")) {
				for (Path vector : vectors(type, kind)) {
					JsonNode node = parse(Files.readString(vector));
					if (node == null) {
						continue; // not JSON: refused before any schema is asked
					}
					boolean general = general(type, node);
					assertThat(general).as(vector.toString()).isEqualTo(kind.equals("valid"));
					assertThat(compiled(type, node)).as(vector.toString()).isEqualTo(general);
					checked++;
				}
			}
		}
		assertThat(checked).isGreaterThanOrEqualTo(15);
	}

	@Test
	void mutantsGetTheSameVerdict() throws IOException {
		Random random = new Random(20261125);
		List<JsonNode> values = PALETTE.stream().map(this::parse).toList();
		for (MessageType type : this.contracts.compiled.keySet()) {
			List<JsonNode> seeds = new ArrayList<>();
			for (Path vector : vectors(type, "valid")) {
				seeds.add(parse(Files.readString(vector)));
			}
			int valid = 0;
			for (int i = 0; i < MUTANTS_PER_TYPE; i++) {
				JsonNode mutant = seeds.get(random.nextInt(seeds.size())).deepCopy();
				int mutations = 1 + random.nextInt(3);
				for (int m = 0; m < mutations; m++) {
					mutate(mutant, random, values);
				}
				boolean general = general(type, mutant);
				assertThat(compiled(type, mutant)).as("%s mutant %s", type.id(), mutant).isEqualTo(general);
				valid += general ? 1 : 0;
			}
			// neither verdict may be trivial, or the comparison proves little
			assertThat(valid).as(type.id() + " valid mutants").isBetween(MUTANTS_PER_TYPE / 50, MUTANTS_PER_TYPE / 2);
		}
	}

	/** Drops, adds or replaces one member somewhere in the message. */
	private static void mutate(JsonNode message, Random random, List<JsonNode> values) {
		List<ObjectNode> objects = new ArrayList<>();
		collectObjects(message, objects);
		if (objects.isEmpty()) {
			return;
		}
		ObjectNode target = objects.get(random.nextInt(objects.size()));
		List<String> names = new ArrayList<>(target.propertyNames());
		int action = random.nextInt(10);
		if (action == 0 && !names.isEmpty()) {
			target.remove(names.get(random.nextInt(names.size())));
		}
		else if (action == 1) {
			target.set(random.nextBoolean() ? "iops" : "latencyNs",
					values.get(random.nextInt(values.size())).deepCopy());
		}
		else if (!names.isEmpty()) {
			target.set(names.get(random.nextInt(names.size())), values.get(random.nextInt(values.size())).deepCopy());
		}
	}

	private static void collectObjects(JsonNode node, List<ObjectNode> into) {
		if (node instanceof ObjectNode object) {
			into.add(object);
			object.properties().forEach((member) -> collectObjects(member.getValue(), into));
		}
		else if (node instanceof ArrayNode array) {
			array.forEach((element) -> collectObjects(element, into));
		}
	}

	private boolean general(MessageType type, JsonNode node) {
		return this.contracts.schemas.get(type).validate(node).isEmpty();
	}

	private boolean compiled(MessageType type, JsonNode node) {
		Predicate<JsonNode> check = this.contracts.compiled.get(type);
		return check.test(node);
	}

	private JsonNode parse(String text) {
		try {
			return this.contracts.mapper().readTree(text);
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	private static List<Path> vectors(MessageType type, String kind) throws IOException {
		try (Stream<Path> files = Files.list(EXAMPLES.resolve(type.id()).resolve(kind))) {
			return files.filter((file) -> file.toString().endsWith(".json")).sorted().toList();
		}
	}

}
