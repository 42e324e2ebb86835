// The vendor-spec consistency figures of one window of per-second IOPS, as the report and the verdict read them.
package io.drivequal.analysis;

import java.util.OptionalDouble;

/**
 * Consistency of the per-second IOPS in one window (docs/methodology.md,
 * "consistencyRatio"). Percentiles are nearest-rank ({@link NearestRank}), so each is one
 * of the window's seconds.
 *
 * @param firstT first second of the window (inclusive)
 * @param lastT last second of the window (inclusive)
 * @param sampleCount N, the seconds present in the window
 * @param minIops slowest second
 * @param maxIops fastest second
 * @param meanIops arithmetic mean
 * @param stddevIops population standard deviation (divides by N)
 * @param cv stddev / mean; empty when the mean is 0
 * @param p0_1Iops P0.1, the slowest 0.1% of seconds
 * @param p1Iops P1
 * @param p5Iops P5
 * @param p50Iops P50
 * @param p99Iops P99
 * @param ratio P0.1 / mean, the consistency ratio; empty when the mean is 0
 * @param within10PercentCount seconds with |iops - mean| &lt;= 10% of the mean
 * (inclusive)
 * @param within20PercentCount seconds with |iops - mean| &lt;= 20% of the mean
 * (inclusive)
 */
public record ConsistencyResult(long firstT, long lastT, int sampleCount, long minIops, long maxIops, double meanIops,
		double stddevIops, OptionalDouble cv, long p0_1Iops, long p1Iops, long p5Iops, long p50Iops, long p99Iops,
		OptionalDouble ratio, int within10PercentCount, int within20PercentCount) {

	/**
	 * Share of seconds within ±10% of the mean.
	 * @return 0..1
	 */
	public double within10PercentShare() {
		return (double) this.within10PercentCount / this.sampleCount;
	}

	/**
	 * Share of seconds within ±20% of the mean.
	 * @return 0..1
	 */
	public double within20PercentShare() {
		return (double) this.within20PercentCount / this.sampleCount;
	}

}
