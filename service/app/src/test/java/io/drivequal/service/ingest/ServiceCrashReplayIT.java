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

import java.nio.file.Files;
import java.nio.file.Path;
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
import io.drivequal.service.it.ServiceJar;
import io.drivequal.service.it.StoredSamples;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@Tag("isolated")
class ServiceCrashReplayIT {

	private static final int SAMPLES = 2000;

	private static final int KILLS = 3;

	private static final List<String> USERS = List.of("alice:SUBMITTER", "viewer:VIEWER");

	private static final List<String> PROPERTIES = List.of(
			// Small batches, one consumer: ingest of the job takes long enough to be
			// killed in the middle of it.
			"--spring.kafka.consumer.max-poll-records=25", "--drivequal.ingest.concurrency=1",
			// A killed member holds its partitions until its session expires; keep that
			// short.
			"--spring.kafka.consumer.properties.session.timeout.ms=6000",
			"--spring.kafka.consumer.properties.heartbeat.interval.ms=1000");

	@Test
	void killingTheServiceThreeTimesMidJobLosesAndDuplicatesNothingAndTheJobCompletes() throws Exception {
		RealInfrastructure infrastructure = RealInfrastructure.shared();
		String runnerId = "crash-" + UUID.randomUUID().toString().substring(0, 8);
		Path logs = Files.createDirectories(Path.of("target", "crash-replay", runnerId));
		Path jar = ServiceJar.copy(logs);
		int port = ServiceJar.freePort();
		ApiClient api = new ApiClient("http://127.0.0.1:" + port);
		Process service = ServiceJar.start(jar, port, infrastructure, logs.resolve("service-0.log"), USERS, PROPERTIES);
		Process agent = RunnerAgents.start(runnerId, infrastructure.kafkaBootstrapServers(),
				List.of("sim:enterprise-eager@7"));
		List<Map<String, Object>> kills = new ArrayList<>();
		try {
			ServiceJar.awaitHealthy(api);
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
					.until(() -> StoredSamples.count(infrastructure, jobId) > before);
				indexedAtLastKill = StoredSamples.count(infrastructure, jobId);
				String stateAtKill = state(api, jobId);
				service.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
				Map<String, Object> record = new LinkedHashMap<>();
				record.put("kill", kill);
				record.put("samplesIndexedAtKill", indexedAtLastKill);
				record.put("jobStateAtKill", stateAtKill);
				kills.add(record);
				System.out.println("killed the service (SIGKILL) with " + indexedAtLastKill + " of " + SAMPLES
						+ " samples indexed, job " + stateAtKill + "; restarting");
				service = ServiceJar.start(jar, port, infrastructure, logs.resolve("service-" + kill + ".log"), USERS,
						PROPERTIES);
				ServiceJar.awaitHealthy(api);
			}
			await().atMost(Duration.ofMinutes(5))
				.pollInterval(Duration.ofSeconds(1))
				.until(() -> api.get("viewer", "/api/v1/qualifications/" + jobId).body().has("verdict"));
			JsonNode job = api.get("viewer", "/api/v1/qualifications/" + jobId).body();
			long documents = StoredSamples.count(infrastructure, jobId);
			long distinctSeconds = StoredSamples.distinctSeconds(infrastructure, jobId);
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

	private static String state(ApiClient api, String jobId) {
		try {
			return api.get("viewer", "/api/v1/qualifications/" + jobId).body().get("state").asString();
		}
		catch (RuntimeException ex) {
			return "unknown (service unreachable)";
		}
	}

}
