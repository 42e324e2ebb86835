/*
 * Fault suite, items 10 and 11: operating runners without losing jobs. Item 10: a runner holding
 * a running job is drained (POST /api/v1/runners/{id}/drain), its job runs to its end, it shows
 * draining then drained, is restarted (the upgrade), stays drained across the restart, and after
 * the undrain runs the job that waited: 0 jobs cancelled. Item 11: the runner's allowlist file
 * changes under the running agent (no restart): a removed drive's job is cancelled with that
 * reason, the other drive's job completes, a malformed file changes nothing, and the drive comes
 * back when its entry does (two files written through io_uring, as drives the allowlist guards). Item 12: a runner SIGKILLed mid-job and back within the resume grace:
 * the job resumes at the last round boundary, completes, records the gap (whose round the
 * analysis leaves out) and still gets its verdict. Real C agents on simulated drives paced in
 * real time, a real broker and Elasticsearch.
 */
package io.drivequal.service.runners;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.drivequal.harness.RealInfrastructure;
import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.FaultFigures;
import io.drivequal.service.it.RunnerAgents;
import io.drivequal.service.it.WithRealInfrastructure;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@Tag("fault-suite")
@WithRealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class RunnerOperationsIT {

	/** Simulated drives in real time: a job's runtime is wall-clock time. */
	private static final String REAL_TIME = "{\"sim_model\":\"fluid\",\"sim_time_scale\":1}";

	@LocalServerPort
	private int port;

	@Test
	void aDrainedRunnerFinishesItsJobIsRestartedAndNoJobIsCancelled() throws Exception {
		String runnerId = "drain-" + UUID.randomUUID().toString().substring(0, 8);
		String brokers = RealInfrastructure.shared().kafkaBootstrapServers();
		List<String> targets = List.of("sim:test-client-7pct@41", "sim:test-client-7pct@42");
		Process agent = RunnerAgents.start(runnerId, brokers, targets, REAL_TIME);
		try {
			List<JsonNode> drives = api().awaitDrives(runnerId, 2);
			String running = submitted(
					api().submitRandomWrite(ApiClient.serialAt(drives, targets.get(0)), runnerId, 20));
			awaitState(running, "RUNNING", 60);

			Instant drainedAt = Instant.now();
			ApiClient.Response drain = api().post("admin", "/api/v1/runners/" + runnerId + "/drain", "");
			assertThat(drain.status()).isEqualTo(200);
			assertThat(drain.body().path("state").asString()).isEqualTo("draining");
			assertThat(api().post("alice", "/api/v1/runners/" + runnerId + "/drain", "").status()).isEqualTo(403);
			assertThat(api().post("viewer", "/api/v1/runners/" + runnerId + "/undrain", "").status()).isEqualTo(403);
			String waiting = submitted(
					api().submitRandomWrite(ApiClient.serialAt(drives, targets.get(1)), runnerId, 5));

			await().atMost(Duration.ofSeconds(90))
				.pollInterval(Duration.ofMillis(500))
				.until(() -> "drained".equals(runner(runnerId).path("state").asString()));
			Duration drainingFor = Duration.between(drainedAt, Instant.now());
			String runningEnd = job(running).path("state").asString();
			String waitingWhileDrained = job(waiting).path("state").asString();

			// The upgrade: the drained runner stops (SIGTERM) and a new process takes its
			// place.
			agent.destroy();
			assertThat(agent.waitFor(60, TimeUnit.SECONDS)).isTrue();
			Instant restartedAt = Instant.now();
			agent = RunnerAgents.start(runnerId, brokers, targets, REAL_TIME);
			await().atMost(Duration.ofSeconds(60))
				.until(() -> Instant.parse(runner(runnerId).path("lastHeartbeatAt").asString()).isAfter(restartedAt));
			String stateAfterRestart = runner(runnerId).path("state").asString();
			Thread.sleep(3000); // a few dispatch rounds: the waiting job must stay queued
			String waitingAfterRestart = job(waiting).path("state").asString();

			ApiClient.Response undrain = api().post("admin", "/api/v1/runners/" + runnerId + "/undrain", "");
			awaitState(waiting, "COMPLETED", 90);
			long cancelled = List.of(running, waiting)
				.stream()
				.map((id) -> job(id).path("state").asString())
				.filter((state) -> List.of("CANCELLED", "INTERRUPTED", "FAILED").contains(state))
				.count();

			FaultFigures figures = FaultFigures.item("10", "Runner drained, restarted after drained, undrained")
				.put("runnerId", runnerId)
				.put("drainStatusAdmin", drain.status())
				.put("drainStatusSubmitterViewer", List.of(403, 403))
				.put("runningJob", running)
				.put("runningJobEnd", runningEnd)
				.put("drainingToDrainedMs", drainingFor.toMillis())
				.put("queuedJobWhileDrained", waitingWhileDrained)
				.put("stateAfterRestart", stateAfterRestart)
				.put("queuedJobAfterRestart", waitingAfterRestart)
				.put("undrainState", undrain.body().path("state").asString())
				.put("queuedJobAfterUndrain", job(waiting).path("state").asString())
				.put("jobsCancelled", cancelled);
			assertThat(runningEnd).isEqualTo("COMPLETED");
			assertThat(waitingWhileDrained).isEqualTo("QUEUED");
			assertThat(stateAfterRestart).isEqualTo("drained");
			assertThat(waitingAfterRestart).isEqualTo("QUEUED");
			assertThat(undrain.body().path("state").asString()).isEqualTo("active");
			assertThat(cancelled).isZero();
			figures.put("passed", true).write();
		}
		finally {
			agent.destroy();
			agent.waitFor(30, TimeUnit.SECONDS);
		}
	}

	@Test
	void anAllowlistChangeIsAppliedWithoutARestart() throws Exception {
		String runnerId = "allow-" + UUID.randomUUID().toString().substring(0, 8);
		String brokers = RealInfrastructure.shared().kafkaBootstrapServers();
		// Real IO on two files through io_uring: the allowlist guards them (a simulated
		// drive is
		// diskless and needs no entry).
		java.nio.file.Path dir = java.nio.file.Files
			.createDirectories(java.nio.file.Path.of("target", "agents", runnerId).toAbsolutePath().normalize());
		String removed = "uring:" + disk(dir.resolve("removed.img"));
		String kept = "uring:" + disk(dir.resolve("kept.img"));
		Process agent = RunnerAgents.start(runnerId, brokers, List.of(removed, kept), null);
		try {
			List<JsonNode> drives = api().awaitDrives(runnerId, 2);
			String removedSerial = ApiClient.serialAt(drives, RunnerAgents.deviceTarget(removed));
			String keptSerial = ApiClient.serialAt(drives, RunnerAgents.deviceTarget(kept));
			String onRemoved = submitted(api().submitRandomWrite(removedSerial, runnerId, 120));
			String onKept = submitted(api().submitRandomWrite(keptSerial, runnerId, 20));
			awaitState(onRemoved, "RUNNING", 60);
			awaitState(onKept, "RUNNING", 60);

			RunnerAgents.writeAllowlistText(runnerId, "{\"devices\": [");
			Thread.sleep(3000);
			boolean malformedKept = "RUNNING".equals(job(onRemoved).path("state").asString())
					&& drive(keptSerial).path("allowlisted").asBoolean();

			Instant changedAt = Instant.now();
			RunnerAgents.writeAllowlist(runnerId, List.of(kept));
			awaitState(onRemoved, "CANCELLED", 30);
			Duration cancelledAfter = Duration.between(changedAt, Instant.now());
			String message = job(onRemoved).path("message").asString();
			await().atMost(Duration.ofSeconds(30)).until(() -> !drive(removedSerial).path("allowlisted").asBoolean());
			String keptWhenCancelled = job(onKept).path("state").asString();
			awaitState(onKept, "COMPLETED", 90);

			RunnerAgents.writeAllowlist(runnerId, List.of(removed, kept));
			await().atMost(Duration.ofSeconds(30)).until(() -> drive(removedSerial).path("allowlisted").asBoolean());
			boolean sameProcess = agent.isAlive();

			FaultFigures figures = FaultFigures.item("11", "Allowlist changed under a running agent")
				.put("runnerId", runnerId)
				.put("malformedFileKeptPreviousAllowlist", malformedKept)
				.put("removedDriveJob", onRemoved)
				.put("removedDriveJobCancelledAfterMs", cancelledAfter.toMillis())
				.put("removedDriveJobMessage", message)
				.put("otherJobWhenCancelled", keptWhenCancelled)
				.put("otherJobEnd", job(onKept).path("state").asString())
				.put("readdedDriveAllowlisted", true)
				.put("agentRestarted", !sameProcess);
			assertThat(malformedKept).isTrue();
			assertThat(message).contains("drive removed from the allowlist");
			assertThat(keptWhenCancelled).isEqualTo("RUNNING");
			assertThat(sameProcess).isTrue();
			figures.put("passed", true).write();
		}
		finally {
			agent.destroy();
			agent.waitFor(30, TimeUnit.SECONDS);
		}
	}

	@Test
	void aRunnerKilledAndBackWithinTheGraceResumesItsJob() throws Exception {
		String runnerId = "resume-" + UUID.randomUUID().toString().substring(0, 8);
		String brokers = RealInfrastructure.shared().kafkaBootstrapServers();
		List<String> targets = List.of("sim:test-client-7pct@45");
		Process agent = RunnerAgents.start(runnerId, brokers, targets, REAL_TIME);
		try {
			String serial = api().awaitDriveSerial(runnerId);
			// A criterion the run can meet without steady state, so the verdict is a
			// judgement.
			String jobId = submitted(api().post("alice", "/api/v1/qualifications", """
					{"drive":{"serial":"%s","runnerId":"%s"},
					 "plan":{"phases":[{"name":"randwrite-4k-qd32","kind":"workload","rw":"randwrite",
					   "blockSizeBytes":4096,"queueDepth":32,"rangePercent":100,"runtimeS":150}]},
					 "criteria":[{"metric":"writeLatencyP99Us","comparator":"atMost","limit":1000000}]}
					""".formatted(serial, runnerId)));
			awaitState(jobId, "RUNNING", 60);
			await().atMost(Duration.ofSeconds(120))
				.pollInterval(Duration.ofMillis(500))
				.until(() -> latestT(jobId) >= 75);

			int tAtKill = latestT(jobId);
			Instant killedAt = Instant.now();
			RunnerAgents.kill(agent);
			await().atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(500))
				.until(() -> job(jobId).has("runnerLostAt"));
			String stateWhileLost = job(jobId).path("state").asString();
			Thread.sleep(5000);
			agent = RunnerAgents.start(runnerId, brokers, targets, REAL_TIME);
			await().atMost(Duration.ofSeconds(90))
				.pollInterval(Duration.ofMillis(500))
				.until(() -> job(jobId).path("runnerGaps").size() == 1);
			Duration resumedAfter = Duration.between(killedAt, Instant.now());
			awaitState(jobId, "COMPLETED", 240);
			await().atMost(Duration.ofSeconds(120))
				.pollInterval(Duration.ofSeconds(1))
				.until(() -> !job(jobId).path("verdict").isMissingNode());
			JsonNode done = job(jobId);
			JsonNode gap = done.path("runnerGaps").get(0);
			int samples = api().get("viewer", "/api/v1/qualifications/" + jobId + "/samples?limit=10000")
				.body()
				.get("items")
				.size();
			String analysis = done.path("analysis").toString();
			JsonNode gapRoundFigures = roundOf(done.path("analysis"), gap.path("gapRound").asInt());

			FaultFigures figures = FaultFigures.item("12", "Runner SIGKILLed and back within the resume grace")
				.put("jobId", jobId)
				.put("samplesAtKill", tAtKill)
				.put("stateWhileRunnerLost", stateWhileLost)
				.put("resumedAfterKillMs", resumedAfter.toMillis())
				.put("gapPhaseIndex", gap.path("phaseIndex").asInt())
				.put("gapFromSecond", gap.path("fromSecond").asLong())
				.put("gapRound", gap.path("gapRound").asInt())
				.put("gapS", gap.path("gapS").asLong())
				.put("finalState", done.path("state").asString())
				.put("samplesOfPhase", samples)
				.put("verdict", done.path("verdict").asString())
				.put("gapRoundInAnalysis", gapRoundFigures.isMissingNode() ? "no round table" : gapRoundFigures)
				.put("analysisNotesTheGapRound", analysis.contains("follows a runner loss"));
			assertThat(stateWhileLost).isEqualTo("RUNNING");
			assertThat(gap.path("fromSecond").asLong()).isEqualTo((tAtKill / 60) * 60L);
			assertThat(gap.path("gapRound").asInt()).isEqualTo(tAtKill / 60);
			assertThat(done.path("state").asString()).isEqualTo("COMPLETED");
			assertThat(samples).isEqualTo(150);
			assertThat(analysis).contains("follows a runner loss");
			assertThat(done.path("verdict").asString()).isEqualTo("PASS");
			if (!gapRoundFigures.isMissingNode()) {
				assertThat(gapRoundFigures.path("counted").asBoolean()).as("the gap's round").isFalse();
			}
			figures.put("passed", true).write();
		}
		finally {
			agent.destroy();
			agent.waitFor(30, TimeUnit.SECONDS);
		}
	}

	/** Round {@code index} of the first round table anywhere in the analysis, if any. */
	private static JsonNode roundOf(JsonNode analysis, int index) {
		for (JsonNode rounds : analysis.findValues("rounds")) {
			for (JsonNode round : rounds) {
				if (round.path("index").asInt(-1) == index && round.has("counted")) {
					return round;
				}
			}
		}
		return tools.jackson.databind.node.MissingNode.getInstance();
	}

	private int latestT(String jobId) {
		JsonNode items = api().get("viewer", "/api/v1/qualifications/" + jobId + "/samples?limit=10000")
			.body()
			.path("items");
		int latest = 0;
		for (JsonNode item : items) {
			latest = Math.max(latest, item.path("t").asInt());
		}
		return latest;
	}

	/**
	 * A 256 MiB file of zeros: no partition table, no signature, so the interlocks pass.
	 */
	private static String disk(java.nio.file.Path path) throws java.io.IOException {
		try (java.io.RandomAccessFile file = new java.io.RandomAccessFile(path.toFile(), "rw")) {
			file.setLength(256L << 20);
		}
		return path.toString();
	}

	private static String submitted(ApiClient.Response response) {
		assertThat(response.status()).as(String.valueOf(response.body())).isEqualTo(201);
		return response.body().get("id").asString();
	}

	private void awaitState(String jobId, String state, int seconds) {
		await().atMost(Duration.ofSeconds(seconds))
			.pollInterval(Duration.ofMillis(250))
			.until(() -> state.equals(job(jobId).path("state").asString()));
	}

	private JsonNode runner(String runnerId) {
		return api().get("viewer", "/api/v1/runners/" + runnerId).body();
	}

	private JsonNode drive(String serial) {
		return api().get("viewer", "/api/v1/drives/" + serial).body().path("drive");
	}

	private JsonNode job(String jobId) {
		return api().get("viewer", "/api/v1/qualifications/" + jobId).body();
	}

	private ApiClient api() {
		return new ApiClient("http://127.0.0.1:" + this.port);
	}

}
