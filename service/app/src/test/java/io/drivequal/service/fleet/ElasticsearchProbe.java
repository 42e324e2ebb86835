/*
 * The benchmark's own view of Elasticsearch, over its REST API: counts, searches and the node's
 * request counters; and the bulk load of the finished jobs that make the store a lab's size.
 */
package io.drivequal.service.fleet;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

final class ElasticsearchProbe {

	static final JsonMapper JSON = JsonMapper.builder().build();

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final String url;

	ElasticsearchProbe(String url) {
		this.url = url;
	}

	JsonNode get(String path) {
		return send(HttpRequest.newBuilder(URI.create(this.url + path)).GET());
	}

	JsonNode post(String path, String body) {
		return send(HttpRequest.newBuilder(URI.create(this.url + path))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body)));
	}

	/** A newline-delimited bulk request; fails when any item failed. */
	void bulk(String ndjson) {
		JsonNode response = send(HttpRequest.newBuilder(URI.create(this.url + "/_bulk?refresh=wait_for"))
			.header("Content-Type", "application/x-ndjson")
			.POST(HttpRequest.BodyPublishers.ofString(ndjson)));
		if (response.path("errors").asBoolean()) {
			throw new IllegalStateException("bulk failed: " + response.toString().substring(0, 500));
		}
	}

	/** Documents in index (after a refresh, so every acknowledged write counts). */
	long count(String index) {
		post("/" + index + "/_refresh", "");
		return get("/" + index + "/_count").path("count").asLong();
	}

	/** The node's GET and search counters since it started: [gets, searches]. */
	long[] requestCounters() {
		try {
			JsonNode node = get("/_nodes/stats/indices/get,search").path("nodes").values().iterator().next();
			return new long[] { node.path("indices").path("get").path("total").asLong(),
					node.path("indices").path("search").path("query_total").asLong() };
		}
		catch (RuntimeException ex) {
			return new long[] { 0, 0 };
		}
	}

	private JsonNode send(HttpRequest.Builder request) {
		try {
			HttpResponse<String> response = this.http.send(request.timeout(Duration.ofSeconds(60)).build(),
					HttpResponse.BodyHandlers.ofString());
			if (response.statusCode() >= 300) {
				throw new IllegalStateException("Elasticsearch answered " + response.statusCode() + ": "
						+ response.body().substring(0, Math.min(500, response.body().length())));
			}
			return JSON.readTree(response.body());
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
