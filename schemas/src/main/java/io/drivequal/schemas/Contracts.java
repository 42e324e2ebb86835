/*
 * The contracts as the JVM side sees them: the JSON Schemas, topics and index templates are read
 * from the classpath copy of schemas/ (never re-typed in Java), so the service validates exactly
 * what the C runner's tests check.
 */
package io.drivequal.schemas;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.regex.RegularExpressionFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

public final class Contracts {

	/** Classpath folder holding the copy of schemas/ (see schemas/pom.xml). */
	public static final String CLASSPATH_ROOT = "drivequal/schemas/";

	private static final String SCHEMA_ID_PREFIX = "https://drivequal.io/schemas/";

	/**
	 * Every index template in schemas/elasticsearch/index-templates, by template name.
	 */
	public static final List<String> INDEX_TEMPLATE_NAMES = List.of("drivequal-jobs", "drivequal-samples",
			"drivequal-phase-results", "drivequal-drives", "drivequal-runners", "drivequal-events",
			"drivequal-drive-leases", "drivequal-audit", "drivequal-webhook-subscriptions",
			"drivequal-webhook-deliveries", "drivequal-health", "drivequal-runner-drains", "drivequal-campaigns");

	/**
	 * The Kibana saved objects (data views, Lens visualizations, the dashboard), as a
	 * path inside schemas/ and so, below {@link #CLASSPATH_ROOT}, on the classpath.
	 */
	public static final String KIBANA_SAVED_OBJECTS = "kibana/drivequal-saved-objects.ndjson";

	private final ObjectMapper mapper;

	/** The general validator's schemas (package-private: tests compare the two paths). */
	final Map<MessageType, Schema> schemas = new EnumMap<>(MessageType.class);

	/**
	 * The schemas CompiledSchema could compile: a message they pass is valid without the
	 * general validator (docs/benchmarks.md, "Ingest").
	 */
	final Map<MessageType, Predicate<JsonNode>> compiled = new EnumMap<>(MessageType.class);

	private final List<Topic> topics;

	private final Map<String, JsonNode> documents = new LinkedHashMap<>();

	private final RegularExpressionFactory regex;

	private Contracts(ObjectMapper mapper) {
		this.mapper = mapper;
		Map<String, String> byId = new LinkedHashMap<>();
		byId.put(SCHEMA_ID_PREFIX + "messages/common.schema.json", resource("messages/common.schema.json"));
		for (MessageType type : MessageType.values()) {
			byId.put(SCHEMA_ID_PREFIX + type.schemaPath(), resource(type.schemaPath()));
		}
		// "format" is only an annotation in 2020-12 unless asserted; the runner checks
		// date-times
		// for real calendar values, so the service must too or the two sides would
		// disagree.
		SchemaRegistryConfig config = SchemaRegistryConfig.builder().formatAssertionsEnabled(true).build();
		SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
				(builder) -> builder.schemas(byId).schemaRegistryConfig(config));
		this.regex = config.getRegularExpressionFactory();
		byId.forEach((id, text) -> this.documents.put(id, mapper.readTree(text)));
		for (MessageType type : MessageType.values()) {
			String id = SCHEMA_ID_PREFIX + type.schemaPath();
			this.schemas.put(type, registry.getSchema(SchemaLocation.of(id)));
			CompiledSchema.compile(this.documents, id, this.regex).ifPresent((check) -> this.compiled.put(type, check));
		}
		this.topics = readTopics();
	}

	/** Loads the contracts from the classpath; cheap enough to call once per process. */
	public static Contracts load() {
		return new Contracts(JsonMapper.builder().build());
	}

	/** Parses and validates raw message bytes; never throws for bad input. */
	public Validation validate(MessageType type, byte[] json) {
		JsonNode node;
		try {
			node = this.mapper.readTree(json);
		}
		catch (JacksonException ex) {
			return new Validation(null, List.of("not JSON: " + ex.getOriginalMessage()));
		}
		if (node == null || node.isMissingNode()) {
			return new Validation(null, List.of("not JSON: empty"));
		}
		return validate(type, node);
	}

	public Validation validate(MessageType type, JsonNode node) {
		Predicate<JsonNode> fast = this.compiled.get(type);
		if (fast != null && fast.test(node)) {
			return new Validation(node, List.of());
		}
		List<String> reasons = new ArrayList<>();
		for (Error error : this.schemas.get(type).validate(node)) {
			reasons.add(error.getInstanceLocation() + ": " + error.getMessage());
		}
		return new Validation(reasons.isEmpty() ? node : null, reasons);
	}

	/**
	 * The compiled schema of one member of {@code type}'s messages, by property names
	 * from the message's root ({@code "read", "latencyNs", "p50"}), for decoders that
	 * stream.
	 * @throws IllegalArgumentException when no such member is declared, or its schema
	 * does not compile
	 */
	public MemberSchema member(MessageType type, String... path) {
		return CompiledSchema.member(this.documents, SCHEMA_ID_PREFIX + type.schemaPath(), List.of(path), this.regex);
	}

	public List<Topic> topics() {
		return this.topics;
	}

	public Topic topicCarrying(MessageType type) {
		return this.topics.stream()
			.filter((topic) -> type.schemaPath().equals(topic.schema()))
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("topics.json names no topic for " + type.id()));
	}

	/** The body of an index template, ready for PUT _index_template/{name}. */
	public String indexTemplate(String name) {
		if (!INDEX_TEMPLATE_NAMES.contains(name)) {
			throw new IllegalArgumentException("no index template " + name);
		}
		return resource("elasticsearch/index-templates/" + name + ".json");
	}

	public ObjectMapper mapper() {
		return this.mapper;
	}

	/** A file of the contracts, by its path inside schemas/. */
	public static String resource(String path) {
		try (InputStream in = Contracts.class.getClassLoader().getResourceAsStream(CLASSPATH_ROOT + path)) {
			if (in == null) {
				throw new IllegalStateException("contract file missing from the classpath: " + path);
			}
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private List<Topic> readTopics() {
		JsonNode root = this.mapper.readTree(resource("topics.json"));
		List<Topic> result = new ArrayList<>();
		for (JsonNode topic : root.get("topics")) {
			result.add(this.mapper.treeToValue(topic, Topic.class));
		}
		return List.copyOf(result);
	}

}
