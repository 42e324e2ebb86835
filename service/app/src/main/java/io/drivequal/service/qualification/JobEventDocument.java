/*
 * The job-event document (index drivequal-events, id = eventId, i.e. jobId:seq) as one type: the
 * envelope the template maps (time, ids, type, phase, reason, message) and the event as the runner
 * sent it as payload, which the template stores without indexing (its shape depends on the type).
 * The event consumer writes it; a reader names the payload type it reads, as JobEventQueries does
 * for the SMART snapshots the analysis asks CompletedJobs for.
 */
package io.drivequal.service.qualification;

import java.util.Map;

import co.elastic.clients.elasticsearch.core.bulk.BulkOperation;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * @param timestamp the event's time (ISO-8601)
 * @param phaseIndex, reason, message null when the event has none
 * @param payload the whole event as sent: a map when written, the reader's type when read
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JobEventDocument<P>(@JsonProperty("@timestamp") String timestamp, String eventId, String type,
		String jobId, String runnerId, long seq, Integer phaseIndex, String reason, String message, P payload) {

	public static final String INDEX = "drivequal-events";

	/** The type of the events that carry a SMART snapshot before or after a phase. */
	public static final String SMART_SNAPSHOT = "smart-snapshot";

	/** A job event, already validated against the contract. */
	@SuppressWarnings("unchecked")
	static JobEventDocument<Map<String, Object>> of(JsonNode event, ObjectMapper mapper) {
		JsonNode phaseIndex = event.get("phaseIndex");
		return new JobEventDocument<>(event.path("time").asString(), event.path("eventId").asString(),
				event.path("type").asString(), event.path("jobId").asString(), event.path("runnerId").asString(),
				event.path("seq").asLong(), (phaseIndex != null && !phaseIndex.isNull()) ? phaseIndex.asInt() : null,
				text(event, "reason"), text(event, "message"), mapper.convertValue(event, Map.class));
	}

	private static String text(JsonNode event, String field) {
		JsonNode value = event.get(field);
		return (value != null && !value.isNull()) ? value.asString() : null;
	}

	/** Indexing this event; its eventId makes a redelivery overwrite itself. */
	BulkOperation indexOperation() {
		return BulkOperation.of((op) -> op.index((index) -> index.index(INDEX).id(this.eventId).document(this)));
	}

	/**
	 * A smart-snapshot event's payload as JobEventQueries reads it: the drive's counters
	 * before or after a phase. The envelope's other members are on the document itself.
	 *
	 * @param when "before" or "after"
	 */
	@JsonIgnoreProperties(ignoreUnknown = true)
	public record SmartSnapshotPayload(int phaseIndex, String when, SmartSnapshot smart) {
	}

}
