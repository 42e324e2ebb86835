/*
 * Consumes per-second samples in batches. The container commits a batch's offsets only after this
 * method returns, i.e. after Elasticsearch acknowledged every sample of it: a crash replays, and
 * the deterministic ids make the replay harmless. Several consumers (drivequal.ingest.concurrency,
 * each with its share of the partitions) keep more than one bulk request in flight, so decoding
 * one batch overlaps indexing another (docs/benchmarks.md).
 */
package io.drivequal.service.ingest;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import io.drivequal.schemas.Contracts;
import io.drivequal.schemas.MessageType;
import io.drivequal.service.platform.InvalidMessageException;
import io.drivequal.service.platform.MessageDecoder;
import io.drivequal.service.platform.PoisonAwareBatch;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

@Component
class SampleListener {

	private static final Logger logger = LoggerFactory.getLogger(SampleListener.class);

	private static final long NOTICE_INTERVAL_MS = 3_600_000;

	private final MessageDecoder decoder;

	private final SampleIndexer indexer;

	private final IngestSettings settings;

	private final SampleStreamDecoder stream;

	private final AtomicLong generalPath = new AtomicLong();

	private final AtomicLong lastNoticeMs = new AtomicLong(Long.MIN_VALUE / 2);

	SampleListener(MessageDecoder decoder, SampleIndexer indexer, IngestSettings settings, Contracts contracts) {
		this.decoder = decoder;
		this.indexer = indexer;
		this.settings = settings;
		this.stream = new SampleStreamDecoder(contracts);
	}

	@KafkaListener(id = "drivequal-samples", groupId = "drivequal-service-samples",
			topics = "#{@contracts.topicCarrying(T(io.drivequal.schemas.MessageType).SAMPLE).name()}", batch = "true",
			concurrency = "${drivequal.ingest.concurrency:6}")
	void onSamples(List<ConsumerRecord<String, byte[]>> records) {
		PoisonAwareBatch.process(records, this::decode, this.indexer::index);
	}

	/**
	 * The stream decoder first; what it does not vouch for (and every invalid sample)
	 * takes the general path, which names the reasons.
	 */
	SampleMessage decode(ConsumerRecord<String, byte[]> record) {
		byte[] value = record.value();
		SampleMessage sample = (value != null && value.length <= this.settings.maxSampleSize().toBytes())
				? this.stream.decode(value) : null;
		if (sample == null) {
			sample = sampleOf(
					this.decoder.decode(record, MessageType.SAMPLE, this.settings.maxSampleSize(), JsonNode.class));
			noticeGeneralPath(sample);
		}
		if (record.key() != null && !record.key().equals(sample.jobId())) {
			throw new InvalidMessageException(
					"sample key " + record.key() + " is not its jobId " + sample.jobId() + " (breaks per-job order)");
		}
		return sample;
	}

	/**
	 * A valid sample the stream decoder did not vouch for costs several times the CPU of
	 * one it did: said at most once an hour, with the count, so an operator sees a runner
	 * whose encoding drifted from schemas/examples/sample/valid.
	 */
	private void noticeGeneralPath(SampleMessage sample) {
		long count = this.generalPath.incrementAndGet();
		long now = System.currentTimeMillis();
		long last = this.lastNoticeMs.get();
		if (now - last >= NOTICE_INTERVAL_MS && this.lastNoticeMs.compareAndSet(last, now)) {
			logger.info(
					"{} valid samples took the general decoder since the service started (latest: job {}, t {}):"
							+ " the stream decoder does not vouch for their encoding (a member twice, 1.0 for 1, an"
							+ " unknown member), and each costs several times the CPU",
					count, sample.jobId(), sample.t());
		}
	}

	/** Valid samples decoded by the general path since start. */
	long generalPathSamples() {
		return this.generalPath.get();
	}

	/**
	 * Binds a message the schema has already validated (every required field present,
	 * every number an integer in range) by hand: at thousands of samples a second,
	 * reflective record binding costs about as much as the schema validation itself.
	 * SampleListenerTest checks that every valid vector round-trips without loss.
	 */
	static SampleMessage sampleOf(JsonNode message) {
		return new SampleMessage(message.get("schemaVersion").asInt(), message.get("jobId").asString(),
				message.get("runnerId").asString(), message.get("deviceSerial").asString(),
				message.get("phaseIndex").asInt(), message.get("phaseName").asString(), message.get("t").asInt(),
				message.get("timeMs").asLong(), directionOf(message.get("read")), directionOf(message.get("write")),
				message.has("effectiveQueueDepthMilli") ? message.get("effectiveQueueDepthMilli").asLong() : null,
				message.has("round") ? message.get("round").asInt() : null,
				message.has("step") ? message.get("step").asInt() : null,
				message.has("wallMs") ? message.get("wallMs").asLong() : null,
				message.has("clockRateMilli") ? message.get("clockRateMilli").asLong() : null,
				message.has("trim") ? directionOf(message.get("trim")) : null,
				message.has("streams") ? streamsOf(message.get("streams")) : null);
	}

	private static List<SampleMessage.StreamSecond> streamsOf(JsonNode streams) {
		List<SampleMessage.StreamSecond> seconds = new ArrayList<>();
		for (JsonNode stream : streams) {
			seconds.add(new SampleMessage.StreamSecond(stream.get("index").asInt(),
					stream.has("offeredIos") ? stream.get("offeredIos").asLong() : null,
					streamDirectionOf(stream.get("read")), streamDirectionOf(stream.get("write")),
					streamDirectionOf(stream.get("trim"))));
		}
		return seconds;
	}

	private static SampleMessage.StreamDirection streamDirectionOf(JsonNode direction) {
		return new SampleMessage.StreamDirection(direction.get("ios").asLong(), direction.get("bytes").asLong(),
				latencyOf(direction.get("latencyNs")), latencyOf(direction.get("responseLatencyNs")));
	}

	private static SampleMessage.LatencyNs latencyOf(JsonNode latency) {
		return (latency != null) ? new SampleMessage.LatencyNs(latency.get("p50").asLong(), latency.get("p99").asLong(),
				latency.get("p999").asLong(), latency.get("max").asLong()) : null;
	}

	private static SampleMessage.Direction directionOf(JsonNode direction) {
		return new SampleMessage.Direction(direction.get("ios").asLong(), direction.get("bytes").asLong(),
				latencyOf(direction.get("latencyNs")));
	}

}
