/*
 * An NVMe controller's own logs, end to end: the runner inside a QEMU guest reports the emulated
 * drive (heartbeat), the service dispatches qualifications to it (each start command crosses into
 * the guest as a file: it has no network), the runner runs them through the kernel's NVMe path,
 * reading the drive's health as it goes, and its samples and events come back by
 * `drivequal-runner replay` to the real Kafka broker, into the real Elasticsearch node, through the
 * analysis to the API and the report export. One boot, two jobs:
 * - WAF: Format NVM, then 256 MiB of 4 KiB random writes at QD32 with SMART 02h and OCP C0h
 *   snapshots. An emulated drive writes each host byte once to its media, so the WAF must come out
 *   1.00, computed from the counters the controller returned; the drive raises no critical warning
 *   and the criterion on it passes.
 * - Health: the test then raises a critical warning bit on the running controller through QEMU's
 *   monitor (as a drive whose reliability degrades would) and a second job must fail
 *   `criticalWarning atMost 0` on what the runner's health poller read.
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
import io.drivequal.service.ingest.HealthReading;
import io.drivequal.service.ingest.PhaseResult;
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

	/** The second job only needs a few health readings. */
	private static final long WARNED_RANDWRITE_BYTES = 16L * 1024 * 1024;

	/** NVMe critical warning bit 2: NVM subsystem reliability degraded. */
	private static final int RELIABILITY_DEGRADED = 0x04;

	/**
	 * QEMU's emulated controller: a fixed composite temperature and the warning and
	 * critical composite temperatures it declares in Identify (WCTEMP, CCTEMP).
	 */
	private static final int QEMU_TEMPERATURE_K = 323;

	private static final int QEMU_WCTEMP_K = 343;

	private static final int QEMU_CCTEMP_K = 373;

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
	void theControllersLogsGiveWafOneAndItsCriticalWarningFailsAJob() throws Exception {
		EmulatedNvmeGuest.assumeReady();
		String runnerId = "guest-" + UUID.randomUUID().toString().substring(0, 8);
		Path dir = Path.of(System.getProperty("drivequal.it.dir", "target/it-infra"))
			.resolveSibling("emulated-nvme")
			.resolve(runnerId);
		long started = System.nanoTime();
		ScheduledExecutorService heartbeats = Executors.newSingleThreadScheduledExecutor();
		try (EmulatedNvmeGuest guest = EmulatedNvmeGuest.startMailbox(dir, runnerId, 2);
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
			// or of another cached in the JVM) takes the runner for lost.
			heartbeats.scheduleAtFixedRate(() -> relayHeartbeat(relay, heartbeat), 0, 5, TimeUnit.SECONDS);
			JsonNode drive = awaitDrive(runnerId);
			assertThat(drive.get("drive").get("model").asString()).isEqualTo("QEMU NVMe Ctrl");
			assertThat(drive.get("drive").get("allowlisted").asBoolean()).isTrue();
			assertThat(drive.get("runnerAlive").asBoolean()).isTrue();
			String serial = drive.get("drive").get("serial").asString();

			String waf = wafFromTheControllersLogsIsOne(guest, commands, serial, runnerId);
			long wafDoneS = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
			String warning = anInjectedCriticalWarningFailsTheJob(guest, commands, serial, runnerId);
			assertThat(guest.awaitExit(GUEST_STEP)).as("guest exit status").isZero();
			System.out.printf(
					"emulated NVMe end to end: guest up in %d s, WAF job done at %d s, whole test %d s%n"
							+ "  %s%n  %s%n",
					bootedS, wafDoneS, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started), waf, warning);
		}
		finally {
			heartbeats.shutdownNow();
			heartbeats.awaitTermination(30, TimeUnit.SECONDS);
		}
	}

	/** The first job: WAF from the controller's logs, and no critical warning. */
	private String wafFromTheControllersLogsIsOne(EmulatedNvmeGuest guest, KafkaConsumer<String, byte[]> commands,
			String serial, String runnerId) throws Exception {
		String jobId = submit(serial, runnerId, """
				{"phases":[
				   {"name":"purge","kind":"purge","purgeMethod":"format-user-data"},
				   {"name":"randwrite-4k-qd32","kind":"workload","rw":"randwrite","blockSizeBytes":%d,
				    "queueDepth":%d,"rangePercent":100,"sizeBytes":%d,"smartSnapshot":true}]}
				""".formatted(BLOCK_BYTES, QUEUE_DEPTH, RANDWRITE_BYTES), """
				[{"metric":"waf","comparator":"atMost","limit":1.01},
				 {"metric":"criticalWarning","comparator":"atMost","limit":0}]""");
		List<JsonNode> lines = runInTheGuest(guest, commands, runnerId, jobId, 1);
		JsonNode before = snapshot(lines, 1, "before");
		JsonNode after = snapshot(lines, 1, "after");
		long hostUnits = delta(before, after, "dataUnitsWritten");
		long writeCommands = delta(before, after, "hostWriteCommands");
		long mediaBytes = after.get("ocp").get("physicalMediaUnitsWrittenBytes").asLong()
				- before.get("ocp").get("physicalMediaUnitsWrittenBytes").asLong();
		long countedIos = phaseCompleted(lines, 1).get("write").get("ios").asLong();
		// A phase counts every IO it wrote (a timed one too, the IOs it drains at its
		// end included): the drive's own write command count must be the same. The
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
		assertThat(criterion(job, "WAF").get("outcome").asString()).isEqualTo("PASS");
		assertThat(criterion(job, "CRITICAL_WARNING").get("outcome").asString()).isEqualTo("PASS");
		assertThat(job.get("verdict").asString()).isEqualTo("PASS");

		Map<String, Object> result = this.elasticsearch
			.get((get) -> get.index(PhaseResult.INDEX).id(jobId + "/1"), Map.class)
			.source();
		assertThat(result).extractingByKey("waf")
			.asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
			.containsEntry("ratio", reported);
		ApiClient.RawResponse csv = api().request("viewer", "GET", "/api/v1/qualifications/" + jobId + "/results.csv",
				null);
		assertThat(csv.body()).contains("1,randwrite-4k-qd32,waf.waf.number," + reported);
		List<JsonNode> readings = healthReadings(jobId, 0);
		return String.format(java.util.Locale.ROOT,
				"WAF job %s: %d writes counted, %d write commands on the drive (%d bytes); SMART DUW delta %d "
						+ "(x 512,000 = %d), OCP C0h PMUW delta %d bytes; WAF %.4f in the API, the phase result and "
						+ "results.csv; %d health readings in Elasticsearch, %d K, critical warning 0; verdict %s",
				jobId, countedIos, writeCommands, sentBytes, hostUnits, hostUnits * BYTES_PER_DATA_UNIT, mediaBytes,
				reported, readings.size(), QEMU_TEMPERATURE_K, job.get("verdict").asString());
	}

	/**
	 * The second job: the controller reports a critical warning, the health poller reads
	 * it and the verdict fails on it.
	 */
	private String anInjectedCriticalWarningFailsTheJob(EmulatedNvmeGuest guest, KafkaConsumer<String, byte[]> commands,
			String serial, String runnerId) throws Exception {
		assertThat(guest.setCriticalWarning(RELIABILITY_DEGRADED)).isEqualTo(RELIABILITY_DEGRADED);
		String jobId = submit(serial, runnerId, """
				{"phases":[
				   {"name":"randwrite-warned","kind":"workload","rw":"randwrite","blockSizeBytes":%d,
				    "queueDepth":%d,"rangePercent":100,"sizeBytes":%d}]}
				""".formatted(BLOCK_BYTES, QUEUE_DEPTH, WARNED_RANDWRITE_BYTES), """
				[{"metric":"criticalWarning","comparator":"atMost","limit":0}]""");
		runInTheGuest(guest, commands, runnerId, jobId, 2);
		JsonNode job = awaitVerdict(jobId);
		List<JsonNode> readings = healthReadings(jobId, RELIABILITY_DEGRADED);
		JsonNode criterion = criterion(job, "CRITICAL_WARNING");
		assertThat(criterion.get("measured").asInt()).isEqualTo(RELIABILITY_DEGRADED);
		assertThat(criterion.get("outcome").asString()).isEqualTo("FAIL");
		assertThat(job.get("verdict").asString()).isEqualTo("FAIL");
		return String.format(java.util.Locale.ROOT,
				"warned job %s: critical warning 0x%02x set over QMP; %d health readings in Elasticsearch, each "
						+ "with it; criticalWarning measured %d, outcome %s; verdict %s",
				jobId, RELIABILITY_DEGRADED, readings.size(), criterion.get("measured").asInt(),
				criterion.get("outcome").asString(), job.get("verdict").asString());
	}

	/**
	 * Hands the job's start command to the guest, waits for the runner there to finish it
	 * and replays its output; returns its lines.
	 */
	private List<JsonNode> runInTheGuest(EmulatedNvmeGuest guest, KafkaConsumer<String, byte[]> commands,
			String runnerId, String jobId, int number) throws Exception {
		JsonNode command = awaitStartCommand(commands, runnerId, jobId);
		guest.deliver("command-" + number + ".json", this.contracts.mapper().writeValueAsBytes(command));
		Path status = guest.awaitFile("job-" + number + ".status", GUEST_STEP);
		assertThat(Files.readString(status).strip())
			.as("the runner's exit status in the guest; see " + guest.dir().resolve("job-" + number + ".err"))
			.isEqualTo("0");
		Path results = guest.dir().resolve("job-" + number + ".jsonl");
		List<JsonNode> lines = jsonLines(results);
		assertThat(RunnerReplay.replay(results)).contains("\"delivered\":" + lines.size());
		return lines;
	}

	/**
	 * The job's health readings through the API, each one in Elasticsearch: read from the
	 * controller's 02h log with QEMU's temperatures and the expected warning bits.
	 */
	private List<JsonNode> healthReadings(String jobId, int criticalWarning) throws IOException {
		List<JsonNode> readings = new ArrayList<>();
		api().get("viewer", "/api/v1/qualifications/" + jobId + "/health").body().forEach(readings::add);
		long indexed = this.elasticsearch.count((count) -> count.index(HealthReading.INDEX)
			.query((q) -> q.bool((b) -> b.filter((f) -> f.term((t) -> t.field("jobId").value(jobId)))
				.filter((f) -> f.term((t) -> t.field("criticalWarning").value(criticalWarning))))))
			.count();
		// at the start of each IO phase and at the end of the job, at least
		assertThat(readings).hasSizeGreaterThanOrEqualTo(2);
		assertThat(indexed).isEqualTo(readings.size());
		assertThat(readings).allSatisfy((reading) -> {
			assertThat(reading.get("available").asBoolean()).as(reading.toString()).isTrue();
			assertThat(reading.get("source").asString()).isEqualTo("nvme-log-02h");
			assertThat(reading.get("criticalWarning").asInt()).isEqualTo(criticalWarning);
			assertThat(reading.get("temperatureK").asInt()).isEqualTo(QEMU_TEMPERATURE_K);
			assertThat(reading.get("warningTemperatureThresholdK").asInt()).isEqualTo(QEMU_WCTEMP_K);
			assertThat(reading.get("criticalTemperatureThresholdK").asInt()).isEqualTo(QEMU_CCTEMP_K);
		});
		return readings;
	}

	private static JsonNode criterion(JsonNode job, String metric) {
		for (JsonNode criterion : job.get("analysis").get("verdict").get("criteria")) {
			if (metric.equals(criterion.get("criterion").get("metric").asString())) {
				return criterion;
			}
		}
		throw new AssertionError("no " + metric + " criterion in " + job.get("analysis").get("verdict"));
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

	private String submit(String serial, String runnerId, String plan, String criteria) {
		ApiClient.Response submitted = api().post("alice", "/api/v1/qualifications", """
				{"drive":{"serial":"%s","runnerId":"%s"},"plan":%s,"criteria":%s}
				""".formatted(serial, runnerId, plan, criteria));
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

	/**
	 * The guest's drive, once listed with its runner alive: the first heartbeat is the
	 * guest's own, stamped by the guest's clock; the relayed ones, stamped now, follow
	 * within seconds.
	 */
	private JsonNode awaitDrive(String runnerId) {
		await().atMost(Duration.ofSeconds(60))
			.until(() -> api().drivesOf(runnerId).stream().anyMatch((drive) -> drive.get("runnerAlive").asBoolean()));
		List<JsonNode> drives = api().drivesOf(runnerId);
		assertThat(drives).hasSize(1);
		return drives.get(0);
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
