/*
 * The runners' job and phase events: each is indexed as the job's audit trail (id = jobId:seq, so a
 * redelivery overwrites itself), a finished phase's totals and histograms become a phase-result
 * document, a health reading a drivequal-health document, and then the event moves the job through
 * its lifecycle. Offsets are committed only after all of that succeeded.
 */
package io.drivequal.service.qualification;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import co.elastic.clients.elasticsearch.core.bulk.BulkOperation;
import io.drivequal.schemas.Contracts;
import io.drivequal.schemas.MessageType;
import io.drivequal.service.ingest.HealthReading;
import io.drivequal.service.ingest.PhaseResult;
import io.drivequal.service.platform.BulkWriter;
import io.drivequal.service.platform.InvalidMessageException;
import io.drivequal.service.platform.MessageDecoder;
import io.drivequal.service.platform.PoisonAwareBatch;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

@Component
class JobEventListener {

	private static final Logger log = LoggerFactory.getLogger(JobEventListener.class);

	private final MessageDecoder decoder;

	private final BulkWriter writer;

	private final JobStore store;

	private final DriveLeases leases;

	private final Contracts contracts;

	private final SchedulingSettings settings;

	private final Clock clock;

	JobEventListener(MessageDecoder decoder, BulkWriter writer, JobStore store, DriveLeases leases, Contracts contracts,
			SchedulingSettings settings, Clock clock) {
		this.decoder = decoder;
		this.writer = writer;
		this.store = store;
		this.leases = leases;
		this.contracts = contracts;
		this.settings = settings;
		this.clock = clock;
	}

	@KafkaListener(id = "drivequal-job-events", groupId = "drivequal-service-events",
			topics = "#{@contracts.topicCarrying(T(io.drivequal.schemas.MessageType).JOB_EVENT).name()}",
			batch = "true", concurrency = "${drivequal.events.concurrency:3}")
	void onEvents(List<ConsumerRecord<String, byte[]>> records) {
		PoisonAwareBatch.process(records, this::decode, this::store);
	}

	JsonNode decode(ConsumerRecord<String, byte[]> record) {
		JsonNode event = this.decoder.decode(record, MessageType.JOB_EVENT, this.settings.maxEventSize(),
				JsonNode.class);
		String jobId = event.path("jobId").asString();
		if (record.key() != null && !record.key().equals(jobId)) {
			throw new InvalidMessageException("event key " + record.key() + " is not its jobId " + jobId);
		}
		String expectedId = jobId + ":" + event.path("seq").asLong();
		if (!expectedId.equals(event.path("eventId").asString())) {
			throw new InvalidMessageException(
					"eventId " + event.path("eventId").asString() + " is not jobId:seq (" + expectedId + ")");
		}
		return event;
	}

	private Optional<PoisonAwareBatch.Rejection> store(List<JsonNode> events) {
		List<BulkOperation> operations = new ArrayList<>();
		List<Integer> eventOfOperation = new ArrayList<>();
		for (int i = 0; i < events.size(); i++) {
			JsonNode event = events.get(i);
			operations.add(eventDocument(event));
			eventOfOperation.add(i);
			if ("phase-completed".equals(event.path("type").asString())) {
				operations.add(phaseResultDocument(event));
				eventOfOperation.add(i);
			}
			if ("health".equals(event.path("type").asString())) {
				operations.add(HealthReading.of(event).indexOperation());
				eventOfOperation.add(i);
			}
		}
		Optional<PoisonAwareBatch.Rejection> rejection = this.writer.write(operations, false)
			.map((r) -> new PoisonAwareBatch.Rejection(eventOfOperation.get(r.batchIndex()), r.reason()));
		int applicable = rejection.map(PoisonAwareBatch.Rejection::batchIndex).orElse(events.size());
		applyToJobs(events.subList(0, applicable));
		return rejection;
	}

