// The rounds a steady level must also hold over: what tells a settled drive from one still climbing 1 % a round.
package io.drivequal.analysis;

import java.util.List;

/**
 * The horizon of a window ending at round x: at least the ten rounds x-9..x, and on a
 * drive that writes little of its tested range per round, as many more rounds back as it
 * takes for their random writes to reach {@link #RANGE_WRITES_NUMERATOR}/
 * {@link #RANGE_WRITES_DENOMINATOR} (5 %) of the tested range. SNIA's five-round bounds
 * cannot see a drive whose level still moves slowly (a large drive climbing 1-2 % per
 * round after its cliff holds them in every window), nor the top of an overshoot; the
 * level is steady only when it also holds over the horizon: range &lt;= 20 % of the
 * average, and the least-squares line's excursion over it, |b|·(n-1), &lt;= 5 % while the
 * record approaches the level for the first time, &lt;= 10 % once it has been above and
 * below it (a settling oscillation, methodology 3.2). Garbage collection's state moves
 * with the share of the range written, not with the clock: ten rounds on a 30 TB drive
 * write 1 % of it, too little to see the climb after its cliff.
 *
 * @param firstRoundIndex the horizon's first round (x - 9, or earlier when extended by
 * the written bytes; may be negative when the phase is too short)
 * @param lastRoundIndex x
 * @param unusableRounds rounds of the horizon that do not count or are not eligible
 * (before the fresh state ended); the horizon is then not evaluated
 * @param rangePercent 100 · (max - min) / avg over the horizon's round means (0 when not
 * evaluated)
 * @param slopePercentPerRound 100 · b / avg: the level's drift per round (0 when not
 * evaluated)
 * @param slopeExcursionPercent 100 · |b| · (n - 1) / avg (0 when not evaluated)
 * @param crossed whether the eligible rounds before the horizon lie both above and below
 * its average (the level was crossed before: the excursion may reach 10 %; a level
 * reached for the first time must hold within 5 %)
 * @param evaluated whether all its rounds count and are eligible
 * @param holds whether it was evaluated and both bounds hold
 */
