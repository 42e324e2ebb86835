/*
 * Plays a runner over the real Kafka broker for the service's integration tests: heartbeats with a
 * drive inventory, receives commands, answers with schema-valid events and samples. Every message
 * it sends is checked against the contract first, so it cannot drift from what the C runner sends.
 */
package io.drivequal.service.it;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.drivequal.schemas.Contracts;
import io.drivequal.schemas.MessageType;
import io.drivequal.schemas.Validation;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

public final class RunnerStandIn implements AutoCloseable {

	private final Contracts contracts = Contracts.load();

	private final String runnerId;

	private final KafkaProducer<String, byte[]> producer;

	private final KafkaConsumer<String, byte[]> commands;

	private final Map<String, Integer> seqByJob = new java.util.concurrent.ConcurrentHashMap<>();

	public RunnerStandIn(String bootstrapServers, String runnerId) {
		this.runnerId = runnerId;
		this.producer = new KafkaProducer<>(
				Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers, ProducerConfig.ACKS_CONFIG, "all"),
				new StringSerializer(), new ByteArraySerializer());
		this.commands = new KafkaConsumer<>(
				Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers, ConsumerConfig.GROUP_ID_CONFIG,
						"stand-in-" + UUID.randomUUID(), ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
				new StringDeserializer(), new ByteArrayDeserializer());
		this.commands.subscribe(List.of("drivequal.runner-commands"));
	}

	/** The inventory of the last heartbeat, which the waits keep announcing. */
	private volatile List<String> lastSerials = List.of();

	public String runnerId() {
		return this.runnerId;
	}

	public void heartbeat(List<String> serials) {
		this.lastSerials = List.copyOf(serials);
		ObjectNode heartbeat = object();
		heartbeat.put("schemaVersion", 1);
		heartbeat.put("runnerId", this.runnerId);
		heartbeat.put("time", now());
		heartbeat.put("intervalMs", 1000);
		heartbeat.put("runnerVersion", "stand-in");
		heartbeat.putArray("engines").add("sim");
		var devices = heartbeat.putArray("devices");
		for (String serial : serials) {
			ObjectNode entry = devices.addObject();
			entry.set("device", device(serial));
			entry.put("allowlisted", true);
			entry.put("state", "idle");
		}
		heartbeat.putArray("activeJobs");
		send(MessageType.RUNNER_HEARTBEAT, "drivequal.runner-heartbeats", this.runnerId, heartbeat);
	}

	/** Commands addressed to this runner that arrived within {@code wait}. */
	public List<JsonNode> pollCommands(Duration wait) {
		List<JsonNode> result = new ArrayList<>();
		long deadline = System.nanoTime() + wait.toNanos();
		do {
			for (ConsumerRecord<String, byte[]> record : this.commands.poll(Duration.ofMillis(200))) {
				if (this.runnerId.equals(record.key())) {
					Validation validation = this.contracts.validate(MessageType.JOB_COMMAND, record.value());
					if (!validation.valid()) {
						throw new AssertionError("the service sent a command that breaks the contract: "
								+ validation.summary() + ": " + new String(record.value(), StandardCharsets.UTF_8));
					}
					result.add(validation.message());
				}
			}
		}
		while (result.isEmpty() && System.nanoTime() < deadline);
		return result;
	}

	/**
	 * Heartbeats and reads commands until the start command of {@code jobId} arrives.
	 * @return every start command that arrived meanwhile, that one last
	 */
	public List<JsonNode> awaitStart(String jobId, Duration atMost) {
		List<JsonNode> starts = new ArrayList<>();
		long deadline = System.nanoTime() + atMost.toNanos();
		while (System.nanoTime() < deadline) {
			heartbeat(this.lastSerials);
			for (JsonNode command : pollCommands(Duration.ofSeconds(1))) {
				if ("start".equals(command.get("type").asString())) {
					starts.add(command);
					if (jobId.equals(command.get("jobId").asString())) {
						return starts;
					}
				}
			}
		}
		throw new AssertionError("no start command for " + jobId + " within " + atMost + "; got " + starts);
	}

	public void accepted(String jobId, String serial, int phaseCount) {
		ObjectNode event = event("accepted", jobId);
		event.set("device", device(serial));
		event.put("phaseCount", phaseCount);
		sendEvent(event);
	}

	public void phaseStarted(String jobId, int phaseIndex, String phaseName) {
		ObjectNode event = event("phase-started", jobId);
		event.put("phaseIndex", phaseIndex);
		event.put("phaseName", phaseName);
		event.put("kind", "workload");
		event.put("clock", "simulated");
		event.put("startTimeMs", Instant.now().toEpochMilli());
		sendEvent(event);
	}

	public void samples(String jobId, String serial, int phaseIndex, String phaseName, int seconds) {
		long start = Instant.now().toEpochMilli();
		for (int t = 1; t <= seconds; t++) {
			ObjectNode sample = object();
			sample.put("schemaVersion", 1);
			sample.put("jobId", jobId);
			sample.put("runnerId", this.runnerId);
			sample.put("deviceSerial", serial);
			sample.put("phaseIndex", phaseIndex);
			sample.put("phaseName", phaseName);
			sample.put("t", t);
			sample.put("timeMs", start + t * 1000L);
			sample.putObject("read").put("ios", 0).put("bytes", 0);
			ObjectNode write = sample.putObject("write").put("ios", 50000 + t).put("bytes", (50000L + t) * 4096);
			write.putObject("latencyNs").put("p50", 600000).put("p99", 900000).put("p999", 1500000).put("max", 4000000);
			send(MessageType.SAMPLE, "drivequal.samples", jobId, sample);
		}
	}

	public void phaseCompleted(String jobId, int phaseIndex, String phaseName, int samples) {
		ObjectNode event = event("phase-completed", jobId);
		event.put("phaseIndex", phaseIndex);
		event.put("phaseName", phaseName);
		event.put("kind", "workload");
		event.put("durationNs", samples * 1_000_000_000L);
		event.put("samples", samples);
		event.putObject("read").put("ios", 0).put("bytes", 0);
		event.putObject("write").put("ios", 150006).put("bytes", 150006L * 4096);
		sendEvent(event);
	}

	public void completed(String jobId) {
		ObjectNode event = event("completed", jobId);
		event.put("durationNs", 3_000_000_000L);
		sendEvent(event);
	}

	private ObjectNode device(String serial) {
		ObjectNode device = object();
		device.put("serial", serial);
		device.put("model", "drivequal sim enterprise-eager");
		device.put("firmware", "SIM1.0");
		device.put("capacityBytes", 16L * 1024 * 1024 * 1024);
		device.put("lbaSizeBytes", 4096);
		device.put("engine", "sim");
		device.put("transportAddress", "sim:enterprise-eager");
		return device;
	}

	private ObjectNode event(String type, String jobId) {
		int seq = this.seqByJob.merge(jobId, 1, Integer::sum) - 1;
		ObjectNode event = object();
		event.put("schemaVersion", 1);
		event.put("type", type);
		event.put("eventId", jobId + ":" + seq);
		event.put("jobId", jobId);
		event.put("runnerId", this.runnerId);
		event.put("seq", seq);
		event.put("time", now());
		return event;
	}

	private void sendEvent(ObjectNode event) {
		send(MessageType.JOB_EVENT, "drivequal.job-events", event.get("jobId").asString(), event);
	}

	private void send(MessageType type, String topic, String key, ObjectNode message) {
		Validation validation = this.contracts.validate(type, message);
		if (!validation.valid()) {
			throw new AssertionError("stand-in built an invalid " + type.id() + ": " + validation.summary());
		}
		try {
			this.producer.send(new ProducerRecord<>(topic, key, this.contracts.mapper().writeValueAsBytes(message)))
				.get(30, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			throw new IllegalStateException("stand-in could not produce to " + topic, ex);
		}
	}

	private ObjectNode object() {
		return this.contracts.mapper().createObjectNode();
	}

	private static String now() {
		return io.drivequal.service.platform.Timestamps.format(Instant.now());
	}

	@Override
	public void close() {
		this.producer.close(Duration.ofSeconds(5));
		this.commands.close(Duration.ofSeconds(5));
	}

}
