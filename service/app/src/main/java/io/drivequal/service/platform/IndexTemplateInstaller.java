/*
 * Installs the index templates of schemas/ before any consumer starts, so the first document of
 * every index gets the contract's strict mapping. Idempotent: PUT replaces a template with itself.
 * The one deployment choice it applies is the sample indices' shards and replicas, which a lab
 * sizes by its drives (docs/operations.md), so a restart does not undo them.
 */
package io.drivequal.service.platform;

import java.io.StringReader;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import javax.net.ssl.SSLException;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.HealthStatus;
import co.elastic.clients.transport.TransportException;
import io.drivequal.schemas.Contracts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

@Component
class IndexTemplateInstaller implements SmartLifecycle {

	private static final Logger log = LoggerFactory.getLogger(IndexTemplateInstaller.class);

	private static final Duration RETRY_PAUSE = Duration.ofSeconds(2);

	static final String SAMPLES_TEMPLATE = "drivequal-samples";

	private final ElasticsearchClient client;

	private final Contracts contracts;

	private final ElasticsearchSettings settings;

	/**
	 * Every index but the monthly sample and audit indices, which a document's month
	 * creates.
	 */
	private final List<String> fixedIndices;

	private volatile boolean installed;

	IndexTemplateInstaller(ElasticsearchClient client, Contracts contracts, ElasticsearchSettings settings) {
		this.client = client;
		this.contracts = contracts;
		this.settings = settings;
		this.fixedIndices = fixedIndices(contracts);
	}

	/**
	 * The indices with a fixed name, as the contract's templates name them: each
	 * template's index patterns without a wildcard. The modules that own them name them
	 * once each (e.g. ingest's PhaseResult.INDEX); this reads the same names from
	 * schemas/ rather than listing them again.
	 */
	static List<String> fixedIndices(Contracts contracts) {
		List<String> fixed = new ArrayList<>();
		for (String name : Contracts.INDEX_TEMPLATE_NAMES) {
			contracts.mapper().readTree(contracts.indexTemplate(name)).get("index_patterns").forEach((pattern) -> {
				if (!pattern.asString().contains("*")) {
					fixed.add(pattern.asString());
				}
			});
		}
		return List.copyOf(fixed);
	}

	@Override
	public void start() {
		Instant deadline = Instant.now().plus(this.settings.startupTimeout());
		while (true) {
			try {
				installAll();
				this.installed = true;
				return;
			}
			catch (Exception ex) {
				String misconfiguration = misconfiguration(ex);
				if (misconfiguration != null) {
					// Waiting would not help: fail the start now, saying what to fix.
					throw new IllegalStateException("Elasticsearch at " + this.settings.url() + " " + misconfiguration,
							ex);
				}
				if (Instant.now().isAfter(deadline)) {
					throw new IllegalStateException("could not install index templates into " + this.settings.url()
							+ " within " + this.settings.startupTimeout(), ex);
				}
				log.warn("Elasticsearch at {} not ready for index templates ({}); retrying", this.settings.url(),
						ex.toString());
				sleep(RETRY_PAUSE);
			}
		}
	}

	void installAll() throws java.io.IOException {
		for (String name : Contracts.INDEX_TEMPLATE_NAMES) {
			String body = SAMPLES_TEMPLATE.equals(name) ? withSampleIndexSettings(this.contracts.mapper(),
					this.contracts.indexTemplate(name), this.settings.samples()) : this.contracts.indexTemplate(name);
			this.client.indices().putIndexTemplate((template) -> template.name(name).withJson(new StringReader(body)));
			addNewFieldsToExistingIndices(body);
		}
		// Indices with a fixed name exist before anyone reads them, so a first read never
		// meets a
		// half-created index (its shard not yet assigned answers 503).
		for (String index : this.fixedIndices) {
			if (!this.client.indices().exists((exists) -> exists.index(index)).value()) {
				try {
					this.client.indices().create((create) -> create.index(index));
				}
				catch (ElasticsearchException ex) {
					if (!"resource_already_exists_exception".equals(ex.error().type())) {
						throw ex;
					}
				}
			}
		}
		this.client.cluster()
			.health((health) -> health.index(this.fixedIndices)
				.waitForStatus(HealthStatus.Yellow)
				.timeout((timeout) -> timeout.time("30s")));
		log.info("Installed {} index templates and {} indices into {}", Contracts.INDEX_TEMPLATE_NAMES.size(),
				this.fixedIndices.size(), this.settings.url());
	}

