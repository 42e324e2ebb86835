/*
 * Campaigns on real processes (Kafka broker, Elasticsearch node, the C runner with simulated drives,
 * the service over HTTP): bad input refused naming the field with nothing queued; a campaign of four
 * samples x two profiles queued, run, counted and judged (per criterion every sample, the worst, the
 * spread, the sample-to-sample criterion), its webhooks signed; one cell rerun alone; a cancelled
 * campaign; and the campaign page in headless Chromium (screenshot under target/campaign).
 */
package io.drivequal.service.campaigns;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.HeadlessChromium;
import io.drivequal.service.it.RunnerAgents;
import io.drivequal.service.it.WithRealInfrastructure;
import io.drivequal.service.webhooks.WebhookReceiver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@WithRealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "drivequal.campaigns.refresh-interval=500ms")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CampaignIT {

	private static final Path OUT = Path.of("target", "campaign");

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/**
	 * Seeds no other test uses: a simulated drive's serial follows from its profile and
	 * seed. Four samples of one model, two more for the cancelled campaign, and a drive
	 * of another model.
	 */
	private static final List<String> SAMPLES = List.of("sim:test-client-7pct@71", "sim:test-client-7pct@72",
			"sim:test-client-7pct@73", "sim:test-client-7pct@74");

	private static final List<String> SPARE = List.of("sim:test-client-7pct@75", "sim:test-client-7pct@76");

	private static final String OTHER_MODEL = "sim:test-enterprise-eager@71";

	private static final String MODEL = "DQSIM Test Client 8GB";

	private static final String FIRMWARE = "SIM0100";

	@LocalServerPort
	private int port;

	private final RunnerAgents agents = new RunnerAgents();

	private String runnerId;

	private List<JsonNode> drives;

	@BeforeAll
	void start() throws Exception {
		Files.createDirectories(OUT);
		this.runnerId = "campaign-" + UUID.randomUUID().toString().substring(0, 8);
		List<String> targets = new ArrayList<>(SAMPLES);
		targets.addAll(SPARE);
		targets.add(OTHER_MODEL);
		this.agents.start(this.runnerId, targets);
		this.drives = api().awaitDrives(this.runnerId, targets.size());
	}

	@AfterAll
	void stop() throws Exception {
		this.agents.close();
	}

	@Test
	@Order(1)
	void badInputIsRefusedNamingTheFieldAndNothingIsQueued() throws InterruptedException {
		String a = serial(SAMPLES.get(0));
		String b = serial(SAMPLES.get(1));
		long campaignsBefore = api().get("viewer", "/api/v1/campaigns").body().get("total").asLong();

		ApiClient.Response unknown = create("alice", campaign(List.of(a, "NO-SUCH-SERIAL"), MODEL, FIRMWARE, 5));
		assertThat(unknown.status()).isEqualTo(400);
		assertThat(field(unknown)).isEqualTo("samples[1].serial");
		assertThat(unknown.body().get("detail").asString()).contains("NO-SUCH-SERIAL")
			.contains("not in the inventory of any runner");

		ApiClient.Response duplicate = create("alice", campaign(List.of(a, b, a), MODEL, FIRMWARE, 5));
		assertThat(duplicate.status()).isEqualTo(400);
		assertThat(field(duplicate)).isEqualTo("samples[2].serial");
		assertThat(duplicate.body().get("detail").asString()).contains("named twice");

		String other = serial(OTHER_MODEL);
		ApiClient.Response mismatch = create("alice", campaign(List.of(a, other), MODEL, FIRMWARE, 5));
		assertThat(mismatch.status()).isEqualTo(400);
		assertThat(field(mismatch)).isEqualTo("samples[1].serial");
		assertThat(mismatch.body().get("detail").asString()).contains("identifies as model 'DQSIM Test Enterprise 8GB'")
			.contains(MODEL);

		ApiClient.Response firmware = create("alice", campaign(List.of(a, b), MODEL, "SIM0200", 5));
		assertThat(firmware.status()).isEqualTo(400);
		assertThat(field(firmware)).isEqualTo("samples[0].serial");
		assertThat(firmware.body().get("detail").asString()).contains("runs firmware 'SIM0100'");

		// A refusal found while checking the jobs (the second profile's phase) names the
		// campaign's field, and the first sample's first job, already checked, is not
		// queued either.
		ApiClient.Response badPhase = create("alice", """
				{"model":{"model":"%s","firmware":"%s"},"samples":[{"serial":"%s"},{"serial":"%s"}],
				 "profiles":[{"phases":[%s]},{"phases":[{"name":"w","kind":"workload","rw":"randwrite",
				   "blockSizeBytes":4097,"queueDepth":1,"rangePercent":100,"runtimeS":5}]}]}
				""".formatted(MODEL, FIRMWARE, a, b, phase("qd32", 32, 5)));
		assertThat(badPhase.status()).isEqualTo(400);
		assertThat(field(badPhase)).isEqualTo("profiles[1].phases[0].blockSizeBytes");

		ApiClient.Response unknownMetric = create("alice", campaign(List.of(a, b), MODEL, FIRMWARE, 5).replace(
				"\"spreadCriteria\":[{\"metric\":\"writeLatencyP99Us\"", "\"spreadCriteria\":[{\"metric\":\"nope\""));
		assertThat(unknownMetric.status()).isEqualTo(400);
		assertThat(field(unknownMetric)).isEqualTo("spreadCriteria[0].metric");

		assertThat(create("viewer", campaign(List.of(a, b), MODEL, FIRMWARE, 5)).status()).isEqualTo(403);

		// Absence after the index's refresh interval (1 s): nothing was written to show
		// up.
		Thread.sleep(2000);
		for (String serial : List.of(a, b, other)) {
			assertThat(api().get("viewer", "/api/v1/qualifications?serial=" + serial).body().get("total").asLong())
				.as("jobs queued for " + serial + " by refused campaigns")
				.isZero();
		}
		assertThat(api().get("viewer", "/api/v1/campaigns").body().get("total").asLong()).isEqualTo(campaignsBefore);
	}

	@Test
	@Order(2)
	void aCampaignRunsEverySampleOfEveryProfileAndJudgesTheModel() throws Exception {
		List<String> serials = SAMPLES.stream().map(this::serial).toList();
		try (WebhookReceiver receiver = WebhookReceiver.answering(204)) {
			ApiClient.Response subscribed = api().post("alice", "/api/v1/webhooks", """
					{"url":"%s","events":["campaign-state-changed","campaign-verdict"]}
					""".formatted(receiver.url("/campaigns")));
			assertThat(subscribed.status()).as(String.valueOf(subscribed.body())).isEqualTo(201);
			String secret = subscribed.body().get("secret").asString();
			String subscriptionId = subscribed.body().get("id").asString();

			ApiClient.Response created = create("alice", campaign(serials, MODEL, FIRMWARE, 5));
			assertThat(created.status()).as(String.valueOf(created.body())).isEqualTo(201);
			JsonNode campaign = created.body();
			String id = campaign.get("id").asString();
			assertThat(created.location()).isEqualTo("/api/v1/campaigns/" + id);
			assertThat(campaign.get("jobs").asInt()).isEqualTo(8);
			assertThat(campaign.get("grid")).hasSize(8);
			assertThat(campaign.get("profiles").toString()).isEqualTo("[\"phases-1\",\"phases-2\"]");
			Set<String> jobIds = new TreeSet<>();
			campaign.get("grid").forEach((cell) -> jobIds.add(cell.get("jobId").asString()));
			assertThat(jobIds).hasSize(8);
			// A listing is a search: what was just written shows within the index's
			// refresh
			// interval.
			await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
				for (String serial : serials) {
					assertThat(
							api().get("viewer", "/api/v1/qualifications?serial=" + serial).body().get("total").asLong())
						.as("one job per profile on " + serial)
						.isEqualTo(2);
				}
			});

			JsonNode done = awaitState(id, "COMPLETED");
			assertThat(done.get("counts").get("COMPLETED").asInt()).isEqualTo(8);
			assertThat(done.get("progressPercent").asDouble()).isEqualTo(100.0);
			JsonNode verdict = done.get("modelVerdict");
			Files.writeString(OUT.resolve("completed.json"), done.toPrettyString());
			// writeLatencyP99Us <= 1e9 passes on every sample; <= 0.001 fails on every
			// sample, so the model FAILs naming each sample and that criterion.
			assertThat(done.get("verdict").asString()).isEqualTo("FAIL");
			assertThat(verdict.get("outcome").asString()).isEqualTo("FAIL");
			assertThat(verdict.get("failingSamples")).hasSize(4);
			assertThat(verdict.get("reasons").get(0).asString())
				.startsWith("sample " + serials.get(0) + " fails writeLatencyP99Us <= 0.001");
			JsonNode rows = verdict.get("criteria");
			assertThat(rows).hasSize(4);
			for (JsonNode row : rows) {
				assertThat(row.get("samples")).hasSize(4);
				assertThat(row.get("spread").get("samples").asInt()).isEqualTo(4);
				assertThat(row.get("spread").get("min").asDouble()).isPositive()
					.isLessThanOrEqualTo(row.get("spread").get("max").asDouble());
				assertThat(row.get("spread").has("cvPercent")).isTrue();
				String worst = row.get("worstSample").asString();
				double worstValue = 0;
				for (JsonNode cell : row.get("samples")) {
					worstValue = Math.max(worstValue, cell.get("measured").asDouble());
				}
				double found = worstValue;
				assertThat(row.get("samples")
					.valueStream()
					.filter((cell) -> cell.get("serial").asString().equals(worst))
					.findFirst()
					.orElseThrow()
					.get("measured")
					.asDouble()).as("the worst sample of an atMost criterion has the highest value").isEqualTo(found);
				String expected = row.get("limit").asDouble() > 1 ? "PASS" : "FAIL";
				assertThat(row.get("outcome").asString()).isEqualTo(expected);
			}
			JsonNode spread = verdict.get("spreads").get(0);
			assertThat(spread.get("profile").asString()).isEqualTo("phases-1");
			assertThat(spread.get("outcome").asString()).isEqualTo("PASS");
			assertThat(spread.get("values")).hasSize(4);

			// The model verdict and every state change reached the subscriber, signed.
			await().atMost(Duration.ofSeconds(60))
				.until(() -> ids(receiver, id)
					.containsAll(Set.of(id + ".QUEUED.0", id + ".COMPLETED.0", id + ".verdict.0")));
			for (WebhookReceiver.Received request : receiver.received()) {
				if (request.header("webhook-id").startsWith(id + ".")) {
					assertThat(WebhookReceiver.signatureValid(secret, request)).isTrue();
				}
			}
			JsonNode verdictEvent = receiver.received()
				.stream()
				.filter((r) -> r.header("webhook-id").equals(id + ".verdict.0"))
				.map((r) -> JSON.readTree(r.body()))
				.findFirst()
				.orElseThrow();
			assertThat(verdictEvent.get("type").asString()).isEqualTo("io.drivequal.campaign.verdict");
			assertThat(verdictEvent.get("data").get("verdict").asString()).isEqualTo("FAIL");
			assertThat(verdictEvent.get("data").get("failingSamples")).hasSize(4);

			// Rerun one cell alone: a new job, the old one in the cell's history, the
			// model
			// judged again once it ends.
			String serial = serials.get(2);
			ApiClient.Response rerun = api().post("alice", "/api/v1/campaigns/" + id + "/rerun",
					"{\"serial\":\"" + serial + "\",\"profile\":\"phases-2\"}");
			assertThat(rerun.status()).as(String.valueOf(rerun.body())).isEqualTo(200);
			assertThat(rerun.body().get("state").asString()).isEqualTo("RUNNING");
			assertThat(rerun.body().has("modelVerdict")).isFalse();
			JsonNode cell = cell(rerun.body(), serial, "phases-2");
			assertThat(cell.get("previousJobIds")).hasSize(1);
			assertThat(jobIds).doesNotContain(cell.get("jobId").asString());
			assertThat(api()
				.post("bob", "/api/v1/campaigns/" + id + "/rerun",
						"{\"serial\":\"" + serial + "\",\"profile\":\"phases-1\"}")
				.status()).as("another submitter may not rerun it").isEqualTo(403);
			ApiClient.Response unknownProfile = api().post("alice", "/api/v1/campaigns/" + id + "/rerun",
					"{\"serial\":\"" + serial + "\",\"profile\":\"nope\"}");
			assertThat(unknownProfile.status()).isEqualTo(400);
			JsonNode again = awaitState(id, "COMPLETED");
			assertThat(again.get("counts").get("COMPLETED").asInt()).isEqualTo(8);
			assertThat(again.get("verdict").asString()).isEqualTo("FAIL");
			await().atMost(Duration.ofSeconds(60))
				.until(() -> ids(receiver, id).containsAll(Set.of(id + ".RUNNING.1", id + ".verdict.1")));

			// The exports, and the listing by model.
			ApiClient.RawResponse csv = api().request("viewer", "GET", "/api/v1/campaigns/" + id + "/results.csv",
					null);
			assertThat(csv.status()).isEqualTo(200);
			assertThat(csv.body()).startsWith("section,profile,criterion,serial,outcome,value,detail")
				.contains("sample,phases-1,writeLatencyP99Us <= 1000000000," + serials.get(0) + ",PASS,")
				.contains("model,,,,FAIL,");
			Files.writeString(OUT.resolve("results.csv"), csv.body());
			assertThat(api().get("viewer", "/api/v1/campaigns/" + id + "/results.json").body().get("id").asString())
				.isEqualTo(id);
			JsonNode listed = api()
				.get("viewer", "/api/v1/campaigns?model=" + MODEL.replace(" ", "%20") + "&firmware=" + FIRMWARE)
				.body();
			assertThat(listed.get("items").valueStream().map((c) -> c.get("id").asString())).contains(id);

			// The audit trail has the creation and the rerun.
			JsonNode audit = api().get("admin", "/api/v1/audit?size=200").body();
			assertThat(audit.toString()).contains("campaign.create").contains("campaign.rerun");

			page(id, serials);
			api().request("alice", "DELETE", "/api/v1/webhooks/" + subscriptionId, null);
		}
	}

	@Test
	@Order(3)
	void aCancelledCampaignCancelsItsJobs() {
		List<String> serials = SPARE.stream().map(this::serial).toList();
		ApiClient.Response created = create("alice", campaign(serials, MODEL, FIRMWARE, 600));
		assertThat(created.status()).as(String.valueOf(created.body())).isEqualTo(201);
		String id = created.body().get("id").asString();
		assertThat(api().post("bob", "/api/v1/campaigns/" + id + "/cancel", "").status()).isEqualTo(403);
		ApiClient.Response cancelled = api().post("alice", "/api/v1/campaigns/" + id + "/cancel", "");
		assertThat(cancelled.status()).isIn(200, 202);
		assertThat(cancelled.body().get("cancelRequested").asBoolean()).isTrue();
		JsonNode done = awaitState(id, "CANCELLED");
		assertThat(done.get("counts").get("CANCELLED").asInt() + done.get("counts").get("COMPLETED").asInt()
				+ done.get("counts").get("INTERRUPTED").asInt())
			.isEqualTo(4);
		assertThat(done.has("modelVerdict")).isFalse();
		assertThat(api().post("alice", "/api/v1/campaigns/" + id + "/cancel", "").status()).isEqualTo(409);
		assertThat(api()
			.post("alice", "/api/v1/campaigns/" + id + "/rerun",
					"{\"serial\":\"" + serials.get(0) + "\",\"profile\":\"phases-1\"}")
			.status()).isEqualTo(409);
		assertThat(api().get("viewer", "/api/v1/campaigns/c-nobody").status()).isEqualTo(404);
	}

	/** The campaign page: the grid, the model verdict and the spread, in Chromium. */
	private void page(String id, List<String> serials) {
		try (HeadlessChromium chromium = new HeadlessChromium();
				BrowserContext context = chromium.browser()
					.newContext(new com.microsoft.playwright.Browser.NewContextOptions().setViewportSize(1400, 1000))) {
			Page page = context.newPage();
			page.navigate(url("/ui/campaigns"));
			page.fill("#signin-user", "viewer");
			page.fill("#signin-password", "viewer-pw");
			page.click("#signin-submit");
			page.waitForSelector("#campaigns-table tr[data-campaign='" + id + "']");
			page.navigate(url("/ui/campaigns/" + id));
			page.waitForSelector("#model-criteria");
			assertThat(page.locator("#campaign-grid tbody tr").count()).isEqualTo(4);
			assertThat(page.locator("#campaign-grid td.cell").count()).isEqualTo(8);
			assertThat(page.textContent("#model-verdict")).startsWith("FAIL");
			assertThat(page.textContent("#model-reasons")).contains(serials.get(0));
			assertThat(page.locator("#model-spreads tbody tr").count()).isEqualTo(1);
			page.screenshot(new Page.ScreenshotOptions().setPath(OUT.resolve("campaign-page.png")).setFullPage(true));

			// The model's history: its judged campaigns, one row each, a column per
			// criterion with the worst sample's figure.
			page.navigate(url("/ui/campaigns?model=" + MODEL.replace(" ", "%20")));
			String row = "#history-table tr[data-campaign='" + id + "']";
			page.waitForSelector(row);
			assertThat(page.getAttribute(row, "data-firmware")).isEqualTo(FIRMWARE);
			assertThat(page.textContent(row)).contains("FAIL");
			assertThat(page.locator("#history-table thead th").allTextContents())
				.contains("phases-1 · writeLatencyP99Us ≤ 1,000,000,000", "phases-2 · writeLatencyP99Us ≤ 0.001");
			assertThat(page.locator(row + " td").count()).isEqualTo(5 + 4);
			page.screenshot(new Page.ScreenshotOptions().setPath(OUT.resolve("model-history.png")).setFullPage(true));
		}
	}

	private String campaign(List<String> serials, String model, String firmware, int runtimeS) {
		StringBuilder samples = new StringBuilder();
		for (String serial : serials) {
			samples.append(samples.isEmpty() ? "" : ",").append("{\"serial\":\"").append(serial).append("\"}");
		}
		return """
				{"name":"campaign-it","model":{"vendor":"DQSIM","model":"%s","firmware":"%s"},"samples":[%s],
				 "profiles":[{"phases":[%s]},{"phases":[%s]}],
				 "criteria":[{"metric":"writeLatencyP99Us","comparator":"atMost","limit":1000000000},
				             {"metric":"writeLatencyP99Us","comparator":"atMost","limit":0.001}],
				 "spreadCriteria":[{"metric":"writeLatencyP99Us","profile":"phases-1","maxCvPercent":1000}]}
				""".formatted(model, firmware, samples, phase("randwrite-qd32", 32, runtimeS),
				phase("randwrite-qd1", 1, runtimeS));
	}

	private static String phase(String name, int queueDepth, int runtimeS) {
		return """
				{"name":"%s","kind":"workload","rw":"randwrite","blockSizeBytes":4096,"queueDepth":%d,
				 "rangePercent":100,"runtimeS":%d}""".formatted(name, queueDepth, runtimeS);
	}

	private ApiClient.Response create(String user, String body) {
		return api().post(user, "/api/v1/campaigns", body);
	}

	private static String field(ApiClient.Response response) {
		return response.body().get("errors").get(0).get("field").asString();
	}

	private JsonNode awaitState(String id, String state) {
		JsonNode[] last = new JsonNode[1];
		await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofSeconds(1)).until(() -> {
			last[0] = api().get("viewer", "/api/v1/campaigns/" + id).body();
			return state.equals(last[0].get("state").asString());
		});
		return last[0];
	}

	private static JsonNode cell(JsonNode campaign, String serial, String profile) {
		return campaign.get("grid")
			.valueStream()
			.filter((c) -> c.get("serial").asString().equals(serial) && c.get("profile").asString().equals(profile))
			.findFirst()
			.orElseThrow();
	}

	private static Set<String> ids(WebhookReceiver receiver, String campaignId) {
		Set<String> ids = new TreeSet<>();
		receiver.received()
			.stream()
			.map((r) -> r.header("webhook-id"))
			.filter((id) -> id.startsWith(campaignId + "."))
			.forEach(ids::add);
		return ids;
	}

	private String serial(String target) {
		return ApiClient.serialAt(this.drives, target);
	}

	private String url(String path) {
		return "http://127.0.0.1:" + this.port + path;
	}

	private ApiClient api() {
		return new ApiClient("http://127.0.0.1:" + this.port);
	}

}
