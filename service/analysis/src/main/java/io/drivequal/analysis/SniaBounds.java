// The two SNIA steady-state inequalities, decided so that a window exactly on a bound passes on every machine.
package io.drivequal.analysis;

import java.math.BigInteger;

/**
 * Decides the SNIA PTS steady-state criteria for a 5-round window.
 *
 * <p>
 * With y_i the round means (i = 0..4 in the window), the definitions
 * {@code max(y) - min(y)
 * <= 0.20 * avg(y)} and, with b the least-squares slope over the round index,
 * {@code |b| * 4 <= 0.10 * avg(y)} are rearranged to integer coefficients: avg = Σy / 5
 * and, over 5 equally spaced indices, b = Σ(i - 2)·y_i / 10, so the criteria become
 * {@code 25·(max - min) <= Σy} and {@code 20·|Σ(i - 2)·y_i| <= Σy}.
 *
 * <p>
 * Floating point decides only when it is unambiguous: if the two sides differ by more
 * than 1e-9·Σy (double errors here are below 1e-14·Σy). Otherwise the inequality is
 * decided exactly: y_i = S_i / n_i with S_i the integer sum of round i's IOPS and n_i its
 * seconds, all terms are multiplied by D = n_0·…·n_4 and compared as {@link BigInteger}s.
 * A window exactly on a bound therefore passes deterministically (the bounds are
 * inclusive), where {@code (max - min) <= 0.2 * avg} in doubles may fail it by one ulp.
 */
final class SniaBounds {

	static final int WINDOW_ROUNDS = 5;

	private static final double UNAMBIGUOUS = 1e-9;

	private SniaBounds() {
	}

	/** Outcome of both criteria for one window. */
	record Decision(boolean rangeWithinBound, boolean slopeWithinBound) {

		boolean holds() {
			return this.rangeWithinBound && this.slopeWithinBound;
		}

	}

	/**
	 * Decides the window of rounds first..first+4.
	 * @param sumIops integer sum of each round's IOPS
	 * @param secondsPresent seconds present in each round (all &gt; 0)
	 * @param first index of the window's first round
	 * @return both criteria
	 */
	static Decision decide(long[] sumIops, int[] secondsPresent, int first) {
		double total = 0;
		double max = Double.NEGATIVE_INFINITY;
		double min = Double.POSITIVE_INFINITY;
		double weighted = 0;
		for (int i = 0; i < WINDOW_ROUNDS; i++) {
			double y = (double) sumIops[first + i] / secondsPresent[first + i];
			total += y;
			max = Math.max(max, y);
			min = Math.min(min, y);
			weighted += (i - 2) * y;
		}
		double margin = UNAMBIGUOUS * total;
		Boolean range = decideFast(25 * (max - min), total, margin);
		Boolean slope = decideFast(20 * Math.abs(weighted), total, margin);
		if (range != null && slope != null) {
			return new Decision(range, slope);
		}
		Decision exact = decideExactly(sumIops, secondsPresent, first);
		return new Decision((range != null) ? range : exact.rangeWithinBound(),
				(slope != null) ? slope : exact.slopeWithinBound());
	}

	private static Boolean decideFast(double left, double right, double margin) {
		if (left < right - margin) {
			return Boolean.TRUE;
		}
		if (left > right + margin) {
			return Boolean.FALSE;
		}
		return null;
	}

	static Decision decideExactly(long[] sumIops, int[] secondsPresent, int first) {
		BigInteger commonDenominator = BigInteger.ONE;
		for (int i = 0; i < WINDOW_ROUNDS; i++) {
			commonDenominator = commonDenominator.multiply(BigInteger.valueOf(secondsPresent[first + i]));
		}
		BigInteger total = BigInteger.ZERO;
		BigInteger weighted = BigInteger.ZERO;
		BigInteger max = null;
		BigInteger min = null;
		for (int i = 0; i < WINDOW_ROUNDS; i++) {
			// y_i * D, an integer because D is a multiple of n_i.
			BigInteger scaled = BigInteger.valueOf(sumIops[first + i])
				.multiply(commonDenominator.divide(BigInteger.valueOf(secondsPresent[first + i])));
			total = total.add(scaled);
			weighted = weighted.add(scaled.multiply(BigInteger.valueOf(i - 2)));
			max = (max == null) ? scaled : max.max(scaled);
			min = (min == null) ? scaled : min.min(scaled);
		}
		boolean range = max.subtract(min).multiply(BigInteger.valueOf(25)).compareTo(total) <= 0;
		boolean slope = weighted.abs().multiply(BigInteger.valueOf(20)).compareTo(total) <= 0;
		return new Decision(range, slope);
	}

}