	/**
	 * A template reaches only indices created after it; indices made by an older release
	 * keep their strict mapping, which would refuse every document carrying a field this
	 * release added. So the template's mappings are also put on the indices it matches:
	 * Elasticsearch adds new fields and accepts unchanged ones, and refuses a changed
	 * type, which then fails the start with its reason rather than every later write.
	 */
	private void addNewFieldsToExistingIndices(String templateBody) {
		JsonNode template = this.contracts.mapper().readTree(templateBody);
		List<String> patterns = new ArrayList<>();
		template.get("index_patterns").forEach((pattern) -> patterns.add(pattern.asString()));
		String mappings = template.get("template").get("mappings").toString();
		try {
			this.client.indices()
				.putMapping((mapping) -> mapping.index(patterns)
					.allowNoIndices(true)
					.ignoreUnavailable(true)
					.withJson(new StringReader(mappings)));
		}
		catch (java.io.IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

	/**
	 * The samples template with the operator's shards and replicas in place of the
	 * contract's (mappings untouched); the contract's body when neither is set.
	 */
	static String withSampleIndexSettings(ObjectMapper mapper, String body,
			ElasticsearchSettings.SampleIndices samples) {
		if (samples == null || (samples.shards() == null && samples.replicas() == null)) {
			return body;
		}
		ObjectNode template = (ObjectNode) mapper.readTree(body);
		ObjectNode indexSettings = (ObjectNode) template.get("template").get("settings");
		if (samples.shards() != null) {
			indexSettings.put("number_of_shards", samples.shards());
		}
		if (samples.replicas() != null) {
			indexSettings.put("number_of_replicas", samples.replicas());
		}
		return mapper.writeValueAsString(template);
	}

	/**
	 * What is wrong with the connection settings when {@code ex} says so (credentials
	 * refused, privileges missing, certificate not trusted); null for an outage.
	 */
	static String misconfiguration(Throwable ex) {
		int status = (ex instanceof ElasticsearchException es) ? es.status()
				: (ex instanceof TransportException transport) ? transport.statusCode() : 0;
		String reason = (ex instanceof ElasticsearchException es && es.error() != null) ? es.error().reason()
				: ex.getMessage();
		if (status == 401) {
			return "refused the credentials (HTTP 401: " + reason
					+ "); check ELASTICSEARCH_API_KEY(_FILE) or ELASTICSEARCH_USERNAME/PASSWORD(_FILE)";
		}
		if (status == 403) {
			return "denied the configured credentials the privileges drivequal needs (HTTP 403: " + reason
					+ "); see docs/operations.md, Security settings";
		}
		if (status == 400) {
			return "refused the contract's mappings (HTTP 400: " + reason
					+ "); an index made by another release may map a field differently: see docs/operations.md, Upgrading";
		}
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof SSLException) {
				return "could not be reached over TLS (" + cause.getMessage()
						+ "); check ELASTICSEARCH_URL and ELASTICSEARCH_CA_FILE";
			}
		}
		return null;
	}

	@Override
	public void stop() {
		this.installed = false;
	}

	@Override
	public boolean isRunning() {
		return this.installed;
	}

	/** Before the Kafka listener containers, which run at the default phase. */
	@Override
	public int getPhase() {
		return DEFAULT_PHASE - 1000;
	}

	private static void sleep(Duration pause) {
		try {
			Thread.sleep(pause.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while waiting for Elasticsearch", ex);
		}
	}

}
