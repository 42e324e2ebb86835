/*
 * The stream decoder never accepts a sample the schema refuses and never binds one differently
 * from the general path: on every shared vector, and on tens of thousands of mutants of the valid
 * ones (members dropped, added, repeated or replaced by values at and beyond every bound, bytes
 * changed, trailing text), each judged by both. It must also vouch for nearly every valid sample,
 * or the hot path would quietly be the slow one; and it must turn itself off when the schema's
 * rules between members are not the ones it implements.
 */
package io.drivequal.service.ingest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import io.drivequal.schemas.Contracts;
import io.drivequal.schemas.MessageType;
import io.drivequal.schemas.Validation;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

class SampleStreamDecoderTest {

	private static final Path EXAMPLES = Path.of(System.getProperty("drivequal.schemas.dir", "../../schemas"))
		.resolve("examples/sample");

	private static final int MUTANTS = 40_000;

	/** Values at and beyond the sample schema's bounds, of every JSON type. */
	private static final List<String> VALUES = List.of("0", "1", "-1", "1.0", "2.5", "1e0", "255", "256", "999", "1000",
			"2592000", "2592001", "1024000", "1024001", "9223372036854775807", "9223372036854775808",
			"-9223372036854775808", "\"\"", "\"job-1\"", "\"Job.1_a\"", "\"-job\"", "\" SN1\"", "\"SN 1\"",
			"\"randwrite-qd32\"", "\"RandWrite\"", "\"" + "a".repeat(64) + "\"", "\"" + "a".repeat(65) + "\"",
			"\"\\u00e9\"", "true", "null", "[]", "[1]", "{}", "{\"p50\":1,\"p99\":2,\"p999\":3,\"max\":4}",
			"{\"p50\":1,\"p99\":2,\"p999\":3}", "{\"ios\":0,\"bytes\":0}", "{\"ios\":2,\"bytes\":8192}",
			"{\"ios\":2,\"bytes\":8192,\"latencyNs\":{\"p50\":1,\"p99\":2,\"p999\":3,\"max\":4}}");

	private static final List<String> NAMES = List.of("round", "step", "effectiveQueueDepthMilli", "latencyNs", "iops",
			"ios", "t", "max", "extra");

	private final Contracts contracts = Contracts.load();

	private final SampleStreamDecoder decoder = new SampleStreamDecoder(this.contracts);

	@Test
	void theDecoderIsOnForTheSchemaAsItIs() {
		assertThat(SampleStreamDecoder.differences(this.contracts)).isEmpty();
		assertThat(this.decoder.enabled()).isTrue();
	}

	@Test
	void everyValidVectorIsVouchedForAndBoundAsTheGeneralPathBindsIt() throws IOException {
		List<Path> valid = vectors("valid");
		for (Path vector : valid) {
			byte[] bytes = Files.readAllBytes(vector);
			SampleMessage streamed = this.decoder.decode(bytes);
			assertThat(streamed).as(vector.toString()).isNotNull().isEqualTo(general(bytes));
			byte[] compact = this.contracts.mapper().writeValueAsBytes(this.contracts.mapper().readTree(bytes));
			assertThat(this.decoder.decode(compact)).as("compact " + vector).isEqualTo(streamed);
		}
		assertThat(valid).hasSizeGreaterThanOrEqualTo(5);
	}

	@Test
	void noInvalidVectorIsVouchedFor() throws IOException {
		List<Path> invalid = vectors("invalid");
		for (Path vector : invalid) {
			assertThat(this.decoder.decode(Files.readAllBytes(vector))).as(vector.toString()).isNull();
		}
		assertThat(invalid).hasSizeGreaterThanOrEqualTo(5);
	}

	@Test
	void mutantsAreVouchedForOnlyWhenValidAndThenBoundExactly() throws IOException {
		Random random = new Random(20261127);
		List<JsonNode> seeds = new ArrayList<>();
		for (Path vector : vectors("valid")) {
			seeds.add(this.contracts.mapper().readTree(Files.readAllBytes(vector)));
		}
		List<JsonNode> values = VALUES.stream().map((value) -> this.contracts.mapper().readTree(value)).toList();
		int valid = 0;
		int vouched = 0;
		for (int i = 0; i < MUTANTS; i++) {
			JsonNode mutant = seeds.get(random.nextInt(seeds.size())).deepCopy();
			for (int m = random.nextInt(3); m >= 0; m--) {
				mutate(mutant, random, values);
			}
			byte[] bytes = this.contracts.mapper().writeValueAsBytes(mutant);
			if (random.nextInt(6) == 0) {
				bytes = mutateText(new String(bytes, StandardCharsets.UTF_8), random).getBytes(StandardCharsets.UTF_8);
			}
			SampleMessage general = general(bytes);
			SampleMessage streamed = this.decoder.decode(bytes);
			String shown = new String(bytes, StandardCharsets.UTF_8);
			if (streamed != null) {
				assertThat(general).as("vouched for an invalid sample: %s", shown).isNotNull();
				assertThat(streamed).as("bound differently: %s", shown).isEqualTo(general);
				vouched++;
			}
			valid += (general != null) ? 1 : 0;
		}
		// neither verdict may be trivial, or the comparison proves little
		assertThat(valid).isBetween(MUTANTS / 50, MUTANTS / 2);
		// what it declines among valid samples is the rare spelling: 1.0 for 1, a member
		// twice
		assertThat(vouched).as("vouched for %d of %d valid mutants", vouched, valid).isGreaterThan(valid * 8 / 10);
	}

