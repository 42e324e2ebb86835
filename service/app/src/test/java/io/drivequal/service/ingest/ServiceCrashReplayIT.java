/*
 * Runs in its own JVM (tag "isolated"): no Spring context of another test may consume the topics,
 * or the killed processes would not be what indexes the samples.
 *
 * The real C runner's agent runs a 2000-second workload on a simulated drive, dispatched by the
 * service jar as a process; the service is killed with SIGKILL three times while that job's
 * samples stream in and are indexed. After the last restart Elasticsearch holds exactly 2000
 * documents for the job, one per second, and the job completes with an analysis of all 2000.
 * Offsets committed only after Elasticsearch acknowledged, plus deterministic ids, make crashes
 * cost time, never data.
 */
package io.drivequal.service.ingest;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.drivequal.harness.RealInfrastructure;
import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.FaultFigures;
import io.drivequal.service.it.RunnerAgents;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@Tag("isolated")
class ServiceCrashReplayIT {

	private static final int SAMPLES = 2000;

	private static final int KILLS = 3;

	@Test
	void killingTheServiceThreeTimesMidJobLosesAndDuplicatesNothingAndTheJobCompletes() throws Exception {
		RealInfrastructure infrastructure = RealInfrastructure.shared();
		String runnerId = "crash-" + UUID.randomUUID().toString().substring(0, 8);
		Path logs = Files.createDirectories(Path.of("target", "crash-replay", runnerId));
		// A private copy: a rebuild of target/*.jar must not pull classes from under
		// running processes.
		Path built = Path.of(System.getProperty("drivequal.service.jar"));
		assertThat(built).as("the packaged service jar").exists();
		Path jar = Files.copy(built, logs.resolve("service.jar"), StandardCopyOption.REPLACE_EXISTING);
		int port = freePort();
		ApiClient api = new ApiClient("http://127.0.0.1:" + port);
		Process service = startService(jar, port, infrastructure, logs.resolve("service-0.log"));
		Process agent = RunnerAgents.start(runnerId, infrastructure.kafkaBootstrapServers(),
				List.of("sim:enterprise-eager@7"));
		List<Map<String, Object>> kills = new ArrayList<>();
		try {
			awaitHealthy(api);
			String serial = api.awaitDriveSerial(runnerId);
			ApiClient.Response submitted = api.submitRandomWrite(serial, runnerId, SAMPLES);
			assertThat(submitted.status()).as(String.valueOf(submitted.body())).isEqualTo(201);
			String jobId = submitted.body().get("id").asString();
			await().atMost(Duration.ofSeconds(120)).until(() -> "RUNNING".equals(state(api, jobId)));

			long indexedAtLastKill = 0;
			for (int kill = 1; kill <= KILLS; kill++) {
				// Kill an instance that is ingesting this job: it must have indexed more
				// of
				// the job than the instance before it, else the kill would test nothing.
				long before = indexedAtLastKill;
				await().atMost(Duration.ofSeconds(180))
					.pollInterval(Duration.ofMillis(50))
					.until(() -> count(infrastructure, jobId) > before);
				indexedAtLastKill = count(infrastructure, jobId);
				String stateAtKill = state(api, jobId);
				service.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
				Map<String, Object> record = new LinkedHashMap<>();
				record.put("kill", kill);
				record.put("samplesIndexedAtKill", indexedAtLastKill);
				record.put("jobStateAtKill", stateAtKill);
				kills.add(record);
				System.out.println("killed the service (SIGKILL) with " + indexedAtLastKill + " of " + SAMPLES
						+ " samples indexed, job " + stateAtKill + "; restarting");
				service = startService(jar, port, infrastructure, logs.resolve("service-" + kill + ".log"));
				awaitHealthy(api);
			}
			await().atMost(Duration.ofMinutes(5))
				.pollInterval(Duration.ofSeconds(1))
				.until(() -> api.get("viewer", "/api/v1/qualifications/" + jobId).body().has("verdict"));
			JsonNode job = api.get("viewer", "/api/v1/qualifications/" + jobId).body();
			long documents = count(infrastructure, jobId);
			long distinctSeconds = distinctSeconds(infrastructure, jobId);
			JsonNode phase = job.get("analysis").get("phases").get(0);
			FaultFigures figures = FaultFigures.item("1", "Service killed (SIGKILL) three times mid-job")
				.put("jobId", jobId)
				.put("drive", "sim:enterprise-eager (real C runner agent)")
				.put("kills", kills)
				.put("samplesInElasticsearch", documents)
				.put("distinctSeconds", distinctSeconds)
				.put("duplicates", documents - distinctSeconds)
				.put("jobState", job.get("state").asString())
				.put("analysedSamples", phase.get("samples").asInt())
				.put("verdict", job.get("verdict").asString());
			assertThat(kills).hasSize(KILLS);
			assertThat(job.get("state").asString()).isEqualTo("COMPLETED");
			assertThat(documents).isEqualTo(SAMPLES);
			assertThat(distinctSeconds).isEqualTo(SAMPLES);
			assertThat(phase.get("samples").asInt()).isEqualTo(SAMPLES);
			assertThat(phase.get("expectedSamples").asInt()).isEqualTo(SAMPLES);
			// The runner's samples are what the stream decoder is for: a valid one that
			// took the general path instead is said in the log (SampleListener). And the
			// packaged jar's class loader must not leave Kafka's lz4 in pure Java
			// (NativeLz4).
			for (int instance = 0; instance <= KILLS; instance++) {
				assertThat(Files.readString(logs.resolve("service-" + instance + ".log")))
					.as("service-%d.log", instance)
					.contains("Started DrivequalApplication")
					.contains("lz4: Kafka decompresses with the JNI binding")
					.doesNotContain("took the general decoder");
			}
			figures.put("passed", true).write();
		}
		finally {
			service.destroy();
			service.waitFor(30, TimeUnit.SECONDS);
			agent.destroy();
			agent.waitFor(30, TimeUnit.SECONDS);
		}
	}