public record SteadyStateHorizon(int firstRoundIndex, int lastRoundIndex, List<Integer> unusableRounds,
		double rangePercent, double slopePercentPerRound, double slopeExcursionPercent, double earlierChangePercent,
		boolean crossed, boolean evaluated, boolean holds) {

	public SteadyStateHorizon {
		unusableRounds = List.copyOf(unusableRounds);
	}

	/** The record crosses a level when it has been this far above and below it. */
	static final double CROSSING_MARGIN = 0.05;

	/**
	 * The share of the tested range the horizon's random writes must reach, as a
	 * fraction: 1/20. The climb after the cliff moves the level 1.6-2.7 % per 1 % of the
	 * range written on every drive of the known-truth matrix, so over 5 % of the range it
	 * moves 8 % or more: past the first approach's 5 % bound (methodology 3.2.1).
	 */
	static final long RANGE_WRITES_NUMERATOR = 1;

	static final long RANGE_WRITES_DENOMINATOR = 20;

	static SteadyStateHorizon of(RoundTable rounds, int x) {
		int first = x - (length(rounds, x) - 1);
		List<Integer> unusable = unusable(rounds, first, x);
		if (!unusable.isEmpty()) {
			return notEvaluated(first, x, unusable);
		}
		double average = mean(rounds, first, x);
		int fresh = first;
		while (fresh > 0 && rounds.eligible[fresh - 1]) {
			fresh--;
		}
		if (crossed(rounds, fresh, first, average)) {
			if (x - first + 1 == SniaBounds.HORIZON_ROUNDS) {
				SniaBounds.Decision decision = SniaBounds.decide(rounds.sumIops, rounds.secondsPresent, first,
						SniaBounds.Shape.HORIZON_CROSSED);
				return figures(rounds, first, x, true, decision.holds(), 0);
			}
			SteadyStateHorizon longer = figures(rounds, first, x, true, false, 0);
			return figures(rounds, first, x, true, longer.rangePercent() <= 20 && longer.slopeExcursionPercent() <= 10,
					0);
		}
		// A level reached for the first time: the second half of the record since the
		// fresh state ended (at least the horizon) must hold it within 5 %, and the
		// approach must be slowing: the second half moves at most half as much as the
		// rounds before it, or under 2.5 %.
		int length = Math.max(x - first + 1, (x - fresh + 2) / 2);
		int start = x - length + 1;
		List<Integer> missing = unusable(rounds, start, x);
		if (!missing.isEmpty()) {
			return notEvaluated(start, x, missing);
		}
		SteadyStateHorizon late = figures(rounds, start, x, false, false, 0);
		double lateAverage = mean(rounds, start, x);
		double lateChange = Math.abs(late.slopePercentPerRound()) * (length - 1) / 100 * lateAverage;
		double earlierChange = change(rounds, fresh, start - 1);
		boolean bounds = (length == SniaBounds.HORIZON_ROUNDS)
				? SniaBounds.decide(rounds.sumIops, rounds.secondsPresent, start, SniaBounds.Shape.HORIZON).holds()
				: late.rangePercent() <= 20 && late.slopeExcursionPercent() <= 5;
		boolean slowing = lateChange <= Math.max(0.5 * earlierChange, 0.025 * lateAverage);
		return figures(rounds, start, x, false, bounds && slowing,
				(lateAverage > 0) ? 100 * earlierChange / lateAverage : 0);
	}

	/**
	 * How many rounds the horizon ending at x spans: ten, or with the tested range known,
	 * the fewest from ten on whose random writes reach 1/20 of it (20 · written &gt;=
	 * range, exactly), back to round 0 at most.
	 */
	static int length(RoundTable rounds, int x) {
		int first = x - (SniaBounds.HORIZON_ROUNDS - 1);
		java.util.OptionalLong range = rounds.eligibility.testedRangeBytes();
		if (first <= 0 || range.isEmpty()) {
			return SniaBounds.HORIZON_ROUNDS;
		}
		java.math.BigInteger required = java.math.BigInteger.valueOf(range.getAsLong())
			.multiply(java.math.BigInteger.valueOf(RANGE_WRITES_NUMERATOR));
		java.math.BigInteger written = java.math.BigInteger.ZERO;
		for (int round = first; round <= x; round++) {
			written = written.add(java.math.BigInteger.valueOf(rounds.randomWriteBytes[round]));
		}
		java.math.BigInteger scale = java.math.BigInteger.valueOf(RANGE_WRITES_DENOMINATOR);
		while (first > 0 && written.multiply(scale).compareTo(required) < 0) {
			first--;
			written = written.add(java.math.BigInteger.valueOf(rounds.randomWriteBytes[first]));
		}
		return x - first + 1;
	}

	private static List<Integer> unusable(RoundTable rounds, int first, int x) {
		List<Integer> unusable = new java.util.ArrayList<>();
		for (int round = first; round <= x; round++) {
			if (round < 0 || !rounds.counted[round] || !rounds.eligible[round]) {
				unusable.add(round);
			}
		}
		return unusable;
	}

	private static SteadyStateHorizon notEvaluated(int first, int x, List<Integer> unusable) {
		return new SteadyStateHorizon(first, x, unusable.stream().filter((round) -> round >= 0).toList(), 0, 0, 0, 0,
				false, false, false);
	}

	private static double mean(RoundTable rounds, int first, int last) {
		double total = 0;
		for (int round = first; round <= last; round++) {
			total += rounds.meanIops(round);
		}
		return total / (last - first + 1);
	}

	/**
	 * |b| · (n - 1) of the least-squares line over the counted rounds first..last (0 for
	 * fewer than 2).
	 */
	private static double change(RoundTable rounds, int first, int last) {
		List<Integer> counted = new java.util.ArrayList<>();
		for (int round = Math.max(0, first); round <= last; round++) {
			if (rounds.counted[round]) {
				counted.add(round);
			}
		}
		if (counted.size() < 2) {
			return 0;
		}
		return Math.abs(rounds.line(counted)[0]) * (counted.get(counted.size() - 1) - counted.get(0));
	}

	private static SteadyStateHorizon figures(RoundTable rounds, int first, int x, boolean crossed, boolean holds,
			double earlierChangePercent) {
		int n = x - first + 1;
		double total = 0;
		double max = Double.NEGATIVE_INFINITY;
		double min = Double.POSITIVE_INFINITY;
		double weighted = 0;
		for (int i = 0; i < n; i++) {
			double y = rounds.meanIops(first + i);
			total += y;
			max = Math.max(max, y);
			min = Math.min(min, y);
			weighted += (2 * i - (n - 1)) * y;
		}
		double avg = total / n;
		// Σ(i - (n-1)/2)² = n(n² - 1)/12, so b = 6·Σ(2i - (n-1))·y_i / (n(n² - 1)).
		double slope = 6 * weighted / (n * ((double) n * n - 1));
		return new SteadyStateHorizon(first, x, List.of(), (avg > 0) ? 100 * (max - min) / avg : 0,
				(avg > 0) ? 100 * slope / avg : 0, (avg > 0) ? 100 * Math.abs(slope) * (n - 1) / avg : 0,
				earlierChangePercent, crossed, true, holds);
	}

	/**
	 * Whether the eligible, counted rounds since the fresh state ended and before the
	 * horizon have been more than 5 % above and more than 5 % below its average: the
	 * record is settling around this level rather than approaching it for the first time.
	 */
	private static boolean crossed(RoundTable rounds, int fresh, int first, double average) {
		boolean above = false;
		boolean below = false;
		for (int round = Math.max(0, fresh); round < first; round++) {
			if (rounds.counted[round] && rounds.eligible[round]) {
				above |= rounds.meanIops(round) > (1 + CROSSING_MARGIN) * average;
				below |= rounds.meanIops(round) < (1 - CROSSING_MARGIN) * average;
			}
		}
		return above && below;
	}

}
