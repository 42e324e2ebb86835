/*
 * Reads sample documents straight from Elasticsearch, for ITs that check what was stored rather
 * than what the API makes of it: one document, or a job's count, distinct seconds and last second
 * (exact counts: no sample lost, none stored twice).
 */
package io.drivequal.service.it;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch.core.SearchResponse;
import io.drivequal.harness.RealInfrastructure;

public final class StoredSamples {

	private StoredSamples() {
	}

	/** The source of one stored sample of the job, or fails when it has none. */
	@SuppressWarnings("unchecked")
	public static Map<String, Object> anyOf(ElasticsearchClient client, String jobId) throws IOException {
		SearchResponse<Map> response = client.search((search) -> search.index("drivequal-samples-*")
			.query((query) -> query.term((term) -> term.field("jobId").value(jobId)))
			.size(1), Map.class);
		if (response.hits().hits().isEmpty()) {
			throw new AssertionError("no sample of job " + jobId + " in Elasticsearch");
		}
		return response.hits().hits().get(0).source();
	}

	/**
	 * Documents of the job in the samples indices, after a refresh; -1 while the index
	 * answers 503 (the month's index just created, its shard not yet assigned), so waits
	 * poll again instead of failing.
	 */
	public static long count(RealInfrastructure infrastructure, String jobId) throws Exception {
		String body = search(infrastructure, "_count?q=jobId:" + jobId, null);
		if (!body.matches(".*\"count\":\\d+.*")) {
			return -1;
		}
		return Long.parseLong(body.replaceAll(".*\"count\":(\\d+).*", "$1"));
	}

	/**
	 * Seconds of the job present at least once: equal to the count when none is
	 * duplicated.
	 */
	public static long distinctSeconds(RealInfrastructure infrastructure, String jobId) throws Exception {
		String body = search(infrastructure, "_search?size=0", """
				{"query":{"term":{"jobId":"%s"}},
				 "aggs":{"seconds":{"cardinality":{"field":"t","precision_threshold":40000}}}}
				""".formatted(jobId));
		return Long.parseLong(body.replaceAll(".*\"seconds\":\\{\"value\":(\\d+).*", "$1"));
	}

	/** The job's latest second: equal to the count when none is missing before it. */
	public static long lastSecond(RealInfrastructure infrastructure, String jobId) throws Exception {
		String body = search(infrastructure, "_search?size=0", """
				{"query":{"term":{"jobId":"%s"}},"aggs":{"last":{"max":{"field":"t"}}}}
				""".formatted(jobId));
		return (long) Double.parseDouble(body.replaceAll(".*\"last\":\\{\"value\":([0-9.E]+).*", "$1"));
	}

	private static String search(RealInfrastructure infrastructure, String query, String json) throws Exception {
		HttpClient http = HttpClient.newHttpClient();
		String base = infrastructure.elasticsearchUrl();
		http.send(HttpRequest.newBuilder(URI.create(base + "/drivequal-samples-*/_refresh"))
			.POST(HttpRequest.BodyPublishers.noBody())
			.build(), HttpResponse.BodyHandlers.ofString());
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "/drivequal-samples-*/" + query));
		if (json != null) {
			request.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json));
		}
		return http.send(request.build(), HttpResponse.BodyHandlers.ofString()).body();
	}

}
