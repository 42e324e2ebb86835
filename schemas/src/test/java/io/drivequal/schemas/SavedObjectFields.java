/*
 * Checks the Kibana saved objects against the index templates, so a mapping change cannot
 * silently empty a dashboard: every field a data view, Lens column, KQL query, runtime-field
 * script or Vega chart (its query, _source, sort, aggregations, transforms and encodings) names must exist in
 * the template of the indices it reads, with a type the use needs
 * (numbers for metrics, dates for date histograms, aggregatable fields for terms). Also checks
 * that the objects reference each other consistently. Kibana cannot run here, so this is what
 * stands between a renamed field and an empty panel.
 */
package io.drivequal.schemas;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

final class SavedObjectFields {

	static final Set<String> NUMERIC = Set.of("long", "integer", "short", "byte", "double", "float", "half_float",
			"scaled_float", "unsigned_long");

	/** Types with doc values: what terms, unique counts, sorting and scripts can use. */
	static final Set<String> AGGREGATABLE = union(NUMERIC, Set.of("keyword", "date", "date_nanos", "boolean", "ip"));

	private static final Set<String> DATES = Set.of("date", "date_nanos");

	/** What a problem message prints for a field that must be a date. */
	static final String DATES_FOR_TESTS = DATES.toString();

	/** A disabled object: stored in _source only, neither searchable nor aggregatable. */
	private static final String DISABLED = "object (enabled: false)";

	/**
	 * A KQL field name: before ':' or a range operator; quoted values are blanked first.
	 */
	private static final Pattern KQL_FIELD = Pattern.compile("(?<![\\w.@*])([A-Za-z_@][\\w.@]*)\\s*(?::|<=|>=|<|>)");

