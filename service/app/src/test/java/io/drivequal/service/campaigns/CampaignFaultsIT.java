/*
 * Fault suite, item 13: a campaign survives the faults a job survives. Two service replicas run as
 * processes (the packaged jar), three real C agents each hold one sample of one model on a
 * simulated drive paced in real time. Mid-campaign the replica that created the campaign is
 * SIGKILLed and so is one runner, kept away past the resume grace: its job becomes INTERRUPTED and
 * the campaign (read through the surviving replica) names that cell as needing a rerun. The runner
 * comes back, the cell is rerun alone, and the campaign completes with every count exact: each
 * job's samples in Elasticsearch, one per second, none lost or duplicated; the campaign's counts per
 * job state; the cell's history; the model verdict over all three samples; its webhooks and audit.
 *
 * Tagged "isolated" (no cached Spring context may consume the topics: the replicas must be what
 * indexes the samples) and "fault-suite" (it takes minutes: real-time jobs), so it runs only in the
 * fault-suite profile, in the isolated JVM.
 */
package io.drivequal.service.campaigns;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.drivequal.harness.RealInfrastructure;
import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.FaultFigures;
import io.drivequal.service.it.RunnerAgents;
import io.drivequal.service.it.ServiceJar;
import io.drivequal.service.it.StoredSamples;
import io.drivequal.service.webhooks.WebhookReceiver;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@Tag("isolated")
@Tag("fault-suite")
class CampaignFaultsIT {

	/** Simulated drives in real time: a job's runtime is wall-clock time. */
	private static final String REAL_TIME = "{\"sim_model\":\"fluid\",\"sim_time_scale\":1}";

	/** Seeds no other test uses: a simulated drive's serial follows from its seed. */
	private static final List<String> SAMPLES = List.of("sim:test-client-7pct@81", "sim:test-client-7pct@82",
			"sim:test-client-7pct@83");

	private static final String MODEL = "DQSIM Test Client 8GB";

	private static final String FIRMWARE = "SIM0100";

	private static final int RUNTIME_S = 30;

	/** The runner lost: the last sample's. */
	private static final int LOST = 2;

	private static final String SECRET_KEY = "q0l2m1XGQ8Ww4b2qJYxv0bq5o0Wq8M4Q4t0cKx2Xh6U=";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final List<String> USERS = List.of("alice:SUBMITTER", "viewer:VIEWER", "admin:ADMIN");

	private static final List<String> PROPERTIES = List.of(
			// A lost runner's job is INTERRUPTED soon after the heartbeat timeout.
			"--drivequal.runners.resume-grace=5s", "--drivequal.campaigns.refresh-interval=1s",
			"--drivequal.webhooks.secret-key=" + SECRET_KEY,
			"--drivequal.webhooks.destinations.allowed-networks=127.0.0.0/8",
			"--drivequal.webhooks.initial-backoff=500ms", "--drivequal.webhooks.max-backoff=2s",
			// A killed member holds its partitions until its session expires; keep that
			// short.
			"--spring.kafka.consumer.properties.session.timeout.ms=6000",
			"--spring.kafka.consumer.properties.heartbeat.interval.ms=1000");

