/*
 * The web report in a real browser against the real system: Debian's chromium (Playwright) signs
 * in, submits through the form, follows a job live over the sample stream, reads the finished
 * report of a consistency-2000s run on the C runner's simulated drive (three charts, tables,
 * verdict; screenshot, PDF and self-contained HTML under target/web-report), downloads the samples
 * CSV, and overlays two spare-area variants in the compare view.
 */
package io.drivequal.service.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Download;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.Media;
import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.HeadlessChromium;
import io.drivequal.service.it.RunnerAgents;
import io.drivequal.service.it.WithRealInfrastructure;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

@WithRealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WebReportIT {

	static final Path OUT = Path.of("target", "web-report");

	/** The series colour of the first job (Charts.PALETTE[0], #1f5fbf). */
	private static final String COUNT_SERIES_PIXELS = """
			(selector) => {
			  const canvas = document.querySelector(selector + ' canvas');
			  const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
			  let n = 0;
			  for (let i = 0; i < data.length; i += 4) {
			    if (Math.abs(data[i] - 31) < 30 && Math.abs(data[i + 1] - 95) < 30 && Math.abs(data[i + 2] - 191) < 30) n++;
			  }
			  return n;
			}""";

	@LocalServerPort
	private int port;

	private final RunnerAgents agents = new RunnerAgents();

	private HeadlessChromium chromium;

	private String runnerId;

	/** Set by the report test, compared by the compare test. */
	private String fullRangeJob;

	private String spareAreaJob;

	@BeforeAll
	void start() throws Exception {
		Files.createDirectories(OUT);
		this.runnerId = "web-" + UUID.randomUUID().toString().substring(0, 8);
		// Seeds no other test uses: a simulated drive's serial follows from its profile
		// and seed, and one serial is one drive to the service, its queue and its
		// history.
		this.agents.start(this.runnerId, List.of("sim:test-client-7pct@1", "sim:test-client-7pct@3", "null:1g"));
		this.chromium = new HeadlessChromium();
		await().atMost(Duration.ofSeconds(60)).until(() -> drives().size() == 3);
	}

	@AfterAll
	void stop() throws Exception {
		if (this.chromium != null) {
			this.chromium.close();
		}
		this.agents.close();
	}

	@Test
	@Order(1)
	void theJobPageDrawsSamplesAsTheStreamDeliversThemThenShowsTheReport() {
		// The null engine runs in real time: 30 s of live samples.
		ApiClient.Response submitted = api().post("alice", "/api/v1/qualifications", """
				{"drive":{"serial":"%s","runnerId":"%s"},
				 "plan":{"phases":[{"name":"randwrite","kind":"workload","rw":"randwrite","blockSizeBytes":4096,
				                    "queueDepth":32,"rangePercent":100,"runtimeS":30}]}}
				""".formatted(nullDriveSerial(), this.runnerId));
		assertThat(submitted.status()).as(String.valueOf(submitted.body())).isEqualTo(201);
		String jobId = submitted.body().get("id").asString();
		await().atMost(Duration.ofSeconds(60)).until(() -> "RUNNING".equals(job(jobId).path("state").asString()));
		try (BrowserContext context = context()) {
			Page page = signedIn(context, "viewer");
			page.navigate(url("/ui/jobs/" + jobId));
			page.waitForSelector("#chart-live[data-points]", new Page.WaitForSelectorOptions().setTimeout(60_000));
			int first = Integer.parseInt(page.getAttribute("#chart-live", "data-points"));
			page.waitForFunction("(n) => Number(document.querySelector('#chart-live')?.dataset.points) > n", first,
					new Page.WaitForFunctionOptions().setTimeout(60_000));
			assertThat(page.textContent("#live-count")).contains("seconds received over the stream");
			assertThat(page.textContent("#job-state")).isEqualTo("RUNNING");
			// The ETA says how sure it is: a timed phase on a drive with a real clock
			// ends on
			// that clock; each phase left has its row.
			page.waitForSelector("#eta-sureness[data-basis]");
			assertThat(page.getAttribute("#eta-sureness", "data-basis")).isEqualTo("plan");
			assertThat(page.textContent("#eta-sureness")).contains("plan (timed phase)");
			assertThat(page.textContent("#eta-phases tr[data-phase='0']")).contains("0 randwrite (running)")
				.contains("plan (timed phase)");
			// When the job ends and is analysed, the same page turns into its report.
			page.waitForSelector("#report[data-ready]", new Page.WaitForSelectorOptions().setTimeout(180_000));
			JsonNode job = job(jobId);
			assertThat(page.textContent("#verdict")).isEqualTo(job.get("verdict").asString());
			assertThat(page.getAttribute("#chart-whole", "data-points")).isEqualTo("30");
		}
	}

	@Test
	@Order(2)
	void aConsistencyRunOnTheSimulatedDriveGivesAReportWithTheThreeChartsTablesAndVerdict() throws Exception {
		this.spareAreaJob = submitByApi(serial("sim:test-client-7pct@3"), "consistency-2000s-op25");
		try (BrowserContext context = context()) {
			Page page = signedIn(context, "alice");
			page.navigate(url("/ui/submit"));
			page.waitForSelector("#submit-form");
			page.selectOption("#submit-drive", serial("sim:test-client-7pct@1"));
			page.selectOption("#submit-profile", "consistency-2000s");
			page.fill("#submit-rawNandBytes", "10240000000");
			page.fill("#submit-ratedPeCycles", "3000");
			page.fill("#submit-warrantyYears", "5");
			page.click("#add-criterion");
			page.click("#submit-button");
			page.waitForURL("**/ui/jobs/q-*", new Page.WaitForURLOptions().setTimeout(30_000));
			this.fullRangeJob = page.url().substring(page.url().lastIndexOf('/') + 1);

			page.waitForSelector("#report[data-ready]", new Page.WaitForSelectorOptions().setTimeout(360_000));
			JsonNode job = job(this.fullRangeJob);
			JsonNode phase = job.get("analysis").get("phases").get(2);
			JsonNode iops = phase.get("iops");
			assertThat(phase.get("samples").asInt()).isEqualTo(2000);

			// The three charts: the whole run (log), the steady state from t = 1400 s
			// (log,
			// then linear), each drawn with its points.
			assertThat(page.getAttribute("#chart-whole", "data-points")).isEqualTo("2000");
			assertThat(page.getAttribute("#chart-whole", "data-scale")).isEqualTo("log");
			assertThat(page.getAttribute("#chart-steady-log", "data-points")).isEqualTo("601");
			assertThat(page.getAttribute("#chart-steady-log", "data-first-t")).isEqualTo("1400");
			assertThat(page.getAttribute("#chart-steady-log", "data-scale")).isEqualTo("log");
			assertThat(page.getAttribute("#chart-steady-linear", "data-points")).isEqualTo("601");
			assertThat(page.getAttribute("#chart-steady-linear", "data-scale")).isEqualTo("linear");
			for (String chart : List.of("#chart-whole", "#chart-steady-log", "#chart-steady-linear")) {
				assertThat((Integer) page.evaluate(COUNT_SERIES_PIXELS, chart)).as(chart + " drawn points")
					.isGreaterThan(200);
			}
			assertThat(Integer.parseInt(page.getAttribute("#chart-latency", "data-points"))).isGreaterThan(0);
			assertThat(page.textContent("#chart-whole .u-legend")).contains("DQSIM");

			// The verdict and each criterion's measured value against its limit.
			assertThat(page.textContent("#verdict")).isEqualTo(job.get("verdict").asString());
			JsonNode criteria = job.get("analysis").get("verdict").get("criteria");
			assertThat(page.locator("#criteria-table tbody tr").count()).isEqualTo(3);
			for (int i = 0; i < criteria.size(); i++) {
				String cells = page.locator("#criteria-table tbody tr").nth(i).textContent();
				assertThat(cells).contains(criteria.get(i).get("outcome").asString());
				assertThat(cells).contains(criteria.get(i).get("explanation").asString());
			}

			// The tables hold the API's figures.
			// Steady state: the end window's figures (or why there are none), where it
			// was
			// reached, and the round table marking every round not yet eligible.
			JsonNode steadyState = iops.get("steadyState");
			JsonNode end = steadyState.get("end");
			assertThat(page.textContent("#ss-end")).isEqualTo(end.get("holds").asBoolean() ? "yes" : "no");
			if (end.get("holds").asBoolean()) {
				assertThat(number(page.textContent("#ss-avg"))).isCloseTo(end.get("window").get("avgIops").asDouble(),
						within(0.05));
			}
			else {
				assertThat(page.textContent("#ss-avg")).startsWith("none");
				assertThat(page.textContent("#ss-end-failures"))
					.contains(end.get("failures").get(0).get("message").asString());
			}
			assertThat(page.textContent("#ss-reached"))
				.startsWith(steadyState.get("reached").asBoolean() ? "yes" : "no");
			// The answer in one line, and the evidence that decided the fresh state's
			// end: the
			// simulated drive reports its media writes, so the page names them.
			assertThat(page.textContent("#ss-answer")).isEqualTo(steadyState.get("answer").asString());
			assertThat(page.getAttribute("#ss-evidence", "data-evidence"))
				.isEqualTo(steadyState.get("freshState").get("evidence").asString());
			assertThat(page.textContent("#ss-evidence"))
				.contains(steadyState.get("freshState").get("statement").asString());
			assertThat(page.locator("#rounds-table tbody tr").count()).isEqualTo(steadyState.get("rounds").size());
			int ineligible = 0;
			for (JsonNode round : steadyState.get("rounds")) {
				ineligible += round.get("eligible").asBoolean() ? 0 : 1;
			}
			assertThat(ineligible).as("rounds of the fresh state").isPositive();
			assertThat(page.locator("#rounds-table tbody tr.ineligible").count()).isEqualTo(ineligible);
			assertThat(page.locator("#rounds-table tbody tr[data-round='0']").getAttribute("data-eligible"))
				.isEqualTo("false");
			page.locator("#steady-state-section")
				.screenshot(new Locator.ScreenshotOptions().setPath(OUT.resolve("consistency-2000s-steady-state.png")));
			String ratios = page.textContent("#consistency-table tr[data-figure=ratio]");
			assertThat(ratios).contains(fixed4(iops.get("fixedWindowConsistency").get("ratio").asDouble()));
			String qos = page.textContent("#qos-table tr[data-phase=randwrite-4k-qd32][data-direction=write]");
			assertThat(qos).contains(grouped1(phase.get("writeLatency").get("p99Ns").asLong() / 1000.0));
			assertThat(page.textContent("#waf-table tr[data-phase=randwrite-4k-qd32]"))
				.contains(fixed3(phase.get("waf").get("waf").get("number").asDouble()));
			assertThat(page.textContent("#recovery-table")).contains("unknown: the job has no seq-clean");
			// What ran and where it departs from SNIA PTS: the simulated drive's
			// strongest
			// purge, and a seeds' test, which is a fixed run rather than PTS rounds.
			assertThat(page.getAttribute("#purge-table tr[data-phase=purge]", "data-method"))
				.isEqualTo("sanitize-block");
			assertThat(page.getAttribute("#conformance-table tr[data-phase=randwrite-4k-qd32]", "data-conformant"))
				.isEqualTo("false");
			assertThat(page.textContent("#conformance-table tr[data-phase=randwrite-4k-qd32]"))
				.contains("SNIA PTS: not conformant: a fixed 2000 s run, not PTS rounds to steady state")
				.contains("sanitize-block")
				.contains("none (no volatile write cache)");

			page.screenshot(new Page.ScreenshotOptions().setPath(OUT.resolve("consistency-2000s-report.png"))
				.setFullPage(true));
			page.locator("#charts-section")
				.screenshot(new Locator.ScreenshotOptions().setPath(OUT.resolve("consistency-2000s-charts.png")));

			// Exports: the samples CSV has one row per second, the HTML file renders
			// offline.
			Download csv = page.waitForDownload(() -> page.click("#export-samples-csv"));
			Path csvFile = OUT.resolve("consistency-2000s-samples.csv");
			csv.saveAs(csvFile);
			List<String> lines = Files.readAllLines(csvFile);
			long reported = 0;
			for (JsonNode p : job.get("analysis").get("phases")) {
				reported += p.get("samples").asLong();
			}
			assertThat(lines).hasSize(1 + (int) reported);
			assertThat(lines.stream().filter((line) -> line.startsWith("2,randwrite-4k-qd32,"))).hasSize(2000);

			Download html = page.waitForDownload(() -> page.click("#export-html"));
			Path htmlFile = OUT.resolve("consistency-2000s-report.html");
			html.saveAs(htmlFile);

			page.emulateMedia(new Page.EmulateMediaOptions().setMedia(Media.PRINT));
			page.evaluate("Charts.resizeAll(true)");
			page.pdf(new Page.PdfOptions().setPath(OUT.resolve("consistency-2000s-report.pdf"))
				.setFormat("A4")
				.setPrintBackground(true));
			assertThat(Files.size(OUT.resolve("consistency-2000s-report.pdf"))).isGreaterThan(10_000);

			try (BrowserContext offline = context()) {
				List<String> requested = new ArrayList<>();
				offline.route("**/*", (route) -> {
					if (route.request().url().startsWith("file:")) {
						route.resume();
					}
					else {
						requested.add(route.request().url());
						route.abort();
					}
				});
				Page file = offline.newPage();
				file.navigate(htmlFile.toAbsolutePath().toUri().toString());
				file.waitForSelector("#report[data-ready]");
				assertThat(file.getAttribute("#chart-whole", "data-points")).isEqualTo("2000");
				assertThat(file.getAttribute("#chart-steady-linear", "data-points")).isEqualTo("601");
				assertThat(file.textContent("#verdict")).isEqualTo(job.get("verdict").asString());
				assertThat(requested).as("requests of the self-contained file").isEmpty();
			}
		}
	}

	@Test
	@Order(3)
	void theJobsListLeadsToTheCompareViewThatOverlaysBothSpareAreas() {
		assertThat(this.fullRangeJob).as("set by the report test").isNotNull();
		JsonNode spare = awaitVerdict(this.spareAreaJob);
		JsonNode full = job(this.fullRangeJob);
		try (BrowserContext context = context()) {
			Page page = signedIn(context, "viewer");
			page.navigate(url("/ui/"));
			page.fill("#filter-submitter", "alice");
			page.selectOption("#filter-state", "COMPLETED");
			page.click("#filters button[type=submit]");
			page.waitForSelector("tr[data-job='" + this.spareAreaJob + "']");
			page.waitForSelector("tr[data-job='" + this.fullRangeJob + "']");
			assertThat(page.textContent("tr[data-job='" + this.spareAreaJob + "']")).contains("COMPLETED")
				.contains("100.0 %")
				.contains(spare.get("verdict").asString());
			String spareSerial = serial("sim:test-client-7pct@3");
			page.fill("#filter-serial", spareSerial);
			page.click("#filters button[type=submit]");
			page.waitForSelector("#jobs-table tbody tr:not([data-job='" + this.fullRangeJob + "'])");
			page.waitForFunction("(id) => !document.querySelector(`tr[data-job='${id}']`)", this.fullRangeJob);
			for (String row : page.locator("#jobs-table tbody tr").allTextContents()) {
				assertThat(row).contains(spareSerial);
			}
			assertThat(page.locator("tr[data-job='" + this.spareAreaJob + "']").count()).isEqualTo(1);
			page.fill("#filter-serial", "");
			page.click("#filters button[type=submit]");
			page.waitForSelector("tr[data-job='" + this.fullRangeJob + "']");
			page.check("tr[data-job='" + this.fullRangeJob + "'] input.pick");
			page.check("tr[data-job='" + this.spareAreaJob + "'] input.pick");
			page.click("#compare-picked");

			page.waitForSelector("#main[data-ready]", new Page.WaitForSelectorOptions().setTimeout(60_000));
			assertThat(page.url()).contains("/ui/compare?jobs=");
			for (String chart : List.of("#chart-whole", "#chart-steady-log", "#chart-steady-linear")) {
				assertThat(page.getAttribute(chart, "data-series")).isEqualTo("2");
			}
			assertThat(page.getAttribute("#chart-whole", "data-points")).isEqualTo("4000");
			assertThat(page.getAttribute("#chart-steady-log", "data-points")).isEqualTo("1202");
			assertThat(page.locator("#chart-whole .u-legend .u-series").count()).isEqualTo(2);
			String legend = page.textContent("#chart-whole .u-legend");
			assertThat(legend).contains("consistency-2000s-op25 (75 % of LBAs)").contains("consistency-2000s");
			String ratios = page.textContent("#compare-table tr[data-figure=consistencyRatio]");
			for (JsonNode job : List.of(full, spare)) {
				JsonNode consistency = job.get("analysis")
					.get("phases")
					.get(2)
					.get("iops")
					.get("steadyStateConsistency");
				assertThat(ratios).contains((consistency != null && !consistency.isNull())
						? fixed4(consistency.get("ratio").asDouble()) : "—");
			}
			page.screenshot(
					new Page.ScreenshotOptions().setPath(OUT.resolve("compare-spare-area.png")).setFullPage(true));
			page.locator("#chart-steady-linear")
				.screenshot(new Locator.ScreenshotOptions().setPath(OUT.resolve("compare-spare-area-chart.png")));
			// A job's button hides its series on every chart, like the reviews' drive
			// buttons.
			page.click("#compare-toggles button[data-index='1']");
			assertThat(page.getAttribute("#compare-toggles button[data-index='1']", "class")).contains("off");
			assertThat(page.locator("#chart-whole .u-legend .u-series.u-off").count()).isEqualTo(1);
			assertThat(page.locator("#chart-steady-linear .u-legend .u-series.u-off").count()).isEqualTo(1);
		}
	}

	private BrowserContext context() {
		return this.chromium.browser()
			.newContext(new com.microsoft.playwright.Browser.NewContextOptions().setViewportSize(1280, 900)
				.setAcceptDownloads(true));
	}

	@Test
	@Order(4)
	void theDrivesPageShowsWhatEachDriveCanDoAndWhyNot() {
		try (BrowserContext context = context()) {
			Page page = signedIn(context, "viewer");
			page.navigate(url("/ui/drives"));
			String sim = "#drives-table tr[data-serial='" + serial("sim:test-client-7pct@1") + "']";
			page.waitForSelector(sim);
			assertThat(page.textContent(sim + " li[data-capability=ocp-smart-c0h]")).contains("yes");
			assertThat(page.textContent(sim + " li[data-capability=sanitize-crypto]"))
				.contains("no — the drive lacks it");
			String nullDrive = "#drives-table tr[data-serial='" + nullDriveSerial() + "']";
			assertThat(page.getAttribute(nullDrive + " li[data-capability=smart]", "data-missing"))
				.isEqualTo("engine-cannot");
			assertThat(page.textContent(nullDrive + " li[data-capability=format-user-data]"))
				.contains("the engine cannot");
		}
	}

	/**
	 * Signs in through the page's form; the credentials stay in the tab's sessionStorage.
	 */
	private Page signedIn(BrowserContext context, String user) {
		Page page = context.newPage();
		page.navigate(url("/ui/"));
		page.fill("#signin-user", user);
		page.fill("#signin-password", user + "-pw");
		page.click("#signin-submit");
		page.waitForSelector("#jobs-table");
		assertThat(page.textContent("header.top")).contains("signed in as " + user);
		return page;
	}

	private String submitByApi(String serial, String profile) {
		ApiClient.Response submitted = api().post("alice", "/api/v1/qualifications", """
				{"drive":{"serial":"%s"},"plan":{"profile":"%s"},
				 "spec":{"rawNandBytes":10240000000,"ratedPeCycles":3000,"warrantyYears":5},
				 "criteria":[{"metric":"steadyStateIops","comparator":"atLeast","limit":20000}]}
				""".formatted(serial, profile));
		assertThat(submitted.status()).as(String.valueOf(submitted.body())).isEqualTo(201);
		return submitted.body().get("id").asString();
	}

	private JsonNode awaitVerdict(String jobId) {
		await().atMost(Duration.ofMinutes(6)).pollInterval(Duration.ofSeconds(1)).until(() -> {
			JsonNode job = job(jobId);
			assertThat(job.path("state").asString()).as(jobId + ": " + job.path("message").asString())
				.isIn("QUEUED", "DISPATCHED", "RUNNING", "COMPLETED");
			return job.has("verdict");
		});
		return job(jobId);
	}

	private JsonNode job(String jobId) {
		return api().get("viewer", "/api/v1/qualifications/" + jobId).body();
	}

	private List<JsonNode> drives() {
		List<JsonNode> found = new ArrayList<>();
		for (JsonNode drive : api().get("viewer", "/api/v1/drives").body()) {
			if (this.runnerId.equals(drive.get("drive").get("runnerId").asString())) {
				found.add(drive);
			}
		}
		return found;
	}

	private String nullDriveSerial() {
		return drives().stream()
			.filter((drive) -> "null".equals(drive.get("drive").get("engine").asString()))
			.findFirst()
			.orElseThrow()
			.get("drive")
			.get("serial")
			.asString();
	}

	private String serial(String transportAddress) {
		return drives().stream()
			.filter((drive) -> transportAddress.equals(drive.get("drive").get("transportAddress").asString()))
			.findFirst()
			.orElseThrow()
			.get("drive")
			.get("serial")
			.asString();
	}

	private String url(String path) {
		return "http://127.0.0.1:" + this.port + path;
	}

	private ApiClient api() {
		return new ApiClient("http://127.0.0.1:" + this.port);
	}

	private static double number(String text) {
		return Double.parseDouble(text.replace(",", "").replaceAll("[^0-9.eE+-].*$", ""));
	}

	/** The page's formats (en-US): 1 fraction digit grouped, 3 or 4 fraction digits. */
	private static String grouped1(double value) {
		return String.format(java.util.Locale.US, "%,.1f", value);
	}

	private static String fixed3(double value) {
		return trimmed(String.format(java.util.Locale.US, "%,.3f", value), 2);
	}

	private static String fixed4(double value) {
		return trimmed(String.format(java.util.Locale.US, "%,.4f", value), 2);
	}

	/** toLocaleString with minimumFractionDigits 2 drops trailing zeros beyond that. */
	private static String trimmed(String text, int minFractionDigits) {
		int dot = text.indexOf('.');
		int end = text.length();
		while (end > dot + 1 + minFractionDigits && text.charAt(end - 1) == '0') {
			end--;
		}
		return text.substring(0, end);
	}

}
