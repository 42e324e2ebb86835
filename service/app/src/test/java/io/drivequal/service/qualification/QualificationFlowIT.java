/*
 * The job lifecycle on real processes (Kafka broker, Elasticsearch node, the service over HTTP): a
 * submitted job reaches its runner and completes on its events; a runner that goes silent loses its
 * job; and two service replicas never dispatch a job twice or put two jobs on one drive.
 */
package io.drivequal.service.qualification;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.drivequal.harness.RealInfrastructure;
import io.drivequal.service.DrivequalApplication;
import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.RunnerStandIn;
import io.drivequal.service.it.WithRealInfrastructure;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@WithRealInfrastructure
// No resume grace: a silent runner's RUNNING job is INTERRUPTED after the heartbeat
// timeout (the
// grace's own behaviour is RunnerOperationsIT's, item 12).
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "drivequal.runners.resume-grace=0s")
class QualificationFlowIT {

	@LocalServerPort
	private int port;

	private ApiClient api() {
		return new ApiClient("http://127.0.0.1:" + this.port);
	}

	@Test
	void aSubmittedJobReachesItsRunnerAndCompletesOnItsEvents() {
		String serial = "IT-" + shortId();
		try (RunnerStandIn runner = new RunnerStandIn(RealInfrastructure.shared().kafkaBootstrapServers(),
				"runner-" + shortId())) {
			runner.heartbeat(List.of(serial));
			awaitDriveKnown(serial);

			ApiClient.Response submitted = api().post("alice", "/api/v1/qualifications", shortJob(serial));
			assertThat(submitted.status()).as(String.valueOf(submitted.body())).isEqualTo(201);
			String jobId = submitted.body().get("id").asString();
			assertThat(submitted.location()).isEqualTo("/api/v1/qualifications/" + jobId);

			JsonNode start = awaitStart(runner, jobId);
			assertThat(start.get("device").get("serial").asString()).isEqualTo(serial);
			assertThat(start.get("phases").get(0).get("runtimeS").asInt()).isEqualTo(3);
			assertThat(state(jobId)).isEqualTo("DISPATCHED");

			runner.accepted(jobId, serial, 1);
			runner.phaseStarted(jobId, 0, "randwrite");
			awaitState(jobId, "RUNNING");
			runner.samples(jobId, serial, 0, "randwrite", 3);
			// A running job's progress in a listing is the detail's (one search per page,
			// not one per job): 2 of its 3 s indexed gives 66.7%.
			await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
				double detail = api().get("viewer", "/api/v1/qualifications/" + jobId)
					.body()
					.get("progressPercent")
					.asDouble();
				JsonNode listed = api().get("viewer", "/api/v1/qualifications?serial=" + serial).body().get("items");
				assertThat(listed.size()).isEqualTo(1);
				assertThat(detail).isEqualTo(66.7);
				assertThat(listed.get(0).get("progressPercent").asDouble()).isEqualTo(detail);
			});
			runner.phaseCompleted(jobId, 0, "randwrite", 3);
			runner.completed(jobId);
			awaitState(jobId, "COMPLETED");

			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> assertThat(
						api().get("viewer", "/api/v1/qualifications/" + jobId + "/samples").body().get("items").size())
					.isEqualTo(3));
			// The analysis follows once every reported sample is indexed: 3 s never reach
			// steady
			// state, so the consistency criterion cannot be judged.
			await().atMost(Duration.ofSeconds(60))
				.until(() -> api().get("viewer", "/api/v1/qualifications/" + jobId).body().has("verdict"));
			JsonNode job = api().get("viewer", "/api/v1/qualifications/" + jobId).body();
			assertThat(job.get("verdict").asString()).isEqualTo("INCONCLUSIVE");
			JsonNode phase = job.get("analysis").get("phases").get(0);
			assertThat(phase.get("samples").asInt()).isEqualTo(3);
			assertThat(phase.get("expectedSamples").asInt()).isEqualTo(3);
			assertThat(phase.get("iops").get("steadyState").get("reached").asBoolean()).isFalse();
			assertThat(job.get("progressPercent").asDouble()).isEqualTo(100.0);
			assertThat(job.get("drive").get("model").asString()).isEqualTo("drivequal sim enterprise-eager");

			// The drive is free again: the next job for it is dispatched.
			String next = api().post("alice", "/api/v1/qualifications", shortJob(serial)).body().get("id").asString();
			runner.heartbeat(List.of(serial));
			awaitStart(runner, next);
		}
	}

	/**
	 * A bad W, an unknown criteria set or a set for another profile is a 400 problem
	 * naming the field, and leaves no job behind; a good one is stored and judged as
	 * given.
	 */
	@Test
	void badAnalysisSettingsOrCriteriaSetsAre400sThatCreateNothing() {
		String serial = "IT-" + shortId();
		try (RunnerStandIn runner = new RunnerStandIn(RealInfrastructure.shared().kafkaBootstrapServers(),
				"runner-" + shortId())) {
			runner.heartbeat(List.of(serial));
			awaitDriveKnown(serial);
			String[][] refused = {
					{ "\"plan\":{\"profile\":\"consistency-2000s\",\"analysis\":{\"rangeWritesRequired\":-1}}",
							"plan.analysis.rangeWritesRequired" },
					{ "\"plan\":{\"profile\":\"consistency-2000s\",\"analysis\":{\"rangeWritesRequired\":1e999}}",
							"plan.analysis.rangeWritesRequired" },
					{ "\"plan\":{\"profile\":\"consistency-2000s\"},\"criteriaSet\":\"ocp-qos\"", "criteriaSet" },
					{ "\"plan\":{\"profile\":\"consistency-2000s\"},\"criteriaSet\":\"intel-optane-p4800x-qd1\"",
							"criteriaSet" } };
			for (String[] request : refused) {
				ApiClient.Response answer = api().post("alice", "/api/v1/qualifications",
						"{\"drive\":{\"serial\":\"%s\"},%s}".formatted(serial, request[0]));
				assertThat(answer.status()).as(request[0]).isEqualTo(400);
				assertThat(answer.body().get("errors").get(0).get("field").asString()).as(request[0])
					.isEqualTo(request[1]);
				System.out.println("refused: " + answer.body().get("detail").asString());
			}
			assertThat(api().get("viewer", "/api/v1/qualifications?serial=" + serial).body().get("total").asLong())
				.as("jobs after the refused submissions")
				.isZero();

			ApiClient.Response accepted = api().post("alice", "/api/v1/qualifications",
					"""
							{"drive":{"serial":"%s"},"plan":{"profile":"consistency-2000s","analysis":{"rangeWritesRequired":2}},
							 "criteriaSet":"snia-steady-state",
							 "criteria":[{"metric":"waf","comparator":"atMost","limit":3}]}
							"""
						.formatted(serial));
			assertThat(accepted.status()).as(String.valueOf(accepted.body())).isEqualTo(201);
			JsonNode job = api().get("viewer", "/api/v1/qualifications/" + accepted.body().get("id").asString()).body();
			assertThat(job.get("criteriaSet").asString()).isEqualTo("snia-steady-state");
			assertThat(job.get("analysisSettings").get("rangeWritesRequired").asDouble()).isEqualTo(2.0);
			assertThat(job.get("criteria")).hasSize(2);
			assertThat(job.get("criteria").get(0).get("metric").asString()).isEqualTo("steadyStateReached");
			assertThat(job.get("criteria").get(1).get("metric").asString()).isEqualTo("waf");
		}
	}

	@Test
	void aRunnerThatGoesSilentLosesItsJobAndTheDriveIsFreed() {
		String serial = "IT-" + shortId();
		try (RunnerStandIn runner = new RunnerStandIn(RealInfrastructure.shared().kafkaBootstrapServers(),
				"runner-" + shortId())) {
			runner.heartbeat(List.of(serial));
			awaitDriveKnown(serial);
			String jobId = api().post("alice", "/api/v1/qualifications", shortJob(serial)).body().get("id").asString();
			awaitStart(runner, jobId);
			runner.accepted(jobId, serial, 1);
			runner.heartbeat(List.of(serial));
			Instant lastHeartbeat = Instant.now();
			awaitState(jobId, "RUNNING");

			// Silence: no more heartbeats.
			await().atMost(Duration.ofSeconds(40))
				.pollInterval(Duration.ofMillis(250))
				.until(() -> "INTERRUPTED".equals(state(jobId)));
			// How soon is the sweep's rule, on the service's clock
			// (LivenessSweeperTest). Measured here it also holds how busy the
			// machine is and whether another test's outage of the shared broker
			// or node just made the sweep hold back: reported, not judged.
			Duration detection = Duration.between(lastHeartbeat, Instant.now());
			System.out.println("runner loss detected " + detection.toMillis() + " ms after the last heartbeat");
			JsonNode job = api().get("viewer", "/api/v1/qualifications/" + jobId).body();
			assertThat(job.get("failureReason").asString()).isEqualTo("runner-lost");

			// The runner comes back; a resubmission for the freed drive runs.
			runner.heartbeat(List.of(serial));
			String again = api().post("alice", "/api/v1/qualifications", shortJob(serial)).body().get("id").asString();
			awaitStart(runner, again);
		}
	}

	@Test
	void twoReplicasNeverDispatchAJobTwiceNorTwoJobsToOneDrive() {
		// Arguments, not builder properties: those are defaults that application.yml
		// would override.
		try (ConfigurableApplicationContext second = new SpringApplicationBuilder(DrivequalApplication.class).run(
				"--spring.kafka.bootstrap-servers=" + RealInfrastructure.shared().kafkaBootstrapServers(),
				"--drivequal.elasticsearch.url=" + RealInfrastructure.shared().elasticsearchUrl(), "--server.port=0");
				RunnerStandIn runner = new RunnerStandIn(RealInfrastructure.shared().kafkaBootstrapServers(),
						"runner-" + shortId())) {
			List<String> serials = List.of("IT-" + shortId(), "IT-" + shortId(), "IT-" + shortId());
			runner.heartbeat(serials);
			serials.forEach(this::awaitDriveKnown);
			int secondPort = Integer.parseInt(second.getEnvironment().getProperty("local.server.port"));
			ApiClient secondApi = new ApiClient("http://127.0.0.1:" + secondPort);
			List<String> jobs = new ArrayList<>();
			for (int i = 0; i < 6; i++) {
				ApiClient client = (i % 2 == 0) ? api() : secondApi;
				jobs.add(client.post("alice", "/api/v1/qualifications", shortJob(serials.get(i % 3)))
					.body()
					.get("id")
					.asString());
			}

			// Act as the runner: run each job to completion as soon as it arrives, and
			// check that
			// a drive never gets a second job while one is running on it.
			Map<String, Integer> startsByJob = new HashMap<>();
			Map<String, String> runningOnDrive = new HashMap<>();
			long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
			while (startsByJob.size() < jobs.size() && System.nanoTime() < deadline) {
				runner.heartbeat(serials);
				for (JsonNode command : runner.pollCommands(Duration.ofSeconds(1))) {
					if (!"start".equals(command.get("type").asString())) {
						continue;
					}
					String jobId = command.get("jobId").asString();
					String serial = command.get("device").get("serial").asString();
					startsByJob.merge(jobId, 1, Integer::sum);
					assertThat(runningOnDrive.get(serial)).as("drive " + serial + " got " + jobId + " while running")
						.isNull();
					runningOnDrive.put(serial, jobId);
					runner.accepted(jobId, serial, 1);
					runner.completed(jobId);
					awaitState(jobId, "COMPLETED");
					runningOnDrive.remove(serial);
				}
			}
			assertThat(startsByJob.keySet()).containsExactlyInAnyOrderElementsOf(jobs);
			assertThat(startsByJob.values()).as("start commands per job").containsOnly(1);
			// And nothing more arrives afterwards.
			assertThat(runner.pollCommands(Duration.ofSeconds(3))).isEmpty();
		}
	}

	private static String shortJob(String serial) {
		return """
				{"drive":{"serial":"%s"},
				 "plan":{"phases":[{"name":"randwrite","kind":"workload","rw":"randwrite","blockSizeBytes":4096,
				                    "queueDepth":32,"rangePercent":100,"runtimeS":3}]},
				 "criteria":[{"metric":"consistencyRatio","comparator":"atLeast","limit":0.5}]}
				""".formatted(serial);
	}

	private JsonNode awaitStart(RunnerStandIn runner, String jobId) {
		List<JsonNode> seen = new ArrayList<>();
		await().atMost(Duration.ofSeconds(60)).until(() -> {
			runner.heartbeat(List.of());
			seen.addAll(runner.pollCommands(Duration.ofSeconds(1)));
			return seen.stream().anyMatch((c) -> jobId.equals(c.get("jobId").asString()));
		});
		return seen.stream().filter((c) -> jobId.equals(c.get("jobId").asString())).findFirst().orElseThrow();
	}

	private void awaitDriveKnown(String serial) {
		await().atMost(Duration.ofSeconds(60))
			.until(() -> api().get("viewer", "/api/v1/drives/" + serial).status() == 200);
	}

	private void awaitState(String jobId, String state) {
		await().atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(200))
			.until(() -> state.equals(state(jobId)));
	}

	private String state(String jobId) {
		return api().get("viewer", "/api/v1/qualifications/" + jobId).body().get("state").asString();
	}

	private static String shortId() {
		return UUID.randomUUID().toString().substring(0, 8);
	}

}
