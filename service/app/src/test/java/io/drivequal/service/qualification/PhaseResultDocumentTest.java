/*
 * What ingest makes of a runner's phase-completed event, checked on the shared vectors: the
 * phase-results document keeps what the runner reported (a phase with rounds: how it stopped and
 * each step's latency over the measurement window), and every field it holds is one the strict
 * drivequal-phase-results template maps with a type that fits, so Elasticsearch takes it.
 */
package io.drivequal.service.qualification;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import co.elastic.clients.elasticsearch.core.bulk.BulkOperation;
import io.drivequal.schemas.Contracts;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.LIST;
import static org.assertj.core.api.InstanceOfAssertFactories.MAP;

class PhaseResultDocumentTest {

	private static final Path EXAMPLES = Path.of(System.getProperty("drivequal.schemas.dir", "../../schemas"))
		.resolve("examples/job-event/valid");

	private static final Set<String> NUMBERS = Set.of("long", "integer", "short", "byte", "double", "float");

	private final Contracts contracts = Contracts.load();

	private final JobEventListener listener = new JobEventListener(null, null, null, null, this.contracts, null, null);

	private final JsonNode mapping = this.contracts.mapper()
		.readTree(this.contracts.indexTemplate("drivequal-phase-results"))
		.path("template")
		.path("mappings");

	@Test
	void aSkippedSweepStepKeepsWhyAndWhichStepSaturated() {
		JsonNode event = this.contracts.mapper()
			.readTree(Contracts.resource("examples/job-event/valid/phase-completed-skipped-sweep-saturated.json"));
		Map<String, Object> document = document(event);
		assertThat(document).extractingByKey("skipped", MAP)
			.containsEntry("reason", "sweep-saturated")
			.containsEntry("saturatedPhaseIndex", 1);
		assertThat(document).containsEntry("durationNs", 0L).containsEntry("samples", 0L);
	}

	@Test
	void aPhaseWithRoundsKeepsEachStepsWindowLatency() {
		JsonNode event = this.contracts.mapper()
			.readTree(Contracts.resource("examples/job-event/valid/phase-completed-rounds-latency-window.json"));
		Map<String, Object> document = document(event);
		assertThat(document).extractingByKey("rounds", MAP)
			.containsEntry("stoppedBecause", "steady")
			.extractingByKey("windowLatency", MAP)
			.containsEntry("firstRound", 7)
			.containsEntry("lastRound", 11)
			.extractingByKey("steps", LIST)
			.hasSize(9);
		assertThat(document.get("rounds"))
			.isEqualTo(this.contracts.mapper().convertValue(event.get("rounds"), Map.class));
		// the 65/35 8 KiB element: reads, writes, and both together
		Map<?, ?> window = (Map<?, ?>) ((Map<?, ?>) document.get("rounds")).get("windowLatency");
		Map<?, ?> mixed = (Map<?, ?>) ((List<?>) window.get("steps")).get(3);
		assertThat(mixed.keySet().stream().map(String::valueOf).toList()).containsExactly("step", "read", "write",
				"total");
		assertThat(((Map<?, ?>) mixed.get("total")).get("p99999Ns")).isEqualTo(255999);
	}

	@Test
	void anOlderPhaseWithRoundsHasNoWindowLatency() {
		JsonNode event = this.contracts.mapper()
			.readTree(Contracts.resource("examples/job-event/valid/phase-completed-rounds-latency.json"));
		assertThat(document(event)).extractingByKey("rounds", MAP).doesNotContainKey("windowLatency");
	}

	@Test
	void aPowerCyclePhaseKeepsItsVerdictAndLostCounts() {
		JsonNode event = this.contracts.mapper()
			.readTree(Contracts.resource("examples/job-event/valid/phase-completed-power-cycle-liar.json"));
		assertThat(document(event)).extractingByKey("powerCycle", MAP)
			.containsEntry("verdict", "fail")
			.containsEntry("durability", "on-flush")
			.containsEntry("cycles", 100)
			.containsEntry("lostDurable", event.path("powerCycle").path("lostDurable").asInt())
			.containsEntry("cyclesFailed", event.path("powerCycle").path("cyclesFailed").asInt());
	}

	@TestFactory
	Stream<DynamicTest> everyFieldOfEveryPhaseResultIsMapped() throws IOException {
		try (Stream<Path> files = Files.list(EXAMPLES)) {
			List<Path> vectors = files.filter((f) -> f.getFileName().toString().startsWith("phase-completed"))
				.sorted()
				.toList();
			assertThat(vectors).isNotEmpty();
			return vectors.stream().map((file) -> DynamicTest.dynamicTest(file.getFileName().toString(), () -> {
				JsonNode event = this.contracts.mapper().readTree(Files.readString(file));
				assertMapped("", document(event), this.mapping);
			}));
		}
	}

	@SuppressWarnings("unchecked")
	private Map<String, Object> document(JsonNode event) {
		BulkOperation operation = this.listener.phaseResultDocument(event);
		return (Map<String, Object>) operation.index().document();
	}

	/**
	 * As a strict mapping decides: every member mapped, objects into objects, leaves
	 * typed.
	 */
	private static void assertMapped(String path, Object value, JsonNode field) {
		if (field.path("enabled").isBoolean() && !field.path("enabled").asBoolean()) {
			return; // stored, not indexed: any shape
		}
		if (value instanceof List<?> list) {
			list.forEach((item) -> assertMapped(path, item, field));
		}
		else if (value instanceof Map<?, ?> object) {
			JsonNode properties = field.path("properties");
			assertThat(properties.isObject()).as("%s is mapped as an object", path).isTrue();
			object.forEach((key, member) -> {
				String at = path.isEmpty() ? key.toString() : path + "." + key;
				assertThat(properties.has(key.toString())).as("%s is mapped", at).isTrue();
				assertMapped(at, member, properties.get(key.toString()));
			});
		}
		else if (value != null) {
			String type = field.path("type").asString();
			if (value instanceof Number) {
				assertThat(type).as("%s holds a number", path).isIn(NUMBERS);
			}
			else if (value instanceof Boolean) {
				assertThat(type).as("%s holds a boolean", path).isEqualTo("boolean");
			}
			else {
				assertThat(type).as("%s holds a string", path).isIn("keyword", "text", "date");
			}
		}
	}

}
