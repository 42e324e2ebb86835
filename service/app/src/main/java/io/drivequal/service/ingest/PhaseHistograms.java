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
	public List<Phase> ofJob(String jobId) {
		List<Hit<PhaseResult>> hits;
		try {
			hits = this.client
				.search((search) -> search.index(PhaseResult.INDEX)
					.ignoreUnavailable(true)
					.allowNoIndices(true)
					.size(1000)
					.source((source) -> source.filter((filter) -> filter.includes("phaseIndex", "phaseName",
							"write.latencyHistogram", "read.latencyHistogram")))
					.query((q) -> q.term((term) -> term.field("jobId").value(jobId)))
					.sort((sort) -> sort.field((f) -> f.field("phaseIndex").order(SortOrder.Asc))), PhaseResult.class)
				.hits()
				.hits();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		List<Phase> phases = new ArrayList<>();
		for (Hit<PhaseResult> hit : hits) {
			PhaseResult result = hit.source();
			phases.add(new Phase(result.phaseIndex(), result.phaseName(), histogram(result.write()),
					histogram(result.read())));
		}
		return phases;
	}

	/** The contract's directionTotals.latencyHistogram, when there is one. */
	static Optional<PhaseLatencyHistogram> histogram(PhaseResult.DirectionTotals totals) {
		if (totals == null || totals.latencyHistogram() == null || totals.latencyHistogram().counts() == null
				|| totals.latencyHistogram().totalCount() == 0) {
			return Optional.empty();
		}
		PhaseResult.LatencyHistogram h = totals.latencyHistogram();
		return Optional.of(PhaseLatencyHistogram.fromPairs(h.totalCount(), h.minNs(), h.maxNs(), h.pairs()));
	}

}
