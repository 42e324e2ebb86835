/*
 * WAF from an NVMe controller's own logs, end to end: the runner inside a QEMU guest reports the
 * emulated drive (heartbeat), the service dispatches a qualification to it (the start command
 * crosses into the guest as a file: it has no network), the runner runs it through the kernel's
 * NVMe path (Format NVM, then 256 MiB of 4 KiB random writes at QD32 with SMART 02h and OCP C0h
 * snapshots), and its samples and events come back by `drivequal-runner replay` to the real Kafka
 * broker, into the real Elasticsearch node, through the analysis to the API and the report
 * export. An emulated drive writes each host byte once to
 * its media, so the WAF must come out 1.00, computed from the counters the controller returned.
 */
package io.drivequal.service.qualification;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import io.drivequal.harness.RealInfrastructure;
import io.drivequal.schemas.Contracts;
import io.drivequal.schemas.MessageType;
import io.drivequal.schemas.Validation;
import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.EmulatedNvmeGuest;
import io.drivequal.service.it.RunnerReplay;
import io.drivequal.service.platform.Timestamps;
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
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class EmulatedNvmeIT {

	private static final long BYTES_PER_DATA_UNIT = 512_000L;

	private static final int BLOCK_BYTES = 4096;

	private static final int QUEUE_DEPTH = 32;

	/**
	 * Four times the emulated namespace, whatever the machine's speed: SMART counts
	 * 512,000-byte units, so this keeps its rounding within 0.2% and WAF at 1.00.
	 */
	private static final long RANDWRITE_BYTES = 256L * 1024 * 1024;

	/**
	 * Hang guards only: a TCG guest on a busy 2-core machine boots in 15 s to minutes.
	 */
	private static final Duration GUEST_STEP = Duration.ofMinutes(20);

	@LocalServerPort
	private int port;

	@Autowired
	private ElasticsearchClient elasticsearch;

	private final Contracts contracts = Contracts.load();

	@DynamicPropertySource
	static void infrastructure(DynamicPropertyRegistry registry) {
		registry.add("spring.kafka.bootstrap-servers", () -> RealInfrastructure.shared().kafkaBootstrapServers());
		registry.add("drivequal.elasticsearch.url", () -> RealInfrastructure.shared().elasticsearchUrl());
	}

	@Test
	void wafComputedFromTheEmulatedControllersSmartAndOcpLogsIsOne() throws Exception {
		EmulatedNvmeGuest.assumeReady();
		String runnerId = "guest-" + UUID.randomUUID().toString().substring(0, 8);
		Path dir = Path.of(System.getProperty("drivequal.it.dir", "target/it-infra"))
			.resolveSibling("emulated-nvme")
			.resolve(runnerId);
		long started = System.nanoTime();
		ScheduledExecutorService heartbeats = Executors.newSingleThreadScheduledExecutor();
		try (EmulatedNvmeGuest guest = EmulatedNvmeGuest.startMailbox(dir, runnerId);
				KafkaConsumer<String, byte[]> commands = commandsConsumer();
				KafkaProducer<String, byte[]> relay = new KafkaProducer<>(
						Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
								RealInfrastructure.shared().kafkaBootstrapServers()),
						new StringSerializer(), new ByteArraySerializer())) {
			Path heartbeat = guest.awaitFile("heartbeat.json", GUEST_STEP);
			long bootedS = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
			assertThat(RunnerReplay.replay(heartbeat)).contains("\"delivered\":1");
			// The guest has no network: the test relays the inventory its runner wrote,
			// stamped now, as the agent heartbeats, so no liveness sweep (of this context
			// or
			// of another cached in the JVM) takes the runner for lost.
			heartbeats.scheduleAtFixedRate(() -> relayHeartbeat(relay, heartbeat), 0, 5, TimeUnit.SECONDS);
			JsonNode drive = awaitDrive(runnerId);
			assertThat(drive.get("drive").get("model").asString()).isEqualTo("QEMU NVMe Ctrl");
			assertThat(drive.get("drive").get("allowlisted").asBoolean()).isTrue();
			assertThat(drive.get("runnerAlive").asBoolean()).isTrue();
			String serial = drive.get("drive").get("serial").asString();

			String jobId = submit(serial, runnerId);
			JsonNode command = awaitStartCommand(commands, runnerId, jobId);
			guest.deliver("command.json", this.contracts.mapper().writeValueAsBytes(command));
			assertThat(guest.awaitExit(GUEST_STEP)).as("guest exit status").isZero();
			assertThat(Files.readString(guest.dir().resolve("job.status")).strip())
				.as("the runner's exit status in the guest; see " + guest.dir().resolve("job.err"))
				.isEqualTo("0");

			Path results = guest.dir().resolve("job.jsonl");
			List<JsonNode> lines = jsonLines(results);
			assertThat(RunnerReplay.replay(results)).contains("\"delivered\":" + lines.size());
			JsonNode before = snapshot(lines, 1, "before");
			JsonNode after = snapshot(lines, 1, "after");
			long hostUnits = delta(before, after, "dataUnitsWritten");
			long writeCommands = delta(before, after, "hostWriteCommands");
			long mediaBytes = after.get("ocp").get("physicalMediaUnitsWrittenBytes").asLong()
					- before.get("ocp").get("physicalMediaUnitsWrittenBytes").asLong();
			long countedIos = phaseCompleted(lines, 1).get("write").get("ios").asLong();
			// A sized phase counts every IO it wrote (a timed one drains up to
			// queue-depth
			// IOs uncounted): the drive's own write command count must be the same. The
			// emulated media is the host file: each host byte once.
			assertThat(countedIos * BLOCK_BYTES).isEqualTo(RANDWRITE_BYTES);
			assertThat(writeCommands).isEqualTo(countedIos);
			long sentBytes = writeCommands * BLOCK_BYTES;
			assertThat(mediaBytes).isEqualTo(sentBytes);
			assertThat(hostUnits).isBetween(sentBytes / BYTES_PER_DATA_UNIT,
					(sentBytes + BYTES_PER_DATA_UNIT - 1) / BYTES_PER_DATA_UNIT);
			double expectedWaf = mediaBytes / (double) (hostUnits * BYTES_PER_DATA_UNIT);

			JsonNode job = awaitVerdict(jobId);
			JsonNode phase = job.get("analysis").get("phases").get(1);
			JsonNode waf = phase.get("waf");
			assertThat(waf.get("waf").get("known").asBoolean()).as(waf.toString()).isTrue();
			double reported = waf.get("waf").get("number").asDouble();
			assertThat(reported).isCloseTo(expectedWaf, within(1e-12));
			assertThat(String.format(java.util.Locale.ROOT, "%.2f", reported)).isEqualTo("1.00");
			assertThat(waf.get("hostBytesWritten").asLong()).isEqualTo(hostUnits * BYTES_PER_DATA_UNIT);
			assertThat(waf.get("mediaBytesWritten").asLong()).isEqualTo(mediaBytes);
			assertThat(job.get("verdict").asString()).isEqualTo("PASS");

			Map<String, Object> result = this.elasticsearch
				.get((get) -> get.index("drivequal-phase-results").id(jobId + "/1"), Map.class)
				.source();
			assertThat(result).extractingByKey("waf")
				.asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
				.containsEntry("ratio", reported);
			ApiClient.RawResponse csv = api().request("viewer", "GET",
					"/api/v1/qualifications/" + jobId + "/results.csv", null);
			assertThat(csv.body()).contains("1,randwrite-4k-qd32,waf.waf.number," + reported);

			System.out.printf(
					"emulated NVMe end to end: guest up in %d s, whole test %d s; %d writes counted, %d write "
							+ "commands on the drive (%d bytes); SMART DUW delta %d (x 512,000 = %d), OCP C0h PMUW "
							+ "delta %d bytes; WAF %.4f in the API, the phase result and results.csv; verdict %s%n",
					bootedS, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started), countedIos, writeCommands,
					sentBytes, hostUnits, hostUnits * BYTES_PER_DATA_UNIT, mediaBytes, reported,
					job.get("verdict").asString());
		}
		finally {
			heartbeats.shutdownNow();
			heartbeats.awaitTermination(30, TimeUnit.SECONDS);
		}
	}

	/** The runner's own heartbeat with the current time, checked against the contract. */
	private void relayHeartbeat(KafkaProducer<String, byte[]> relay, Path heartbeat) {
		try {
			ObjectNode message = (ObjectNode) this.contracts.mapper().readTree(Files.readString(heartbeat));
			message.put("time", Timestamps.format(Instant.now()));
			Validation validation = this.contracts.validate(MessageType.RUNNER_HEARTBEAT, message);
			assertThat(validation.valid()).as(validation.summary()).isTrue();
			relay
				.send(new ProducerRecord<>(this.contracts.topicCarrying(MessageType.RUNNER_HEARTBEAT).name(),
						message.get("runnerId").asString(), this.contracts.mapper().writeValueAsBytes(message)))
				.get(30, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			throw new IllegalStateException("relaying the guest runner's heartbeat", ex);
		}
	}

	private String submit(String serial, String runnerId) {
		ApiClient.Response submitted = api().post("alice", "/api/v1/qualifications", """
				{"drive":{"serial":"%s","runnerId":"%s"},
				 "plan":{"phases":[
				   {"name":"purge","kind":"purge","purgeMethod":"format-user-data"},
				   {"name":"randwrite-4k-qd32","kind":"workload","rw":"randwrite","blockSizeBytes":%d,
				    "queueDepth":%d,"rangePercent":100,"sizeBytes":%d,"smartSnapshot":true}]},
				 "criteria":[{"metric":"waf","comparator":"atMost","limit":1.01}]}
				""".formatted(serial, runnerId, BLOCK_BYTES, QUEUE_DEPTH, RANDWRITE_BYTES));
		assertThat(submitted.status()).as(String.valueOf(submitted.body())).isEqualTo(201);
		return submitted.body().get("id").asString();
	}

	private KafkaConsumer<String, byte[]> commandsConsumer() {
		KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(
				Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, RealInfrastructure.shared().kafkaBootstrapServers(),
						ConsumerConfig.GROUP_ID_CONFIG, "emulated-nvme-" + UUID.randomUUID(),
						ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
				new StringDeserializer(), new ByteArrayDeserializer());
		consumer.subscribe(List.of(this.contracts.topicCarrying(MessageType.JOB_COMMAND).name()));
		return consumer;
	}

	/**
	 * The start command the service sent the guest's runner, checked against the
	 * contract.
	 */
	private JsonNode awaitStartCommand(KafkaConsumer<String, byte[]> consumer, String runnerId, String jobId) {
		List<JsonNode> found = new ArrayList<>();
		await().atMost(Duration.ofMinutes(2)).until(() -> {
			for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(500))) {
				if (!runnerId.equals(record.key())) {
					continue;
				}
				Validation validation = this.contracts.validate(MessageType.JOB_COMMAND, record.value());
				assertThat(validation.valid()).as(validation.summary()).isTrue();
				JsonNode command = validation.message();
				if ("start".equals(command.get("type").asString()) && jobId.equals(command.get("jobId").asString())) {
					found.add(command);
				}
			}
			return !found.isEmpty();
		});
		return found.get(0);
	}

	private JsonNode awaitDrive(String runnerId) {
		await().atMost(Duration.ofSeconds(60)).until(() -> api().drivesOf(runnerId).size() == 1);
		return api().drivesOf(runnerId).get(0);
	}

	private JsonNode awaitVerdict(String jobId) {
		await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofSeconds(1)).until(() -> {
			JsonNode job = api().get("viewer", "/api/v1/qualifications/" + jobId).body();
			assertThat(job.path("state").asString()).as(jobId + ": " + job.path("message").asString())
				.isNotIn("FAILED", "CANCELLED", "INTERRUPTED");
			return job.has("verdict");
		});
		return api().get("viewer", "/api/v1/qualifications/" + jobId).body();
	}

	private static JsonNode snapshot(List<JsonNode> lines, int phaseIndex, String when) {
		return lines.stream()
			.filter((line) -> "smart-snapshot".equals(line.path("type").asString())
					&& line.path("phaseIndex").asInt() == phaseIndex && when.equals(line.path("when").asString()))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no SMART snapshot " + when + " phase " + phaseIndex))
			.get("smart");
	}

	private static long delta(JsonNode before, JsonNode after, String counter) {
		return after.get(counter).asLong() - before.get(counter).asLong();
	}

	private static JsonNode phaseCompleted(List<JsonNode> lines, int phaseIndex) {
		return lines.stream()
			.filter((line) -> "phase-completed".equals(line.path("type").asString())
					&& line.path("phaseIndex").asInt() == phaseIndex)
			.findFirst()
			.orElseThrow(() -> new AssertionError("no phase-completed for phase " + phaseIndex));
	}

	private List<JsonNode> jsonLines(Path file) throws IOException {
		List<JsonNode> lines = new ArrayList<>();
		for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
			if (!line.isBlank()) {
				lines.add(this.contracts.mapper().readTree(line));
			}
		}
		return lines;
	}

	private ApiClient api() {
		return new ApiClient("http://127.0.0.1:" + this.port);
	}

}
