// One line of a buyer's acceptance spec, e.g. "writeLatencyP9999Us at most 5000 in phase randwrite-4k-qd32".
package io.drivequal.analysis;

import java.util.Optional;

/**
 * An acceptance criterion.
 *
 * @param metric what is measured
 * @param comparison AT_LEAST or AT_MOST, inclusive
 * @param limit the limit, in the metric's unit
 * @param phaseName the phase it applies to; empty: every phase (and the job) that
 * measures the metric must satisfy it
 */
public record Criterion(Metric metric, Comparison comparison, double limit, Optional<String> phaseName) {

	public Criterion {
		if (metric == null || comparison == null || phaseName == null) {
			throw new IllegalArgumentException("metric, comparison and phaseName (Optional) are required");
		}
		if (!Double.isFinite(limit)) {
			throw new IllegalArgumentException("limit of " + metric.wireName() + " must be finite, got " + limit);
		}
		if (phaseName.isPresent() && phaseName.get().isBlank()) {
			throw new IllegalArgumentException("phaseName of " + metric.wireName() + " is blank");
		}
	}

	public static Criterion atLeast(Metric metric, double limit) {
		return new Criterion(metric, Comparison.AT_LEAST, limit, Optional.empty());
	}

	public static Criterion atMost(Metric metric, double limit) {
		return new Criterion(metric, Comparison.AT_MOST, limit, Optional.empty());
	}

	public Criterion inPhase(String phase) {
		return new Criterion(this.metric, this.comparison, this.limit, Optional.of(phase));
	}

}
