/*
 * The official Elasticsearch Java client, built here rather than by Boot: Boot 4 targets the 9.x
 * rest5 client, while drivequal pins the 8.19 client that talks to both 8.19 and 9.x servers.
 */
package io.drivequal.service.platform;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.json.jackson.JacksonJsonpMapper;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import org.apache.http.Header;
import org.apache.http.HttpHost;
import org.apache.http.message.BasicHeader;
import org.elasticsearch.client.RestClient;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.StringUtils;

@Configuration(proxyBeanMethods = false)
class ElasticsearchConfiguration {

	@Bean(destroyMethod = "close")
	RestClient elasticsearchRestClient(ElasticsearchSettings settings) {
		var builder = RestClient.builder(HttpHost.create(settings.url().toString()));
		if (StringUtils.hasText(settings.apiKey())) {
			builder.setDefaultHeaders(new Header[] { new BasicHeader("Authorization", "ApiKey " + settings.apiKey()) });
		}
		return builder.build();
	}

	@Bean
	ElasticsearchClient elasticsearchClient(RestClient restClient) {
		return new ElasticsearchClient(new RestClientTransport(restClient, new JacksonJsonpMapper()));
	}

}