	@Test
	void aReplicaAndARunnerKilledMidCampaignTheLostCellRerunAloneAndEveryCountExact() throws Exception {
		RealInfrastructure infrastructure = RealInfrastructure.shared();
		String brokers = infrastructure.kafkaBootstrapServers();
		String tag = UUID.randomUUID().toString().substring(0, 8);
		Path logs = Files.createDirectories(Path.of("target", "campaign-faults", tag));
		Path jar = ServiceJar.copy(logs);
		int creatorPort = ServiceJar.freePort();
		int survivorPort = ServiceJar.freePort();
		ApiClient creator = new ApiClient("http://127.0.0.1:" + creatorPort);
		ApiClient survivor = new ApiClient("http://127.0.0.1:" + survivorPort);
		Path creatorLog = logs.resolve("replica-a.log");
		Process replicaA = ServiceJar.start(jar, creatorPort, infrastructure, creatorLog, USERS, PROPERTIES);
		Process replicaB = ServiceJar.start(jar, survivorPort, infrastructure, logs.resolve("replica-b.log"), USERS,
				PROPERTIES);
		List<String> runnerIds = new ArrayList<>();
		List<Process> agents = new ArrayList<>();
		for (int i = 0; i < SAMPLES.size(); i++) {
			runnerIds.add("cfault-" + tag + "-" + i);
			agents.add(RunnerAgents.start(runnerIds.get(i), brokers, List.of(SAMPLES.get(i)), REAL_TIME));
		}
		try (WebhookReceiver receiver = WebhookReceiver.answering(204)) {
			ServiceJar.awaitHealthy(creator);
			ServiceJar.awaitHealthy(survivor);
			List<String> serials = new ArrayList<>();
			for (String runnerId : runnerIds) {
				serials.add(survivor.awaitDriveSerial(runnerId));
			}
			ApiClient.Response subscribed = creator.post("alice", "/api/v1/webhooks", """
					{"url":"%s","events":["campaign-state-changed","campaign-verdict"]}
					""".formatted(receiver.url("/campaigns")));
			assertThat(subscribed.status()).as(String.valueOf(subscribed.body())).isEqualTo(201);
			String secret = subscribed.body().get("secret").asString();

			ApiClient.Response created = creator.post("alice", "/api/v1/campaigns", campaign(serials));
			assertThat(created.status()).as(String.valueOf(created.body())).isEqualTo(201);
			String id = created.body().get("id").asString();
			assertThat(created.body().get("jobs").asInt()).isEqualTo(6);

			// Mid-campaign: every sample's first job running, the lost runner's with
			// samples indexed.
			String lostSerial = serials.get(LOST);
			JsonNode[] lostCell = new JsonNode[1];
			await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500)).until(() -> {
				JsonNode grid = survivor.get("viewer", "/api/v1/campaigns/" + id).body().get("grid");
				long running = grid.valueStream().filter((c) -> "RUNNING".equals(c.get("state").asString())).count();
				lostCell[0] = grid.valueStream()
					.filter((c) -> c.get("serial").asString().equals(lostSerial)
							&& "RUNNING".equals(c.get("state").asString()))
					.findFirst()
					.orElse(null);
				return running == SAMPLES.size() && lostCell[0] != null
						&& StoredSamples.count(infrastructure, lostCell[0].get("jobId").asString()) >= 8;
			});
			String lostJobId = lostCell[0].get("jobId").asString();
			String lostProfile = lostCell[0].get("profile").asString();
			String campaignStateAtKill = survivor.get("viewer", "/api/v1/campaigns/" + id)
				.body()
				.get("state")
				.asString();
			long lostJobSamplesAtKill = StoredSamples.count(infrastructure, lostJobId);

			// The replica that created the campaign, and the runner: no goodbye.
			Instant killedAt = Instant.now();
			replicaA.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
			RunnerAgents.kill(agents.get(LOST));
			String creatorLogText = Files.readString(creatorLog);
			TreeSet<String> heldAtKill = samplesPartitionsHeld(creatorLogText);

			// Past the heartbeat timeout and the resume grace the lost job is
			// INTERRUPTED, and the surviving replica names its cell as the one to rerun.
			await().atMost(Duration.ofMinutes(3))
				.pollInterval(Duration.ofMillis(500))
				.until(() -> "INTERRUPTED".equals(job(survivor, lostJobId).path("state").asString()));
			Duration interruptedAfter = Duration.between(killedAt, Instant.now());
			JsonNode lostJob = job(survivor, lostJobId);
			JsonNode whileLost = survivor.get("viewer", "/api/v1/campaigns/" + id).body();
			JsonNode needsRerun = whileLost.get("needsRerun");

			// The runner back; the lost cell rerun alone, through the surviving replica.
			agents.set(LOST, RunnerAgents.start(runnerIds.get(LOST), brokers, List.of(SAMPLES.get(LOST)), REAL_TIME));
			ApiClient.Response rerun = survivor.post("alice", "/api/v1/campaigns/" + id + "/rerun",
					"{\"serial\":\"" + lostSerial + "\",\"profile\":\"" + lostProfile + "\"}");
			assertThat(rerun.status()).as(String.valueOf(rerun.body())).isEqualTo(200);
			String rerunJobId = cell(rerun.body(), lostSerial, lostProfile).get("jobId").asString();

			JsonNode[] last = new JsonNode[1];
			await().atMost(Duration.ofMinutes(6)).pollInterval(Duration.ofSeconds(1)).until(() -> {
				last[0] = survivor.get("viewer", "/api/v1/campaigns/" + id).body();
				return "COMPLETED".equals(last[0].get("state").asString());
			});
			JsonNode done = last[0];
			Files.writeString(logs.resolve("completed.json"), done.toPrettyString());

