/*
 * Fault suite, item 9: load on loopback. 200 concurrent API clients (wrk, 60 s; reads plus one
 * idempotent submission in ten) while 50 simulated runners each heartbeat and stream one sample
 * per second. Reports wrk's latency percentiles and error rate, and the service consumers' lag
 * sampled every 5 s: the lag must not grow over the run and must drain once the load stops.
 */
package io.drivequal.service.qualification;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.drivequal.harness.RealInfrastructure;
import io.drivequal.schemas.Contracts;
import io.drivequal.schemas.MessageType;
import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.ConsumerGroups;
import io.drivequal.service.it.FaultFigures;
import io.drivequal.service.it.WithRealInfrastructure;
import io.drivequal.service.platform.Timestamps;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@Tag("fault-suite")
@WithRealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class LoadIT {

	private static final int RUNNERS = 50;

	private static final int CONNECTIONS = 200;

	private static final int SECONDS = 60;

	private static final Map<String, String> GROUPS = Map.of("drivequal-service-samples", "drivequal.samples",
			"drivequal-service-heartbeats", "drivequal.runner-heartbeats");

	@LocalServerPort
	private int port;

	@Test
	void twoHundredClientsAndFiftyRunnersAtOnce() throws Exception {
		String brokers = RealInfrastructure.shared().kafkaBootstrapServers();
		Contracts contracts = Contracts.load();
		Path dir = Files
			.createDirectories(Path.of(System.getProperty("drivequal.fault.dir", "target/fault-suite"), "load"));
		String run = Long.toString(System.currentTimeMillis() % 100000);
		AtomicLong sent = new AtomicLong();
		ScheduledExecutorService runners = Executors.newScheduledThreadPool(4);
		List<Map<String, Object>> lag = new ArrayList<>();
		try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
				Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers, ProducerConfig.ACKS_CONFIG, "all",
						ProducerConfig.LINGER_MS_CONFIG, 5),
				new StringSerializer(), new ByteArraySerializer());
				Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, brokers))) {
			String loadAverageAtStart = loadAverage();
			long start = System.currentTimeMillis();
			for (int r = 0; r < RUNNERS; r++) {
				String runnerId = "load-" + run + "-" + r;
				String serial = "LOAD-" + run + "-" + r;
				String jobId = "load-job-" + run + "-" + r;
				AtomicLong second = new AtomicLong();
				runners.scheduleAtFixedRate(() -> {
					long t = second.incrementAndGet();
					producer.send(new ProducerRecord<>("drivequal.runner-heartbeats", runnerId,
							checked(contracts, MessageType.RUNNER_HEARTBEAT, heartbeat(runnerId, serial))));
					producer.send(new ProducerRecord<>("drivequal.samples", jobId,
							checked(contracts, MessageType.SAMPLE, sample(jobId, runnerId, serial, t, start))));
					sent.addAndGet(2);
				}, r * 20L, 1000, TimeUnit.MILLISECONDS);
			}
			String serial = "LOAD-" + run + "-0";
			await().atMost(Duration.ofSeconds(60))
				.until(() -> api().get("viewer", "/api/v1/drives/" + serial).status() == 200);

			Path report = dir.resolve("wrk.json");
			var environment = new HashMap<String, String>();
			environment.put("WRK_BASIC",
					Base64.getEncoder().encodeToString("admin:admin-pw".getBytes(StandardCharsets.UTF_8)));
			ProcessBuilder builder = new ProcessBuilder("wrk", "-t2", "-c" + CONNECTIONS, "-d" + SECONDS + "s",
					"--timeout", "10s", "-s", Path.of("src/test/resources/fault/load.lua").toAbsolutePath().toString(),
					"http://127.0.0.1:" + this.port)
				.redirectErrorStream(true)
				.redirectOutput(dir.resolve("wrk.log").toFile());
			builder.environment().putAll(environment);
			builder.environment().put("WRK_SERIAL", serial);
			builder.environment().put("WRK_REPORT", report.toString());
			Instant loadStart = Instant.now();
			Process wrk = builder.start();
			while (wrk.isAlive()) {
				lag.add(lagSample(admin, loadStart));
				wrk.waitFor(5, TimeUnit.SECONDS);
			}
			lag.add(lagSample(admin, loadStart));
			runners.shutdownNow();
			runners.awaitTermination(10, TimeUnit.SECONDS);
			producer.flush();
			long stoppedAt = System.nanoTime();
			await().atMost(Duration.ofSeconds(120))
				.pollInterval(Duration.ofSeconds(1))
				.until(() -> totalLag(admin) == 0);
			long drainMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stoppedAt);

			assertThat(wrk.exitValue()).as("wrk; see " + dir.resolve("wrk.log")).isZero();
			JsonNode figuresOfWrk = JsonMapper.builder().build().readTree(Files.readString(report));
			long requests = figuresOfWrk.get("requests").asLong();
			long errors = figuresOfWrk.get("non2xx3xx").asLong() + figuresOfWrk.get("connectErrors").asLong()
					+ figuresOfWrk.get("readErrors").asLong() + figuresOfWrk.get("writeErrors").asLong()
					+ figuresOfWrk.get("timeouts").asLong();
			int half = lag.size() / 2;
			long firstHalfMax = lag.subList(0, half).stream().mapToLong((s) -> (long) s.get("total")).max().orElse(0);
			long secondHalfMax = lag.subList(half, lag.size())
				.stream()
				.mapToLong((s) -> (long) s.get("total"))
				.max()
				.orElse(0);
			FaultFigures figures = FaultFigures.item("9", "Load: 200 API clients and 50 runners at once")
				.put("connections", CONNECTIONS)
				.put("durationS", SECONDS)
				.put("requests", requests)
				.put("requestsPerSecond", Math.round(requests * 1e6 / figuresOfWrk.get("durationUs").asDouble()))
				.put("latencyP50Ms", figuresOfWrk.get("latencyP50Us").asDouble() / 1000)
				.put("latencyP99Ms", figuresOfWrk.get("latencyP99Us").asDouble() / 1000)
				.put("latencyP999Ms", figuresOfWrk.get("latencyP999Us").asDouble() / 1000)
				.put("latencyMaxMs", figuresOfWrk.get("latencyMaxUs").asDouble() / 1000)
				.put("errors", errors)
				.put("errorRatePercent", (requests == 0) ? 0 : 100.0 * errors / requests)
				.put("runners", RUNNERS)
				.put("runnerMessagesSent", sent.get())
				.put("lagFirstHalfMax", firstHalfMax)
				.put("lagSecondHalfMax", secondHalfMax)
				.put("lagDrainedAfterLoadMs", drainMs)
				.put("lagSamples", lag)
				.put("machineLoadAverage1mAtStart", loadAverageAtStart)
				.put("machineLoadAverage1mAtEnd", loadAverage());
			figures.write();
			assertThat(requests).isPositive();
			// Reported, and bounded: a loaded loopback may time a request out, it may not
			// fail them in numbers.
			assertThat(100.0 * errors / requests).as("error rate %").isLessThan(1.0);
			// No growth: the lag late in the run stays within what it was early on, plus
			// one
			// second of the runners' output.
			assertThat(secondHalfMax).as("consumer lag, second half vs first half of the run")
				.isLessThanOrEqualTo(firstHalfMax + 2L * RUNNERS);
			figures.put("passed", true).write();
		}
		finally {
			runners.shutdownNow();
		}
	}

	/** The machine's 1-minute load average: the figures mean little on a busy machine. */
	private static String loadAverage() {
		try {
			return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
		}
		catch (Exception ex) {
			return "unknown";
		}
	}

	private static Map<String, Object> lagSample(Admin admin, Instant start) throws Exception {
		Map<String, Object> sample = new LinkedHashMap<>();
		sample.put("atS", Duration.between(start, Instant.now()).toSeconds());
		long total = 0;
		for (Map.Entry<String, String> group : GROUPS.entrySet()) {
			long lag = ConsumerGroups.lag(admin, group.getKey(), group.getValue());
			sample.put(group.getValue(), lag);
			total += lag;
		}
		sample.put("total", total);
		return sample;
	}

	private static long totalLag(Admin admin) throws Exception {
		long total = 0;
		for (Map.Entry<String, String> group : GROUPS.entrySet()) {
			total += ConsumerGroups.lag(admin, group.getKey(), group.getValue());
		}
		return total;
	}

	private static byte[] checked(Contracts contracts, MessageType type, String json) {
		byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
		var validation = contracts.validate(type, bytes);
		if (!validation.valid()) {
			throw new AssertionError("invalid " + type.id() + ": " + validation.summary());
		}
		return bytes;
	}

	private static String heartbeat(String runnerId, String serial) {
		return ("{\"schemaVersion\":1,\"runnerId\":\"%s\",\"time\":\"%s\",\"intervalMs\":1000,"
				+ "\"runnerVersion\":\"load\",\"engines\":[\"sim\"],\"devices\":[{\"device\":{\"serial\":\"%s\","
				+ "\"model\":\"drivequal sim enterprise-eager\",\"firmware\":\"SIM1.0\",\"capacityBytes\":17179869184,"
				+ "\"lbaSizeBytes\":4096,\"engine\":\"sim\",\"transportAddress\":\"sim:enterprise-eager\"},"
				+ "\"allowlisted\":true,\"state\":\"idle\"}],\"activeJobs\":[]}")
			.formatted(runnerId, Timestamps.format(Instant.now()), serial);
	}

	private static String sample(String jobId, String runnerId, String serial, long t, long startMs) {
		return ("{\"schemaVersion\":1,\"jobId\":\"%s\",\"runnerId\":\"%s\",\"deviceSerial\":\"%s\",\"phaseIndex\":0,"
				+ "\"phaseName\":\"randwrite\",\"t\":%d,\"timeMs\":%d,\"read\":{\"ios\":0,\"bytes\":0},"
				+ "\"write\":{\"ios\":50000,\"bytes\":204800000,\"latencyNs\":{\"p50\":600000,\"p99\":900000,"
				+ "\"p999\":1500000,\"max\":4000000}}}")
			.formatted(jobId, runnerId, serial, t, startMs + t * 1000);
	}

	private ApiClient api() {
		return new ApiClient("http://127.0.0.1:" + this.port);
	}

}
