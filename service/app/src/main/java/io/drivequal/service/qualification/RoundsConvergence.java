/*
 * How many rounds an adaptive phase (SNIA rounds to steady state) will run, from its measured
 * convergence: the rounds it cannot stop before (the fresh state, then a full window and, for a phase
 * that writes, the ten-round horizon the runner's rule also requires), the SNIA window of its last
 * rounds against the bounds (range <= 20 % and slope excursion <= 10 % of the average), and, while
 * the window is outside them, the trend of that excursion extrapolated to the bound; never past the
 * phase's maxRounds. An estimate of the runner's stop, not its rule (spdk-runner/src/job/steady_state.c
 * decides): the interval from the earliest possible stop to maxRounds is certain.
 */
package io.drivequal.service.qualification;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.drivequal.service.catalog.RoundSpec;

final class RoundsConvergence {

	/** SNIA's window. */
	static final int WINDOW_ROUNDS = 5;

	/** The horizon a phase that writes must also hold over (FreshState's evidence). */
	static final int HORIZON_ROUNDS = 10;

	/** The windows whose excursion trend is extrapolated. */
	private static final int TREND_WINDOWS = 5;

	private RoundsConvergence() {
	}

	/**
	 * @param minRounds the fewest rounds the phase can run (its earliest stop)
	 * @param expectedRounds the estimate
	 * @param maxRounds the most it can run
	 * @param measured whether the estimate rests on windows of this phase (else on the
	 * earliest stop or a prior)
	 * @param detail how, for people
	 */
	record Estimate(int minRounds, int expectedRounds, int maxRounds, boolean measured, String detail) {
	}

	/**
	 * @param rounds the phase's rounds as the runner runs them
	 * @param levels the tracking step's level of each completed round, in order (IOPS or
	 * bytes per second: higher is better; a latency tracked as IOPS)
	 * @param writeBytes bytes written in each completed round, in order
	 * @param writtenSoFar bytes written by the phase so far, the running round's included
	 * @param roundsElapsed how many rounds of the phase's clock have passed (fractional)
	 * @param testedRangeBytes the range the phase writes to (W x it must be written
	 * before a round is eligible)
	 * @param priorRounds rounds the same phase ran on earlier jobs of the model (median),
	 * or null: the estimate before any window can be judged
	 */
	static Estimate estimate(RoundSpec rounds, List<Double> levels, List<Long> writeBytes, long writtenSoFar,
			double roundsElapsed, long testedRangeBytes, Integer priorRounds) {
		int maxRounds = (rounds.maxRounds() != null) ? rounds.maxRounds() : RoundSpec.DEFAULT_MAX_ROUNDS;
		int done = levels.size();
		if (rounds.tracking() == null) {
			return new Estimate(maxRounds, maxRounds, maxRounds, true, "every one of its " + maxRounds + " rounds");
		}
		boolean writes = rounds.steps() != null && rounds.steps().stream().anyMatch(RoundSpec.Step::writes);
		int needed = writes ? HORIZON_ROUNDS : WINDOW_ROUNDS;
		boolean higherIsBetter = !"meanLatencyNs".equals(rounds.tracking().metric());
		int eligibleFrom = writes ? firstEligible(levels, writeBytes, writtenSoFar, roundsElapsed, rounds,
				testedRangeBytes, higherIsBetter) : 0;
		// The phase stops at the end of a round: the one running now at the earliest.
		int earliest = Math.min(maxRounds, Math.max(done + 1, eligibleFrom + needed));
		List<double[]> excursions = excursions(levels, eligibleFrom);
		if (excursions.isEmpty()) {
			int expected = (priorRounds != null) ? Math.max(earliest, Math.min(maxRounds, priorRounds)) : earliest;
			return new Estimate(earliest, expected, maxRounds, false, "round " + (done + 1) + " of at most " + maxRounds
					+ "; no window of eligible rounds yet, " + "earliest stop after round " + earliest);
		}
		double[] last = excursions.get(excursions.size() - 1);
		String window = String.format(Locale.ROOT, "window %.0f %% / %.0f %% of 20 %% / 10 %%", last[1], last[2]);
		int expected;
		if (last[3] <= 1.0) {
			expected = earliest;
		}
		else {
			expected = extrapolated(excursions, maxRounds);
			expected = Math.max(earliest, Math.min(maxRounds, expected));
		}
		return new Estimate(earliest, expected, maxRounds, true, "round " + (done + 1) + " of at most " + maxRounds
				+ ": " + window + ", expected to stop after round " + expected);
	}

