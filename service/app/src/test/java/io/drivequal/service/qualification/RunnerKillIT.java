/*
 * Fault suite, item 4: the real C runner's agent is killed (SIGKILL) in the middle of a job. The
 * service notices the silence and marks the job INTERRUPTED within 30 s of the kill, frees the
 * drive (its lease document is gone), keeps the samples received so far queryable, and a
 * resubmission to the same drive runs to completion once an agent is back. Slow (a real 20 s
 * heartbeat timeout), so it runs in the fault suite, not in mvn verify. With no resume grace (a
 * runner that stays away longer than the grace meets the same end, only later; the resume within
 * it is item 12, RunnerOperationsIT).
 */
package io.drivequal.service.qualification;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import io.drivequal.harness.RealInfrastructure;
import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.FaultFigures;
import io.drivequal.service.it.RunnerAgents;
import io.drivequal.service.it.WithRealInfrastructure;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@Tag("fault-suite")
@WithRealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "drivequal.runners.resume-grace=0s")
class RunnerKillIT {

	@LocalServerPort
	private int port;

	@Autowired
	private ElasticsearchClient elasticsearch;

	@Test
	void aKilledRunnersJobIsInterruptedWithin30sTheDriveIsFreedAndAResubmissionRuns() throws Exception {
		String runnerId = "kill-" + UUID.randomUUID().toString().substring(0, 8);
		String brokers = RealInfrastructure.shared().kafkaBootstrapServers();
		Process agent = RunnerAgents.start(runnerId, brokers, List.of("null:1g"));
		Process second = null;
		try {
			String serial = api().awaitDriveSerial(runnerId);
			String jobId = submit(serial, runnerId, 600);
			await().atMost(Duration.ofSeconds(60)).until(() -> "RUNNING".equals(job(jobId).get("state").asString()));
			await().atMost(Duration.ofSeconds(60)).until(() -> samples(jobId) >= 10);
			assertThat(this.elasticsearch.exists((e) -> e.index("drivequal-drive-leases").id(serial)).value())
				.as("the running job holds the drive's lease")
				.isTrue();

			Instant killedAt = Instant.now();
			RunnerAgents.kill(agent);
			await().atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(250))
				.until(() -> "INTERRUPTED".equals(job(jobId).get("state").asString()));
			Duration detection = Duration.between(killedAt, Instant.now());
			JsonNode interrupted = job(jobId);
			boolean leaseGone = !this.elasticsearch.exists((e) -> e.index("drivequal-drive-leases").id(serial)).value();
			int partialSamples = samples(jobId);

			second = RunnerAgents.start(runnerId, brokers, List.of("null:1g"));
			Instant resubmittedAt = Instant.now();
			String again = submit(serial, runnerId, 5);
			await().atMost(Duration.ofSeconds(120))
				.pollInterval(Duration.ofMillis(500))
				.until(() -> "COMPLETED".equals(job(again).get("state").asString()));
			Duration resubmission = Duration.between(resubmittedAt, Instant.now());

			FaultFigures figures = FaultFigures.item("4", "Runner killed (SIGKILL) mid-job")
				.put("jobId", jobId)
				.put("interruptedAfterKillMs", detection.toMillis())
				.put("failureReason", interrupted.path("failureReason").asString())
				.put("driveLeaseReleased", leaseGone)
				.put("partialSamplesQueryable", partialSamples)
				.put("resubmissionState", "COMPLETED")
				.put("resubmissionCompletedAfterMs", resubmission.toMillis());
			assertThat(detection).isLessThan(Duration.ofSeconds(30));
			assertThat(interrupted.path("failureReason").asString()).isEqualTo("runner-lost");
			assertThat(leaseGone).isTrue();
			assertThat(partialSamples).isGreaterThanOrEqualTo(10);
			figures.put("passed", true).write();
		}
		finally {
			for (Process process : new Process[] { agent, second }) {
				if (process != null) {
					process.destroy();
					process.waitFor(30, TimeUnit.SECONDS);
				}
			}
		}
	}

	private String submit(String serial, String runnerId, int runtimeS) {
		ApiClient.Response submitted = api().post("alice", "/api/v1/qualifications", """
				{"drive":{"serial":"%s","runnerId":"%s"},
				 "plan":{"phases":[{"name":"randwrite","kind":"workload","rw":"randwrite","blockSizeBytes":4096,
				                    "queueDepth":8,"rangePercent":100,"runtimeS":%d}]}}
				""".formatted(serial, runnerId, runtimeS));
		assertThat(submitted.status()).as(String.valueOf(submitted.body())).isEqualTo(201);
		return submitted.body().get("id").asString();
	}

	/** Samples of the job the API returns (all phases, one page of up to 10000). */
	private int samples(String jobId) {
		return api().get("viewer", "/api/v1/qualifications/" + jobId + "/samples?limit=10000")
			.body()
			.get("items")
			.size();
	}

	private JsonNode job(String jobId) {
		return api().get("viewer", "/api/v1/qualifications/" + jobId).body();
	}

	private ApiClient api() {
		return new ApiClient("http://127.0.0.1:" + this.port);
	}

}
