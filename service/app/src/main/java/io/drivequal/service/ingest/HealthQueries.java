/*
 * Reads a job's health readings back from Elasticsearch (drivequal-health), in the order they were
 * taken, for the analysis and the report.
 */
package io.drivequal.service.ingest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.FieldValue;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch.core.SearchResponse;
import co.elastic.clients.elasticsearch.core.search.Hit;
import io.drivequal.service.platform.Documents;

import org.springframework.stereotype.Component;

@Component
public class HealthQueries {

	private static final int PAGE = 5000;

	private final ElasticsearchClient client;

	HealthQueries(ElasticsearchClient client) {
		this.client = client;
	}

	/** Every reading of the job, by phase and time into it (seq breaks ties). */
	public List<HealthReading> ofJob(String jobId) {
		List<HealthReading> all = new ArrayList<>();
		List<FieldValue> after = null;
		while (true) {
			List<FieldValue> from = after;
			SearchResponse<HealthReading> response;
			try {
				response = this.client.search((search) -> {
					search.index(HealthReading.INDEX)
						.ignoreUnavailable(true)
						.allowNoIndices(true)
						.size(PAGE)
						.query((q) -> q.term((term) -> term.field("jobId").value(jobId)))
						.sort((sort) -> sort.field((f) -> f.field("phaseIndex").order(SortOrder.Asc)))
						.sort((sort) -> sort.field((f) -> f.field("elapsedMs").order(SortOrder.Asc)))
						.sort((sort) -> sort.field((f) -> f.field("seq").order(SortOrder.Asc)));
					if (from != null) {
						search.searchAfter(from);
					}
					return search;
				}, HealthReading.class);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			List<Hit<HealthReading>> hits = response.hits().hits();
			hits.forEach((hit) -> all.add(hit.source()));
			if (hits.size() < PAGE) {
				return all;
			}
			after = hits.get(hits.size() - 1).sort();
		}
	}

	/**
	 * Makes the readings written so far searchable now rather than at the index's next
	 * scheduled refresh: a reader that must see every reading of a finished job (the
	 * analysis) calls it first.
	 */
	public void refresh() {
		Documents.refresh(this.client, HealthReading.INDEX);
	}

}
