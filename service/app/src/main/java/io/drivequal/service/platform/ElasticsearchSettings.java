/*
 * Where Elasticsearch is and how to authenticate; secrets come from the environment, never the repo.
 */
package io.drivequal.service.platform;

import java.net.URI;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param url the Elasticsearch HTTP endpoint
 * @param apiKey an encoded API key (the {@code encoded} field Elasticsearch returns), or
 * empty
 * @param startupTimeout how long start-up waits for Elasticsearch to install the index
 * templates
 */
@ConfigurationProperties("drivequal.elasticsearch")
public record ElasticsearchSettings(@DefaultValue("http://127.0.0.1:9200") URI url, String apiKey,
		@DefaultValue("120s") Duration startupTimeout) {
}
