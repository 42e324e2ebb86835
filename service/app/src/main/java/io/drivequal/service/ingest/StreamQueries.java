/*
 * Reads a multi-stream phase back from Elasticsearch for its report: each stream's seconds from
 * the sample indices and each stream's totals (with their histograms) from the phase results.
 */
package io.drivequal.service.ingest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.FieldValue;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch.core.SearchResponse;
import co.elastic.clients.elasticsearch.core.search.Hit;

import org.springframework.stereotype.Component;

@Component
public class StreamQueries {

	private static final int PAGE = 5000;

	private final ElasticsearchClient client;

	StreamQueries(ElasticsearchClient client) {
		this.client = client;
	}

	/**
	 * Every stream's seconds of the phase, in (t, stream) order; empty for a phase
	 * without streams.
	 */
	public List<StreamSecond> seconds(String jobId, int phaseIndex) {
		List<StreamSecond> seconds = new ArrayList<>();
		int afterT = 0;
		while (true) {
			int after = afterT;
			SearchResponse<SampleDocument> response = search(() -> this.client.search((search) -> search
				.index(SampleDocument.INDEX_PREFIX + "*")
				.ignoreUnavailable(true)
				.allowNoIndices(true)
				.size(PAGE)
				.query((q) -> q.bool((bool) -> bool.filter((f) -> f.term((term) -> term.field("jobId").value(jobId)))
					.filter((f) -> f.term((term) -> term.field("phaseIndex").value(phaseIndex)))
					.filter((f) -> f.exists((exists) -> exists.field("streams.index")))))
				.sort((sort) -> sort.field((f) -> f.field("t").order(SortOrder.Asc)))
				.searchAfter(FieldValue.of(after)), SampleDocument.class));
			List<Hit<SampleDocument>> hits = response.hits().hits();
			for (Hit<SampleDocument> hit : hits) {
				SampleDocument document = hit.source();
				for (SampleDocument.StreamDocument stream : document.streams()) {
					seconds.add(StreamSecond.of(document.t(), stream));
				}
				afterT = document.t();
			}
			if (hits.size() < PAGE) {
				return seconds;
			}
		}
	}

	/**
	 * The streams of each multi-stream phase's result, as phase-completed sent them
	 * (schemas/messages/common.schema.json, streamTotals), by phase index.
	 */
	public Map<Integer, List<PhaseResult.StreamTotals>> totals(String jobId) {
		SearchResponse<PhaseResult> response = search(() -> this.client
			.search((search) -> search.index(PhaseResult.INDEX)
				.ignoreUnavailable(true)
				.allowNoIndices(true)
				.size(256)
				.source((source) -> source.filter((filter) -> filter.includes("phaseIndex", "streams")))
				.query((q) -> q.bool((bool) -> bool.filter((f) -> f.term((term) -> term.field("jobId").value(jobId)))
					.filter((f) -> f.exists((exists) -> exists.field("streams.index")))))
				.sort((sort) -> sort.field((f) -> f.field("phaseIndex").order(SortOrder.Asc))), PhaseResult.class));
		Map<Integer, List<PhaseResult.StreamTotals>> byPhase = new HashMap<>();
		for (Hit<PhaseResult> hit : response.hits().hits()) {
			byPhase.put(hit.source().phaseIndex(), hit.source().streams());
		}
		return byPhase;
	}

	private interface Search<T> {

		T run() throws IOException;

	}

	private static <T> T search(Search<T> search) {
		try {
			return search.run();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
