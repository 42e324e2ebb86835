/*
 * The report's SNIA PTS pages in a real browser against the real system: a job on the C runner's
 * simulated drive that runs what a PTS run runs (purge, WIPC, a 4KiB random-write tracking phase
 * in rounds, an IOPS matrix, sequential throughput, QD1 latency) through Kafka and Elasticsearch;
 * Debian's chromium reads its report, and each figure on the pages is checked against what the
 * API serves (analysis and per-second samples), computed here independently. Screenshots under
 * target/snia-report.
 */
package io.drivequal.service.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.RunnerAgents;
import io.drivequal.service.it.WithRealInfrastructure;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

@WithRealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SniaReportIT {

	static final Path OUT = Path.of("target", "snia-report");

	private static final int TRACKING_PHASE = 2;

	/** The IOPS matrix the job runs besides its tracking phase (0/100 at 4 KiB). */
	private static final int[] MIXES_READ_PERCENT = { 100, 65, 0 };

	private static final int[] MATRIX_BLOCKS = { 4096, 65536, 1048576 };

	@LocalServerPort
	private int port;

	private final RunnerAgents agents = new RunnerAgents();

	private SniaPages pages;

	private String runnerId;

	@BeforeAll
	void start() throws Exception {
		Files.createDirectories(OUT);
		this.runnerId = "snia-" + UUID.randomUUID().toString().substring(0, 8);
		this.agents.start(this.runnerId, List.of("sim:test-enterprise-eager@7"));
		this.pages = new SniaPages("http://127.0.0.1:" + this.port);
		await().atMost(Duration.ofSeconds(60)).until(() -> api().drivesOf(this.runnerId).size() == 1);
	}

	@AfterAll
	void stop() throws Exception {
		if (this.pages != null) {
			this.pages.close();
		}
		this.agents.close();
	}

	@Test
	void aPtsRunGivesTheSniaPagesWithTheApisFigures() throws Exception {
		String jobId = submit();
		JsonNode job = awaitVerdict(jobId);
		JsonNode phases = job.get("analysis").get("phases");
		try (BrowserContext context = this.pages.context()) {
			Page page = this.pages.signedIn(context);
			this.pages.openReport(page, jobId);

			// Setup header: device, purge, WIPC, stimulus, outstanding IO, rounds.
			String setup = page.textContent("#snia-page-" + TRACKING_PHASE + " .snia-setup");
			assertThat(setup).contains(job.get("drive").get("serial").asString())
				.contains("2 × 100 % of the LBAs, 128 KiB sequential write (2.00 × user capacity)")
				.contains("4 KiB random 0/100 (R/W), QD 32")
				.contains("QD 32, 1 thread")
				.contains("W = 1.50")
				// the purge asked and the one that ran; the test's SNIA PTS conformance
				// line
				.contains("auto, ran sanitize-block")
				.contains("SNIA PTS conformanceSNIA PTS: ");

			// Convergence: one point per round with a mean; the measurement window's
			// average and slope are the least-squares fit of its round means.
			JsonNode steadyState = phases.get(TRACKING_PHASE).get("iops").get("steadyState");
			List<double[]> rounds = new ArrayList<>();
			for (JsonNode round : steadyState.get("rounds")) {
				if (!round.get("meanIops").isNull()) {
					rounds.add(new double[] { round.get("index").asInt(), round.get("meanIops").asDouble() });
				}
			}
			assertThat(page.getAttribute("#snia-convergence-" + TRACKING_PHASE, "data-points"))
				.isEqualTo(String.valueOf(rounds.size()));
			JsonNode end = steadyState.get("end");
			JsonNode window = (end.get("holds").asBoolean() || !steadyState.get("reached").asBoolean())
					? end.get("window") : steadyState.get("window");
			int first = window.get("firstRoundIndex").asInt();
			int last = window.get("lastRoundIndex").asInt();
			double[] fit = leastSquares(rounds.stream().filter((r) -> r[0] >= first && r[0] <= last).toList());
			String windowChart = "#snia-window-" + TRACKING_PHASE;
			assertThat(Double.parseDouble(page.getAttribute(windowChart, "data-avg"))).isCloseTo(fit[0],
					within(1e-6 * fit[0]));
			assertThat(Double.parseDouble(page.getAttribute(windowChart, "data-slope"))).isCloseTo(fit[1],
					within(1e-6 * Math.max(1, Math.abs(fit[1]))));
			assertThat(page.getAttribute(windowChart, "data-points")).isEqualTo(String.valueOf(last - first + 1));
			assertThat(fit[0]).isCloseTo(window.get("avgIops").asDouble(), within(1e-6 * fit[0]));

			// The IOPS matrix: each cell the mean IOPS of its phase's seconds; 0/100 at
			// 4 KiB from the tracking phase's steady-state window when it holds.
			for (int phase = 0; phase < phases.size(); phase++) {
				JsonNode spec = job.get("plan").get(phase);
				if (!"workload".equals(spec.get("kind").asString()) || spec.get("queueDepth").asInt() == 1
						|| spec.get("rw").asString().matches("read|write")) {
					continue;
				}
				double expected = meanOf(jobId, phase, phase == TRACKING_PHASE ? steadyState : null, "iops");
				String cell = page.textContent("#snia-iops-table tr[data-mix='%s'] td[data-block='%d']"
					.formatted(mix(spec), spec.get("blockSizeBytes").asInt()));
				assertThat(number(cell)).as("IOPS cell of phase %d", phase).isCloseTo(expected, within(0.051));
			}
			assertThat(page.locator("#snia-iops-table tbody tr").count()).isEqualTo(MIXES_READ_PERCENT.length);
			assertThat(page.getAttribute("#snia-iops-plot", "data-series")).isEqualTo("3");
			assertThat(page.getAttribute("#snia-iops-plot", "data-points")).isEqualTo("9");

			// Throughput (MB/s of each second, averaged) and QD1 latency (the phase's
			// merged histogram: mean over both directions, max, five nines).
			for (int phase = 0; phase < phases.size(); phase++) {
				JsonNode spec = job.get("plan").get(phase);
				String rw = spec.path("rw").asString();
				if (!"workload".equals(spec.get("kind").asString())) {
					continue;
				}
				if (rw.equals("read") || rw.equals("write")) {
					String row = page.textContent(
							"#snia-throughput-table tr[data-block='%d']".formatted(spec.get("blockSizeBytes").asInt()));
					assertThat(row).contains(grouped1(meanOf(jobId, phase, null, "mbps")));
				}
				else if (spec.path("queueDepth").asInt() == 1) {
					JsonNode analysed = phases.get(phase);
					double ios = 0;
					double latencySumNs = 0;
					for (String direction : List.of("readLatency", "writeLatency")) {
						if (analysed.hasNonNull(direction)) {
							ios += analysed.get(direction).get("count").asDouble();
							latencySumNs += analysed.get(direction).get("meanNs").asDouble()
									* analysed.get(direction).get("count").asDouble();
						}
					}
					String row = page.textContent("#snia-latency-table tr[data-block='%d'][data-mix='%s']"
						.formatted(spec.get("blockSizeBytes").asInt(), mix(spec)));
					assertThat(row).contains(grouped1(latencySumNs / ios / 1000))
						.contains("the phase's merged histogram");
					String fiveNines = analysed.hasNonNull("writeLatency") ? "writeLatency" : "readLatency";
					assertThat(row).contains(grouped1(analysed.get(fiveNines).get("p99_999Ns").asLong() / 1000.0));
				}
			}
			assertThat(page.locator("#snia-latency-table tbody tr").count()).isEqualTo(6);

			page.locator("#snia-section")
				.screenshot(new Locator.ScreenshotOptions().setPath(OUT.resolve("snia-pages.png")));
			page.locator("#snia-page-" + TRACKING_PHASE)
				.screenshot(new Locator.ScreenshotOptions().setPath(OUT.resolve("snia-iops-steady-state.png")));
			page.locator("#snia-iops-table")
				.screenshot(new Locator.ScreenshotOptions().setPath(OUT.resolve("snia-iops-matrix-table.png")));
			page.locator("#snia-iops-plot")
				.screenshot(new Locator.ScreenshotOptions().setPath(OUT.resolve("snia-iops-matrix-plot.png")));
		}
	}

	/** Purge, WIPC, tracking phase, IOPS matrix, throughput, QD1 latency. */
	private String submit() {
		List<String> phases = new ArrayList<>();
		phases.add("""
				{"name":"purge","kind":"purge","purgeMethod":"auto"}""");
		phases.add("""
				{"name":"wipc","kind":"precondition","rw":"write","blockSizeBytes":131072,"queueDepth":32,
				 "rangePercent":100,"passes":2}""");
		phases.add(workload("randwrite-4k-qd32", "randwrite", null, 4096, 32, 600));
		for (int readPercent : MIXES_READ_PERCENT) {
			for (int block : MATRIX_BLOCKS) {
				if (readPercent == 0 && block == 4096) {
					continue;
				}
				phases.add(workload("iops-%d-%d".formatted(readPercent, block), rwOf(readPercent), readPercent, block,
						32, 20));
			}
		}
		for (int block : new int[] { 131072, 1048576 }) {
			phases.add(workload("seqread-" + block, "read", null, block, 32, 20));
			phases.add(workload("seqwrite-" + block, "write", null, block, 32, 20));
		}
		for (int block : new int[] { 4096, 8192 }) {
			for (int readPercent : MIXES_READ_PERCENT) {
				phases.add(workload("lat-%d-%d".formatted(readPercent, block), rwOf(readPercent), readPercent, block, 1,
						20));
			}
		}
		ApiClient.Response submitted = api().post("alice", "/api/v1/qualifications", """
				{"drive":{"serial":"%s","runnerId":"%s"},"plan":{"phases":[%s]}}
				""".formatted(api().awaitDriveSerial(this.runnerId), this.runnerId, String.join(",", phases)));
		assertThat(submitted.status()).as(String.valueOf(submitted.body())).isEqualTo(201);
		return submitted.body().get("id").asString();
	}

	private static String workload(String name, String rw, Integer readPercent, int blockSizeBytes, int queueDepth,
			int runtimeS) {
		return """
				{"name":"%s","kind":"workload","rw":"%s",%s"blockSizeBytes":%d,"queueDepth":%d,"rangePercent":100,
				 "runtimeS":%d}""".formatted(name, rw,
				(rw.equals("randrw") ? "\"readPercent\":%d,".formatted(readPercent) : ""), blockSizeBytes, queueDepth,
				runtimeS);
	}

	private static String rwOf(int readPercent) {
		return (readPercent == 100) ? "randread" : (readPercent == 0) ? "randwrite" : "randrw";
	}

	private static String mix(JsonNode spec) {
		String rw = spec.get("rw").asString();
		int read = rw.endsWith("read") ? 100 : rw.endsWith("write") ? 0 : spec.get("readPercent").asInt();
		return read + "/" + (100 - read);
	}

	/**
	 * Mean per-second IOPS or MB/s of a phase, over its steady-state window when it
	 * holds.
	 */
	private double meanOf(String jobId, int phase, JsonNode steadyState, String figure) {
		long from = Long.MIN_VALUE;
		long to = Long.MAX_VALUE;
		if (steadyState != null && steadyState.get("end").get("holds").asBoolean()) {
			from = steadyState.get("end").get("window").get("windowStartS").asLong();
			to = steadyState.get("end").get("window").get("windowEndS").asLong();
		}
		double sum = 0;
		int n = 0;
		for (JsonNode second : api()
			.get("viewer", "/api/v1/qualifications/" + jobId + "/samples?phase=" + phase + "&limit=10000")
			.body()
			.get("items")) {
			long t = second.get("t").asLong();
			if (t > from && t <= to) {
				sum += figure.equals("iops") ? second.get("readIops").asDouble() + second.get("writeIops").asDouble()
						: second.get("readMBps").asDouble() + second.get("writeMBps").asDouble();
				n++;
			}
		}
		assertThat(n).as("seconds of phase " + phase).isPositive();
		return sum / n;
	}

	/** avg and slope b of y = a + b x over {x, y} points. */
	private static double[] leastSquares(List<double[]> points) {
		double mx = points.stream().mapToDouble((p) -> p[0]).average().orElseThrow();
		double my = points.stream().mapToDouble((p) -> p[1]).average().orElseThrow();
		double sxy = 0;
		double sxx = 0;
		for (double[] p : points) {
			sxy += (p[0] - mx) * (p[1] - my);
			sxx += (p[0] - mx) * (p[0] - mx);
		}
		return new double[] { my, sxy / sxx };
	}

	private JsonNode awaitVerdict(String jobId) {
		await().atMost(Duration.ofMinutes(15)).pollInterval(Duration.ofSeconds(2)).until(() -> {
			ApiClient.Response response = api().get("viewer", "/api/v1/qualifications/" + jobId);
			if (response.status() == 503) {
				// Elasticsearch briefly unavailable on a loaded machine: ask again.
				return false;
			}
			JsonNode job = response.body();
			assertThat(job.path("state").asString()).as(jobId + ": " + job.path("message").asString())
				.isIn("QUEUED", "DISPATCHED", "RUNNING", "COMPLETED");
			return job.has("verdict");
		});
		return api().get("viewer", "/api/v1/qualifications/" + jobId).body();
	}

	private ApiClient api() {
		return new ApiClient("http://127.0.0.1:" + this.port);
	}

	private static double number(String text) {
		return Double.parseDouble(text.replace(",", "").replaceAll("[^0-9.eE+-].*$", ""));
	}

	private static String grouped1(double value) {
		return String.format(Locale.US, "%,.1f", value);
	}

}
