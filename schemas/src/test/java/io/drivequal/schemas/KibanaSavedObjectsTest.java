/*
 * The Kibana saved objects name only fields the index templates map, with suitable types, and
 * hang together (ids, references, panels). The negative cases prove the check would catch a
 * renamed field or a changed type: without them, a check that checks nothing would also pass.
 */
package io.drivequal.schemas;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

class KibanaSavedObjectsTest {

	private final Contracts contracts = Contracts.load();

	private final String ndjson = Contracts.resource(Contracts.KIBANA_SAVED_OBJECTS);

	@Test
	void everyReferencedFieldExistsWithASuitableType() {
		SavedObjectFields check = SavedObjectFields.check(this.contracts.mapper(), this.ndjson, templates());
		assertThat(check.problems()).isEmpty();
		assertThat(check.fieldReferences()).as("field references checked").isGreaterThan(60);
		System.out.println("Kibana saved objects: " + check.objects().size() + " objects, " + check.fieldReferences()
				+ " field references checked");
	}

	@Test
	void theFileHoldsTheDataViewsVisualizationsAndDashboard() {
		Map<String, JsonNode> objects = SavedObjectFields.check(this.contracts.mapper(), this.ndjson, templates())
			.objects();
		Map<String, Long> byType = objects.values()
			.stream()
			.collect(Collectors.groupingBy((object) -> object.path("type").asString(), Collectors.counting()));
		assertThat(byType).containsEntry("dashboard", 2L);
		assertThat(byType.get("lens")).isGreaterThanOrEqualTo(10);
		assertThat(byType).containsEntry("visualization", 4L);
		List<String> dataViewTitles = objects.values()
			.stream()
			.filter((object) -> "index-pattern".equals(object.path("type").asString()))
			.map((object) -> object.path("attributes").path("title").asString())
			.toList();
		assertThat(dataViewTitles).contains("drivequal-samples-*", "drivequal-jobs", "drivequal-phase-results",
				"drivequal-runners", "drivequal-campaigns");
		JsonNode dashboard = objects.get("dashboard:drivequal-drive-qualification");
		assertThat(dashboard.path("attributes").path("title").asString()).isEqualTo("Drive qualification");
		JsonNode models = objects.get("dashboard:drivequal-drive-models");
		assertThat(models.path("attributes").path("title").asString()).isEqualTo("Drive models");
		assertThat(models.path("references").valueStream().map((reference) -> reference.path("id").asString()))
			.containsExactly("drivequal-campaigns-by-firmware", "drivequal-model-samples-by-firmware");
		// Every visualization is on exactly one dashboard.
		List<String> onDashboards = objects.values()
			.stream()
			.filter((object) -> "dashboard".equals(object.path("type").asString()))
			.flatMap((object) -> object.path("references").valueStream())
			.map((reference) -> reference.path("type").asString() + ":" + reference.path("id").asString())
			.toList();
		List<String> visualizations = objects.keySet()
			.stream()
			.filter((key) -> key.startsWith("lens:") || key.startsWith("visualization:"))
			.toList();
		assertThat(onDashboards).containsExactlyInAnyOrderElementsOf(visualizations);
	}

