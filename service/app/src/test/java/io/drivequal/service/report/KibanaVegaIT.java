/*
 * Kibana's Vega charts executed without Kibana, which cannot be installed here: every Vega /
 * Vega-Lite visualization of schemas/kibana runs its Elasticsearch request, with Kibana's
 * placeholders substituted as Kibana does (schemas/kibana/render/render.mjs), against the real node
 * holding real samples and health readings (qualifications the C runner's simulated drives ran
 * through the service: two steady-state-2h jobs and a 6-hour endurance-waf job); the response goes
 * to the real, pinned Vega library, rendered headless to SVG; and the test checks what a user
 * would see: one point per second (or per health reading) as long as they fit, minutes of t with a
 * visible note when they do not, every sample counted, the axes and scales the seeds use.
 * Pictures and the figures table land in target/kibana-vega.
 */
package io.drivequal.service.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.FieldValue;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.SearchResponse;
import co.elastic.clients.elasticsearch.core.search.Hit;
import io.drivequal.harness.RealInfrastructure;
import io.drivequal.service.ingest.HealthReading;
import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.RunnerAgents;
import io.drivequal.service.it.WithRealInfrastructure;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

// As PtsProfilesIT: a runner's heartbeats can lag its jobs' flood of samples on a loaded machine,
// and the simulated clock runs at most 200 x real time.
@WithRealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "drivequal.runners.heartbeat-timeout=300s")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KibanaVegaIT {

	static final Path OUT = Path.of("target", "kibana-vega").toAbsolutePath();

	private static final Path SCHEMAS = Path.of(System.getProperty("drivequal.schemas.dir", "../../schemas"))
		.toAbsolutePath()
		.normalize();

	/**
	 * The per-IO model: it reads the drive's health every 10 simulated seconds, as a real
	 * drive's runner does (the fluid model reads it only between phases).
	 */
	private static final String PER_IO = "{\"sim_model\":\"ftl\",\"sim_time_scale\":200}";

	/** The IOPS charts' limit of one point per second (their composite's size). */
	private static final int PER_SECOND_LIMIT = 28800;

	private static final List<String> IOPS_CHARTS = List.of("drivequal-iops-over-time", "drivequal-steady-state-zoom",
			"drivequal-steady-state-zoom-linear");

	private static final String WAF_CHART = "drivequal-waf-over-time";

	@LocalServerPort
	private int port;

	@Autowired
	private ElasticsearchClient elasticsearch;

	private final ObjectMapper mapper = new ObjectMapper();

	private final RunnerAgents agents = new RunnerAgents();

	private String steadyA;

	private String steadyB;

	private String endurance;

	private Instant from;

	@BeforeAll
	void runQualificationsAndInstallTheRenderer() throws Exception {
		Files.createDirectories(OUT);
		run(List.of("bash", SCHEMAS.resolve("kibana/render/install").toString(), OUT.resolve("renderer").toString()),
				OUT.resolve("install.log"));
		this.from = Instant.now().minus(Duration.ofHours(1));
		String runnerId = "vega-" + UUID.randomUUID().toString().substring(0, 8);
		// Seeds no other test uses: one serial is one drive to the service.
		List<String> targets = List.of("sim:test-client-7pct@41", "sim:test-client-7pct@42",
				"sim:test-enterprise-eager@43");
		this.agents.start(runnerId, targets, PER_IO, Map.of());
		List<JsonNode> drives = api().awaitDrives(runnerId, targets.size());
		this.steadyA = submit(ApiClient.serialAt(drives, targets.get(0)), "steady-state-2h");
		this.steadyB = submit(ApiClient.serialAt(drives, targets.get(1)), "steady-state-2h");
		this.endurance = submit(ApiClient.serialAt(drives, targets.get(2)), "endurance-waf");
		for (String job : List.of(this.steadyA, this.steadyB, this.endurance)) {
			awaitCompleted(job);
		}
		// The job completes on its events; its samples may still be on their way in.
		await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofSeconds(2)).until(() -> {
			this.elasticsearch.indices().refresh((refresh) -> refresh.index("drivequal-samples-*", "drivequal-health"));
			return samples(List.of(this.steadyA), false, false) == 7200
					&& samples(List.of(this.steadyB), false, false) == 7200
					&& samples(List.of(this.endurance), false, false) == 21600;
		});
	}

	@AfterAll
	void stopAgents() throws InterruptedException {
		this.agents.close();
	}

	@Test
	void everyVegaChartDrawsWhatItsQueryFindsOnRealSamples() throws Exception {
		Map<String, List<String>> datasets = new LinkedHashMap<>();
		datasets.put("7200 s job", List.of(this.steadyA));
		datasets.put("two-drive comparison", List.of(this.steadyA, this.steadyB));
		datasets.put("6-hour endurance", List.of(this.endurance));
		datasets.put("all three", List.of(this.steadyA, this.steadyB, this.endurance));
		List<String> visualizations = vegaVisualizations();
		assertThat(visualizations).as("every Vega visualization is run here")
			.containsExactlyInAnyOrderElementsOf(concat(IOPS_CHARTS, List.of(WAF_CHART)));

		StringBuilder figures = new StringBuilder(
				"| visualization | dataset | documents | marks drawn | per point | note | ms |\n|---|---|---|---|---|---|---|\n");
		for (String visualization : visualizations) {
			for (Map.Entry<String, List<String>> dataset : datasets.entrySet()) {
				String picture = visualization + "--" + dataset.getKey().replace(' ', '-') + ".svg";
				long started = System.nanoTime();
				JsonNode drawn = render(visualization, dataset.getValue(), OUT.resolve(picture));
				long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
				String row = WAF_CHART.equals(visualization) ? checkWaf(drawn, dataset.getValue())
						: checkIops(visualization, drawn, dataset.getValue());
				figures.append("| ")
					.append(visualization)
					.append(" | ")
					.append(dataset.getKey())
					.append(" | ")
					.append(row)
					.append(" | ")
					.append(ms)
					.append(" |\n");
			}
		}
		Files.writeString(OUT.resolve("figures.md"), figures);
		System.out.println("Kibana Vega charts on real samples (target/kibana-vega):\n" + figures);
	}

	/** Returns the table's middle cells: documents, marks, per point, note. */
	private String checkIops(String visualization, JsonNode drawn, List<String> jobs) throws IOException {
		boolean zoom = visualization.contains("zoom");
		boolean log = !visualization.endsWith("-linear");
		long documents = samples(jobs, zoom, false);
		long drawable = log ? samples(jobs, zoom, true) : documents;
		String what = visualization + " on " + jobs;
		assertThat(drawn.path("warnings")).as(what + ": Vega's warnings").isEmpty();
		JsonNode request = drawn.path("requests").get(0);
		assertThat(request.path("shardFailures").asInt()).isZero();
		assertThat(request.path("timedOut").asBoolean()).isFalse();
		assertThat(request.path("body").toString()).as(what + ": Kibana's placeholders are all substituted")
			.doesNotContain("%dashboard_context", "%timefilter%");
		JsonNode seconds = request.path("aggregations").path("seconds");
		JsonNode minutes = request.path("aggregations").path("minutes");
		assertThat(minutes.path("documents").asLong()).as(what + ": every sample is in a minute").isEqualTo(documents);
		List<String> notes = texts(drawn, "thinned");
		long points = markItems(drawn, "points_marks");
		String perPoint;
		if (documents < PER_SECOND_LIMIT) {
			assertThat(seconds.path("buckets").asLong()).as(what + ": one bucket per second").isEqualTo(documents);
			assertThat(seconds.path("documents").asLong()).isEqualTo(documents);
			assertThat(points).as(what + ": one point per second (log: each second above 0 IOPS)").isEqualTo(drawable);
			assertThat(notes).as(what + ": nothing thinned, nothing said").isEmpty();
			perPoint = "1 s";
		}
		else {
			assertThat(seconds.path("buckets").asLong()).isEqualTo(PER_SECOND_LIMIT);
			assertThat(points).as(what + ": one point per minute of t")
				.isEqualTo(minutes.path("buckets").asLong())
				.isEqualTo(expectedMinutes(jobs, zoom));
			assertThat(notes).as(what + ": the chart says it is thinned, and how").hasSize(1);
			assertThat(notes.get(0)).contains("Thinned", "one minute of t of a run", "mean IOPS")
				.doesNotContain("only the first");
			perPoint = "1 min of t";
		}
		assertThat(axisTitle(drawn, "x")).isEqualTo("t: seconds since the phase started");
		assertThat(axisTitle(drawn, "y")).isEqualTo(log ? "IOPS (log)" : "IOPS");
		assertThat(drawn.path("scales").path("x").path("type").asString()).isEqualTo("linear");
		assertThat(drawn.path("scales").path("y").path("type").asString()).isEqualTo(log ? "log" : "linear");
		if (!log) {
			assertThat(drawn.path("scales").path("y").path("domain").get(0).asDouble()).as("linear from 0").isZero();
		}
		JsonNode xDomain = drawn.path("scales").path("x").path("domain");
		assertThat(xDomain.get(0).asDouble()).as(what + ": x starts at the first second drawn")
			.isLessThanOrEqualTo(zoom ? 1401 + 30 : 1 + 30);
		assertThat(xDomain.get(1).asDouble()).as(what + ": x reaches the last second")
			.isGreaterThanOrEqualTo(jobs.contains(this.endurance) ? 21600 - 30 : 7200 - 30);
		assertThat(legendLabels(drawn)).as(what + ": one colour per drive, phase and job").hasSize(jobs.size());
		return documents + " | " + points + " | " + perPoint + " | " + (notes.isEmpty() ? "" : "thinned");
	}

	private String checkWaf(JsonNode drawn, List<String> jobs) throws IOException {
		String what = WAF_CHART + " on " + jobs;
		assertThat(drawn.path("warnings")).as(what + ": Vega's warnings").isEmpty();
		List<Map<String, Object>> readings = readings(jobs);
		JsonNode request = drawn.path("requests").get(0);
		// Two readings of a phase at the same elapsed millisecond (a poll and the phase's
		// last reading) are one instant: one bucket, the later counters.
		Map<String, long[]> instants = instants(readings);
		assertThat(request.path("aggregations").path("readings").path("buckets").asLong())
			.as(what + ": one bucket per reading instant")
			.isEqualTo(instants.size());
		assertThat(request.path("aggregations").path("readings").path("documents").asLong()).isEqualTo(readings.size());
		assertThat(request.path("aggregations").path("spans").path("documents").asLong()).isEqualTo(readings.size());
		long expected = wafPoints(instants);
		assertThat(expected).as("a WAF point for most readings (every 10 s of the workload and the fill)")
			.isGreaterThan(readings.size() / 2);
		// A line with points: the point mark holds one symbol per WAF value.
		assertThat(pointItems(drawn)).as(what + ": one point per pair of readings with host writes between them")
			.isEqualTo(expected);
		assertThat(texts(drawn, "thinned")).as(what + ": fewer than 28,800 readings: nothing thinned").isEmpty();
		assertThat(axisTitle(drawn, "x")).isEqualTo("t: seconds since the phase started");
		assertThat(axisTitle(drawn, "y")).isEqualTo("WAF (media bytes / host bytes between readings)");
		return readings.size() + " readings | " + expected + " | 1 reading | ";
	}

	/**
	 * The bool query Kibana builds from a dashboard whose only filter is "jobId is one of
	 * ..." (a phrases filter), and the picker's range: from an hour before the jobs to a
	 * day after now, since a simulated drive's clock runs ahead of the wall clock.
	 */
	private JsonNode render(String visualization, List<String> jobs, Path svg)
			throws IOException, InterruptedException {
		ObjectNode request = this.mapper.createObjectNode();
		request.put("elasticsearch", RealInfrastructure.shared().elasticsearchUrl());
		request.put("savedObjects", SCHEMAS.resolve("kibana/drivequal-saved-objects.ndjson").toString());
		request.put("visualization", visualization);
		ObjectNode bool = request.putObject("dashboardContext").putObject("bool");
		bool.putArray("must");
		ArrayNode should = bool.putArray("filter").addObject().putObject("bool").putArray("should");
		for (String job : jobs) {
			should.addObject().putObject("match_phrase").put("jobId", job);
		}
		((ObjectNode) bool.path("filter").get(0).path("bool")).put("minimum_should_match", 1);
		bool.putArray("should");
		bool.putArray("must_not");
		request.putObject("timeRange")
			.put("from", this.from.toString())
			.put("to", Instant.now().plus(Duration.ofDays(1)).toString());
		request.put("svg", svg.toString());
		Path requestFile = OUT.resolve(svg.getFileName().toString().replace(".svg", ".request.json"));
		Files.writeString(requestFile, request.toString());
		Path summary = OUT.resolve(svg.getFileName().toString().replace(".svg", ".json"));
		Process node = new ProcessBuilder("node", OUT.resolve("renderer/render.mjs").toString(), requestFile.toString())
			.redirectOutput(summary.toFile())
			.redirectError(ProcessBuilder.Redirect.INHERIT)
			.start();
		assertThat(node.waitFor(10, TimeUnit.MINUTES)).isTrue();
		assertThat(node.exitValue()).as("render.mjs " + requestFile).isZero();
		return this.mapper.readTree(Files.readString(summary));
	}

	/** The random-write samples of the jobs, as the IOPS charts' query selects them. */
	private long samples(List<String> jobs, boolean zoom, boolean aboveZero) throws IOException {
		List<Query> filters = new ArrayList<>();
		filters.add(Query.of((q) -> q
			.terms((t) -> t.field("jobId").terms((v) -> v.value(jobs.stream().map(FieldValue::of).toList())))));
		filters.add(Query.of((q) -> q.prefix((p) -> p.field("phaseName").value("randwrite"))));
		if (zoom) {
			filters.add(Query.of((q) -> q.range((r) -> r.number((n) -> n.field("t").gt(1400.0)))));
		}
		if (aboveZero) {
			filters.add(Query.of((q) -> q.range((r) -> r.number((n) -> n.field("totalIops").gt(0.0)))));
		}
		return this.elasticsearch
			.count((count) -> count.index("drivequal-samples-*").query((q) -> q.bool((b) -> b.filter(filters))))
			.count();
	}

	/**
	 * Every run's seconds run 1..T without gaps here, so the minutes [60m, 60m + 60) of t
	 * it covers are m = 0..T/60 (from 1401/60 on in the zoom).
	 */
	private long expectedMinutes(List<String> jobs, boolean zoom) {
		long minutes = 0;
		for (String job : jobs) {
			long seconds = job.equals(this.endurance) ? 21600 : 7200;
			minutes += seconds / 60 + 1 - (zoom ? 1401 / 60 : 0);
		}
		return minutes;
	}

	@SuppressWarnings("unchecked")
	private List<Map<String, Object>> readings(List<String> jobs) throws IOException {
		SearchResponse<Map> response = this.elasticsearch.search((search) -> search.index(HealthReading.INDEX)
			.size(10000)
			.query((q) -> q.bool((b) -> b
				.filter((f) -> f
					.terms((t) -> t.field("jobId").terms((v) -> v.value(jobs.stream().map(FieldValue::of).toList()))))
				.filter((f) -> f.exists((e) -> e.field("physicalMediaUnitsWrittenBytes")))))
			.sort((s) -> s.field((f) -> f.field("jobId")))
			.sort((s) -> s.field((f) -> f.field("phaseIndex")))
			.sort((s) -> s.field((f) -> f.field("elapsedMs"))), Map.class);
		assertThat(response.hits().total().value()).as("readings fit one page here").isLessThan(10000);
		return response.hits().hits().stream().map((hit) -> (Map<String, Object>) ((Hit<Map>) hit).source()).toList();
	}

	/**
	 * Per job, phase and elapsed millisecond, in time order: the largest counters (data
	 * units written, media bytes written) of the readings at that instant.
	 */
	private static Map<String, long[]> instants(List<Map<String, Object>> readings) {
		Map<String, long[]> instants = new LinkedHashMap<>();
		for (Map<String, Object> reading : readings) {
			String key = reading.get("jobId") + "/" + reading.get("phaseIndex") + "/" + reading.get("elapsedMs");
			long units = ((Number) reading.get("dataUnitsWritten")).longValue();
			instants.merge(key, new long[] { units }, (a, b) -> new long[] { Math.max(a[0], b[0]) });
		}
		return instants;
	}

	/**
	 * Per job and phase: a point for each instant after which the host wrote something
	 * since the one before (as the chart's filter).
	 */
	private static long wafPoints(Map<String, long[]> instants) {
		long points = 0;
		Map<String, Long> unitsBefore = new LinkedHashMap<>();
		for (Map.Entry<String, long[]> instant : instants.entrySet()) {
			String run = instant.getKey().substring(0, instant.getKey().lastIndexOf('/'));
			Long before = unitsBefore.put(run, instant.getValue()[0]);
			if (before != null && instant.getValue()[0] > before) {
				points++;
			}
		}
		return points;
	}

	private static long markItems(JsonNode drawn, String name) {
		long items = 0;
		for (JsonNode mark : drawn.path("marks")) {
			if (name.equals(mark.path("name").asString())) {
				items += mark.path("items").asLong();
			}
		}
		return items;
	}

	private static long pointItems(JsonNode drawn) {
		long items = 0;
		for (JsonNode mark : drawn.path("marks")) {
			if ("symbol".equals(mark.path("marktype").asString())) {
				items += mark.path("items").asLong();
			}
		}
		return items;
	}

	private static List<String> texts(JsonNode drawn, String containing) {
		List<String> found = new ArrayList<>();
		for (JsonNode text : drawn.path("texts")) {
			if (text.path("text").asString().toLowerCase().contains(containing)) {
				found.add(text.path("text").asString());
			}
		}
		return found;
	}

	/**
	 * The title of the axis of that scale (Vega-Lite adds a second, untitled one for the
	 * grid).
	 */
	private static String axisTitle(JsonNode drawn, String scale) {
		for (JsonNode axis : drawn.path("axes")) {
			if (scale.equals(axis.path("scale").asString()) && !axis.path("title").isNull()) {
				return axis.path("title").asString();
			}
		}
		throw new AssertionError("no axis of scale " + scale + " with a title in " + drawn.path("axes"));
	}

	private static List<String> legendLabels(JsonNode drawn) {
		List<String> labels = new ArrayList<>();
		drawn.path("legends").forEach((legend) -> legend.path("labels").forEach((l) -> labels.add(l.asString())));
		return labels;
	}

	private List<String> vegaVisualizations() throws IOException {
		List<String> ids = new ArrayList<>();
		for (String line : Files.readAllLines(SCHEMAS.resolve("kibana/drivequal-saved-objects.ndjson"))) {
			if (line.isBlank()) {
				continue;
			}
			JsonNode object = this.mapper.readTree(line);
			if ("visualization".equals(object.path("type").asString())
					&& "vega".equals(this.mapper.readTree(object.path("attributes").path("visState").asString())
						.path("type")
						.asString())) {
				ids.add(object.path("id").asString());
			}
		}
		return ids;
	}

	private String submit(String serial, String profile) {
		ApiClient.Response submitted = api().post("alice", "/api/v1/qualifications",
				"{\"drive\":{\"serial\":\"%s\"},\"plan\":{\"profile\":\"%s\"}}".formatted(serial, profile));
		assertThat(submitted.status()).as(String.valueOf(submitted.body())).isEqualTo(201);
		return submitted.body().get("id").asString();
	}

	private void awaitCompleted(String jobId) {
		await().atMost(Duration.ofMinutes(15)).pollInterval(Duration.ofSeconds(2)).until(() -> {
			JsonNode job = api().get("viewer", "/api/v1/qualifications/" + jobId).body();
			String state = job.path("state").asString();
			assertThat(state).as(jobId + ": " + job.path("message").asString())
				.isIn("", "QUEUED", "DISPATCHED", "RUNNING", "COMPLETED");
			return "COMPLETED".equals(state);
		});
	}

	private ApiClient api() {
		return new ApiClient("http://127.0.0.1:" + this.port);
	}

	private static List<String> concat(List<String> a, List<String> b) {
		List<String> all = new ArrayList<>(a);
		all.addAll(b);
		return all;
	}

	private static void run(List<String> command, Path log) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		assertThat(process.waitFor(15, TimeUnit.MINUTES)).as(command + " within 15 minutes; see " + log).isTrue();
		assertThat(process.exitValue()).as(command + ": " + Files.readString(log, StandardCharsets.UTF_8)).isZero();
	}

}