	/**
	 * The first eligible round: after the IOPS cliff (a round below 0.8 x the best before
	 * it), else the first to start with W x the tested range written, projected at the
	 * phase's write rate so far when not reached yet (maxRounds when it has written
	 * nothing).
	 */
	static int firstEligible(List<Double> levels, List<Long> writeBytes, long writtenSoFar, double roundsElapsed,
			RoundSpec rounds, long testedRangeBytes, boolean higherIsBetter) {
		double best = Double.NaN;
		for (int r = 0; r < levels.size() && higherIsBetter; r++) {
			if (!Double.isNaN(best) && levels.get(r) < 0.8 * best) {
				return r + 1;
			}
			best = Double.isNaN(best) ? levels.get(r) : Math.max(best, levels.get(r));
		}
		double w = (rounds.rangeWritesRequired() != null) ? rounds.rangeWritesRequired() : 1.0;
		double required = w * testedRangeBytes;
		double written = 0;
		for (int r = 0; r < writeBytes.size(); r++) {
			if (written >= required) {
				return r;
			}
			written += writeBytes.get(r);
		}
		if (written >= required) {
			return writeBytes.size();
		}
		if (writtenSoFar <= 0 || roundsElapsed <= 0) {
			// Nothing written yet: at once, if the first round still may; never, if a
			// whole
			// round wrote nothing.
			return writeBytes.isEmpty() ? 0
					: (rounds.maxRounds() != null) ? rounds.maxRounds() : RoundSpec.DEFAULT_MAX_ROUNDS;
		}
		// The first round to start with the required bytes written, at the rate so far.
		return Math.max(writeBytes.size(), (int) Math.ceil(required / (writtenSoFar / roundsElapsed)));
	}

	/**
	 * For each window of five eligible rounds ending at x: {x, range %, excursion %, the
	 * larger of each over its bound}.
	 */
	static List<double[]> excursions(List<Double> levels, int eligibleFrom) {
		List<double[]> windows = new ArrayList<>();
		for (int x = Math.max(eligibleFrom, 0) + WINDOW_ROUNDS - 1; x < levels.size(); x++) {
			double sum = 0;
			double max = Double.NEGATIVE_INFINITY;
			double min = Double.POSITIVE_INFINITY;
			double weighted = 0;
			for (int i = 0; i < WINDOW_ROUNDS; i++) {
				double y = levels.get(x - WINDOW_ROUNDS + 1 + i);
				sum += y;
				max = Math.max(max, y);
				min = Math.min(min, y);
				weighted += (i - 2) * y;
			}
			double avg = sum / WINDOW_ROUNDS;
			if (avg <= 0) {
				continue;
			}
			double rangePercent = 100 * (max - min) / avg;
			// Least squares over five equally spaced rounds: b = sum((i - 2) y_i) / 10.
			double excursionPercent = 100 * Math.abs(weighted / 10) * 4 / avg;
			windows.add(new double[] { x, rangePercent, excursionPercent,
					Math.max(rangePercent / 20, excursionPercent / 10) });
		}
		return windows;
	}

	/**
	 * Where the excursion's geometric decay over the last windows reaches the bound (a
	 * round count); maxRounds when it does not decay.
	 */
	private static int extrapolated(List<double[]> excursions, int maxRounds) {
		List<double[]> recent = excursions.subList(Math.max(0, excursions.size() - TREND_WINDOWS), excursions.size());
		if (recent.size() < 2) {
			return maxRounds;
		}
		double meanX = 0;
		double meanY = 0;
		for (double[] window : recent) {
			meanX += window[0];
			meanY += Math.log(window[3]);
		}
		meanX /= recent.size();
		meanY /= recent.size();
		double sxy = 0;
		double sxx = 0;
		for (double[] window : recent) {
			sxy += (window[0] - meanX) * (Math.log(window[3]) - meanY);
			sxx += (window[0] - meanX) * (window[0] - meanX);
		}
		double slope = sxy / sxx;
		if (!(slope < 0)) {
			return maxRounds;
		}
		// log(ratio) = meanY + slope (x - meanX) reaches 0 at x = meanX - meanY / slope.
		double x = meanX - meanY / slope;
		return (int) Math.min(maxRounds, Math.ceil(x) + 1);
	}

}