			// Every job's samples, the lost one's included: one document per second.
			Map<String, Object> samplesByJob = new LinkedHashMap<>();
			List<String> jobIds = new ArrayList<>();
			done.get("grid").forEach((c) -> jobIds.add(c.get("jobId").asString()));
			jobIds.add(lostJobId);
			Map<String, long[]> seconds = new LinkedHashMap<>();
			for (String jobId : jobIds) {
				long[] figures = { StoredSamples.count(infrastructure, jobId),
						StoredSamples.distinctSeconds(infrastructure, jobId),
						StoredSamples.lastSecond(infrastructure, jobId) };
				seconds.put(jobId, figures);
				samplesByJob.put(jobId, Map.of("documents", figures[0], "distinctSeconds", figures[1], "lastSecond",
						figures[2], "state", job(survivor, jobId).path("state").asString()));
			}
			JsonNode rerunCell = cell(done, lostSerial, lostProfile);
			JsonNode verdict = done.get("modelVerdict");
			// The campaign's own entries: those that name it.
			List<String> auditActions = new ArrayList<>();
			survivor.get("admin", "/api/v1/audit?size=500").body().get("items").forEach((entry) -> {
				if (entry.toString().contains(id)) {
					auditActions.add(entry.path("action").asString());
				}
			});
			await().atMost(Duration.ofSeconds(60))
				.until(() -> receiver.received()
					.stream()
					.anyMatch((r) -> r.header("webhook-id").startsWith(id + ".verdict.")));
			TreeSet<String> webhookIds = new TreeSet<>();
			int webhookDeliveries = 0;
			JsonNode verdictEvent = null;
			for (WebhookReceiver.Received request : receiver.received()) {
				if (request.header("webhook-id").startsWith(id + ".")) {
					webhookDeliveries++;
					webhookIds.add(request.header("webhook-id"));
					assertThat(WebhookReceiver.signatureValid(secret, request)).as(request.header("webhook-id"))
						.isTrue();
					if (request.header("webhook-id").startsWith(id + ".verdict.")) {
						verdictEvent = JSON.readTree(request.body());
					}
				}
			}

			FaultFigures figures = FaultFigures.item("13", "Service replica and runner killed mid-campaign")
				.put("campaignId", id)
				.put("grid", "3 samples x 2 profiles (sim:test-client-7pct, real time), " + RUNTIME_S + " s jobs")
				.put("killedReplicaCreatedTheCampaign", creatorLogText.contains("campaign " + id + " QUEUED"))
				.put("samplesPartitionsOfKilledReplica", heldAtKill)
				.put("campaignStateAtKill", campaignStateAtKill)
				.put("lostJob", lostJobId)
				.put("lostJobSamplesIndexedAtKill", lostJobSamplesAtKill)
				.put("lostJobInterruptedAfterKillMs", interruptedAfter.toMillis())
				.put("lostJobFailureReason", lostJob.path("failureReason").asString())
				.put("needsRerunWhileLost", needsRerun)
				.put("rerunJob", rerunJobId)
				.put("previousJobIds", rerunCell.get("previousJobIds"))
				.put("finalCounts", done.get("counts"))
				.put("samplesByJob", samplesByJob)
				.put("modelVerdict", verdict.get("outcome").asString())
				.put("samplesPerCriterion", verdict.get("criteria").get(0).get("samples").size())
				.put("webhookIds", webhookIds)
				.put("webhookDeliveries", webhookDeliveries)
				.put("auditHasCreateAndRerun",
						auditActions.contains("campaign.create") && auditActions.contains("campaign.rerun"));

			assertThat(creatorLogText).as("the killed replica created the campaign")
				.contains("campaign " + id + " QUEUED");
			assertThat(heldAtKill).as("the killed replica was ingesting samples").isNotEmpty();
			assertThat(campaignStateAtKill).isEqualTo("RUNNING");
			assertThat(lostJob.path("failureReason").asString()).isEqualTo("runner-lost");
			assertThat(whileLost.get("state").asString()).isEqualTo("RUNNING");
			assertThat(needsRerun).hasSize(1);
			assertThat(needsRerun.get(0).get("jobId").asString()).isEqualTo(lostJobId);
			assertThat(needsRerun.get(0).get("serial").asString()).isEqualTo(lostSerial);
			assertThat(needsRerun.get(0).get("profile").asString()).isEqualTo(lostProfile);

