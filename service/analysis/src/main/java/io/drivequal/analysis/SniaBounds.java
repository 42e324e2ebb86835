// The two SNIA steady-state inequalities, decided so that a window exactly on a bound passes on every machine.
package io.drivequal.analysis;

import java.math.BigInteger;
import java.util.Arrays;

/**
 * Decides the SNIA PTS steady-state criteria for a 5-round window, and the same two
 * inequalities over the 10-round horizon the level must also hold over (methodology 3.2;
 * a horizon longer than ten rounds is decided in doubles by {@link SteadyStateHorizon}).
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
 *
 * <p>
 * Over the horizon of 10 rounds the same bounds (range &lt;= 20 % of the average, the
 * least-squares line's excursion |b|·9 &lt;= 5 %, half SNIA's, so that a climb of 0.6 %
 * per round fails) read, with b = Σ(2i - 9)·y_i / 165, {@code 50·(max - min) <= Σy} and
 * {@code 120·|Σ(2i - 9)·y_i| <= 11·Σy}. The divisors may be long: the round WAF is media
 * bytes over host bytes.
 */
final class SniaBounds {

	static final int WINDOW_ROUNDS = 5;

	static final int HORIZON_ROUNDS = 10;

	private static final double UNAMBIGUOUS = 1e-9;

	/**
	 * The integer form of both inequalities over n rounds: rangeCoefficient·(max - min)
	 * &lt;= Σy and slopeCoefficient·|Σ weight_i·y_i| &lt;= slopeRight·Σy.
	 */
	enum Shape {

		/** SNIA's window: 25·(max - min) &lt;= Σy, 20·|Σ(i - 2)·y_i| &lt;= Σy. */
		WINDOW(WINDOW_ROUNDS, 25, 20, 1, 2, 1),
		/**
		 * The horizon of a level reached for the first time: 50·(max - min) &lt;= Σy,
		 * 120·|Σ(2i - 9)·y_i| &lt;= 11·Σy (excursion &lt;= 5 %).
		 */
		HORIZON(HORIZON_ROUNDS, 50, 120, 11, 9, 2),
		/**
		 * The horizon of a level the record has already crossed: 50·(max - min) &lt;= Σy,
		 * 60·|Σ(2i - 9)·y_i| &lt;= 11·Σy (excursion &lt;= 10 %).
		 */
		HORIZON_CROSSED(HORIZON_ROUNDS, 50, 60, 11, 9, 2);

		final int rounds;

		final long rangeCoefficient;

		final long slopeCoefficient;

		final long slopeRight;

		private final int weightOffset;

		private final int weightScale;

		Shape(int rounds, long rangeCoefficient, long slopeCoefficient, long slopeRight, int weightOffset,
				int weightScale) {
			this.rounds = rounds;
			this.rangeCoefficient = rangeCoefficient;
			this.slopeCoefficient = slopeCoefficient;
			this.slopeRight = slopeRight;
			this.weightOffset = weightOffset;
			this.weightScale = weightScale;
		}

		/** The integer weight of index i in the slope's numerator. */
		long weight(int i) {
			return (long) this.weightScale * i - this.weightOffset;
		}

	}

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
		return decide(sumIops, secondsPresent, first, Shape.WINDOW);
	}

	/**
	 * Decides rounds first..first+n-1 of the given shape over round sums and seconds.
	 * @param sumIops integer sum of each round's IOPS
	 * @param secondsPresent seconds present in each round (all &gt; 0)
	 * @param first index of the first round
	 * @param shape the window or the horizon
	 * @return both criteria
	 */
	static Decision decide(long[] sumIops, int[] secondsPresent, int first, Shape shape) {
		// Only the shape's rounds, so a check per window costs the window, not the phase.
		return decide(Arrays.copyOfRange(sumIops, first, first + shape.rounds),
				longs(secondsPresent, first, shape.rounds), 0, shape);
	}

	/**
	 * Decides rounds first..first+n-1 of the given shape; y_i = sums[i] / divisors[i].
	 * @param sums integer numerators
	 * @param divisors integer denominators (all &gt; 0)
	 * @param first index of the first round
	 * @param shape the window or the horizon
	 * @return both criteria
	 */
	static Decision decide(long[] sums, long[] divisors, int first, Shape shape) {
		double total = 0;
		double max = Double.NEGATIVE_INFINITY;
		double min = Double.POSITIVE_INFINITY;
		double weighted = 0;
		for (int i = 0; i < shape.rounds; i++) {
			double y = (double) sums[first + i] / divisors[first + i];
			total += y;
			max = Math.max(max, y);
			min = Math.min(min, y);
			weighted += shape.weight(i) * y;
		}
		double margin = UNAMBIGUOUS * total * shape.slopeRight;
		Boolean range = decideFast(shape.rangeCoefficient * (max - min), total, margin);
		Boolean slope = decideFast(shape.slopeCoefficient * Math.abs(weighted), shape.slopeRight * total, margin);
		if (range != null && slope != null) {
			return new Decision(range, slope);
		}
		Decision exact = decideExactly(sums, divisors, first, shape);
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
		return decideExactly(Arrays.copyOfRange(sumIops, first, first + WINDOW_ROUNDS),
				longs(secondsPresent, first, WINDOW_ROUNDS), 0, Shape.WINDOW);
	}

	static Decision decideExactly(long[] sums, long[] divisors, int first, Shape shape) {
		BigInteger commonDenominator = BigInteger.ONE;
		for (int i = 0; i < shape.rounds; i++) {
			commonDenominator = commonDenominator.multiply(BigInteger.valueOf(divisors[first + i]));
		}
		BigInteger total = BigInteger.ZERO;
		BigInteger weighted = BigInteger.ZERO;
		BigInteger max = null;
		BigInteger min = null;
		for (int i = 0; i < shape.rounds; i++) {
			// y_i * D, an integer because D is a multiple of n_i.
			BigInteger scaled = BigInteger.valueOf(sums[first + i])
				.multiply(commonDenominator.divide(BigInteger.valueOf(divisors[first + i])));
			total = total.add(scaled);
			weighted = weighted.add(scaled.multiply(BigInteger.valueOf(shape.weight(i))));
			max = (max == null) ? scaled : max.max(scaled);
			min = (min == null) ? scaled : min.min(scaled);
		}
		boolean range = max.subtract(min).multiply(BigInteger.valueOf(shape.rangeCoefficient)).compareTo(total) <= 0;
		boolean slope = weighted.abs()
			.multiply(BigInteger.valueOf(shape.slopeCoefficient))
			.compareTo(total.multiply(BigInteger.valueOf(shape.slopeRight))) <= 0;
		return new Decision(range, slope);
	}

	private static long[] longs(int[] values, int first, int count) {
		long[] out = new long[count];
		for (int i = 0; i < count; i++) {
			out[i] = values[first + i];
		}
		return out;
	}

}
