/*
 * Health during the run, through the real stack: the C runner's agent qualifies the simulated drive
 * that overheats (sim:test-thermal-throttle) with health polled every second; the readings travel
 * as job events over Kafka, land in drivequal-health in Elasticsearch, and the analysis judges the
 * four health criteria and finds the throttled seconds, compared here with the drive's own count.
 * Headless Chromium draws the report's temperature chart (target/web-report/health-*.png).
 */
package io.drivequal.service.analysis;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import io.drivequal.service.ingest.HealthReading;
import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.HeadlessChromium;
import io.drivequal.service.it.RunnerAgents;
import io.drivequal.service.it.WithRealInfrastructure;
import io.drivequal.service.qualification.JobEventDocument;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@WithRealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class HealthIT {

	private static final Path OUT = Path.of("target", "web-report");

	private static final int PHASE_S = 120;

	@LocalServerPort
	private int port;

	@Autowired
	private ElasticsearchClient elasticsearch;

	private final RunnerAgents agents = new RunnerAgents();

	@AfterEach
	void stopAgents() throws Exception {
		this.agents.close();
		// back to refreshing every second (Elasticsearch's default interval; the template
		// sets none, and the client cannot send the null that would restore "none")
		this.elasticsearch.indices()
			.putSettings((put) -> put.index(HealthReading.INDEX)
				.settings((settings) -> settings.refreshInterval((interval) -> interval.time("1s"))));
	}

	@Test
	void anOverheatingDriveThrottlesAndTheHealthCriteriaJudgeIt() throws Exception {
		// No background refresh of the readings: only the analysis's own refresh makes
		// them
		// searchable, so an analysis that read before it would find none (as it once did
		// in CI, where a refresh came late).
		this.elasticsearch.indices()
			.putSettings((put) -> put.index(HealthReading.INDEX)
				.settings((settings) -> settings.refreshInterval((interval) -> interval.time("-1"))));
		String runnerId = "health-" + UUID.randomUUID().toString().substring(0, 8);
		this.agents.start(runnerId, List.of("sim:test-thermal-throttle@3"), "\"healthPollIntervalS\":1");
		String serial = api().awaitDriveSerial(runnerId);
		ApiClient.Response submitted = api().post("alice", "/api/v1/qualifications", """
				{"drive":{"serial":"%s"},
				 "plan":{"phases":[{"name":"purge","kind":"purge","purgeMethod":"auto"},
				                   {"name":"randwrite-hot","kind":"workload","rw":"randwrite","blockSizeBytes":4096,
				                    "queueDepth":32,"rangePercent":100,"runtimeS":%d}]},
				 "criteria":[{"metric":"maxTemperatureC","comparator":"atMost","limit":72},
				             {"metric":"criticalWarning","comparator":"atMost","limit":0},
				             {"metric":"newMediaErrors","comparator":"atMost","limit":0},
				             {"metric":"thermalThrottleSeconds","comparator":"atMost","limit":10}]}
				""".formatted(serial, PHASE_S));
		assertThat(submitted.status()).as(String.valueOf(submitted.body())).isEqualTo(201);
		String jobId = submitted.body().get("id").asString();
		JsonNode job = awaitVerdict(jobId);

		// Every reading is indexed: one at the workload's start and one per second of it,
		// none while the purge ran.
		List<JsonNode> readings = list(api().get("viewer", "/api/v1/qualifications/" + jobId + "/health").body());
		long indexed = this.elasticsearch.count(
				(count) -> count.index(HealthReading.INDEX).query((q) -> q.term((t) -> t.field("jobId").value(jobId))))
			.count();
		long events = this.elasticsearch.count((count) -> count.index(JobEventDocument.INDEX)
			.query((q) -> q.bool((b) -> b.filter((f) -> f.term((t) -> t.field("jobId").value(jobId)))
				.filter((f) -> f.term((t) -> t.field("type").value("health"))))))
			.count();
		assertThat(readings).hasSize(PHASE_S + 1);
		assertThat(indexed).isEqualTo(readings.size()).isEqualTo(events);
		assertThat(readings).allSatisfy((reading) -> {
			assertThat(reading.get("phaseIndex").asInt()).isEqualTo(1);
			assertThat(reading.get("available").asBoolean()).isTrue();
			assertThat(reading.get("source").asString()).isEqualTo("sim");
			assertThat(reading.get("thermalManagementTemp1K").asInt()).isEqualTo(343);
		});

		// The drive's own count is the truth: second t throttled when its count grew
		// between the readings at t - 1 s and t.
		Map<Long, Long> countAt = new HashMap<>();
		readings.forEach((r) -> countAt.put(r.get("elapsedMs").asLong() / 1000,
				r.get("thermalManagement").get("temp1TimeS").asLong()));
		Set<Long> truth = new HashSet<>();
		for (long t = 1; t <= PHASE_S; t++) {
			if (countAt.get(t) > countAt.get(t - 1)) {
				truth.add(t);
			}
		}
		JsonNode health = job.get("analysis").get("health");
		JsonNode throttle = health.get("phases").get(1).get("throttle");
		Set<Long> found = new HashSet<>();
		for (JsonNode interval : throttle.get("intervals")) {
			for (long t = interval.get("firstT").asLong(); t <= interval.get("lastT").asLong(); t++) {
				found.add(t);
			}
		}
		Set<Long> both = new HashSet<>(found);
		both.retainAll(truth);
		// The analysis read every reading: none of them was still unsearchable.
		assertThat(health.path("summary").path("readings").asInt()).as("the analysis' health: %s", health)
			.isEqualTo(readings.size());
		assertThat(health.path("maxTemperatureC").has("number")).as("the analysis' health: %s", health).isTrue();
		System.out.printf(
				"health IT %s: %d readings indexed; max %.2f C; drive counted %d s throttled (%d seconds), detector %d s "
						+ "(%d of the drive's, %d more); intervals %s; verdict %s%n",
				jobId, indexed, health.get("maxTemperatureC").get("number").asDouble(),
				throttle.get("driveThrottledS").asLong(), truth.size(), found.size(), both.size(),
				found.size() - both.size(), throttle.get("intervals"), job.get("verdict").asString());
		assertThat(throttle.get("thresholdK").asInt()).isEqualTo(343);
		assertThat(throttle.get("thresholdSource").asString()).isEqualTo("TMT1");
		assertThat(truth).hasSizeGreaterThan(PHASE_S / 2);
		assertThat(found).containsAll(truth);
		// at most the second it began throttling in, which the drive counts from the next
		assertThat(found.size() - both.size()).isLessThanOrEqualTo(1);

		// The verdict: hot but within 72 C, no warning, no media error; throttled far
		// beyond 10 s.
		Map<String, JsonNode> byMetric = new HashMap<>();
		for (JsonNode criterion : job.get("analysis").get("verdict").get("criteria")) {
			byMetric.put(criterion.get("criterion").get("metric").asString(), criterion);
		}
		assertThat(byMetric.get("MAX_TEMPERATURE_C").get("outcome").asString()).isEqualTo("PASS");
		assertThat(byMetric.get("MAX_TEMPERATURE_C").get("measured").asDouble()).isBetween(69.0, 72.0);
		assertThat(byMetric.get("CRITICAL_WARNING").get("outcome").asString()).isEqualTo("PASS");
		assertThat(byMetric.get("CRITICAL_WARNING").get("measured").asDouble()).isZero();
		assertThat(byMetric.get("NEW_MEDIA_ERRORS").get("outcome").asString()).isEqualTo("PASS");
		assertThat(byMetric.get("THERMAL_THROTTLE_SECONDS").get("outcome").asString()).isEqualTo("FAIL");
		assertThat(byMetric.get("THERMAL_THROTTLE_SECONDS").get("measured").asLong()).isEqualTo(found.size());
		assertThat(job.get("verdict").asString()).isEqualTo("FAIL");

		screenshot(jobId, health);
	}

	/** The report's health section in headless Chromium, signed in as the viewer. */
	private void screenshot(String jobId, JsonNode health) throws Exception {
		Files.createDirectories(OUT);
		try (HeadlessChromium chromium = new HeadlessChromium();
				BrowserContext context = chromium.browser()
					.newContext(new com.microsoft.playwright.Browser.NewContextOptions().setViewportSize(1280, 900))) {
			context.addInitScript("sessionStorage.setItem('drivequal.auth', 'Basic ' + btoa('viewer:viewer-pw'));"
					+ "sessionStorage.setItem('drivequal.user', 'viewer');");
			Page page = context.newPage();
			page.navigate("http://127.0.0.1:" + this.port + "/ui/jobs/" + jobId);
			page.waitForSelector("#report[data-ready]", new Page.WaitForSelectorOptions().setTimeout(60_000));
			assertThat(page.getAttribute("#chart-health", "data-readings")).isEqualTo(String.valueOf(PHASE_S + 1));
			assertThat(page.getAttribute("#chart-health", "data-points")).isEqualTo(String.valueOf(PHASE_S));
			assertThat(page.textContent("#health-critical-warning")).startsWith("0 — none");
			assertThat(page.textContent("#health-throttled"))
				.startsWith(health.get("thermalThrottleSeconds").get("number").asLong() + " s");
			assertThat(page.textContent("#health-phases-table tr[data-phase=randwrite-hot]")).contains("TMT1 ");
			// the OCP C0h members the simulated drive models, before and after, and why
			// it has no C3h
			assertThat(page.textContent("#ocp-c0-table tr[data-member=physicalMediaUnitsWrittenBytes]"))
				.startsWith("Physical media bytes written");
			assertThat(page.locator("#ocp-c0-table tbody tr").count()).isEqualTo(7);
			assertThat(page.textContent("#ocp-c3-missing")).contains("models no OCP latency monitor (C3h)");
			page.locator("#health-section")
				.screenshot(new Locator.ScreenshotOptions().setPath(OUT.resolve("health-report.png")));
			page.locator("#chart-health")
				.screenshot(new Locator.ScreenshotOptions().setPath(OUT.resolve("health-chart.png")));
		}
	}

	private JsonNode awaitVerdict(String jobId) {
		await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofSeconds(1)).until(() -> {
			JsonNode job = api().get("viewer", "/api/v1/qualifications/" + jobId).body();
			assertThat(job.path("state").asString()).as(jobId + ": " + job.path("message").asString())
				.isIn("QUEUED", "DISPATCHED", "RUNNING", "COMPLETED");
			return job.has("verdict");
		});
		return api().get("viewer", "/api/v1/qualifications/" + jobId).body();
	}

	private static List<JsonNode> list(JsonNode array) {
		List<JsonNode> items = new java.util.ArrayList<>();
		array.forEach(items::add);
		return items;
	}

	private ApiClient api() {
		return new ApiClient("http://127.0.0.1:" + this.port);
	}

}
