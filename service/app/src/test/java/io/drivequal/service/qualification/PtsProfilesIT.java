/*
 * The SNIA PTS-E profiles on the real stack: the C runner's agent owns small simulated drives (the
 * 8 GB test twins, fluid model), the service dispatches over the real Kafka broker, samples and
 * events land in the real Elasticsearch node. The IOPS profile runs as the catalog has it (one-minute
 * steps) and stops at steady state; an adaptive phase on a drive that never settles runs all 25
 * rounds; every other PTS-E profile runs end to end, the long ones time-scaled through the API's
 * phase overrides (write saturation once to its 4x capacity and once to a time limit made the
 * nearer; cross-stimulus recovery on the per-IO model, whose sequential pass after random writes the
 * fluid model does not follow, and the latency test on it too, whose IOs each have their own
 * latency there); every PTS-E job's SNIA report pages are opened in headless
 * Chromium, checked and saved as target/snia-report/pts-*.png (pts-latency's latency table: every
 * element's average, maximum and five nines over the measurement window, as the runner reported them);
 * and bad round definitions are refused with the field named, nothing created.
 */
package io.drivequal.service.qualification;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import io.drivequal.service.ingest.PhaseResult;
import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.RunnerAgents;
import io.drivequal.service.it.WithRealInfrastructure;
import io.drivequal.service.report.SniaPages;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

// On the shared, loaded test machine a runner's heartbeats can lag its jobs' flood of samples by
// tens of seconds; this test is about the profiles, not liveness (RunnerKillIT is), so a silent
// runner is given longer, and the simulated clock may run at most 200 x real time.
@WithRealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "drivequal.runners.heartbeat-timeout=300s")
class PtsProfilesIT {

	private static final String FLUID = "{\"sim_model\":\"fluid\",\"sim_time_scale\":200}";

	/**
	 * The per-IO model, where the fluid one is not calibrated: a sequential pass after
	 * random writes (cross-stimulus recovery's last segment); and where each IO has its
	 * own latency, so a latency test has a tail below its maximum (the fluid model gives
	 * the IOs of an interval a handful of latencies).
	 */
	private static final String FTL = "{\"sim_model\":\"ftl\",\"sim_time_scale\":200}";

	/** Where the SNIA pages of each profile's job are saved. */
	private static final Path OUT = Path.of("target", "snia-report");

	@LocalServerPort
	private int port;

	@Autowired
	private ElasticsearchClient elasticsearch;

	private final RunnerAgents agents = new RunnerAgents();

	@AfterEach
	void stopAgents() throws InterruptedException {
		this.agents.close();
	}

