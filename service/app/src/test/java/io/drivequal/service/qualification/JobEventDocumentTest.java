/*
 * The job-event document on the shared vectors: what the event consumer writes to drivequal-events
 * is what the analysis reads back as a SMART snapshot, through the one record and the
 * Elasticsearch client's mapper; and the snapshot record has every member of the contract's
 * smartSnapshot, so none is lost on the way.
 */
package io.drivequal.service.qualification;

import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.drivequal.schemas.Contracts;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

class JobEventDocumentTest {

	private final Contracts contracts = Contracts.load();

	/** As ElasticsearchConfiguration configures the client's mapper. */
	private final ObjectMapper client = new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
		.setSerializationInclusion(JsonInclude.Include.NON_NULL);

	@Test
	void aSmartSnapshotIsReadBackAsTheRunnerSentIt() throws Exception {
		JsonNode event = vector("smart-snapshot-ocp.json");
		JobEventDocument.SmartSnapshotPayload payload = storedAndReadBack(event).payload();
		assertThat(payload.phaseIndex()).isEqualTo(event.path("phaseIndex").asInt());
		assertThat(payload.when()).isEqualTo(event.path("when").asString());
		SmartSnapshot smart = payload.smart();
		assertThat(smart.available()).isTrue();
		assertThat(smart.dataUnitsWritten()).isEqualTo(event.path("smart").path("dataUnitsWritten").asLong());
		assertThat(smart.physicalMediaUnitsWrittenBytes())
			.isEqualTo(event.path("smart").path("ocp").path("physicalMediaUnitsWrittenBytes").asLong());
		// every member, as JSON
		assertThat(this.client.readTree(this.client.writeValueAsString(smart)))
			.isEqualTo(this.client.readTree(event.path("smart").toString()));
	}

	@Test
	void anUnavailableSnapshotKeepsItsReason() throws Exception {
		JsonNode event = vector("smart-snapshot-unavailable.json");
		SmartSnapshot smart = storedAndReadBack(event).payload().smart();
		assertThat(smart.available()).isFalse();
		assertThat(smart.reason()).isNotBlank().isEqualTo(event.path("smart").path("reason").asString());
		assertThat(smart.dataUnitsWritten()).isNull();
		assertThat(smart.physicalMediaUnitsWrittenBytes()).isNull();
	}

	@Test
	void theEnvelopeIsTheTemplatesFieldsAndThePayloadTheWholeEvent() throws Exception {
		JsonNode event = vector("smart-snapshot-ocp.json");
		JobEventDocument<Map<String, Object>> document = JobEventDocument.of(event, this.contracts.mapper());
		assertThat(document.indexOperation().index().index()).isEqualTo(JobEventDocument.INDEX);
		assertThat(document.indexOperation().index().id()).isEqualTo(event.path("eventId").asString());
		JsonNode mapping = this.contracts.mapper()
			.readTree(this.contracts.indexTemplate(JobEventDocument.INDEX))
			.path("template")
			.path("mappings")
			.path("properties");
		Map<?, ?> stored = this.client.readValue(this.client.writeValueAsString(document), Map.class);
		assertThat(mapping.propertyNames()).containsAll(stored.keySet().stream().map(String::valueOf).toList());
		assertThat(stored.get("type")).isEqualTo(JobEventDocument.SMART_SNAPSHOT);
		assertThat(this.client.readTree(this.client.writeValueAsString(stored.get("payload"))))
			.isEqualTo(this.client.readTree(event.toString()));
	}

	@Test
	void theSnapshotRecordHasEveryMemberOfTheContractsSmartSnapshot() {
		JsonNode common = this.contracts.mapper()
			.readTree(Contracts.resource("messages/common.schema.json"))
			.path("$defs")
			.path("smartSnapshot")
			.path("properties");
		Set<String> members = new HashSet<>(common.propertyNames());
		Set<String> components = Arrays.stream(SmartSnapshot.class.getRecordComponents())
			.map(RecordComponent::getName)
			.collect(Collectors.toSet());
		assertThat(components).isEqualTo(members);
	}

	private JobEventDocument<JobEventDocument.SmartSnapshotPayload> storedAndReadBack(JsonNode event) throws Exception {
		String stored = this.client.writeValueAsString(JobEventDocument.of(event, this.contracts.mapper()));
		return this.client.readValue(stored,
				new TypeReference<JobEventDocument<JobEventDocument.SmartSnapshotPayload>>() {
				});
	}

	private JsonNode vector(String name) {
		return this.contracts.mapper().readTree(Contracts.resource("examples/job-event/valid/" + name));
	}

}
