/*
 * A multi-stream job end to end on the real system: the C runner's simulated drive runs a
 * rate-limited Poisson read stream beside a saturating write stream and a trim stream; its
 * samples and phase result land in Elasticsearch under the strict templates (streams, trims);
 * the streams API gives each stream's offered vs achieved rate and its service and response
 * time percentiles; and the report page (Debian's chromium) draws a panel per stream with the
 * API's figures (screenshot under target/streams-report); the flash criteria set is judged on it. A
 * shipped fio job file with three groups becomes a plan of three phases that runs, and the report
 * draws their latency at load.
 */
package io.drivequal.service.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.HeadlessChromium;
import io.drivequal.service.it.RunnerAgents;
import io.drivequal.service.it.StoredSamples;
import io.drivequal.service.it.WithRealInfrastructure;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

@WithRealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StreamsReportIT {

	static final Path OUT = Path.of("target", "streams-report");

	private static final int RUNTIME_S = 30;

	private static final int READ_RATE_IOPS = 20_000;

	@LocalServerPort
	private int port;

	@Autowired
	private ElasticsearchClient elasticsearch;

	private final RunnerAgents agents = new RunnerAgents();

	private String runnerId;

	@BeforeAll
	void start() throws Exception {
		Files.createDirectories(OUT);
		this.runnerId = "streams-" + UUID.randomUUID().toString().substring(0, 8);
		// a seed no other test uses: one serial is one drive to the service
		this.agents.start(this.runnerId, List.of("sim:test-enterprise-eager@33"));
	}

	@AfterAll
	void stop() throws Exception {
		this.agents.close();
	}

	@Test
	void aStreamsJobsSamplesLandAndTheReportShowsEachStream() throws Exception {
		String serial = api().awaitDriveSerial(this.runnerId);
		ApiClient.Response submitted = api().post("alice", "/api/v1/qualifications",
				"""
						{"drive":{"serial":"%s"},"criteriaSet":"fiosynth-4k-l2r6dwpd-wtrim",
						 "plan":{"phases":[{"name":"flash-mix","kind":"workload","runtimeS":%d,"streams":[
						   {"name":"reads","rw":"randread","blockSizeBytes":4096,"queueDepth":64,"rateIops":%d,"arrivals":"poisson"},
						   {"name":"writes","rw":"randwrite","blockSizeBytes":131072,"queueDepth":32},
						   {"name":"trims","rw":"trim","blockSizeBytes":67108864,"queueDepth":1,"rangePercent":10,"thinkTimeUs":500000}]}]}}
						"""
					.formatted(serial, RUNTIME_S, READ_RATE_IOPS));
		assertThat(submitted.status()).as(String.valueOf(submitted.body())).isEqualTo(201);
		String jobId = submitted.body().get("id").asString();
		// the plan keeps the streams as submitted: the runner receives what the buyer
		// asked
		assertThat(submitted.body().path("plan").get(0).path("streams").size()).isEqualTo(3);
		await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofSeconds(1)).until(() -> {
			JsonNode job = job(jobId);
			assertThat(job.path("state").asString()).as(jobId + ": " + job.path("failureReason").asString())
				.isIn("QUEUED", "DISPATCHED", "RUNNING", "COMPLETED");
			return job.has("analysis") && job.has("verdict");
		});

		// The flash criteria set judged on the simulated drive: every line of the set has
		// its outcome, as the numbers say (printed with each line's source).
		JsonNode judged = job(jobId).get("analysis").get("verdict").get("criteria");
		JsonNode set = api().get("viewer", "/api/v1/criteria-sets/fiosynth-4k-l2r6dwpd-wtrim").body();
		assertThat(judged.size()).isEqualTo(set.get("criteria").size());
		for (int i = 0; i < judged.size(); i++) {
			System.out.println("flash criterion: " + judged.get(i) + " <- " + set.get("criteria").get(i).get("source"));
			assertThat(judged.get(i).get("outcome").asString()).isIn("PASS", "FAIL", "INCONCLUSIVE");
		}
		System.out.println("flash verdict: " + job(jobId).get("verdict"));

		// A stored sample carries each stream's second and the trims, under the strict
		// template.
		Map<String, Object> stored = StoredSamples.anyOf(this.elasticsearch, jobId);
		assertThat(stored).containsKeys("streams", "trim");
		assertThat((List<?>) stored.get("streams")).hasSize(3);

		JsonNode phase = api().get("viewer", "/api/v1/qualifications/" + jobId + "/streams")
			.body()
			.get("phases")
			.get(0);
		assertThat(phase.get("phaseName").asString()).isEqualTo("flash-mix");
		JsonNode reads = phase.get("streams").get(0);
		JsonNode writes = phase.get("streams").get(1);
		JsonNode trims = phase.get("streams").get(2);
		assertThat(reads.get("name").asString()).isEqualTo("reads");
		assertThat(reads.get("openLoop").asBoolean()).isTrue();
		assertThat(writes.get("openLoop").asBoolean()).isFalse();

		// Offered: Poisson arrivals at 20k/s for 30 s, within 4 standard deviations.
		long offered = reads.get("offeredIos").asLong();
		assertThat((double) offered).isCloseTo(READ_RATE_IOPS * RUNTIME_S,
				within(4 * Math.sqrt(READ_RATE_IOPS * RUNTIME_S)));
		// Achieved: the drive keeps up with the reads beside the saturating writes, every
		// second within 1 % of its offer (the bar).
		JsonNode seconds = reads.get("seconds");
		assertThat(seconds.size()).isEqualTo(RUNTIME_S);
		long achievedSum = 0;
		for (JsonNode second : seconds) {
			long offeredIops = second.get("offeredIops").asLong();
			long achievedIops = second.get("achievedIops").asLong();
			assertThat((double) achievedIops).as("t=" + second.get("t"))
				.isCloseTo(offeredIops, within(0.01 * offeredIops));
			achievedSum += achievedIops;
		}
		JsonNode read = reads.get("directions").get(0);
		assertThat(read.get("direction").asString()).isEqualTo("read");
		assertThat(reads.get("directions").size()).isEqualTo(1);
		// the seconds add up to the phase's totals
		assertThat(achievedSum).isEqualTo(read.get("ios").asLong());
		// Response time includes the wait for a slot: never below the service time.
		assertThat(read.get("response").get("p99_99Ns").asLong())
			.isGreaterThanOrEqualTo(read.get("service").get("p99_99Ns").asLong());
		assertThat(read.get("service").get("p99_9999Ns").asLong())
			.isLessThanOrEqualTo(read.get("service").get("maxNs").asLong());
		assertThat(read.get("service").get("count").asLong()).isEqualTo(read.get("ios").asLong());

		JsonNode write = writes.get("directions").get(0);
		assertThat(write.get("direction").asString()).isEqualTo("write");
		assertThat(write.get("ios").asLong()).isPositive();
		assertThat(write.has("response")).isFalse();
		assertThat(writes.has("offeredIos")).isFalse();
		JsonNode trim = trims.get("directions").get(0);
		assertThat(trim.get("direction").asString()).isEqualTo("trim");
		assertThat(trim.get("bytes").asLong() % 67108864L).isZero();
		assertThat(trim.get("ios").asLong()).isPositive();

		// The report page: a panel per stream with the API's figures.
		try (HeadlessChromium chromium = new HeadlessChromium();
				BrowserContext context = chromium.browser()
					.newContext(new com.microsoft.playwright.Browser.NewContextOptions().setViewportSize(1280, 900))) {
			Page page = signedIn(context);
			page.navigate(url("/ui/jobs/" + jobId));
			page.waitForSelector("#report[data-ready]", new Page.WaitForSelectorOptions().setTimeout(60_000));
			assertThat(page.getAttribute("#streams-section", "data-streams")).isEqualTo("3");
			assertThat(page.getAttribute("#stream-0", "data-offered-ios")).isEqualTo(String.valueOf(offered));
			assertThat(page.getAttribute("#stream-0", "data-achieved-ios")).isEqualTo(String.valueOf(read.get("ios")));
			assertThat(
					page.getAttribute("#stream-0-latency tr[data-direction=read][data-time=response]", "data-p9999-ns"))
				.isEqualTo(read.get("response").get("p99_99Ns").asString());
			assertThat(
					page.getAttribute("#stream-1-latency tr[data-direction=write][data-time=service]", "data-p9999-ns"))
				.isEqualTo(write.get("service").get("p99_99Ns").asString());
			assertThat(page.locator("#stream-1-latency tr[data-time=response]").count()).isZero();
			// offered and achieved, one point each per second
			assertThat(page.getAttribute("#stream-0-rate-chart", "data-points"))
				.isEqualTo(String.valueOf(2 * RUNTIME_S));
			assertThat(Integer.parseInt(page.getAttribute("#stream-0-latency-chart", "data-points"))).isPositive();
			assertThat(page.textContent("#stream-2")).contains("trim");
			page.locator("#streams-section")
				.screenshot(new com.microsoft.playwright.Locator.ScreenshotOptions()
					.setPath(OUT.resolve("streams-report.png")));
		}
	}

	@Test
	void aFioJobFileBecomesAPlanThatRunsAndItsStepsDrawTheLatencyAtLoadChart() throws Exception {
		String serial = api().awaitDriveSerial(this.runnerId);
		String jobFile = Files.readString(Path.of("../../schemas/examples/fio-jobs/accepted/read-latency-at-load.fio"));
		ApiClient.Response plan = api().postText("alice", "/api/v1/plans/fio", jobFile);
		assertThat(plan.status()).as(String.valueOf(plan.body())).isEqualTo(200);
		System.out.println("fio job file -> plan: " + plan.body());
		JsonNode phases = plan.body().get("phases");
		assertThat(phases.size()).isEqualTo(3);
		ApiClient.Response submitted = api().post("alice", "/api/v1/qualifications",
				"{\"drive\":{\"serial\":\"" + serial + "\"},\"plan\":{\"phases\":" + phases + "}}");
		assertThat(submitted.status()).as(String.valueOf(submitted.body())).isEqualTo(201);
		String jobId = submitted.body().get("id").asString();
		await().atMost(Duration.ofMinutes(6)).pollInterval(Duration.ofSeconds(1)).until(() -> {
			JsonNode job = job(jobId);
			assertThat(job.path("state").asString()).as(jobId + ": " + job.path("failureReason").asString())
				.isIn("QUEUED", "DISPATCHED", "RUNNING", "COMPLETED");
			return job.has("analysis") && job.has("verdict");
		});
		JsonNode streams = api().get("viewer", "/api/v1/qualifications/" + jobId + "/streams").body().get("phases");
		assertThat(streams.size()).isEqualTo(3);
		for (JsonNode phase : streams) {
			JsonNode reads = phase.get("streams").get(0);
			JsonNode read = reads.get("directions").get(0);
			System.out.printf(
					"latency at load: %s offered %d achieved %d read P99 %d / P99.99 %d ns service, %d / %d ns"
							+ " response; writer %d IOs%n",
					phase.get("phaseName").asString(), reads.get("offeredIos").asLong(), read.get("ios").asLong(),
					read.get("service").get("p99Ns").asLong(), read.get("service").get("p99_99Ns").asLong(),
					read.get("response").get("p99Ns").asLong(), read.get("response").get("p99_99Ns").asLong(),
					phase.get("streams").get(1).get("directions").get(0).get("ios").asLong());
		}
		try (HeadlessChromium chromium = new HeadlessChromium();
				BrowserContext context = chromium.browser()
					.newContext(new com.microsoft.playwright.Browser.NewContextOptions().setViewportSize(1280, 900))) {
			Page page = signedIn(context);
			page.navigate(url("/ui/jobs/" + jobId));
			page.waitForSelector("#report[data-ready]", new Page.WaitForSelectorOptions().setTimeout(60_000));
			// one point per phase and series: P99 and P99.99, service and response
			assertThat(page.getAttribute("#streams-knee-chart", "data-points")).isEqualTo("12");
			assertThat(page.locator("#streams-knee-table tbody tr").count()).isEqualTo(3);
			assertThat(page.textContent("#streams-knee-table tr[data-phase=fio-1-reads-20k]"))
				.contains("fio-1-reads-20k");
			page.locator("#streams-knee-chart")
				.screenshot(new com.microsoft.playwright.Locator.ScreenshotOptions()
					.setPath(OUT.resolve("latency-at-load.png")));
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