			assertThat(done.get("jobs").asInt()).isEqualTo(6);
			for (Map.Entry<String, JsonNode> count : done.get("counts").properties()) {
				assertThat(count.getValue().asInt()).as("campaign count " + count.getKey())
					.isEqualTo(count.getKey().equals("COMPLETED") ? 6 : 0);
			}
			assertThat(done.has("needsRerun")).isFalse();
			assertThat(rerunCell.get("jobId").asString()).isEqualTo(rerunJobId);
			assertThat(rerunCell.get("previousJobIds").valueStream().map(JsonNode::asString).toList())
				.containsExactly(lostJobId);
			for (JsonNode c : done.get("grid")) {
				if (!(c.get("serial").asString().equals(lostSerial)
						&& c.get("profile").asString().equals(lostProfile))) {
					assertThat(c.has("previousJobIds")).as("a cell not rerun has no history").isFalse();
				}
				long[] s = seconds.get(c.get("jobId").asString());
				assertThat(s).as("samples of " + c.get("jobId").asString() + ": documents, distinct, last")
					.containsExactly(RUNTIME_S, RUNTIME_S, RUNTIME_S);
			}
			// The lost job: what it produced before the kill, contiguous from t = 1,
			// once.
			long[] lost = seconds.get(lostJobId);
			assertThat(lost[0]).isEqualTo(lost[1]).isEqualTo(lost[2]);
			assertThat(lost[0]).isGreaterThanOrEqualTo(lostJobSamplesAtKill).isLessThan(RUNTIME_S);

			assertThat(done.get("verdict").asString()).isEqualTo("PASS");
			assertThat(verdict.get("outcome").asString()).isEqualTo("PASS");
			for (JsonNode row : verdict.get("criteria")) {
				assertThat(row.get("samples").valueStream().map((s) -> s.get("serial").asString()).sorted().toList())
					.isEqualTo(serials.stream().sorted().toList());
				assertThat(row.get("spread").get("samples").asInt()).isEqualTo(3);
			}
			assertThat(verdict.get("spreads").get(0).get("values")).hasSize(3);
			assertThat(verdictEvent).isNotNull();
			assertThat(verdictEvent.get("data").get("verdict").asString()).isEqualTo("PASS");
			assertThat(auditActions).contains("campaign.create", "campaign.rerun");
			figures.put("passed", true).write();
		}
		finally {
			for (Process process : List.of(replicaA, replicaB)) {
				process.destroy();
				process.waitFor(30, TimeUnit.SECONDS);
			}
			for (Process agent : agents) {
				agent.destroy();
				agent.waitFor(30, TimeUnit.SECONDS);
			}
		}
	}

	/**
	 * The samples partitions a replica held at its end, replayed from its log's
	 * assignments and revocations (the listener container logs each).
	 */
	private static TreeSet<String> samplesPartitionsHeld(String log) {
		TreeSet<String> held = new TreeSet<>();
		Matcher change = Pattern.compile("drivequal-service-samples: partitions (assigned|revoked): \\[([^\\]]*)\\]")
			.matcher(log);
		while (change.find()) {
			for (String partition : change.group(2).split(",\\s*")) {
				if (!partition.isBlank()) {
					if (change.group(1).equals("assigned")) {
						held.add(partition.trim());
					}
					else {
						held.remove(partition.trim());
					}
				}
			}
		}
		return held;
	}

	private static String campaign(List<String> serials) {
		StringBuilder samples = new StringBuilder();
		for (String serial : serials) {
			samples.append(samples.isEmpty() ? "" : ",").append("{\"serial\":\"").append(serial).append("\"}");
		}
		return """
				{"name":"campaign-faults","model":{"vendor":"DQSIM","model":"%s","firmware":"%s"},"samples":[%s],
				 "profiles":[{"phases":[%s]},{"phases":[%s]}],
				 "criteria":[{"metric":"writeLatencyP99Us","comparator":"atMost","limit":1000000000}],
				 "spreadCriteria":[{"metric":"writeLatencyP99Us","profile":"phases-1","maxCvPercent":1000}]}
				""".formatted(MODEL, FIRMWARE, samples, phase("randwrite-qd32", 32), phase("randwrite-qd1", 1));
	}

	private static String phase(String name, int queueDepth) {
		return """
				{"name":"%s","kind":"workload","rw":"randwrite","blockSizeBytes":4096,"queueDepth":%d,
				 "rangePercent":100,"runtimeS":%d}""".formatted(name, queueDepth, RUNTIME_S);
	}

	private static JsonNode job(ApiClient api, String jobId) {
		return api.get("viewer", "/api/v1/qualifications/" + jobId).body();
	}

	private static JsonNode cell(JsonNode campaign, String serial, String profile) {
		return campaign.get("grid")
			.valueStream()
			.filter((c) -> c.get("serial").asString().equals(serial) && c.get("profile").asString().equals(profile))
			.findFirst()
			.orElseThrow();
	}

}
