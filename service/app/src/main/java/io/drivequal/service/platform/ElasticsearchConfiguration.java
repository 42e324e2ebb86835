/*
 * The official Elasticsearch Java client, built here rather than by Boot: Boot 4 targets the 9.x
 * rest5 client, while drivequal pins the 8.19 client that talks to both 8.19 and 9.x servers.
 */
package io.drivequal.service.platform;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.json.jackson.JacksonJsonpMapper;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import org.apache.http.Header;
import org.apache.http.HttpHost;
import org.apache.http.message.BasicHeader;
import org.elasticsearch.client.RestClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
public class ElasticsearchConfiguration {

	private static final Logger log = LoggerFactory.getLogger(ElasticsearchConfiguration.class);

	/**
	 * Authentication (API key or basic) as a default header, so every request carries it
	 * without a challenge round trip; TLS trusting the configured CA.
	 */
	@Bean(destroyMethod = "close")
	RestClient elasticsearchRestClient(ElasticsearchSettings settings) {
		ElasticsearchTransportSecurity security = ElasticsearchTransportSecurity.of(settings);
		var builder = RestClient.builder(HttpHost.create(settings.url().toString()));
		security.authorization()
			.ifPresent((authorization) -> builder
				.setDefaultHeaders(new Header[] { new BasicHeader("Authorization", authorization) }));
		security.sslContext()
			.ifPresent((sslContext) -> builder.setHttpClientConfigCallback((http) -> http.setSSLContext(sslContext)));
		log.info("Elasticsearch: {}", security.description());
		return builder.build();
	}

	@Bean
	ElasticsearchClient elasticsearchClient(RestClient restClient) {
		return client(restClient);
	}

	/**
	 * The service's client over a RestClient, also for whatever must talk to
	 * Elasticsearch exactly as the service does (the ingest benchmark's ceiling).
	 * Documents are Java records mapped by Jackson 2 (the 8.19 client's mapper): times as
	 * ISO-8601 strings, absent values omitted, unknown fields tolerated so older replicas
	 * read newer documents.
	 */
	public static ElasticsearchClient client(RestClient restClient) {
		ObjectMapper mapper = new ObjectMapper().registerModule(new JavaTimeModule())
			.disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
			.disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
			.setSerializationInclusion(JsonInclude.Include.NON_NULL);
		return new ElasticsearchClient(new JoinedBodyTransport(restClient, new JacksonJsonpMapper(mapper)));
	}

}
