/*
 * A qualification profile of the catalog: what it runs, why, and which reference it implements.
 */
package io.drivequal.service.catalog;

import java.util.List;

import io.drivequal.analysis.Eligibility;

/**
 * @param primaryPhase the phase whose steady state, consistency and QoS decide the
 * verdict
 * @param analysis how the phase is analysed (round length, fixed window, max rounds)
 */
public record Profile(String name, String title, String description, String reference, String primaryPhase,
		AnalysisHints analysis, List<PhaseSpec> phases) {

	public Profile {
		phases = List.copyOf(phases);
	}

	/**
	 * @param roundLengthS SNIA round length
	 * @param fixedWindowFromS start of the seeds' fixed window (2000 s profiles), or null
	 * @param maxRounds PTS stop after this many rounds, or null
	 * @param rangeWritesRequired W: the random writes since the last purge or fill, as a
	 * multiple of the tested range, a round needs before it is eligible for steady state
	 * (1.0 when the catalog does not say)
	 */
	public record AnalysisHints(int roundLengthS, Integer fixedWindowFromS, Integer maxRounds,
			Double rangeWritesRequired) {

		public AnalysisHints {
			if (rangeWritesRequired == null) {
				rangeWritesRequired = Eligibility.DEFAULT_RANGE_WRITES_REQUIRED;
			}
			if (!Double.isFinite(rangeWritesRequired) || rangeWritesRequired < 0) {
				throw new IllegalArgumentException(
						"rangeWritesRequired must be a finite number >= 0, got " + rangeWritesRequired);
			}
		}

	}

}