	private static Process startService(Path jar, int port, RealInfrastructure infrastructure, Path log)
			throws IOException {
		List<String> command = new ArrayList<>(List.of(
				Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx384m", "-jar", jar.toString(),
				"--server.port=" + port, "--server.address=127.0.0.1",
				"--spring.kafka.bootstrap-servers=" + infrastructure.kafkaBootstrapServers(),
				"--drivequal.elasticsearch.url=" + infrastructure.elasticsearchUrl(), "--drivequal.security.mode=local",
				"--drivequal.security.users[0].name=alice", "--drivequal.security.users[0].password={noop}alice-pw",
				"--drivequal.security.users[0].roles=SUBMITTER", "--drivequal.security.users[1].name=viewer",
				"--drivequal.security.users[1].password={noop}viewer-pw", "--drivequal.security.users[1].roles=VIEWER",
				// Small batches, one consumer: ingest of the job takes long enough to be
				// killed in the middle of it.
				"--spring.kafka.consumer.max-poll-records=25", "--drivequal.ingest.concurrency=1",
				// A killed member holds its partitions until its session expires; keep
				// that short.
				"--spring.kafka.consumer.properties.session.timeout.ms=6000",
				"--spring.kafka.consumer.properties.heartbeat.interval.ms=1000"));
		return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
	}

	private static void awaitHealthy(ApiClient api) {
		await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(250)).ignoreExceptions().until(() -> {
			return api.request(null, "GET", "/actuator/health", null).status() == 200;
		});
	}

	private static String state(ApiClient api, String jobId) {
		try {
			return api.get("viewer", "/api/v1/qualifications/" + jobId).body().get("state").asString();
		}
		catch (RuntimeException ex) {
			return "unknown (service unreachable)";
		}
	}

	private static long count(RealInfrastructure infrastructure, String jobId) throws Exception {
		String body = search(infrastructure, "_count?q=jobId:" + jobId, null);
		// A 503 (the month's index just created, its shard not yet assigned) counts as
		// nothing indexed yet, so the waits poll again instead of failing.
		if (!body.matches(".*\"count\":\\d+.*")) {
			return -1;
		}
		return Long.parseLong(body.replaceAll(".*\"count\":(\\d+).*", "$1"));
	}

	/**
	 * Seconds of the job present at least once: equal to the count when none is
	 * duplicated.
	 */
	private static long distinctSeconds(RealInfrastructure infrastructure, String jobId) throws Exception {
		String body = search(infrastructure, "_search?size=0", """
				{"query":{"term":{"jobId":"%s"}},
				 "aggs":{"seconds":{"cardinality":{"field":"t","precision_threshold":40000}}}}
				""".formatted(jobId));
		return Long.parseLong(body.replaceAll(".*\"seconds\":\\{\"value\":(\\d+).*", "$1"));
	}

	private static String search(RealInfrastructure infrastructure, String query, String json) throws Exception {
		HttpClient http = HttpClient.newHttpClient();
		String base = infrastructure.elasticsearchUrl();
		http.send(HttpRequest.newBuilder(URI.create(base + "/drivequal-samples-*/_refresh"))
			.POST(HttpRequest.BodyPublishers.noBody())
			.build(), HttpResponse.BodyHandlers.ofString());
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "/drivequal-samples-*/" + query));
		if (json != null) {
			request.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json));
		}
		return http.send(request.build(), HttpResponse.BodyHandlers.ofString()).body();
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