	@Test
	void iopsStopsAtSteadyStateAndANeverSteadyDriveRunsAllRounds() throws Exception {
		String runnerId = "pts-" + shortId();
		this.agents.start(runnerId, List.of("sim:test-enterprise-eager@1", "sim:test-client-7pct@2"), FLUID, Map.of());
		List<JsonNode> drives = api().awaitDrives(runnerId, 2);
		String enterprise = ApiClient.serialAt(drives, "sim:test-enterprise-eager@1");
		String client = ApiClient.serialAt(drives, "sim:test-client-7pct@2");

		ApiClient.Response iops = submit(enterprise, "{\"profile\":\"pts-iops\"}");
		assertThat(iops.body().get("warnings").toString()).as("the 0.5KiB steps cannot run on a 4096-byte LBA")
			.contains("512-byte blocks) is left out");
		// Write IOPS that climb ~3% a round while reads let the drive recover: never
		// steady.
		String recovering = """
				{"phases":[{"name":"purge","kind":"purge","purgeMethod":"auto"},
				 {"name":"fill","kind":"precondition","blockSizeBytes":131072,"queueDepth":32,"rangePercent":100,"passes":1},
				 {"name":"rounds","kind":"workload","rangePercent":100,"rounds":{
				   "steps":[{"rw":"randwrite","blockSizeBytes":4096,"queueDepth":32},
				            {"rw":"randread","blockSizeBytes":4096,"queueDepth":32}],
				   "stepRuntimeS":4,"tracking":{"step":0,"metric":"iops"},"rangeWritesRequired":0}}]}""";
		ApiClient.Response never = submit(client, recovering);

		String iopsJob = iops.body().get("id").asString();
		String neverJob = never.body().get("id").asString();
		Map<String, Object> steady = rounds(awaitCompleted(iopsJob), iopsJob, 2);
		Map<String, Object> maxRounds = rounds(awaitCompleted(neverJob), neverJob, 2);
		System.out.printf(
				"pts-iops on sim:test-enterprise-eager: %s%nnever-steady rounds on sim:test-client-7pct: %s%n", steady,
				maxRounds);
		assertThat(steady).containsEntry("stoppedBecause", "steady");
		int reachedAt = ((Number) steady.get("reachedAtRound")).intValue();
		assertThat(reachedAt).isLessThan(24);
		assertThat(((Number) steady.get("roundsRun")).intValue()).isEqualTo(reachedAt + 1);
		assertThat(maxRounds).containsEntry("stoppedBecause", "maxRounds")
			.containsEntry("roundsRun", 25)
			.doesNotContainKey("reachedAtRound");
		// 49 one-minute steps a round (the 0.5KiB ones left out), every second labelled.
		assertThat(samplesOf(iopsJob, 2)).isEqualTo((reachedAt + 1) * 49L * 60);
		assertThat(labelledSamples(iopsJob, 2, reachedAt, 48)).isEqualTo(60);
		assertThat(samplesOf(neverJob, 2)).isEqualTo(25L * 2 * 4);
		try (SniaPages pages = new SniaPages(baseUrl())) {
			SniaPages.Shown shown = pages.check(iopsJob, OUT.resolve("pts-iops.png"));
			System.out.printf("pts-iops SNIA pages: %s%n", shown);
			assertThat(shown.tests()).containsExactly("iops");
			assertThat(shown.setups().get(0)).contains("tracking the IOPS (iops) of step")
				.contains("steady state reached at round " + reachedAt);
			assertThat(shown.results()).contains("snia-iops-table", "snia-iops-plot");
		}
	}

