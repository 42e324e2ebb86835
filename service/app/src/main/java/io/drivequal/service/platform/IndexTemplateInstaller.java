/*
 * Installs the index templates of schemas/ before any consumer starts, so the first document of
 * every index gets the contract's strict mapping. Idempotent: PUT replaces a template with itself.
 */
package io.drivequal.service.platform;

import java.io.StringReader;
import java.time.Duration;
import java.time.Instant;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import io.drivequal.schemas.Contracts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

@Component
class IndexTemplateInstaller implements SmartLifecycle {

	private static final Logger log = LoggerFactory.getLogger(IndexTemplateInstaller.class);

	private static final Duration RETRY_PAUSE = Duration.ofSeconds(2);

	private final ElasticsearchClient client;

	private final Contracts contracts;

	private final ElasticsearchSettings settings;

	private volatile boolean installed;

	IndexTemplateInstaller(ElasticsearchClient client, Contracts contracts, ElasticsearchSettings settings) {
		this.client = client;
		this.contracts = contracts;
		this.settings = settings;
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
			String body = this.contracts.indexTemplate(name);
			this.client.indices().putIndexTemplate((template) -> template.name(name).withJson(new StringReader(body)));
		}
		log.info("Installed {} index templates into {}", Contracts.INDEX_TEMPLATE_NAMES.size(), this.settings.url());
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