	private static final Pattern QUOTED = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"");

	private static final Pattern SCRIPT_DOC_FIELD = Pattern.compile("doc\\[['\"]([^'\"]+)['\"]\\]");

	private static final String LAYER_REFERENCE_PREFIX = "indexpattern-datasource-layer-";

	/** A document field read in a Vega expression: datum._source.name. */
	private static final Pattern VEGA_DATUM_FIELD = Pattern.compile("datum\\._source\\.([A-Za-z_@][\\w@]*)");

	/** Elasticsearch leaf queries whose keys are field names. */
	private static final Set<String> FIELD_QUERIES = Set.of("range", "prefix", "term", "terms", "wildcard", "match",
			"match_phrase");

	private final ObjectMapper mapper;

	/** Template name to its index_patterns and flattened mapping (path to type). */
	private final Map<String, Template> templates = new LinkedHashMap<>();

	private final Map<String, JsonNode> objects = new LinkedHashMap<>();

	private final List<String> problems = new ArrayList<>();

	/**
	 * How many field references were checked, so a test can see the check is not empty.
	 */
	private int fieldReferences;

	private record Template(List<String> indexPatterns, Map<String, String> fields) {
	}

	private SavedObjectFields(ObjectMapper mapper) {
		this.mapper = mapper;
	}

	/**
	 * @param ndjson the saved objects, one per line
	 * @param templateBodies index template bodies by template name
	 */
	static SavedObjectFields check(ObjectMapper mapper, String ndjson, Map<String, String> templateBodies) {
		SavedObjectFields check = new SavedObjectFields(mapper);
		templateBodies.forEach((name, body) -> check.addTemplate(name, mapper.readTree(body)));
		check.readObjects(ndjson);
		check.checkReferences();
		for (JsonNode object : check.objects.values()) {
			switch (object.path("type").asString()) {
				case "index-pattern" -> check.checkDataView(object);
				case "lens" -> check.checkLens(object);
				case "visualization" -> check.checkVega(object);
				case "dashboard" -> check.checkDashboard(object);
				default -> check.problem(object, "unexpected saved object type " + object.path("type").asString());
			}
		}
		return check;
	}

	List<String> problems() {
		return this.problems;
	}

	int fieldReferences() {
		return this.fieldReferences;
	}

	Map<String, JsonNode> objects() {
		return this.objects;
	}

	private void addTemplate(String name, JsonNode body) {
		List<String> patterns = new ArrayList<>();
		body.path("index_patterns").forEach((pattern) -> patterns.add(pattern.asString()));
		Map<String, String> fields = new LinkedHashMap<>();
		flatten("", body.path("template").path("mappings").path("properties"), fields);
		this.templates.put(name, new Template(patterns, fields));
	}

	private static void flatten(String prefix, JsonNode properties, Map<String, String> fields) {
		for (Map.Entry<String, JsonNode> entry : properties.properties()) {
			String path = prefix + entry.getKey();
			JsonNode property = entry.getValue();
			if (property.has("properties")) {
				flatten(path + ".", property.path("properties"), fields);
			}
			else if (property.path("enabled").isBoolean() && !property.path("enabled").asBoolean()) {
				fields.put(path, DISABLED);
			}
			else {
				fields.put(path, property.path("type").asString("object"));
			}
		}
	}

	private void readObjects(String ndjson) {
		int lineNumber = 0;
		for (String line : ndjson.split("\n", -1)) {
			lineNumber++;
			if (line.isBlank()) {
				continue;
			}
			JsonNode object = this.mapper.readTree(line);
			String key = object.path("type").asString() + ":" + object.path("id").asString();
			for (String required : List.of("type", "id", "coreMigrationVersion", "typeMigrationVersion")) {
				if (!object.path(required).isString() || object.path(required).asString().isEmpty()) {
					this.problems.add("line " + lineNumber + " (" + key + "): no " + required);
				}
			}
			if (!object.path("attributes").isObject() || !object.path("references").isArray()) {
				this.problems.add("line " + lineNumber + " (" + key + "): attributes and references are required");
			}
			if (this.objects.put(key, object) != null) {
				this.problems.add("line " + lineNumber + ": duplicate saved object " + key);
			}
		}
	}

	private void checkReferences() {
		for (JsonNode object : this.objects.values()) {
			Set<String> names = new HashSet<>();
			for (JsonNode reference : object.path("references")) {
				String target = reference.path("type").asString() + ":" + reference.path("id").asString();
				if (!this.objects.containsKey(target)) {
					problem(object, "references " + target + ", which is not in the file");
				}
				if (!names.add(reference.path("name").asString())) {
					problem(object, "two references named " + reference.path("name").asString());
				}
			}
		}
	}

	private void checkDataView(JsonNode dataView) {
		JsonNode attributes = dataView.path("attributes");
		Map<String, String> fields = fieldsOf(dataView);
		if (fields == null) {
			return;
		}
		String timeField = attributes.path("timeFieldName").asString("");
		if (!timeField.isEmpty()) {
			use(dataView, fields, timeField, DATES, "time field");
		}
		JsonNode runtime = parseString(dataView, attributes, "runtimeFieldMap");
		for (Map.Entry<String, JsonNode> field : runtime.properties()) {
			Matcher docField = SCRIPT_DOC_FIELD.matcher(field.getValue().path("script").path("source").asString(""));
			while (docField.find()) {
				use(dataView, this.templateFieldsOf(dataView), docField.group(1), AGGREGATABLE,
						"runtime field " + field.getKey() + "'s script");
			}
		}
	}

	private void checkLens(JsonNode lens) {
		JsonNode state = lens.path("attributes").path("state");
		Map<String, String> layerDataViews = new HashMap<>();
		for (JsonNode reference : lens.path("references")) {
			String name = reference.path("name").asString();
			if (name.startsWith(LAYER_REFERENCE_PREFIX)) {
				layerDataViews.put(name.substring(LAYER_REFERENCE_PREFIX.length()), reference.path("id").asString());
			}
		}
		JsonNode layers = state.path("datasourceStates").path("formBased").path("layers");
		if (layers.isEmpty()) {
			problem(lens, "has no formBased layers");
		}
		Set<String> dataViewsUsed = new HashSet<>();
		for (Map.Entry<String, JsonNode> layer : layers.properties()) {
			String dataViewId = layerDataViews.get(layer.getKey());
			JsonNode dataView = this.objects.get("index-pattern:" + dataViewId);
			if (dataView == null) {
				problem(lens, "layer " + layer.getKey() + " has no data view reference");
				continue;
			}
			dataViewsUsed.add(dataViewId);
			Map<String, String> fields = fieldsOf(dataView);
			if (fields == null) {
				continue;
			}
			JsonNode columns = layer.getValue().path("columns");
			for (JsonNode columnId : layer.getValue().path("columnOrder")) {
				if (!columns.has(columnId.asString())) {
					problem(lens, "columnOrder names a missing column " + columnId.asString());
				}
			}
			for (Map.Entry<String, JsonNode> column : columns.properties()) {
				checkColumn(lens, column.getKey(), column.getValue(), fields);
			}
		}
		for (String dataViewId : dataViewsUsed) {
			Map<String, String> fields = fieldsOf(this.objects.get("index-pattern:" + dataViewId));
			kql(lens, fields, state.path("query"), "query");
			for (JsonNode filter : state.path("filters")) {
				kql(lens, fields, filter.path("query"), "filter");
				String key = filter.path("meta").path("key").asString("");
				if (!key.isEmpty()) {
					use(lens, fields, key, null, "filter");
				}
			}
		}
	}

	/**
	 * A Vega(-Lite) visualization querying Elasticsearch: the index's template must map
	 * every field its query, _source, sort, aggregations, transforms and encodings name
	 * (a layered spec's layers included).
	 */
	private void checkVega(JsonNode visualization) {
		JsonNode visState = parseString(visualization, visualization.path("attributes"), "visState");
		if (!"vega".equals(visState.path("type").asString())) {
			problem(visualization, "a visualization that is not Vega: no rule for type "
					+ visState.path("type").asString() + "; add one to SavedObjectFields");
			return;
		}
		JsonNode spec = parseString(visualization, visState.path("params"), "spec");
		JsonNode url = spec.path("data").path("url");
		String index = url.path("index").asString("");
		Map<String, String> fields = templateFieldsOf(visualization, index);
		if (fields == null) {
			return;
		}
		JsonNode body = url.path("body");
		for (JsonNode source : body.path("_source")) {
			use(visualization, fields, source.asString(), null, "_source");
		}
		for (JsonNode sort : body.path("sort")) {
			sort.propertyNames().forEach((field) -> use(visualization, fields, field, AGGREGATABLE, "sort"));
		}
		vegaQuery(visualization, fields, body.path("query"));
		vegaAggregations(visualization, fields, body.path("aggs"), "aggregation ");
		List<JsonNode> views = new ArrayList<>();
		views.add(spec);
		spec.path("layer").forEach(views::add);
		for (JsonNode view : views) {
			vegaView(visualization, fields, view);
		}
	}

	private void vegaView(JsonNode visualization, Map<String, String> fields, JsonNode view) {
		for (JsonNode transform : view.path("transform")) {
			for (String expression : List.of(transform.path("filter").asString(""),
					transform.path("calculate").asString(""))) {
				Matcher field = VEGA_DATUM_FIELD.matcher(expression);
				while (field.find()) {
					use(visualization, fields, field.group(1), null, "transform '" + expression + "'");
				}
			}
		}
		for (Map.Entry<String, JsonNode> channel : view.path("encoding").properties()) {
			List<JsonNode> encodings = new ArrayList<>();
			if (channel.getValue().isArray()) {
				channel.getValue().forEach(encodings::add);
			}
			else {
				encodings.add(channel.getValue());
			}
			for (JsonNode encoding : encodings) {
				String field = encoding.path("field").asString("");
				if (field.startsWith("_source.")) {
					use(visualization, fields, field.substring("_source.".length()),
							"quantitative".equals(encoding.path("type").asString()) ? NUMERIC : null,
							"encoding " + channel.getKey());
				}
			}
		}
	}

	/**
	 * Every field an aggregation names, with the type it needs: terms sources
	 * aggregatable ones, histograms and metrics numbers, date histograms dates. An
	 * aggregation without a rule here is reported, so a new kind cannot slip past
	 * unchecked.
	 */
	private void vegaAggregations(JsonNode visualization, Map<String, String> fields, JsonNode aggregations,
			String where) {
		for (Map.Entry<String, JsonNode> aggregation : aggregations.properties()) {
			String name = where + aggregation.getKey();
			for (Map.Entry<String, JsonNode> kind : aggregation.getValue().properties()) {
				switch (kind.getKey()) {
					case "aggs", "aggregations" -> vegaAggregations(visualization, fields, kind.getValue(), name + ".");
					case "composite" -> {
						for (JsonNode source : kind.getValue().path("sources")) {
							for (Map.Entry<String, JsonNode> named : source.properties()) {
								for (Map.Entry<String, JsonNode> sourceKind : named.getValue().properties()) {
									aggregationField(visualization, fields, sourceKind.getKey(), sourceKind.getValue(),
											name + " source " + named.getKey());
								}
							}
						}
					}
					default -> aggregationField(visualization, fields, kind.getKey(), kind.getValue(), name);
				}
			}
		}
	}

	private void aggregationField(JsonNode visualization, Map<String, String> fields, String kind, JsonNode params,
			String where) {
		Set<String> suitable = switch (kind) {
			case "terms" -> AGGREGATABLE;
			case "histogram", "avg", "min", "max", "sum", "stats" -> NUMERIC;
			case "date_histogram" -> DATES;
			default -> null;
		};
		if (suitable == null) {
			problem(visualization, where + ": no rule for a " + kind + " aggregation; add one to SavedObjectFields");
			return;
		}
		use(visualization, fields, params.path("field").asString(""), suitable, where + " (" + kind + ")");
	}

	/**
	 * Walks a query: leaf queries name fields; Kibana's %...% placeholders are skipped.
	 */
	private void vegaQuery(JsonNode visualization, Map<String, String> fields, JsonNode query) {
		if (query.isArray()) {
			query.forEach((element) -> vegaQuery(visualization, fields, element));
			return;
		}
		if (!query.isObject()) {
			return;
		}
		for (Map.Entry<String, JsonNode> entry : query.properties()) {
			if (FIELD_QUERIES.contains(entry.getKey())) {
				for (Map.Entry<String, JsonNode> field : entry.getValue().properties()) {
					boolean timeFilter = field.getValue().has("%timefilter%");
					use(visualization, fields, field.getKey(), timeFilter ? DATES : null, "query " + entry.getKey());
				}
			}
			else if ("exists".equals(entry.getKey())) {
				use(visualization, fields, entry.getValue().path("field").asString(), null, "query exists");
			}
			else {
				vegaQuery(visualization, fields, entry.getValue());
			}
		}
	}

	private void checkColumn(JsonNode lens, String columnId, JsonNode column, Map<String, String> fields) {
		String operation = column.path("operationType").asString();
		String field = column.path("sourceField").asString("");
		String where = "column " + columnId + " (" + operation + ")";
		Set<String> suitable = switch (operation) {
			case "average", "sum", "median", "percentile", "percentile_rank", "standard_deviation", "range" -> NUMERIC;
			case "min", "max" -> union(NUMERIC, DATES);
			case "date_histogram" -> DATES;
			case "terms", "unique_count", "last_value", "count" -> AGGREGATABLE;
			case "filters" -> Set.of();
			default -> {
				problem(lens, where + ": no rule for this operation; add one to SavedObjectFields");
				yield Set.of();
			}
		};
		if (!field.isEmpty() && !"___records___".equals(field)) {
			String type = use(lens, fields, field, suitable, where);
			String dataType = column.path("dataType").asString("");
			if (type != null && !"count".equals(operation) && !"unique_count".equals(operation)
					&& !dataTypeFits(dataType, type)) {
				problem(lens, where + ": dataType " + dataType + " does not fit " + field + " (" + type + ")");
			}
		}
		JsonNode params = column.path("params");
		if (params.has("sortField")) {
			use(lens, fields, params.path("sortField").asString(), DATES, where + " sortField");
		}
		kql(lens, fields, column.path("filter"), where + " filter");
		for (JsonNode filter : params.path("filters")) {
			kql(lens, fields, filter.path("input"), where + " filter");
		}
	}

	private void checkDashboard(JsonNode dashboard) {
		JsonNode attributes = dashboard.path("attributes");
		Map<String, JsonNode> referencesByName = new HashMap<>();
		dashboard.path("references")
			.forEach((reference) -> referencesByName.put(reference.path("name").asString(), reference));
		Set<String> panelIndexes = new HashSet<>();
		List<Map<String, String>> panelFields = new ArrayList<>();
		for (JsonNode panel : parseString(dashboard, attributes, "panelsJSON")) {
			String panelIndex = panel.path("panelIndex").asString();
			if (!panelIndexes.add(panelIndex) || !panelIndex.equals(panel.path("gridData").path("i").asString())) {
				problem(dashboard, "panel " + panelIndex + ": panelIndex not unique or not gridData.i");
			}
			JsonNode reference = referencesByName.get(panelIndex + ":" + panel.path("panelRefName").asString());
			if (reference == null) {
				problem(dashboard, "panel " + panelIndex + " has no reference named " + panelIndex + ":"
						+ panel.path("panelRefName").asString());
				continue;
			}
			if (!reference.path("type").asString().equals(panel.path("type").asString())) {
				problem(dashboard, "panel " + panelIndex + " is a " + panel.path("type").asString()
						+ " but its reference is a " + reference.path("type").asString());
			}
			JsonNode lens = this.objects.get(reference.path("type").asString() + ":" + reference.path("id").asString());
			if (lens != null) {
				for (JsonNode layerReference : lens.path("references")) {
					JsonNode dataView = this.objects.get("index-pattern:" + layerReference.path("id").asString());
					if (dataView != null && fieldsOf(dataView) != null) {
						panelFields.add(fieldsOf(dataView));
					}
				}
			}
		}
		if (panelIndexes.isEmpty()) {
			problem(dashboard, "has no panels");
		}
		JsonNode searchSource = parseString(dashboard, attributes.path("kibanaSavedObjectMeta"), "searchSourceJSON");
		// A dashboard query applies to every panel, so its fields must exist in every
		// panel's
		// data view.
		for (Map<String, String> fields : panelFields) {
			kql(dashboard, fields, searchSource.path("query"), "dashboard query");
		}
	}

	/**
	 * The data view's fields: its template's mapping plus its runtime fields; null if
	 * none.
	 */
	private Map<String, String> fieldsOf(JsonNode dataView) {
		Map<String, String> mapped = templateFieldsOf(dataView);
		if (mapped == null) {
			return null;
		}
		Map<String, String> fields = new LinkedHashMap<>(mapped);
		JsonNode runtime = parseString(dataView, dataView.path("attributes"), "runtimeFieldMap");
		runtime.properties().forEach((field) -> fields.put(field.getKey(), field.getValue().path("type").asString()));
		return fields;
	}

	/**
	 * The mapping of the one template whose index_patterns cover the data view's title (a
	 * {@code *} in the title stands for any index of that family).
	 */
	private Map<String, String> templateFieldsOf(JsonNode dataView) {
		return templateFieldsOf(dataView, dataView.path("attributes").path("title").asString(""));
	}

	private Map<String, String> templateFieldsOf(JsonNode object, String title) {
		String concreteIndex = title.replace("*", "2026.11");
		List<String> matching = new ArrayList<>();
		this.templates.forEach((name, template) -> {
			if (template.indexPatterns()
				.stream()
				.anyMatch((pattern) -> glob(pattern).matcher(concreteIndex).matches())) {
				matching.add(name);
			}
		});
		if (matching.size() != 1) {
			problem(object, "title " + title + " matches " + matching.size() + " index templates " + matching
					+ ", expected exactly one");
			return null;
		}
		return this.templates.get(matching.get(0)).fields();
	}

	private void kql(JsonNode object, Map<String, String> fields, JsonNode query, String where) {
		if (fields == null || !"kuery".equals(query.path("language").asString(""))) {
			return;
		}
		Matcher field = KQL_FIELD.matcher(QUOTED.matcher(query.path("query").asString("")).replaceAll("\"\""));
		while (field.find()) {
			use(object, fields, field.group(1), null, where + " '" + query.path("query").asString() + "'");
		}
	}

	/**
	 * Records a reference to a field and checks it.
	 * @param suitable the types the use needs, or null for any searchable field
	 * @return the field's type, or null when it is missing
	 */
	private String use(JsonNode object, Map<String, String> fields, String field, Set<String> suitable, String where) {
		this.fieldReferences++;
		String type = fields.get(field);
		if (type == null) {
			problem(object, where + ": field " + field + " is not in the index template");
			return null;
		}
		if (DISABLED.equals(type) || (suitable != null && !suitable.contains(type))) {
			problem(object, where + ": field " + field + " is " + type + ", needs one of "
					+ ((suitable != null) ? suitable : "the searchable types"));
		}
		return type;
	}

	private static boolean dataTypeFits(String dataType, String fieldType) {
		return switch (dataType) {
			case "number" -> NUMERIC.contains(fieldType);
			case "date" -> DATES.contains(fieldType);
			case "string" -> "keyword".equals(fieldType) || "ip".equals(fieldType);
			case "boolean" -> "boolean".equals(fieldType);
			default -> false;
		};
	}

	private JsonNode parseString(JsonNode object, JsonNode holder, String property) {
		JsonNode value = holder.path(property);
		if (!value.isString()) {
			problem(object, property + " must be a JSON string");
			return this.mapper.createObjectNode();
		}
		return this.mapper.readTree(value.asString());
	}

	private void problem(JsonNode object, String message) {
		this.problems.add(object.path("type").asString() + ":" + object.path("id").asString() + ": " + message);
	}

	private static Pattern glob(String pattern) {
		return Pattern.compile(Pattern.quote(pattern).replace("*", "\\E.*\\Q"));
	}

	private static Set<String> union(Set<String> a, Set<String> b) {
		Set<String> union = new HashSet<>(a);
		union.addAll(b);
		return Set.copyOf(union);
	}

}