	@Test
	void everyOtherPtsProfileRunsEndToEnd() throws Exception {
		String runnerId = "pts-" + shortId();
		List<String> targets = List.of("sim:test-enterprise-eager@11", "sim:test-enterprise-eager@12",
				"sim:test-enterprise-eager@13", "sim:test-enterprise-eager@14", "sim:test-enterprise-eager@15",
				"sim:test-enterprise-eager@16");
		List<String> perIo = List.of(targets.get(1), targets.get(4)); // pts-latency,
																		// pts-xsr
		this.agents.start(runnerId, targets.stream().filter((target) -> !perIo.contains(target)).toList(), FLUID,
				Map.of());
		this.agents.start(runnerId + "-ftl", perIo, FTL, Map.of());
		List<JsonNode> drives = new ArrayList<>(api().awaitDrives(runnerId, targets.size() - perIo.size()));
		drives.addAll(api().awaitDrives(runnerId + "-ftl", perIo.size()));
		// Time-scaled through the API's overrides: HIR's wait states 12 cycles instead of
		// 360 and 60 s baselines, XSR's segments 10 minutes instead of 8 and 6 hours.
		StringBuilder hirOverrides = new StringBuilder();
		int[] waits = { 5, 10, 15, 25, 50 };
		for (int n = 1; n <= 5; n++) {
			hirOverrides.append((n > 1) ? "," : "")
				.append("\"wait-state-%d\":{\"rounds\":{\"steps\":[{\"rw\":\"randwrite\",\"blockSizeBytes\":4096,"
					.formatted(n))
				.append("\"queueDepth\":32,\"runtimeS\":5},{\"idleS\":%d}],\"stepRuntimeS\":60,\"maxRounds\":12,"
					.formatted(waits[n - 1]))
				.append("\"rangeWritesRequired\":1}},\"baseline-%d\":{\"runtimeS\":60}".formatted(n));
		}
		// pts-wsat as the catalog has it ends at 4 x the 8 GB twin's capacity long
		// before 24 h; a 120 s override of its time limit makes the time the nearer one.
		Map<String, String> plans = Map.of("pts-throughput", "{\"profile\":\"pts-throughput\"}", "pts-latency",
				"{\"profile\":\"pts-latency\"}", "pts-wsat", "{\"profile\":\"pts-wsat\"}", "pts-wsat-120s",
				"{\"profile\":\"pts-wsat\",\"phaseOverrides\":{\"wsat\":{\"runtimeS\":120}}}", "pts-hir",
				"{\"profile\":\"pts-hir\",\"phaseOverrides\":{" + hirOverrides + "}}", "pts-xsr",
				"{\"profile\":\"pts-xsr\",\"phaseOverrides\":{\"seq-1024k-1\":{\"runtimeS\":600},"
						+ "\"rnd-8k\":{\"runtimeS\":600},\"seq-1024k-2\":{\"runtimeS\":600}}}");
		List<String> names = List.of("pts-throughput", "pts-latency", "pts-wsat", "pts-hir", "pts-xsr",
				"pts-wsat-120s");
		String[] jobs = new String[names.size()];
		for (int i = 0; i < names.size(); i++) {
			jobs[i] = submit(ApiClient.serialAt(drives, targets.get(i)), plans.get(names.get(i))).body()
				.get("id")
				.asString();
		}
		for (int i = 0; i < names.size(); i++) {
			JsonNode job = awaitCompleted(jobs[i]);
			int phases = job.get("plan").size();
			System.out.printf("%s: %s, %d phases, %d samples%n", names.get(i), job.get("state").asString(), phases,
					totalSamples(jobs[i]));
			for (int phase = 0; phase < phases; phase++) {
				assertThat(result(jobs[i], phase)).as("%s phase %d has its result", names.get(i), phase).isNotNull();
			}
		}
		Map<String, Object> tp1024 = rounds(api().get("viewer", "/api/v1/qualifications/" + jobs[0]).body(), jobs[0],
				2);
		Map<String, Object> latency = rounds(api().get("viewer", "/api/v1/qualifications/" + jobs[1]).body(), jobs[1],
				3);
		Map<String, Object> hirSteady = rounds(api().get("viewer", "/api/v1/qualifications/" + jobs[3]).body(), jobs[3],
				1);
		Map<String, Object> hirWait = rounds(api().get("viewer", "/api/v1/qualifications/" + jobs[3]).body(), jobs[3],
				2);
		System.out.printf("pts-throughput 1024KiB: %s%npts-latency: %s%npts-hir steady state: %s%npts-hir wait "
				+ "state 1: %s%n", tp1024, latency, hirSteady, hirWait);
		assertThat(tp1024.get("stoppedBecause")).isIn("steady", "maxRounds");
		assertThat(latency.get("stoppedBecause")).isIn("steady", "maxRounds");
		assertThat(hirWait).containsEntry("stoppedBecause", "maxRounds").containsEntry("roundsRun", 12);
		// a wait state writes 5 s a cycle: 12 x 5 samples, the idle seconds between them
		// none
		assertThat(samplesOf(jobs[3], 2)).isEqualTo(60);
		assertThat(samplesOf(jobs[4], 2)).isEqualTo(600);
		// Write saturation: 4 x capacity first as the catalog has it, the 120 s when made
		// nearer.
		Map<String, Object> wsat = result(jobs[2], 1);
		Map<String, Object> wsat120 = result(jobs[5], 1);
		System.out.printf("pts-wsat: %s after %s s, %s bytes written%npts-wsat, 120 s: %s after %s s, %s bytes%n",
				wsat.get("limitReached"), wsat.get("samples"), written(wsat), wsat120.get("limitReached"),
				wsat120.get("samples"), written(wsat120));
		assertThat(wsat).containsEntry("limitReached", "sizeBytes");
		assertThat(written(wsat)).isEqualTo(4 * capacityOf(jobs[2]));
		assertThat(wsat120).containsEntry("limitReached", "runtimeS");
		assertThat(((Number) wsat120.get("samples")).longValue()).isEqualTo(120);
		assertThat(written(wsat120)).isLessThan(4 * capacityOf(jobs[5]));
		assertThat(latency.get("trackingMilli")).as("pts-latency tracks a mean latency in ns x 1000")
			.asInstanceOf(InstanceOfAssertFactories.LIST)
			.allSatisfy((milli) -> assertThat(((Number) milli).longValue()).isBetween(1_000_000L, 10_000_000_000L));
		// Each profile's SNIA pages in the browser: one page per test, its setup and
		// results.
		Map<String, SniaPages.Shown> shown = new LinkedHashMap<>();
		try (SniaPages pages = new SniaPages(baseUrl())) {
			for (int i = 0; i < names.size() - 1; i++) {
				shown.put(names.get(i), pages.check(jobs[i], OUT.resolve(names.get(i) + ".png")));
				System.out.printf("%s SNIA pages: %s%n", names.get(i), shown.get(names.get(i)));
			}
		}
		assertThat(shown.get("pts-throughput").tests()).containsExactly("tp-1024k", "tp-128k");
		assertThat(shown.get("pts-throughput").results()).containsExactly("snia-throughput-table");
		// the random write of the capacity before the rounds is their setup, not a test
		assertThat(shown.get("pts-latency").tests()).containsExactly("latency");
		assertThat(shown.get("pts-latency").setups().get(0))
			.contains("Preconditioning before the testwdpc-rnd4k: 4 KiB random 0/100 (R/W), QD 32")
			.contains("tracking the mean latency (meanLatencyNs) of step");
		assertThat(shown.get("pts-latency").results()).containsExactly("snia-latency-table");
		assertWindowLatency(latency, shown.get("pts-latency").latency());
		assertThat(shown.get("pts-wsat").tests()).containsExactly("wsat");
		assertThat(shown.get("pts-wsat").saturation()).containsExactly("wsat");
		assertThat(shown.get("pts-wsat").setups().get(0)).contains(
				"until 32 GB (4.00 × user capacity) written or 86400 s, whichever comes first; ended by its size");
		assertThat(shown.get("pts-wsat").results()).isEmpty();
		assertThat(shown.get("pts-hir").tests()).containsExactly("steady-state", "wait-state-1", "wait-state-2",
				"wait-state-3", "wait-state-4", "wait-state-5");
		assertThat(shown.get("pts-hir").setups().get(2)).contains("fixed rounds run").contains("baseline-1");
		assertThat(shown.get("pts-xsr").tests()).containsExactly("rnd-8k");
	}