	/**
	 * The IOPS charts read like the seeds': one point per second against t, the phase's
	 * own time axis, so runs overlay; log scale; the zoom is t > 1400 s. Elasticsearch
	 * returns at most 10,000 hits, so the seconds come from a composite aggregation (one
	 * bucket per run and second, up to 28,800 of them); with more, the chart draws one
	 * point per 60 s round from a second composite and says so in a note. No chart
	 * averages IOPS over wall-clock time. KibanaVegaIT (service/app) runs these charts on
	 * real samples.
	 */
	@Test
	void theIopsChartsArePerSecondPointsOnPhaseTime() {
		Map<String, JsonNode> objects = SavedObjectFields.check(this.contracts.mapper(), this.ndjson, templates())
			.objects();
		Map<String, JsonNode> specs = new LinkedHashMap<>();
		for (String id : List.of("drivequal-iops-over-time", "drivequal-steady-state-zoom",
				"drivequal-steady-state-zoom-linear")) {
			specs.put(id, vegaSpec(objects, id));
		}
		for (Map.Entry<String, JsonNode> entry : specs.entrySet()) {
			JsonNode spec = entry.getValue();
			String id = entry.getKey();
			JsonNode body = spec.path("data").path("url").path("body");
			assertThat(spec.path("data").path("url").path("index").asString()).as(id).isEqualTo("drivequal-samples-*");
			assertThat(body.path("size").asInt(-1)).as(id + ": no hits, which stop at 10,000").isZero();
			assertThat(spec.path("data").path("format").path("property").asString()).isEqualTo("aggregations");
			JsonNode seconds = body.path("aggs").path("seconds").path("composite");
			JsonNode minutes = body.path("aggs").path("minutes").path("composite");
			assertThat(seconds.path("size").asInt()).as(id).isEqualTo(28800);
			assertThat(lastSource(seconds)).as(id + ": one bucket per second")
				.isEqualTo("{\"t\":{\"histogram\":{\"field\":\"t\",\"interval\":1}}}");
			assertThat(lastSource(minutes)).as(id + ": thinned to minutes of t, t in [60m, 60m + 60)")
				.isEqualTo("{\"t\":{\"histogram\":{\"field\":\"t\",\"interval\":60}}}");
			assertThat(seconds.path("size").asInt() + minutes.path("size").asInt())
				.as(id + ": both fit Elasticsearch's default search.max_buckets")
				.isLessThanOrEqualTo(65536);
			JsonNode points = spec.path("layer").get(0);
			assertThat(points.path("mark").path("type").asString()).as(id + " mark").isEqualTo("point");
			assertThat(points.path("encoding").path("x").path("field").asString()).as(id + " x").isEqualTo("t");
			assertThat(points.path("encoding").path("y").path("field").asString()).as(id + " y").isEqualTo("iops");
			assertThat(points.path("encoding").path("color").path("field").asString()).as(id + ": one colour per run")
				.isEqualTo("run");
			assertThat(spec.path("transform").toString()).as(id).contains("length(datum.seconds.buckets) < 28800");
			JsonNode note = spec.path("layer").get(1);
			assertThat(note.path("mark").path("type").asString()).as(id + ": the thinning note").isEqualTo("text");
			assertThat(note.path("transform").toString()).contains("!datum.perSecond", "Thinned");
			assertThat(body.path("query").toString()).as(id + ": the dashboard's filters and time range apply")
				.contains("%dashboard_context-must_clause%", "%dashboard_context-filter_clause%",
						"%dashboard_context-must_not_clause%", "%timefilter%");
		}
		assertThat(yScale(specs.get("drivequal-iops-over-time")).path("type").asString()).isEqualTo("log");
		assertThat(yScale(specs.get("drivequal-steady-state-zoom")).path("type").asString()).isEqualTo("log");
		assertThat(yScale(specs.get("drivequal-steady-state-zoom-linear")).has("type")).isFalse();
		for (String zoom : List.of("drivequal-steady-state-zoom", "drivequal-steady-state-zoom-linear")) {
			assertThat(specs.get(zoom).path("data").path("url").path("body").path("query").toString()).as(zoom)
				.contains("{\"range\":{\"t\":{\"gt\":1400}}}");
		}
		assertThat(specs.get("drivequal-iops-over-time").path("data").path("url").path("body").path("query").toString())
			.doesNotContain("1400");
		// No Lens chart shows IOPS on wall-clock time.
		for (JsonNode object : objects.values()) {
			if ("lens".equals(object.path("type").asString())) {
				String state = object.path("attributes").path("state").toString();
				assertThat(state.contains("\"totalIops\"") && state.contains("\"date_histogram\""))
					.as(object.path("id").asString() + " averages IOPS over @timestamp")
					.isFalse();
			}
		}
	}

	/** No Vega chart asks for hits: those stop at 10,000 without a word. */
	@Test
	void noVegaChartReadsHits() {
		Map<String, JsonNode> objects = SavedObjectFields.check(this.contracts.mapper(), this.ndjson, templates())
			.objects();
		for (JsonNode object : objects.values()) {
			if ("visualization".equals(object.path("type").asString())) {
				JsonNode spec = vegaSpec(objects, object.path("id").asString());
				assertThat(spec.path("data").path("url").path("body").path("size").asInt(-1))
					.as(object.path("id").asString())
					.isZero();
				assertThat(spec.path("data").path("format").path("property").asString())
					.as(object.path("id").asString())
					.isEqualTo("aggregations");
			}
		}
	}

	private JsonNode vegaSpec(Map<String, JsonNode> objects, String id) {
		JsonNode visState = this.contracts.mapper()
			.readTree(objects.get("visualization:" + id).path("attributes").path("visState").asString());
		assertThat(visState.path("type").asString()).as(id).isEqualTo("vega");
		return this.contracts.mapper().readTree(visState.path("params").path("spec").asString());
	}

	private static String lastSource(JsonNode composite) {
		JsonNode sources = composite.path("sources");
		return sources.get(sources.size() - 1).toString();
	}

	private static JsonNode yScale(JsonNode spec) {
		return spec.path("layer").get(0).path("encoding").path("y").path("scale");
	}

	@Test
	void everyLineIsOneCompactObjectAndTheFileEndsWithANewline() {
		assertThat(this.ndjson).endsWith("\n");
		for (String line : this.ndjson.strip().split("\n")) {
			assertThat(this.contracts.mapper().readTree(line).isObject()).isTrue();
		}
	}

