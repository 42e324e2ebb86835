/*
 * The latency-at-load profile end to end on the real system: the C runner's simulated drive runs
 * the profile's sweep of open-loop read rates (10k to 1M IOPS offered, steps shortened to 10 s);
 * its phase results land in Elasticsearch; the analysis finds the knee and the first saturated
 * step and judges a buyer's line "read P99.99 <= 2.5 ms up to N IOPS per TB" to a verdict; the
 * runner stops the sweep at the saturated step (its sweepGroup) and reports the higher steps
 * skipped, which the analysis counts as saturated; the report page (Debian's chromium) draws the
 * knee chart with the knee marked and lists the skipped steps (screenshot under
 * target/latency-at-load).
 */
package io.drivequal.service.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LatencyAtLoadIT {

	static final Path OUT = Path.of("target", "latency-at-load");

	private static final List<String> STEPS = List.of("randread-4k-10k", "randread-4k-20k", "randread-4k-50k",
			"randread-4k-100k", "randread-4k-200k", "randread-4k-500k", "randread-4k-1m");

	@LocalServerPort
	private int port;

	private final RunnerAgents agents = new RunnerAgents();

	private String runnerId;

	@BeforeAll
	void start() throws Exception {
		Files.createDirectories(OUT);
		this.runnerId = "sweep-" + UUID.randomUUID().toString().substring(0, 8);
		// a seed no other test uses: one serial is one drive to the service
		this.agents.start(this.runnerId, List.of("sim:test-enterprise-eager@34"));
	}

	@AfterAll
	void stop() throws Exception {
		this.agents.close();
	}

	@Test
	void theSweepFindsTheKneeJudgesTheBuyersLineAndTheReportMarksIt() throws Exception {
		String serial = api().awaitDriveSerial(this.runnerId);
		StringBuilder overrides = new StringBuilder();
		for (String step : STEPS) {
			overrides.append(overrides.isEmpty() ? "" : ",").append("\"").append(step).append("\":{\"runtimeS\":10}");
		}
		// The simulated drive is 8 GB (0.008 TB): 5M IOPS per TB is 40k IOPS,
		// where its read P99.99 is ~0.5 ms; a knee at 20M per TB (160k IOPS)
		// would be past its saturation (~123k).
		// plan.sweep written badly: refused naming the rate that does not rise, nothing
		// run
		ApiClient.Response refused = api().post("alice", "/api/v1/qualifications", """
				{"drive":{"serial":"%s"},"plan":{"phases":[
				   {"name":"randread-4k","kind":"workload","runtimeS":10,"streams":[
				     {"name":"reads","rw":"randread","blockSizeBytes":4096,"queueDepth":256,
				      "rateIops":1000,"arrivals":"poisson"}]}],
				 "sweep":{"phase":"randread-4k","ratesIops":[10000,20000,20000]}}}
				""".formatted(serial));
		assertThat(refused.status()).as(String.valueOf(refused.body())).isEqualTo(400);
		assertThat(refused.body().get("errors").get(0).get("field").asString()).isEqualTo("plan.sweep.ratesIops[2]");
		ApiClient.Response submitted = api().post("alice", "/api/v1/qualifications", """
				{"drive":{"serial":"%s"},"plan":{"profile":"latency-at-load","phaseOverrides":{%s}},
				 "criteria":[
				   {"metric":"readIopsPerTbWithinP9999Of2500Us","comparator":"atLeast","limit":5000000},
				   {"metric":"kneeReadIopsPerTb","comparator":"atLeast","limit":20000000}]}
				""".formatted(serial, overrides));
		assertThat(submitted.status()).as(String.valueOf(submitted.body())).isEqualTo(201);
		String jobId = submitted.body().get("id").asString();
		await().atMost(Duration.ofMinutes(8)).pollInterval(Duration.ofSeconds(1)).until(() -> {
			JsonNode job = job(jobId);
			assertThat(job.path("state").asString()).as(jobId + ": " + job.path("failureReason").asString())
				.isIn("QUEUED", "DISPATCHED", "RUNNING", "COMPLETED");
			return job.has("analysis") && job.has("verdict");
		});
		JsonNode analysis = job(jobId).get("analysis");
		JsonNode sweep = analysis.get("latencyAtLoad");
		assertThat(sweep).as("the analysis found the sweep").isNotNull();
		assertThat(sweep.get("steps").size()).isEqualTo(STEPS.size());
		for (JsonNode step : sweep.get("steps")) {
			System.out.printf(
					"latency at load: %-18s offered %9.0f achieved %9.0f read response P99.99 %12.1f us%s%s%n",
					step.get("phaseName").asString(), step.get("offeredIops").asDouble(),
					step.get("achievedIops").asDouble(), step.path("readResponseP9999Us").asDouble(),
					step.get("saturated").asBoolean() ? " saturated" : "",
					step.hasNonNull("skipped") ? " " + step.get("skipped").asString() : "");
		}
		System.out.println("knee " + sweep.get("kneePhase") + " by " + sweep.get("kneeBy") + ", saturated from "
				+ sweep.get("saturatedPhase") + "; metrics " + analysis.get("metrics").get("kneeReadIopsPerTb") + " "
				+ analysis.get("metrics").get("readIopsPerTbWithinP9999Of2500Us"));
		System.out.println("verdict: " + job(jobId).get("verdict") + " " + analysis.get("verdict").get("criteria"));
		// Below saturation each step achieves its offer within 1 %; the drive's ~123k
		// IOPS
		// ceiling saturates 200k and beyond.
		for (JsonNode step : sweep.get("steps")) {
			double offered = step.get("offeredIops").asDouble();
			double achieved = step.get("achievedIops").asDouble();
			if (offered < 110_000) {
				assertThat(achieved).as(step.get("phaseName").asString()).isGreaterThanOrEqualTo(0.99 * offered);
				assertThat(step.get("saturated").asBoolean()).isFalse();
			}
			else {
				assertThat(step.get("saturated").asBoolean()).as(step.get("phaseName").asString()).isTrue();
			}
		}
		assertThat(sweep.get("saturatedPhase").asString()).isEqualTo("randread-4k-200k");
		// the runner stopped the sweep there: 500k and 1M never ran, each reported
		// skipped
		// naming the saturated step (phase 6), no IO, no samples expected
		for (int i = 0; i < STEPS.size(); i++) {
			JsonNode step = sweep.get("steps").get(i);
			JsonNode phase = analysis.get("phases").get(i + 2);
			assertThat(phase.get("phaseName").asString()).isEqualTo(STEPS.get(i));
			if (i < 5) {
				assertThat(step.hasNonNull("skipped")).as(STEPS.get(i)).isFalse();
				assertThat(phase.hasNonNull("skipped")).isFalse();
				continue;
			}
			assertThat(step.get("skipped").asString()).as(STEPS.get(i))
				.startsWith("skipped: sweep randread-4k saturated at phase 6 (randread-4k-200k");
			assertThat(step.get("achievedIops").asDouble()).isZero();
			assertThat(step.hasNonNull("readResponseP9999Us")).isFalse();
			assertThat(phase.get("skipped").get("reason").asString()).isEqualTo("sweep-saturated");
			assertThat(phase.get("skipped").get("saturatedPhaseIndex").asInt()).isEqualTo(6);
			assertThat(phase.get("samples").asInt()).isZero();
			assertThat(phase.get("expectedSamples").asLong()).isZero();
		}
		// the knee comes before the saturation: at 100k the tail has passed 3x its
		// low-load value (runner ctest streams.sweep-sim: 2,081 µs against 305 µs)
		assertThat(sweep.get("kneePhase").asString()).isEqualTo("randread-4k-100k");
		assertThat(sweep.get("kneeBy").asString()).isEqualTo("latency");
		// the buyer's line holds (up to at least 5M IOPS per TB); the knee is below 20M
		// per TB, so the second line fails: FAIL
		JsonNode criteria = analysis.get("verdict").get("criteria");
		assertThat(criteria.get(0).get("outcome").asString()).isEqualTo("PASS");
		assertThat(criteria.get(1).get("outcome").asString()).isEqualTo("FAIL");
		assertThat(job(jobId).get("verdict").asString()).isEqualTo("FAIL");

		try (HeadlessChromium chromium = new HeadlessChromium();
				BrowserContext context = chromium.browser()
					.newContext(new com.microsoft.playwright.Browser.NewContextOptions().setViewportSize(1280, 900))) {
			Page page = signedIn(context);
			page.navigate(url("/ui/jobs/" + jobId));
			page.waitForSelector("#report[data-ready]", new Page.WaitForSelectorOptions().setTimeout(60_000));
			assertThat(page.getAttribute("#streams-section", "data-knee-phase"))
				.isEqualTo(sweep.get("kneePhase").asString());
			// one point per step that ran and series: P99 and P99.99, service and
			// response
			assertThat(page.getAttribute("#streams-knee-chart", "data-points")).isEqualTo(String.valueOf(4 * 5));
			assertThat(page.locator("#streams-knee-table tbody tr").count()).isEqualTo(STEPS.size());
			assertThat(page.textContent("#streams-knee-table tr[data-phase=" + sweep.get("kneePhase").asString() + "]"))
				.contains("knee");
			assertThat(page.getAttribute("#streams-knee-table tr[data-phase=randread-4k-1m]", "data-saturated"))
				.isEqualTo("true");
			assertThat(page.getAttribute("#streams-knee-table tr[data-phase=randread-4k-1m]", "data-skipped"))
				.isEqualTo("true");
			assertThat(page.getAttribute("#streams-knee-table tr[data-phase=randread-4k-200k]", "data-skipped"))
				.isEqualTo("false");
			assertThat(page.textContent("#streams-knee-table tr[data-phase=randread-4k-500k]"))
				.contains("skipped: saturated at randread-4k-200k");
			// no stream panels for a skipped step: a heading says why
			assertThat(page.textContent("#streams-section h3[data-skipped-phase=randread-4k-1m]"))
				.contains("skipped: sweep randread-4k saturated at phase 6");
			assertThat(page.getAttribute("#streams-section", "data-streams")).isEqualTo("5");
			// the phases table says why each skipped phase ended with nothing
			assertThat(page.textContent("#phases-table"))
				.contains("skipped: sweep randread-4k saturated at phase 6 (randread-4k-200k");
			assertThat(page.textContent("#streams-sweep-summary")).contains("Knee at")
				.contains("First saturated step")
				.contains("Skipped after saturation (the runner stopped the sweep): randread-4k-500k");
			page.locator("#streams-sweep-summary")
				.screenshot(new com.microsoft.playwright.Locator.ScreenshotOptions()
					.setPath(OUT.resolve("latency-at-load-summary.png")));
			page.evaluate("document.querySelector('#streams-sweep-summary').scrollIntoView()");
			page.screenshot(
					new Page.ScreenshotOptions().setPath(OUT.resolve("latency-at-load.png")).setFullPage(false));
		}
	}

	private Page signedIn(BrowserContext context) {
		Page page = context.newPage();
		page.navigate(url("/ui/"));
		page.fill("#signin-user", "viewer");
		page.fill("#signin-password", "viewer-pw");
		page.click("#signin-submit");
		page.waitForSelector("#jobs-table");
		return page;
	}

	private JsonNode job(String jobId) {
		return api().get("viewer", "/api/v1/qualifications/" + jobId).body();
	}

	private String url(String path) {
		return "http://127.0.0.1:" + this.port + path;
	}

	private ApiClient api() {
		return new ApiClient("http://127.0.0.1:" + this.port);
	}

}