	/**
	 * pts-latency's elements over the measurement window (the runner's merge of each
	 * step's histograms): the last five rounds, where steady state was reached when it
	 * was; the 4096-byte-LBA drive runs six steps (8 and 4 KiB x 100/0, 65/35, 0/100),
	 * the mixes with reads and writes; every five nines at least its average and at most
	 * its maximum; the page shows the same figures.
	 */
	@SuppressWarnings("unchecked")
	private static void assertWindowLatency(Map<String, Object> rounds, List<SniaPages.LatencyRow> shown) {
		Map<String, Object> window = (Map<String, Object>) rounds.get("windowLatency");
		assertThat(window).as("pts-latency's phase result has the window latency").isNotNull();
		int last = "steady".equals(rounds.get("stoppedBecause")) ? ((Number) rounds.get("reachedAtRound")).intValue()
				: ((Number) rounds.get("roundsRun")).intValue() - 1;
		assertThat(window).containsEntry("firstRound", last - 4).containsEntry("lastRound", last);
		List<Map<String, Object>> steps = (List<Map<String, Object>>) window.get("steps");
		assertThat(steps).extracting((step) -> step.get("step")).containsExactly(0, 1, 2, 3, 4, 5);
		String[] elements = { "8 KiB 100/0", "4 KiB 100/0", "8 KiB 65/35", "4 KiB 65/35", "8 KiB 0/100",
				"4 KiB 0/100" };
		System.out.printf("pts-latency window latency, rounds %s-%s (us):%n%-12s %-6s %10s %9s %9s %9s %9s %9s%n",
				window.get("firstRound"), window.get("lastRound"), "element", "dir", "IOs", "average", "p99", "p99.9",
				"p99.999", "max");
		for (Map<String, Object> step : steps) {
			int index = ((Number) step.get("step")).intValue();
			assertThat(step.keySet()).as("step %d's directions", index)
				.containsExactlyInAnyOrderElementsOf((index < 2) ? List.of("step", "read", "total")
						: (index < 4) ? List.of("step", "read", "write", "total") : List.of("step", "write", "total"));
			for (String direction : List.of("total", "read", "write")) {
				Map<String, Object> f = (Map<String, Object>) step.get(direction);
				if (f == null) {
					continue;
				}
				long mean = ((Number) f.get("meanNs")).longValue();
				long p99 = ((Number) f.get("p99Ns")).longValue();
				long p999 = ((Number) f.get("p999Ns")).longValue();
				long fiveNines = ((Number) f.get("p99999Ns")).longValue();
				long max = ((Number) f.get("maxNs")).longValue();
				System.out.printf("%-12s %-6s %10d %9.1f %9.1f %9.1f %9.1f %9.1f%n", elements[index], direction,
						((Number) f.get("ios")).longValue(), mean / 1000.0, p99 / 1000.0, p999 / 1000.0,
						fiveNines / 1000.0, max / 1000.0);
				assertThat(fiveNines).as("step %d %s: five nines between average and maximum", index, direction)
					.isBetween(mean, max);
				assertThat(p99).as("step %d %s: p99 <= p99.9 <= p99.999", index, direction).isLessThanOrEqualTo(p999);
				assertThat(p999).isLessThanOrEqualTo(fiveNines);
			}
			// the total is both directions merged: their IOs add up, its maximum is the
			// larger, its average lies between theirs
			Map<String, Object> total = (Map<String, Object>) step.get("total");
			List<Map<String, Object>> directions = new ArrayList<>();
			for (String direction : List.of("read", "write")) {
				if (step.get(direction) != null) {
					directions.add((Map<String, Object>) step.get(direction));
				}
			}
			assertThat(longOf(total, "ios")).as("step %d: total IOs = read + write", index)
				.isEqualTo(directions.stream().mapToLong((f) -> longOf(f, "ios")).sum());
			assertThat(longOf(total, "maxNs")).as("step %d: total maximum = the larger direction's", index)
				.isEqualTo(directions.stream().mapToLong((f) -> longOf(f, "maxNs")).max().orElseThrow());
			assertThat(longOf(total, "meanNs")).as("step %d: total average between the directions'", index)
				.isBetween(directions.stream().mapToLong((f) -> longOf(f, "meanNs")).min().orElseThrow(),
						directions.stream().mapToLong((f) -> longOf(f, "meanNs")).max().orElseThrow());
		}
		assertThat(shown).as("one latency row per element").hasSize(steps.size());
		for (SniaPages.LatencyRow row : shown) {
			Map<String, Object> total = (Map<String, Object>) steps.get(row.step()).get("total");
			assertThat(row.figures()).as("the page's %s %s", row.blockSizeBytes(), row.mix())
				.containsEntry("meanLatencyNs", ((Number) total.get("meanNs")).doubleValue())
				.containsEntry("maxLatencyNs", ((Number) total.get("maxNs")).doubleValue())
				.containsEntry("p99999Ns", ((Number) total.get("p99999Ns")).doubleValue());
			assertThat(row.figures().get("p99999Ns")).isBetween(row.figures().get("meanLatencyNs"),
					row.figures().get("maxLatencyNs"));
			assertThat(row.source()).isEqualTo("merged histograms of rounds %d–%d".formatted(last - 4, last));
		}
	}