	@Test
	void anyOtherRuleBetweenMembersTurnsTheDecoderOff() {
		JsonNode root = this.contracts.member(MessageType.SAMPLE).schema();
		JsonNode read = this.contracts.member(MessageType.SAMPLE, "read").schema();
		JsonNode latency = this.contracts.member(MessageType.SAMPLE, "read", "latencyNs").schema();
		assertThat(differences(root, read, read, latency)).isEmpty();

		ObjectNode moreRequired = (ObjectNode) root.deepCopy();
		moreRequired.withArray("required").add("effectiveQueueDepthMilli");
		assertThat(differences(moreRequired, read, read, latency)).singleElement()
			.asString()
			.contains("sample requires");

		ObjectNode newKeyword = (ObjectNode) root.deepCopy();
		newKeyword.put("minProperties", 11);
		assertThat(differences(newKeyword, read, read, latency)).singleElement().asString().contains("minProperties");

		ObjectNode newMember = (ObjectNode) root.deepCopy();
		newMember.withObject("properties").putObject("temperatureC").put("type", "integer");
		assertThat(differences(newMember, read, read, latency)).singleElement().asString().contains("temperatureC");

		ObjectNode open = (ObjectNode) read.deepCopy();
		open.put("additionalProperties", true);
		assertThat(differences(root, open, open, latency)).singleElement().asString().contains("not a closed object");

		ObjectNode otherRule = (ObjectNode) read.deepCopy();
		otherRule.withObject("if").withObject("properties").withObject("ios").put("minimum", 2);
		assertThat(differences(root, otherRule, otherRule, latency)).singleElement().asString().contains("read has if");
		assertThat(differences(root, read, otherRule, latency)).singleElement()
			.asString()
			.contains("different schemas");

		ObjectNode fewerPercentiles = (ObjectNode) latency.deepCopy();
		fewerPercentiles.withArray("required").remove(3);
		assertThat(differences(root, read, read, fewerPercentiles)).singleElement()
			.asString()
			.contains("read.latencyNs requires");
	}

	private List<String> differences(JsonNode root, JsonNode read, JsonNode write, JsonNode latency) {
		return SampleStreamDecoder.differences(this.contracts.mapper(), root, read, write, latency);
	}

	/** The general path's answer: the bound sample, or null when the schema refuses. */
	private SampleMessage general(byte[] bytes) {
		Validation validation = this.contracts.validate(MessageType.SAMPLE, bytes);
		return validation.valid() ? SampleListener.sampleOf(validation.message()) : null;
	}

	/** Drops, adds or replaces one member somewhere in the message. */
	private static void mutate(JsonNode message, Random random, List<JsonNode> values) {
		List<ObjectNode> objects = new ArrayList<>();
		collectObjects(message, objects);
		ObjectNode target = objects.get(random.nextInt(objects.size()));
		List<String> names = new ArrayList<>(target.propertyNames());
		int action = random.nextInt(10);
		if (action == 0 && !names.isEmpty()) {
			target.remove(names.get(random.nextInt(names.size())));
		}
		else if (action == 1) {
			target.set(NAMES.get(random.nextInt(NAMES.size())), values.get(random.nextInt(values.size())).deepCopy());
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
	}

	/** What a tree cannot hold: a member twice, text after the message, a broken byte. */
	private static String mutateText(String json, Random random) {
		return switch (random.nextInt(4)) {
			case 0 -> json.replaceFirst("\\{\"", "{\"t\":7,\"");
			case 1 -> json + ((random.nextBoolean()) ? " {}" : " x");
			case 2 -> json.substring(0, json.length() - 1 - random.nextInt(3));
			default -> {
				char[] chars = json.toCharArray();
				chars[random.nextInt(chars.length)] = (char) (' ' + random.nextInt(95));
				yield new String(chars);
			}
		};
	}

	private static List<Path> vectors(String kind) throws IOException {
		try (Stream<Path> files = Files.list(EXAMPLES.resolve(kind))) {
			// multi-stream samples (streams-*) are left to the general validator by
			// design
			return files.filter((file) -> file.toString().endsWith(".json"))
				.filter((file) -> !file.getFileName().toString().startsWith("streams-"))
				.sorted()
				.toList();
		}
	}

}
