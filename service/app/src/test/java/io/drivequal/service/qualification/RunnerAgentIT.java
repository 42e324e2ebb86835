/*
 * The whole system on real parts: the C runner's agent (a process) owns simulated and null drives,
 * the service dispatches over the real Kafka broker, samples and events land in the real
 * Elasticsearch node, and the analysis judges them. Runs the README demo's two jobs end to end
 * (steady state judged only out of the fresh state), and a broker restart mid-job that loses no
 * sample.
 */
package io.drivequal.service.qualification;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import io.drivequal.harness.RealInfrastructure;
import io.drivequal.service.ingest.PhaseResult;
import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.FaultFigures;
import io.drivequal.service.it.RunnerAgents;
import io.drivequal.service.it.StoredSamples;
import io.drivequal.service.it.WithRealInfrastructure;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.MAP;
import static org.awaitility.Awaitility.await;

@WithRealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class RunnerAgentIT {

	@LocalServerPort
	private int port;

	@Autowired
	private ElasticsearchClient elasticsearch;

	private final RunnerAgents agents = new RunnerAgents();

	@AfterEach
	void stopAgents() throws InterruptedException {
		this.agents.close();
	}

	/**
	 * The README demo's two jobs: one model of simulated client drive (256 GB, 7 % spare
	 * area), consistency-2000s on one sample and consistency-2000s-op25 on another. The
	 * drive's own media writes (its health readings' OCP C0h counter) show where garbage
	 * collection starts: op25's fresh-out-of-box plateau (~68k IOPS for rounds 0-4) meets
	 * both SNIA bounds but is not eligible, so its steady-state IOPS is the band it
	 * sustains; the full-range run, which writes only 0.3 of its range at random, gets
	 * its answer too, within 10 % of the level the same drive settles at after 4 × its
	 * capacity (7,958 IOPS, the known-truth matrix's client-256g-7).
	 */
	@Test
	void theDemosTwoJobsJudgeSteadyStateOnlyOutOfTheFreshState() throws Exception {
		String runnerId = "agent-" + shortId();
		this.agents.start(runnerId, List.of("sim:client-7pct@1", "sim:client-7pct@2"));
		List<JsonNode> drives = api().awaitDrives(runnerId, 2);
		String criteria = """
				[{"metric":"steadyStateIops","comparator":"atLeast","limit":20000},
				 {"metric":"waf","comparator":"atMost","limit":10}]""";
		String full = submit(drives.get(0).get("drive").get("serial").asString(), "consistency-2000s", criteria);
		String spare = submit(drives.get(1).get("drive").get("serial").asString(), "consistency-2000s-op25", criteria);

		JsonNode fullJob = awaitVerdict(full);
		JsonNode spareJob = awaitVerdict(spare);
		JsonNode fullPhase = fullJob.get("analysis").get("phases").get(2);
		JsonNode sparePhase = spareJob.get("analysis").get("phases").get(2);
		for (JsonNode phase : List.of(fullPhase, sparePhase)) {
			assertThat(phase.get("samples").asInt()).isEqualTo(2000);
			assertThat(phase.get("expectedSamples").asInt()).isEqualTo(2000);
			assertThat(phase.get("waf").get("waf").get("known").asBoolean()).isTrue();
			assertThat(phase.get("iops").get("steadyState").get("eligibility").get("rangeWritesRequired").asDouble())
				.isEqualTo(1.5);
			assertThat(phase.get("iops").get("steadyState").get("freshState").get("evidence").asString())
				.isEqualTo("media-writes");
		}

		// op25: the plateau rounds are not eligible; steady state is reached later and
		// the last five rounds hold.
		JsonNode op25 = sparePhase.get("iops").get("steadyState");
		assertThat(op25.get("eligibility").get("testedRangeBytes").asLong()).isEqualTo(192_000_000_000L);
		for (int round = 0; round <= 4; round++) {
			assertThat(op25.get("rounds").get(round).get("eligible").asBoolean()).as("plateau round %d", round)
				.isFalse();
			assertThat(op25.get("rounds").get(round).get("meanIops").asDouble()).isGreaterThan(60_000);
		}
		assertThat(op25.get("reached").asBoolean()).isTrue();
		assertThat(op25.get("window").get("firstRoundIndex").asInt())
			.isGreaterThanOrEqualTo(op25.get("firstEligibleRound").asInt());
		assertThat(op25.get("end").get("holds").asBoolean()).isTrue();
		double steadyStateIops = op25.get("end").get("window").get("avgIops").asDouble();
		double meanAfter1400 = meanIopsAfter(spare, 2, 1400);
		JsonNode spareCriterion = spareJob.get("analysis").get("verdict").get("criteria").get(0);
		System.out.printf(
				"op25: steadyStateIops %.1f (rounds %d-%d, reached at round %d, first eligible round %d), "
						+ "mean over t > 1400 s %.1f, ratio %.4f; %s%n",
				steadyStateIops, op25.get("end").get("firstRoundIndex").asInt(),
				op25.get("end").get("lastRoundIndex").asInt(), op25.get("window").get("lastRoundIndex").asInt(),
				op25.get("firstEligibleRound").asInt(), meanAfter1400, steadyStateIops / meanAfter1400,
				spareCriterion.get("explanation").asString());
		assertThat(Math.abs(steadyStateIops - meanAfter1400)).as("within 10%% of the mean over t > 1400 s")
			.isLessThanOrEqualTo(0.10 * meanAfter1400);
		assertThat(spareCriterion.get("outcome").asString()).isEqualTo("PASS");
		assertThat(spareCriterion.get("measured").asDouble()).isEqualTo(steadyStateIops);

		// consistency-2000s: 2000 s write 0.3 of the 256 GB range at random, which kept
		// the old byte rule from answering; the drive's media writes show where its fresh
		// state ended, and the last five rounds hold within 10 % of the drive's truth.
		// Its
		// ~8k IOPS fail the 20k criterion: a measured FAIL, not an INCONCLUSIVE.
		JsonNode plain = fullPhase.get("iops").get("steadyState");
		assertThat(plain.get("firstEligibleRound").asInt()).isPositive();
		assertThat(plain.get("end").get("holds").asBoolean()).as(plain.get("answer").asString()).isTrue();
		double plainIops = plain.get("end").get("window").get("avgIops").asDouble();
		assertThat(Math.abs(plainIops - 7_958)).as("within 10 %% of the 4x-capacity truth, 7,958 IOPS")
			.isLessThanOrEqualTo(0.10 * 7_958);
		assertThat(plain.get("answer").asString()).startsWith("steady within 2000 s: yes");
		JsonNode fullCriterion = fullJob.get("analysis").get("verdict").get("criteria").get(0);
		assertThat(fullCriterion.get("outcome").asString()).isEqualTo("FAIL");
		assertThat(fullCriterion.get("measured").asDouble()).isEqualTo(plainIops);
		JsonNode fixed = fullPhase.get("iops").get("fixedWindowConsistency");
		System.out.printf(
				"consistency-2000s: %s; fixed window t >= 1400 mean %.1f IOPS, consistency %.4f; "
						+ "random writes by the end %.3f x the range; verdict %s%n",
				fullCriterion.get("explanation").asString(), fixed.get("meanIops").asDouble(),
				fixed.get("ratio").asDouble(), plain.get("rounds").get(33).get("rangeWritesAtStart").asDouble(),
				fullJob.get("verdict").asString());
		double fullWaf = fullPhase.get("waf").get("waf").get("number").asDouble();
		double spareWaf = sparePhase.get("waf").get("waf").get("number").asDouble();
		assertThat(spareWaf).isLessThan(fullWaf);
		assertThat(steadyStateIops).isGreaterThan(fixed.get("meanIops").asDouble());
		assertThat(fullJob.get("drive").get("model").asString()).startsWith("DQSIM");
		assertThat(StoredSamples.anyOf(this.elasticsearch, full))
			.containsEntry("driveModel", fullJob.get("drive").get("model").asString())
			.containsEntry("firmware", fullJob.get("drive").get("firmware").asString())
			.containsEntry("simulated", true);
		// Kibana's consistency / QoS / WAF tables read the phase result's figures.
		Map<String, Object> result = this.elasticsearch
			.get((get) -> get.index(PhaseResult.INDEX).id(full + "/2"), Map.class)
			.source();
		assertThat(result).containsEntry("driveModel", fullJob.get("drive").get("model").asString())
			.containsEntry("profile", "consistency-2000s");
		assertThat(result).extractingByKey("steadyState", MAP)
			.containsEntry("steadyAtEnd", true)
			.containsEntry("rangeWritesRequired", 1.5)
			.containsEntry("freshStateEvidence", "media-writes")
			.containsEntry("averageIops", plainIops)
			.containsKey("wafByRound");
		assertThat(result).extractingByKey("waf", MAP).containsEntry("ratio", fullWaf);
		assertThat(result).extractingByKey("consistency", MAP).containsEntry("ratio", fixed.get("ratio").asDouble());
		assertThat(result).extractingByKey("qos", MAP)
			.containsKeys("writeP99Ns", "writeP9999Ns", "writeP99999Ns", "writeP999999Ns");
		Map<String, Object> spareResult = this.elasticsearch
			.get((get) -> get.index(PhaseResult.INDEX).id(spare + "/2"), Map.class)
			.source();
		assertThat(spareResult).extractingByKey("steadyState", MAP)
			.containsEntry("steadyAtEnd", true)
			.containsEntry("averageIops", steadyStateIops)
			.containsEntry("reachedAtRound", op25.get("window").get("lastRoundIndex").asInt())
			.containsEntry("firstEligibleRound", op25.get("firstEligibleRound").asInt());
	}

	/** Mean IOPS of a phase's seconds with t above a bound, from the samples API. */
	private double meanIopsAfter(String jobId, int phase, int afterT) {
		JsonNode items = api()
			.get("viewer",
					"/api/v1/qualifications/" + jobId + "/samples?phase=" + phase + "&afterPhase=" + phase + "&afterT="
							+ afterT + "&limit=10000")
			.body()
			.get("items");
		assertThat(items.size()).isEqualTo(2000 - afterT);
		double sum = 0;
		for (JsonNode item : items) {
			sum += item.get("readIops").asLong() + item.get("writeIops").asLong();
		}
		return sum / items.size();
	}

	@Test
	void aBrokerRestartMidJobLosesNoSample() throws Exception {
		String runnerId = "agent-" + shortId();
		this.agents.start(runnerId, List.of("null:1g"));
		String serial = api().awaitDriveSerial(runnerId);
		ApiClient.Response submitted = api().post("alice", "/api/v1/qualifications", """
				{"drive":{"serial":"%s","runnerId":"%s"},
				 "plan":{"phases":[{"name":"randwrite","kind":"workload","rw":"randwrite","blockSizeBytes":4096,
				                    "queueDepth":32,"rangePercent":100,"runtimeS":30}]}}
				""".formatted(serial, runnerId));
		assertThat(submitted.status()).as(String.valueOf(submitted.body())).isEqualTo(201);
		String jobId = submitted.body().get("id").asString();
		await().atMost(Duration.ofSeconds(60)).until(() -> "RUNNING".equals(state(jobId)));
		// Mid-job: samples are flowing through the broker to the index (a fixed pause
		// would be early or late depending on how busy the machine is).
		await().atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(250))
			.until(() -> indexedSamples(jobId) >= 5);
		int indexedBeforeStop = indexedSamples(jobId);
		long stoppedAt = System.nanoTime();
		RealInfrastructure.shared().kafka().stop();
		Thread.sleep(5000);
		RealInfrastructure.shared().kafka().start();
		long downMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stoppedAt);
		JsonNode job = awaitVerdict(jobId);
		JsonNode phase = job.get("analysis").get("phases").get(0);
		FaultFigures figures = FaultFigures.item("3", "Kafka broker restarted mid-job")
			.put("jobId", jobId)
			.put("runner", "real C agent, null engine, 30 s workload")
			.put("samplesIndexedBeforeStop", indexedBeforeStop)
			.put("brokerDownMs", downMs)
			.put("jobState", job.get("state").asString())
			.put("samplesExpected", phase.get("expectedSamples").asInt())
			.put("samplesDelivered", phase.get("samples").asInt());
		assertThat(job.get("state").asString()).isEqualTo("COMPLETED");
		assertThat(phase.get("expectedSamples").asInt()).isEqualTo(30);
		assertThat(phase.get("samples").asInt()).isEqualTo(30);
		figures.put("passed", true).write();
	}

	/**
	 * A purge proven by read-back and a clean data verify pass their criteria; on a drive
	 * whose purge silently erases nothing (the test build's fault switch) the proof
	 * catches it and the verdict fails. Each figure travels runner -> Kafka ->
	 * Elasticsearch (whose strict mappings take the new fields) -> analysis.
	 */
	@Test
	void aPurgeProofAndADataVerifyReachTheVerdict() throws Exception {
		String honest = "agent-" + shortId();
		String silent = "agent-" + shortId();
		this.agents.start(honest, List.of("sim:test-client-7pct@5"), "{\"sim_medium\":1}", Map.of());
		this.agents.start(silent, List.of("sim:test-client-7pct@6"), "{\"sim_medium\":1}",
				Map.of("DRIVEQUAL_TEST_FAULT", "skip-erase"));
		String plan = """
				{"phases":[{"name":"purge","kind":"purge","purgeMethod":"format-user-data"},
				 {"name":"randwrite","kind":"workload","rw":"randwrite","blockSizeBytes":4096,"queueDepth":32,
				  "rangePercent":1,"sizeBytes":16777216},
				 {"name":"verify","kind":"verify","rangePercent":1}]}""";
		String criteria = """
				[{"metric":"purgeVerified","comparator":"atLeast","limit":1},
				 {"metric":"verifyMismatches","comparator":"atMost","limit":0}]""";
		String good = submitPlan(api().awaitDriveSerial(honest), plan, criteria);
		String bad = submitPlan(api().awaitDriveSerial(silent), plan, criteria);

		JsonNode goodJob = awaitVerdict(good);
		JsonNode badJob = awaitVerdict(bad);
		JsonNode purge = goodJob.get("analysis").get("phases").get(0).get("purgeVerification");
		JsonNode written = goodJob.get("analysis").get("phases").get(1);
		JsonNode verify = goodJob.get("analysis").get("phases").get(2).get("verify");
		JsonNode caught = badJob.get("analysis").get("phases").get(0).get("purgeVerification");
		System.out.printf(
				"purge proof %s (%s: %d blocks, %d bytes read back, %d found); effective QD %.3f vs mean latency"
						+ " x IOPS %.3f; verify %d blocks, %d mismatches; silent purge: %s, %d of %d found;"
						+ " verdicts %s, %s%n",
				purge.get("status").asString(), purge.get("coverage").asString(), purge.get("blocksRead").asLong(),
				purge.get("bytesRead").asLong(), purge.get("blocksFound").asLong(),
				written.get("queueDepth").get("effective").asDouble(),
				written.get("queueDepth").get("meanLatencyTimesIops").asDouble(), verify.get("blocksChecked").asLong(),
				verify.get("mismatches").asLong(), caught.get("status").asString(), caught.get("blocksFound").asLong(),
				caught.get("blocksRead").asLong(), goodJob.get("verdict").asString(), badJob.get("verdict").asString());
		assertThat(goodJob.get("verdict").asString()).isEqualTo("PASS");
		assertThat(purge.get("status").asString()).isEqualTo("verified");
		assertThat(purge.get("method").asString()).as("the erase that ran").isEqualTo("format-user-data");
		assertThat(purge.get("blocksRead").asLong()).isEqualTo(65536);
		assertThat(verify.get("blocksChecked").asLong()).isPositive();
		assertThat(verify.get("mismatches").asLong()).isZero();
		assertThat(written.get("queueDepth").get("effective").asDouble()).isGreaterThanOrEqualTo(0.99 * 32);
		assertThat(written.get("queueDepth").get("ratio").asDouble()).isBetween(0.98, 1.02);
		assertThat(badJob.get("verdict").asString()).isEqualTo("FAIL");
		assertThat(caught.get("status").asString()).isEqualTo("failed");
		assertThat(caught.get("blocksFound").asLong()).isEqualTo(65536);
		Map<String, Object> purgeResult = this.elasticsearch
			.get((get) -> get.index(PhaseResult.INDEX).id(bad + "/0"), Map.class)
			.source();
		assertThat(purgeResult).extractingByKey("purgeVerification", MAP).containsEntry("status", "failed");
		Map<String, Object> workloadResult = this.elasticsearch
			.get((get) -> get.index(PhaseResult.INDEX).id(good + "/1"), Map.class)
			.source();
		assertThat(workloadResult).containsKey("effectiveQueueDepth");
		assertThat(StoredSamples.anyOf(this.elasticsearch, good)).containsKey("effectiveQueueDepth");
	}

	private String submitPlan(String serial, String plan, String criteria) {
		ApiClient.Response submitted = api().post("alice", "/api/v1/qualifications", """
				{"drive":{"serial":"%s"},"plan":%s,"criteria":%s}
				""".formatted(serial, plan, criteria));
		assertThat(submitted.status()).as(String.valueOf(submitted.body())).isEqualTo(201);
		return submitted.body().get("id").asString();
	}

	private String submit(String serial, String profile, String criteria) {
		ApiClient.Response submitted = api().post("alice", "/api/v1/qualifications", """
				{"drive":{"serial":"%s"},"plan":{"profile":"%s"},"criteria":%s}
				""".formatted(serial, profile, criteria));
		assertThat(submitted.status()).as(String.valueOf(submitted.body())).isEqualTo(201);
		return submitted.body().get("id").asString();
	}

	private JsonNode awaitVerdict(String jobId) {
		await().atMost(Duration.ofMinutes(6)).pollInterval(Duration.ofSeconds(1)).until(() -> {
			JsonNode job = api().get("viewer", "/api/v1/qualifications/" + jobId).body();
			String state = job.get("state").asString();
			assertThat(state).as(jobId + ": " + job.path("message").asString())
				.isIn("QUEUED", "DISPATCHED", "RUNNING", "COMPLETED");
			return job.has("verdict");
		});
		return api().get("viewer", "/api/v1/qualifications/" + jobId).body();
	}

	/** Samples of the job the API returns; none while it answers with a problem. */
	private int indexedSamples(String jobId) {
		JsonNode items = api().get("viewer", "/api/v1/qualifications/" + jobId + "/samples?limit=10000")
			.body()
			.path("items");
		return items.size();
	}

	private String state(String jobId) {
		// A problem response (e.g. a 503 while Elasticsearch is slow) has no state: poll
		// again.
		return api().get("viewer", "/api/v1/qualifications/" + jobId).body().path("state").asString();
	}

	private ApiClient api() {
		return new ApiClient("http://127.0.0.1:" + this.port);
	}

	private static String shortId() {
		return UUID.randomUUID().toString().substring(0, 8);
	}

}