	private static long longOf(Map<String, Object> figures, String name) {
		return ((Number) figures.get(name)).longValue();
	}

	private static long written(Map<String, Object> result) {
		return ((Number) ((Map<?, ?>) result.get("write")).get("bytes")).longValue();
	}

	private long capacityOf(String jobId) {
		return api().get("viewer", "/api/v1/qualifications/" + jobId).body().get("drive").get("capacityBytes").asLong();
	}

	@Test
	void badRoundDefinitionsAre400sNamingTheFieldAndCreateNothing() throws Exception {
		String runnerId = "pts-" + shortId();
		this.agents.start(runnerId, List.of("sim:test-enterprise-eager@21"), FLUID, Map.of());
		String serial = api().awaitDriveSerial(runnerId);
		String phase = """
				{"phases":[{"name":"iops","kind":"workload","rangePercent":100,"rounds":%s}]}""";
		Map<String, String> cases = Map.of("plan.phases[0].rounds.steps",
				"{\"steps\":[],\"tracking\":{\"step\":0,\"metric\":\"iops\"}}", "plan.phases[0].rounds.tracking.metric",
				"{\"steps\":[{\"rw\":\"randwrite\",\"blockSizeBytes\":4096,\"queueDepth\":32}],"
						+ "\"tracking\":{\"step\":0,\"metric\":\"latency\"}}",
				"plan.phases[0].rounds.tracking.step",
				"{\"steps\":[{\"rw\":\"randwrite\",\"blockSizeBytes\":4096,\"queueDepth\":32}],"
						+ "\"tracking\":{\"step\":3,\"metric\":\"iops\"}}",
				"plan.phases[0].rounds.rangeWritesRequired",
				"{\"steps\":[{\"rw\":\"randwrite\",\"blockSizeBytes\":4096,\"queueDepth\":32}],"
						+ "\"tracking\":{\"step\":0,\"metric\":\"iops\"},\"rangeWritesRequired\":-1}");
		for (Map.Entry<String, String> bad : cases.entrySet()) {
			ApiClient.RawResponse response = api().request("alice", "POST", "/api/v1/qualifications",
					"{\"drive\":{\"serial\":\"%s\"},\"plan\":%s}".formatted(serial, phase.formatted(bad.getValue())));
			System.out.printf("%s -> %d %s%n", bad.getKey(), response.status(), response.body());
			assertThat(response.status()).as(bad.getKey()).isEqualTo(400);
			assertThat(response.body()).as(bad.getKey()).contains("\"field\":\"" + bad.getKey() + "\"");
		}
		JsonNode listed = api().get("viewer", "/api/v1/qualifications?serial=" + serial).body();
		assertThat(listed.get("items").size()).as("no job was created for the drive").isZero();
	}

