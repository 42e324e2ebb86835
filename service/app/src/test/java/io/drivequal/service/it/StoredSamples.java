/*
 * Reads sample documents straight from Elasticsearch, for ITs that check what was stored rather
 * than what the API makes of it.
 */
package io.drivequal.service.it;

import java.io.IOException;
import java.util.Map;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch.core.SearchResponse;

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

}
