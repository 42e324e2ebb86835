/*
 * Reads the per-phase latency histograms back from the phase results as typed records, so a
 * campaign can merge its samples' histograms (fleet-wide percentiles) instead of averaging their
 * percentiles.
 */
package io.drivequal.service.ingest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch.core.search.Hit;
import io.drivequal.analysis.PhaseLatencyHistogram;

import org.springframework.stereotype.Component;

@Component
public class PhaseHistograms {

	private final ElasticsearchClient client;

	PhaseHistograms(ElasticsearchClient client) {
		this.client = client;
	}

	/**
	 * One phase's histograms.
	 *
	 * @param write empty when the phase wrote nothing (or its result has no histogram)
	 * @param read empty when the phase read nothing
	 */
	public record Phase(int phaseIndex, String phaseName, Optional<PhaseLatencyHistogram> write,
			Optional<PhaseLatencyHistogram> read) {
	}

	/** The job's phases with their histograms, by phase index. */
	@SuppressWarnings("rawtypes")
	public List<Phase> ofJob(String jobId) {
		List<Hit<Map>> hits;
		try {
			hits = this.client
				.search((search) -> search.index(PhaseResults.INDEX)
					.ignoreUnavailable(true)
					.allowNoIndices(true)
					.size(1000)
					.source((source) -> source.filter((filter) -> filter.includes("phaseIndex", "phaseName",
							"write.latencyHistogram", "read.latencyHistogram")))
					.query((q) -> q.term((term) -> term.field("jobId").value(jobId)))
					.sort((sort) -> sort.field((f) -> f.field("phaseIndex").order(SortOrder.Asc))), Map.class)
				.hits()
				.hits();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		List<Phase> phases = new ArrayList<>();
		for (Hit<Map> hit : hits) {
			Map<?, ?> source = hit.source();
			phases
				.add(new Phase(((Number) source.get("phaseIndex")).intValue(), String.valueOf(source.get("phaseName")),
						histogram(source.get("write")), histogram(source.get("read"))));
		}
		return phases;
	}

	/** The contract's directionTotals.latencyHistogram, when there is one. */
	static Optional<PhaseLatencyHistogram> histogram(Object totals) {
		if (!(totals instanceof Map<?, ?> direction) || !(direction.get("latencyHistogram") instanceof Map<?, ?> h)
				|| !(h.get("counts") instanceof List<?> counts)) {
			return Optional.empty();
		}
		long[][] pairs = new long[counts.size()][];
		for (int i = 0; i < pairs.length; i++) {
			List<?> pair = (List<?>) counts.get(i);
			pairs[i] = new long[] { ((Number) pair.get(0)).longValue(), ((Number) pair.get(1)).longValue() };
		}
		long total = ((Number) h.get("totalCount")).longValue();
		if (total == 0) {
			return Optional.empty();
		}
		return Optional.of(PhaseLatencyHistogram.fromPairs(total, ((Number) h.get("minNs")).longValue(),
				((Number) h.get("maxNs")).longValue(), pairs));
	}

}
