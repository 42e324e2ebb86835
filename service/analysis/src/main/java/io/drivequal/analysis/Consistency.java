// Consistency of per-second IOPS over a window: the steady-state window, or the fixed window of the 2000 s profiles.
package io.drivequal.analysis;

import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Computes {@link ConsistencyResult}s. The "within ±x%" tests are decided in integers
 * ({@code 10·|N·iops - Σ| <= Σ}), so a second exactly 10% from the mean is within.
 */
public final class Consistency {

	/**
	 * First second of the fixed window of the 2000 s profiles: t &gt;= 1400, so the
	 * window is the last 601 seconds of a 2000 s phase, 1400 included.
	 */
	public static final long FIXED_WINDOW_FIRST_T_2000S = 1400;

	private Consistency() {
	}

	/**
	 * Consistency over the seconds of the steady-state window, (x-4)*L &lt; t &lt;=
	 * (x+1)*L: the last five rounds of the phase, when they hold.
	 * @param iops per-second IOPS of the phase
	 * @param steadyState the phase's steady-state result
	 * @return the result; empty when the phase is not steady at its end
	 */
	public static Optional<ConsistencyResult> overSteadyStateWindow(PerSecondSeries iops,
			SteadyStateResult steadyState) {
		return steadyState.steadyStateWindow()
			.flatMap((window) -> over(iops, window.windowStartS() + 1, window.windowEndS()));
	}

	/**
	 * Consistency over the fixed window t &gt;= firstT to the end of the phase.
	 * @param iops per-second IOPS of the phase
	 * @param firstT first second of the window, inclusive (1400 for the 2000 s profiles)
	 * @return the result; empty when no second is in the window
	 */
	public static Optional<ConsistencyResult> fixedWindow(PerSecondSeries iops, long firstT) {
		return over(iops, firstT, Math.max(firstT, iops.lastT()));
	}

	/**
	 * Consistency over the seconds with firstT &lt;= t &lt;= lastT.
	 * @param iops per-second IOPS of the phase
	 * @param firstT first second, inclusive
	 * @param lastT last second, inclusive
	 * @return the result; empty when no second is in the window
	 */
	public static Optional<ConsistencyResult> over(PerSecondSeries iops, long firstT, long lastT) {
		long[] values = iops.valuesIn(firstT - 1, lastT);
		if (values.length == 0) {
			return Optional.empty();
		}
		return Optional.of(of(values, firstT, lastT));
	}

	/**
	 * Consistency of the given seconds' IOPS.
	 * @param iops the IOPS of each second in the window, any order; sorted in place
	 * @param firstT first second of the window, for the report
	 * @param lastT last second of the window, for the report
	 * @return the result
	 */
	static ConsistencyResult of(long[] iops, long firstT, long lastT) {
		int count = iops.length;
		Arrays.sort(iops);
		long sum = 0;
		for (long value : iops) {
			sum = Math.addExact(sum, value);
		}
		double mean = (double) sum / count;
		double squares = 0;
		int within10 = 0;
		int within20 = 0;
		for (long value : iops) {
			double deviation = value - mean;
			squares += deviation * deviation;
			// |iops - Σ/N| <= Σ/(10·N) <=> 10·|N·iops - Σ| <= Σ, exact in integers.
			long scaledDeviation = Math.abs(Math.subtractExact(Math.multiplyExact(count, value), sum));
			if (Math.multiplyExact(10, scaledDeviation) <= sum) {
				within10++;
			}
			if (Math.multiplyExact(5, scaledDeviation) <= sum) {
				within20++;
			}
		}
		double stddev = Math.sqrt(squares / count);
		long p0_1 = NearestRank.valueAt(iops, 0.1);
		OptionalDouble cv = (sum == 0) ? OptionalDouble.empty() : OptionalDouble.of(stddev / mean);
		OptionalDouble ratio = (sum == 0) ? OptionalDouble.empty() : OptionalDouble.of(p0_1 / mean);
		return new ConsistencyResult(firstT, lastT, count, iops[0], iops[count - 1], mean, stddev, cv, p0_1,
				NearestRank.valueAt(iops, 1), NearestRank.valueAt(iops, 5), NearestRank.valueAt(iops, 50),
				NearestRank.valueAt(iops, 99), ratio, within10, within20);
	}

}
