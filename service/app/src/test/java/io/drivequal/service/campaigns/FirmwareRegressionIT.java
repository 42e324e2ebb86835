/*
 * A firmware regression found the way a user finds one, on real processes (Kafka broker,
 * Elasticsearch node, the C runner with simulated drives, the service over HTTP): a campaign of
 * three samples under firmware SIM0100 (test-enterprise-eager), one of three under SIM0200
 * (test-enterprise-eager-fw2: the same model, NAND program time 2400 us instead of 2000), and a
 * second SIM0100 campaign on other seeds. The compare endpoint's interval holds the true
 * difference that service/analysis/bench/firmware-regression.sh measured independently (8 seeds a
 * profile run on to 5 x the range: -15.27 %), and the A/A comparison reports no regression; the
 * fleet latency merges the samples' histograms.
 */
package io.drivequal.service.campaigns;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.HeadlessChromium;
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
import static org.awaitility.Awaitility.await;

@WithRealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "drivequal.campaigns.refresh-interval=500ms")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FirmwareRegressionIT {

	private static final Path OUT = Path.of("target", "firmware-regression");

	/**
	 * The true steady-state IOPS difference of SIM0200 against SIM0100 (mean IOPS after 4
	 * x the range, 8 seeds each: 8968.7 / 10585.6 - 1), from
	 * service/analysis/bench/firmware-regression.sh; those seeds' spread puts it within
	 * +-0.02 %.
	 */
	static final double TRUE_DIFFERENCE_PERCENT = -15.27;

	/**
	 * The truth's own uncertainty (percentage points): the interval must reach the truth
	 * to within it, as the interval of three samples is barely wider than it.
	 */
	static final double TRUTH_UNCERTAINTY_POINTS = 0.02;

	private static final String MODEL = "DQSIM Test Enterprise 8GB";

	/**
	 * Seeds no other test uses: a simulated drive's serial follows from profile and seed.
	 */
	private static final List<String> BASELINE = List.of("sim:test-enterprise-eager@341",
			"sim:test-enterprise-eager@342", "sim:test-enterprise-eager@343");

	private static final List<String> CANDIDATE = List.of("sim:test-enterprise-eager-fw2@351",
			"sim:test-enterprise-eager-fw2@352", "sim:test-enterprise-eager-fw2@353");

	private static final List<String> BASELINE_AGAIN = List.of("sim:test-enterprise-eager@344",
			"sim:test-enterprise-eager@345", "sim:test-enterprise-eager@346");

	@LocalServerPort
	private int port;

	private final RunnerAgents agents = new RunnerAgents();

	private List<JsonNode> drives;

	@BeforeAll
	void start() throws Exception {
		Files.createDirectories(OUT);
		String runnerId = "fwreg-" + UUID.randomUUID().toString().substring(0, 8);
		List<String> targets = new ArrayList<>(BASELINE);
		targets.addAll(CANDIDATE);
		targets.addAll(BASELINE_AGAIN);
		this.agents.start(runnerId, targets);
		this.drives = api().awaitDrives(runnerId, targets.size());
	}

	@AfterAll
	void stop() throws Exception {
		this.agents.close();
	}

	@Test
	void theComparisonHoldsTheKnownDifferenceAndAnAaComparisonReportsNoRegression() throws Exception {
		String baseline = create(BASELINE, "SIM0100");
		String candidate = create(CANDIDATE, "SIM0200");
		String again = create(BASELINE_AGAIN, "SIM0100");
		for (String id : List.of(baseline, candidate, again)) {
			JsonNode done = awaitCompleted(id);
			assertThat(done.get("counts").get("COMPLETED").asInt()).as(done.toString()).isEqualTo(3);
		}

		JsonNode ab = compare(candidate, baseline);
		Files.writeString(OUT.resolve("compare-ab.json"), ab.toPrettyString());
		JsonNode d = ab.get("difference");
		assertThat(ab.get("samplesUsed").get("candidate")).hasSize(3);
		assertThat(ab.get("samplesUsed").get("baseline")).hasSize(3);
		assertThat(d.get("lowerPercent").asDouble()).as(ab.toString())
			.isLessThanOrEqualTo(TRUE_DIFFERENCE_PERCENT + TRUTH_UNCERTAINTY_POINTS);
		assertThat(d.get("upperPercent").asDouble()).as(ab.toString())
			.isGreaterThanOrEqualTo(TRUE_DIFFERENCE_PERCENT - TRUTH_UNCERTAINTY_POINTS);
		assertThat(d.get("degreesOfFreedom").asDouble()).isGreaterThan(1);
		assertThat(d.get("roundsOnly").asBoolean()).isFalse();
		assertThat(ab.get("outcome").asString()).as("a 15 % slower firmware regresses beyond 5 %").isEqualTo("FAIL");

		JsonNode aa = compare(again, baseline);
		Files.writeString(OUT.resolve("compare-aa.json"), aa.toPrettyString());
		assertThat(aa.get("difference").get("lowerPercent").asDouble()).as(aa.toString()).isLessThanOrEqualTo(0);
		assertThat(aa.get("difference").get("upperPercent").asDouble()).as(aa.toString()).isGreaterThanOrEqualTo(0);
		JsonNode aaAtZero = api()
			.get("viewer",
					"/api/v1/campaigns/" + again + "/compare?baseline=" + baseline
							+ "&profile=phases-1&marginPercent=0")
			.body();
		assertThat(aaAtZero.get("outcome").asString()).as("no regression at 95 %").isNotEqualTo("FAIL");

		// Fleet latency: the random-write phase's write histograms of the three samples,
		// merged.
		JsonNode latency = api().get("viewer", "/api/v1/campaigns/" + candidate + "/latency").body();
		Files.writeString(OUT.resolve("latency.json"), latency.toPrettyString());
		JsonNode row = latency.get("profiles")
			.valueStream()
			.filter((r) -> r.get("phase").asString().equals("randwrite")
					&& r.get("direction").asString().equals("write"))
			.findFirst()
			.orElseThrow();
		assertThat(row.get("samples")).hasSize(3);
		long ios = 0;
		double lowest = Double.MAX_VALUE;
		double highest = 0;
		for (JsonNode sample : row.get("perSample")) {
			JsonNode figures = sample.get("figures");
			ios += figures.get("ios").asLong();
			lowest = Math.min(lowest, figures.get("p99_99Us").asDouble());
			highest = Math.max(highest, figures.get("p99_99Us").asDouble());
		}
		assertThat(row.get("fleet").get("ios").asLong()).isEqualTo(ios);
		// A percentile of pooled IOs lies between the samples' own.
		assertThat(row.get("fleet").get("p99_99Us").asDouble()).isBetween(lowest, highest);

		regressionView(candidate, baseline);
	}

	/**
	 * The campaign page's regression view, as a buyer uses it: baseline in, interval out.
	 */
	private void regressionView(String candidate, String baseline) {
		try (HeadlessChromium chromium = new HeadlessChromium();
				BrowserContext context = chromium.browser()
					.newContext(new com.microsoft.playwright.Browser.NewContextOptions().setViewportSize(1400, 1000))) {
			Page page = context.newPage();
			page.navigate("http://127.0.0.1:" + this.port + "/ui/campaigns/" + candidate);
			page.fill("#signin-user", "viewer");
			page.fill("#signin-password", "viewer-pw");
			page.click("#signin-submit");
			page.waitForSelector("#compare-form");
			page.fill("#compare-baseline", baseline);
			page.click("#compare-form button[type=submit]");
			page.waitForSelector("#comparison-difference");
			assertThat(page.textContent("#comparison-difference")).startsWith("-15.").contains("95 % interval");
			assertThat(page.textContent("#comparison-table")).contains("FAIL");
			page.locator("#comparison-section").scrollIntoViewIfNeeded();
			page.screenshot(new Page.ScreenshotOptions().setPath(OUT.resolve("regression-view.png")).setFullPage(true));
		}
	}

	private String create(List<String> targets, String firmware) {
		StringBuilder samples = new StringBuilder();
		for (String target : targets) {
			samples.append(samples.isEmpty() ? "" : ",")
				.append("{\"serial\":\"")
				.append(ApiClient.serialAt(this.drives, target))
				.append("\"}");
		}
		ApiClient.Response created = api().post("alice", "/api/v1/campaigns", """
				{"name":"firmware-regression-it","model":{"vendor":"DQSIM","model":"%s","firmware":"%s"},
				 "samples":[%s],
				 "profiles":[{"phases":[
				   {"name":"purge","kind":"purge","purgeMethod":"auto"},
				   {"name":"fill","kind":"precondition","rw":"write","blockSizeBytes":131072,"queueDepth":32,
				    "rangePercent":100,"passes":1},
				   {"name":"randwrite","kind":"workload","rw":"randwrite","blockSizeBytes":4096,"queueDepth":32,
				    "rangePercent":100,"runtimeS":600}]}]}
				""".formatted(MODEL, firmware, samples));
		assertThat(created.status()).as(String.valueOf(created.body())).isEqualTo(201);
		return created.body().get("id").asString();
	}

	private JsonNode compare(String candidate, String baseline) {
		ApiClient.Response response = api().get("viewer",
				"/api/v1/campaigns/" + candidate + "/compare?baseline=" + baseline + "&profile=phases-1");
		assertThat(response.status()).as(String.valueOf(response.body())).isEqualTo(200);
		return response.body();
	}

	private JsonNode awaitCompleted(String id) {
		JsonNode[] last = new JsonNode[1];
		await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofSeconds(2)).until(() -> {
			last[0] = api().get("viewer", "/api/v1/campaigns/" + id).body();
			return last[0].get("state").asString().equals("COMPLETED")
					|| last[0].get("state").asString().equals("FAILED");
		});
		return last[0];
	}

	private ApiClient api() {
		return new ApiClient("http://127.0.0.1:" + this.port);
	}

}
