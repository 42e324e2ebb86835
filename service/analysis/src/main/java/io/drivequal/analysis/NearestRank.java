// Nearest-rank percentiles with the rank computed exactly, so P99.9 of 1000 values is rank 999 and not rank 1000.
package io.drivequal.analysis;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * P_p = the value at 1-based rank ceil(p/100 * N) in ascending order; a p whose rank
 * would be below 1 takes rank 1. p is taken as the decimal it is written as
 * ({@link BigDecimal} or {@link BigDecimal#valueOf(double)}, i.e. the shortest decimal of
 * the double), and the rank is computed in exact decimal arithmetic: in binary floating
 * point 99.9 / 100 * 1000 is 999.0000000000001, whose ceiling would wrongly be rank 1000
 * (the single slowest of 1000 IOs).
 */
public final class NearestRank {

	private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

	private NearestRank() {
	}

	/**
	 * The 1-based rank of percentile p among count values.
	 * @param percent p, 0..100, as a decimal
	 * @param count N &gt;= 1
	 * @return ceil(p/100 * N), clamped to 1..N
	 */
	public static long rank(BigDecimal percent, long count) {
		if (count < 1) {
			throw new IllegalArgumentException("no values: count = " + count);
		}
		if (percent.signum() < 0 || percent.compareTo(HUNDRED) > 0) {
			throw new IllegalArgumentException("percentile " + percent + " is outside 0..100");
		}
		long rank = percent.multiply(BigDecimal.valueOf(count))
			.divide(HUNDRED, 0, RoundingMode.CEILING)
			.longValueExact();
		return Math.max(1, Math.min(rank, count));
	}

	/**
	 * The 1-based rank of percentile p among count values, p read as its shortest
	 * decimal.
	 * @param percent p, 0..100
	 * @param count N &gt;= 1
	 * @return ceil(p/100 * N), clamped to 1..N
	 */
	public static long rank(double percent, long count) {
		return rank(BigDecimal.valueOf(percent), count);
	}

	/**
	 * P_p of values sorted ascending.
	 * @param sortedAscending the values, ascending
	 * @param percent p, 0..100
	 * @return the value at the nearest rank
	 */
	public static long valueAt(long[] sortedAscending, double percent) {
		return sortedAscending[(int) rank(percent, sortedAscending.length) - 1];
	}

}
