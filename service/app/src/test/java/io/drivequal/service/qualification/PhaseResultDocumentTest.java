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
import io.drivequal.service.ingest.PhaseResult;
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
	void aSkippedSweepStepKeepsWhyAndWhichStepSaturated() throws Exception {
		JsonNode event = this.contracts.mapper()
			.readTree(Contracts.resource("examples/job-event/valid/phase-completed-skipped-sweep-saturated.json"));
		Map<String, Object> document = document(event);
		assertThat(document).extractingByKey("skipped", MAP)
			.containsEntry("reason", "sweep-saturated")
			.containsEntry("saturatedPhaseIndex", 1);
		assertThat(document).containsEntry("durationNs", 0).containsEntry("samples", 0);
	}

	@Test
	void aPhaseWithRoundsKeepsEachStepsWindowLatency() throws Exception {
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
	void anOlderPhaseWithRoundsHasNoWindowLatency() throws Exception {
		JsonNode event = this.contracts.mapper()
			.readTree(Contracts.resource("examples/job-event/valid/phase-completed-rounds-latency.json"));
		assertThat(document(event)).extractingByKey("rounds", MAP).doesNotContainKey("windowLatency");
	}

	@Test
	void aPowerCyclePhaseKeepsItsVerdictAndLostCounts() throws Exception {
		JsonNode event = this.contracts.mapper()
			.readTree(Contracts.resource("examples/job-event/valid/phase-completed-power-cycle-liar.json"));
		assertThat(document(event)).extractingByKey("powerCycle", MAP)
			.containsEntry("verdict", "fail")
			.containsEntry("durability", "on-flush")
			.containsEntry("cycles", 100)
			.containsEntry("lostDurable", event.path("powerCycle").path("lostDurable").asInt())
			.containsEntry("cyclesFailed", event.path("powerCycle").path("cyclesFailed").asInt());
	}

	/**
	 * The record keeps every member the runner sent: each vector's document holds the
	 * event's members (time as @timestamp, the queue depth x 1000 as a plain number), and
	 * nothing else.
	 */
	@TestFactory
	Stream<DynamicTest> everyMemberOfEveryPhaseCompletedEventIsKept() throws IOException {
		Set<String> envelope = Set.of("schemaVersion", "eventId", "seq", "type", "time", "effectiveQueueDepthMilli");
		return phaseCompletedVectors().stream()
			.map((file) -> DynamicTest.dynamicTest(file.getFileName().toString(), () -> {
				JsonNode event = this.contracts.mapper().readTree(Files.readString(file));
				Map<String, Object> expected = new java.util.LinkedHashMap<>(
						this.contracts.mapper().readValue(Files.readString(file), Map.class));
				expected.keySet().removeAll(envelope);
				expected.put("@timestamp", event.path("time").asString());
				if (event.has("effectiveQueueDepthMilli")) {
					expected.put("effectiveQueueDepth", event.path("effectiveQueueDepthMilli").asLong() / 1000.0);
				}
				assertThat(document(event)).isEqualTo(expected);
			}));
	}

	/**
	 * Every top-level field the template maps is either the record's (what the runner
	 * reported) or one the analysis merges in afterwards, and not both.
	 */
	@Test
	void theRecordAndTheAnalysisFiguresCoverTheTemplate() {
		Set<String> components = java.util.Arrays.stream(PhaseResult.class.getRecordComponents())
			.map((component) -> "timestamp".equals(component.getName()) ? "@timestamp" : component.getName())
			.collect(java.util.stream.Collectors.toSet());
		Set<String> mapped = new java.util.HashSet<>(this.mapping.path("properties").propertyNames());
		assertThat(components).doesNotContainAnyElementsOf(PhaseResult.ANALYSIS_FIELDS);
		Set<String> both = new java.util.HashSet<>(components);
		both.addAll(PhaseResult.ANALYSIS_FIELDS);
		assertThat(both).isEqualTo(mapped);
		assertThat(PhaseResult.class.getAnnotation(com.fasterxml.jackson.annotation.JsonIgnoreProperties.class).value())
			.containsExactlyInAnyOrderElementsOf(PhaseResult.ANALYSIS_FIELDS);
	}

	private static List<Path> phaseCompletedVectors() throws IOException {
		try (Stream<Path> files = Files.list(EXAMPLES)) {
			List<Path> vectors = files.filter((f) -> f.getFileName().toString().startsWith("phase-completed"))
				.sorted()
				.toList();
			assertThat(vectors).isNotEmpty();
			return vectors;
		}
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

	/**
	 * The document as Elasticsearch receives it: the record written as JSON by Jackson 2
	 * (the client's mapper, absent values omitted), read back as plain JSON values.
	 */
	@SuppressWarnings("unchecked")
	private Map<String, Object> document(JsonNode event) throws Exception {
		BulkOperation operation = this.listener.phaseResultDocument(event);
		assertThat(operation.index().index()).isEqualTo(PhaseResult.INDEX);
		assertThat(operation.index().id())
			.isEqualTo(event.path("jobId").asString() + "/" + event.path("phaseIndex").asInt());
		com.fasterxml.jackson.databind.ObjectMapper client = new com.fasterxml.jackson.databind.ObjectMapper()
			.setSerializationInclusion(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL);
		return client.readValue(client.writeValueAsString(operation.index().document()), Map.class);
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