	/**
	 * Moves the jobs through their lifecycle: each job's events in order, all of the
	 * batch's jobs read in one request and written in one (a lab starting hundreds of
	 * jobs sends thousands of events a minute; one job after another, the jobs' states
	 * fell a minute behind their runners in the fleet run).
	 */
	private void applyToJobs(List<JsonNode> events) {
		Instant now = this.clock.instant();
		Map<String, List<Function<Job, Optional<Job>>>> changes = new LinkedHashMap<>();
		Map<String, List<String>> types = new LinkedHashMap<>();
		for (JsonNode event : events) {
			String jobId = event.path("jobId").asString();
			changes.computeIfAbsent(jobId, (id) -> new ArrayList<>())
				.add((job) -> EventTransitions.apply(job, event, now));
			types.computeIfAbsent(jobId, (id) -> new ArrayList<>()).add(event.path("type").asString());
		}
		JobStore.Updates updates = this.store.updateAll(changes);
		for (Map.Entry<String, List<String>> job : types.entrySet()) {
			try (MDC.MDCCloseable jobContext = MDC.putCloseable("jobId", job.getKey())) {
				if (updates.missing().contains(job.getKey())) {
					log.warn("events {} name unknown job {}; kept in {} only", job.getValue(), job.getKey(),
							JobEventDocument.INDEX);
					continue;
				}
				Job current = updates.written().get(job.getKey());
				if (current == null) {
					continue;
				}
				log.info("job {} is {} after {}", job.getKey(), current.state(), String.join(", ", job.getValue()));
				if (current.state().isFinal()) {
					this.leases.release(current.deviceSerial(), current.jobId());
				}
			}
		}
	}

	private BulkOperation eventDocument(JsonNode event) {
		return JobEventDocument.of(event, this.contracts.mapper()).indexOperation();
	}

	/** A phase-completed event's drivequal-phase-results document. */
	BulkOperation phaseResultDocument(JsonNode event) {
		return phaseResult(event).indexOperation();
	}

	/**
	 * A phase-completed event's result: the effective queue depth as a plain number (the
	 * message carries it x 1000), and the read-backs, a multi-stream phase's trims and
	 * streams, and how the phase stopped (its adaptive rounds, or the limit it reached)
	 * or why it never ran (skipped), as sent.
	 */
	PhaseResult phaseResult(JsonNode event) {
		JsonNode deallocated = event.get("deallocatedBytes");
		JsonNode milli = event.get("effectiveQueueDepthMilli");
		JsonNode limit = event.get("limitReached");
		JsonNode streams = event.get("streams");
		ObjectMapper mapper = this.contracts.mapper();
		return new PhaseResult(event.path("time").asString(), event.path("jobId").asString(),
				event.path("runnerId").asString(), null, event.path("phaseIndex").asInt(),
				event.path("phaseName").asString(), event.path("kind").asString(), event.path("durationNs").asLong(),
				event.path("samples").asLong(), part(event, "read", PhaseResult.DirectionTotals.class),
				part(event, "write", PhaseResult.DirectionTotals.class),
				part(event, "trim", PhaseResult.DirectionTotals.class),
				(streams != null) ? mapper.treeToValue(streams,
						mapper.getTypeFactory().constructCollectionType(List.class, PhaseResult.StreamTotals.class))
						: null,
				(deallocated != null) ? deallocated.asLong() : null, (milli != null) ? milli.asLong() / 1000.0 : null,
				part(event, "purgeVerification", PhaseResult.PurgeVerification.class),
				part(event, "verify", PhaseResult.VerifyResult.class),
				part(event, "powerCycle", PhaseResult.PowerCycleResult.class),
				part(event, "rounds", PhaseResult.RoundsResult.class), (limit != null) ? limit.asString() : null,
				part(event, "skipped", PhaseResult.Skipped.class));
	}

	private <T> T part(JsonNode event, String name, Class<T> type) {
		JsonNode member = event.get(name);
		return (member != null && !member.isNull()) ? this.contracts.mapper().treeToValue(member, type) : null;
	}

}
