// SNIA SSS PTS steady-state detection over a phase's rounds (DESIGN.md "SNIA steady state").
package io.drivequal.analysis;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * Finds the first round x (0-based, first checked at x = 4) whose window of rounds x-4..x
 * satisfies both SNIA criteria, skipping every window that would span a round that does
 * not count. Bounds are inclusive and decided exactly (see {@link SniaBounds}).
 */
public final class SteadyStateDetector {

	private SteadyStateDetector() {
	}

	/**
	 * Steady state over 60 s rounds without a round limit.
	 * @param iops per-second IOPS of the phase
	 * @return the result
	 */
	public static SteadyStateResult detect(PerSecondSeries iops) {
		return detect(iops, Rounds.DEFAULT_ROUND_LENGTH_S, OptionalInt.empty());
	}

	/**
	 * Steady state over rounds of the given length.
	 * @param iops per-second IOPS of the phase
	 * @param roundLengthS L, seconds
	 * @param maxRounds stop after this many rounds (only rounds 0..maxRounds-1 are used;
	 * PTS: 25); empty for no limit
	 * @return the result
	 */
	public static SteadyStateResult detect(PerSecondSeries iops, int roundLengthS, OptionalInt maxRounds) {
		return detect(RoundTable.of(iops, roundLengthS), maxRounds);
	}

	static SteadyStateResult detect(RoundTable rounds, OptionalInt maxRounds) {
		if (maxRounds.isPresent() && maxRounds.getAsInt() < SniaBounds.WINDOW_ROUNDS) {
			throw new IllegalArgumentException(
					"maxRounds = " + maxRounds.getAsInt() + ": a window needs " + SniaBounds.WINDOW_ROUNDS + " rounds");
		}
		int limit = maxRounds.isPresent() ? Math.min(rounds.size(), maxRounds.getAsInt()) : rounds.size();
		int consecutiveCounted = 0;
		int windowsEvaluated = 0;
		int lastEvaluated = -1;
		SniaBounds.Decision lastDecision = null;
		for (int x = 0; x < limit; x++) {
			consecutiveCounted = rounds.counted[x] ? consecutiveCounted + 1 : 0;
			if (consecutiveCounted < SniaBounds.WINDOW_ROUNDS) {
				continue;
			}
			windowsEvaluated++;
			lastEvaluated = x;
			lastDecision = SniaBounds.decide(rounds.sumIops, rounds.secondsPresent, x - 4);
			if (lastDecision.holds()) {
				break;
			}
		}
		Optional<SteadyStateWindow> window = (lastEvaluated < 0) ? Optional.empty()
				: Optional.of(figures(rounds, lastEvaluated, lastDecision));
		boolean reached = lastDecision != null && lastDecision.holds();
		return new SteadyStateResult(reached, rounds.roundLengthS, maxRounds, window, windowsEvaluated,
				rounds.toRounds());
	}

	private static SteadyStateWindow figures(RoundTable rounds, int x, SniaBounds.Decision decision) {
		int first = x - 4;
		double total = 0;
		double max = Double.NEGATIVE_INFINITY;
		double min = Double.POSITIVE_INFINITY;
		double weighted = 0;
		for (int i = 0; i < SniaBounds.WINDOW_ROUNDS; i++) {
			double y = rounds.meanIops(first + i);
			total += y;
			max = Math.max(max, y);
			min = Math.min(min, y);
			weighted += (i - 2) * y;
		}
		double avg = total / SniaBounds.WINDOW_ROUNDS;
		// Least squares over 5 equally spaced indices: b = Σ(i - 2)(y_i) / Σ(i - 2)² =
		// Σ(i - 2)y_i / 10.
		double slope = weighted / 10;
		double rangePercent = (avg > 0) ? 100 * (max - min) / avg : 0;
		double slopeExcursionPercent = (avg > 0) ? 100 * Math.abs(slope) * 4 / avg : 0;
		long lengthS = rounds.roundLengthS;
		return new SteadyStateWindow(first, x, first * lengthS, (x + 1) * lengthS, avg, min, max, rangePercent, slope,
				slopeExcursionPercent, decision.rangeWithinBound(), decision.slopeWithinBound());
	}

}