	@Test
	void aRenamedFieldIsCaught() {
		Map<String, String> templates = templates();
		templates.put("drivequal-samples",
				templates.get("drivequal-samples").replace("\"totalIops\"", "\"iopsTotal\""));
		List<String> problems = SavedObjectFields.check(this.contracts.mapper(), this.ndjson, templates).problems();
		assertThat(problems).isNotEmpty()
			.allMatch((problem) -> problem.contains("field totalIops is not in the index template"));
		assertThat(problems).anyMatch((problem) -> problem.startsWith("visualization:drivequal-iops-over-time: "
				+ "aggregation seconds.iops (avg): field totalIops is not in the index template"));
		assertThat(problems).anyMatch((problem) -> problem.startsWith("visualization:drivequal-iops-over-time: "
				+ "aggregation minutes.iops (avg): field totalIops is not in the index template"));
	}

	@Test
	void aRenamedNestedFieldUsedOnlyInAQueryIsCaught() {
		Map<String, String> templates = templates();
		// consistency.ratio, as used in the consistency table's KQL query and columns.
		templates.put("drivequal-phase-results",
				templates.get("drivequal-phase-results")
					.replace("\"ratio\": { \"type\": \"double\" },\n          \"meanIops\"",
							"\"p01Ratio\": { \"type\": \"double\" },\n          \"meanIops\""));
		List<String> problems = SavedObjectFields.check(this.contracts.mapper(), this.ndjson, templates).problems();
		assertThat(problems).anyMatch((problem) -> problem.contains("query 'consistency.ratio : *'")
				&& problem.contains("field consistency.ratio is not in the index template"));
	}

	@Test
	void aVegaChartOnAFieldOfTheWrongTypeIsCaught() {
		Map<String, String> templates = templates();
		// t as a keyword can no longer be histogrammed into seconds on a quantitative
		// axis.
		templates.put("drivequal-samples", templates.get("drivequal-samples")
			.replace("\"t\": { \"type\": \"integer\" }", "\"t\": { \"type\": \"keyword\" }"));
		List<String> problems = SavedObjectFields.check(this.contracts.mapper(), this.ndjson, templates).problems();
		assertThat(problems)
			.contains("visualization:drivequal-steady-state-zoom: aggregation seconds source t (histogram): field t is "
					+ "keyword, needs one of " + SavedObjectFields.NUMERIC);
	}

	@Test
	void aChangedTypeIsCaught() {
		Map<String, String> templates = templates();
		// A keyword turned into text can no longer be a terms bucket.
		templates.put("drivequal-jobs",
				templates.get("drivequal-jobs")
					.replace("\"driveModel\": {\n          \"type\": \"keyword\"",
							"\"driveModel\": {\n          \"type\": \"text\""));
		// A date stored as a number can no longer drive a date histogram, be a data
		// view's time field or take Kibana's time range in a Vega query.
		templates.put("drivequal-jobs", templates.get("drivequal-jobs")
			.replace("\"queuedAt\": {\n          \"type\": \"date\"", "\"queuedAt\": {\n          \"type\": \"long\""));
		templates.put("drivequal-samples", templates.get("drivequal-samples")
			.replace("\"@timestamp\": { \"type\": \"date\", \"format\": \"epoch_millis||strict_date_optional_time\" }",
					"\"@timestamp\": { \"type\": \"long\" }"));
		List<String> problems = SavedObjectFields.check(this.contracts.mapper(), this.ndjson, templates).problems();
		assertThat(problems).anyMatch((problem) -> problem.contains("field driveModel is text"));
		assertThat(problems)
			.anyMatch((problem) -> problem.contains("date_histogram") && problem.contains("queuedAt is long"));
		assertThat(problems).anyMatch((problem) -> problem.contains("time field: field @timestamp is long"));
		assertThat(problems).contains("visualization:drivequal-iops-over-time: query range: field @timestamp is long, "
				+ "needs one of " + SavedObjectFields.DATES_FOR_TESTS);
	}

	@Test
	void aDanglingReferenceIsCaught() {
		String broken = this.ndjson.replace("\"id\":\"drivequal-waf-table\",\"managed\"",
				"\"id\":\"drivequal-waf\",\"managed\"");
		List<String> problems = SavedObjectFields.check(this.contracts.mapper(), broken, templates()).problems();
		assertThat(problems).contains(
				"dashboard:drivequal-drive-qualification: references lens:drivequal-waf-table, which is not in the file");
	}

	private Map<String, String> templates() {
		Map<String, String> templates = new LinkedHashMap<>();
		for (String name : Contracts.INDEX_TEMPLATE_NAMES) {
			templates.put(name, this.contracts.indexTemplate(name));
		}
		return templates;
	}

}
