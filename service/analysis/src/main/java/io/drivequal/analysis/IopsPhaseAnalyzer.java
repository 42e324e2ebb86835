// The one call the service makes per random-IO phase: rounds, both steady-state windows and both consistency windows.
package io.drivequal.analysis;

import java.util.Optional;

/** Analyses a phase's per-second IOPS (a few hundred microseconds for 7200 seconds). */
public final class IopsPhaseAnalyzer {

	private IopsPhaseAnalyzer() {
	}

	/**
	 * Rounds, SNIA steady state (reached and at end), consistency over the steady-state
	 * window and, if asked for, over the fixed window.
	 * @param iops per-second IOPS of the phase
	 * @param randomWriteBytes per-second random-write bytes of the phase (empty for a
	 * phase that does not write)
	 * @param eligibility what makes a round eligible
	 * @param options round length, round limit, fixed window
	 * @return the analysis
	 */
	public static IopsPhaseAnalysis analyze(PerSecondSeries iops, PerSecondSeries randomWriteBytes,
			Eligibility eligibility, IopsPhaseOptions options) {
		return analyze(iops, randomWriteBytes, MediaWrites.none(), eligibility, options);
	}

	/**
	 * The same, with the drive's own write counters read during the phase: the strongest
	 * evidence of where the fresh state ended and of a steady write amplification.
	 * @param iops per-second IOPS of the phase
	 * @param randomWriteBytes per-second random-write bytes of the phase
	 * @param media the drive's media and host write counters (none when it reports none)
	 * @param eligibility what is known of the phase's history
	 * @param options round length, round limit, fixed window
	 * @return the analysis
	 */
	public static IopsPhaseAnalysis analyze(PerSecondSeries iops, PerSecondSeries randomWriteBytes, MediaWrites media,
			Eligibility eligibility, IopsPhaseOptions options) {
		SteadyStateResult steadyState = SteadyStateDetector.detect(
				RoundTable.of(iops, randomWriteBytes, media, eligibility, options.roundLengthS()), options.maxRounds());
		Optional<ConsistencyResult> steadyStateConsistency = Consistency.overSteadyStateWindow(iops, steadyState);
		Optional<ConsistencyResult> fixedWindowConsistency = options.fixedWindowFirstT().isPresent()
				? Consistency.fixedWindow(iops, options.fixedWindowFirstT().getAsLong()) : Optional.empty();
		return new IopsPhaseAnalysis(iops.size(), steadyState, steadyStateConsistency, fixedWindowConsistency);
	}

}