	private ApiClient.Response submit(String serial, String plan) {
		ApiClient.Response submitted = api().post("alice", "/api/v1/qualifications",
				"{\"drive\":{\"serial\":\"%s\"},\"plan\":%s}".formatted(serial, plan));
		assertThat(submitted.status()).as(String.valueOf(submitted.body())).isEqualTo(201);
		return submitted;
	}

	private JsonNode awaitCompleted(String jobId) {
		await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofSeconds(1)).until(() -> {
			JsonNode job = api().get("viewer", "/api/v1/qualifications/" + jobId).body();
			String state = job.path("state").asString();
			assertThat(state).as(jobId + ": " + job.path("message").asString())
				.isIn("", "QUEUED", "DISPATCHED", "RUNNING", "COMPLETED");
			return "COMPLETED".equals(state) && job.has("verdict");
		});
		return api().get("viewer", "/api/v1/qualifications/" + jobId).body();
	}

	@SuppressWarnings("unchecked")
	private Map<String, Object> rounds(JsonNode job, String jobId, int phase) {
		assertThat(job.get("state").asString()).isEqualTo("COMPLETED");
		Map<String, Object> result = result(jobId, phase);
		assertThat(result).as("phase %d result", phase).containsKey("rounds");
		return (Map<String, Object>) result.get("rounds");
	}

	@SuppressWarnings("unchecked")
	private Map<String, Object> result(String jobId, int phase) {
		try {
			return this.elasticsearch.get((get) -> get.index(PhaseResult.INDEX).id(jobId + "/" + phase), Map.class)
				.source();
		}
		catch (java.io.IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

	private long samplesOf(String jobId, int phase) throws java.io.IOException {
		this.elasticsearch.indices().refresh((refresh) -> refresh.index("drivequal-samples-*"));
		return this.elasticsearch.count((count) -> count.index("drivequal-samples-*")
			.query((q) -> q.bool((b) -> b.filter((f) -> f.term((t) -> t.field("jobId").value(jobId)))
				.filter((f) -> f.term((t) -> t.field("phaseIndex").value(phase))))))
			.count();
	}

	private long totalSamples(String jobId) throws java.io.IOException {
		this.elasticsearch.indices().refresh((refresh) -> refresh.index("drivequal-samples-*"));
		return this.elasticsearch
			.count((count) -> count.index("drivequal-samples-*")
				.query((q) -> q.term((t) -> t.field("jobId").value(jobId))))
			.count();
	}

	private long labelledSamples(String jobId, int phase, int round, int step) throws java.io.IOException {
		this.elasticsearch.indices().refresh((refresh) -> refresh.index("drivequal-samples-*"));
		return this.elasticsearch.count((count) -> count.index("drivequal-samples-*")
			.query((q) -> q.bool((b) -> b.filter((f) -> f.term((t) -> t.field("jobId").value(jobId)))
				.filter((f) -> f.term((t) -> t.field("phaseIndex").value(phase)))
				.filter((f) -> f.term((t) -> t.field("round").value(round)))
				.filter((f) -> f.term((t) -> t.field("step").value(step))))))
			.count();
	}

	private ApiClient api() {
		return new ApiClient(baseUrl());
	}

	private String baseUrl() {
		return "http://127.0.0.1:" + this.port;
	}

	private static String shortId() {
		return UUID.randomUUID().toString().substring(0, 8);
	}

}
