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
		assertThat(byType).containsEntry("dashboard", 1L);
		assertThat(byType.get("lens")).isGreaterThanOrEqualTo(8);
		List<String> dataViewTitles = objects.values()
			.stream()
			.filter((object) -> "index-pattern".equals(object.path("type").asString()))
			.map((object) -> object.path("attributes").path("title").asString())
			.toList();
		assertThat(dataViewTitles).contains("drivequal-samples-*", "drivequal-jobs", "drivequal-phase-results",
				"drivequal-runners");
		JsonNode dashboard = objects.get("dashboard:drivequal-drive-qualification");
		assertThat(dashboard.path("attributes").path("title").asString()).isEqualTo("Drive qualification");
		// Every visualization is on the dashboard.
		assertThat(dashboard.path("references").size()).isEqualTo(byType.get("lens").intValue());
		// The IOPS chart uses Lens' log scale.
		assertThat(objects.get("lens:drivequal-iops-over-time")
			.path("attributes")
			.path("state")
			.path("visualization")
			.path("yLeftScale")
			.asString()).isEqualTo("log");
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
		assertThat(problems).anyMatch((problem) -> problem.startsWith("lens:drivequal-iops-over-time: column c-iops"));
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
	void aChangedTypeIsCaught() {
		Map<String, String> templates = templates();
		// A keyword turned into text can no longer be a terms bucket.
		templates.put("drivequal-jobs",
				templates.get("drivequal-jobs")
					.replace("\"driveModel\": {\n          \"type\": \"keyword\"",
							"\"driveModel\": {\n          \"type\": \"text\""));
		// A date stored as a number can no longer drive a date histogram.
		templates.put("drivequal-samples", templates.get("drivequal-samples")
			.replace("\"@timestamp\": { \"type\": \"date\", \"format\": \"epoch_millis||strict_date_optional_time\" }",
					"\"@timestamp\": { \"type\": \"long\" }"));
		List<String> problems = SavedObjectFields.check(this.contracts.mapper(), this.ndjson, templates).problems();
		assertThat(problems).anyMatch((problem) -> problem.contains("field driveModel is text"));
		assertThat(problems)
			.anyMatch((problem) -> problem.contains("date_histogram") && problem.contains("@timestamp is long"));
		assertThat(problems).anyMatch((problem) -> problem.contains("time field: field @timestamp is long"));
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
