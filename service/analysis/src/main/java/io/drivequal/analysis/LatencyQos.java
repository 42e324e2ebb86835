// Latency quality of service of a phase (or several merged): the tail percentiles a datacenter buyer specifies.
package io.drivequal.analysis;

import java.util.List;

/**
 * Latency percentiles in nanoseconds from an HdrHistogram with 2 significant digits.
 *
 * <p>
 * Each percentile is nearest-rank with the rank computed exactly ({@link NearestRank});
 * its value is the HIGHEST equivalent value of the bucket holding that rank, which is
 * what HdrHistogram's {@code getValueAtPercentile} returns (it derives the rank in
 * doubles after nudging p down one ulp, and agrees with the exact rank; the exact rank
 * keeps the definition independent of that nudge). So a percentile is never below the
 * true latency and at most 1/128 of it above (256 sub-buckets per power of two: a bucket
 * spans at most 1/128 of its lowest value), and it is capped at the exact maximum
 * {@code maxNs}. The mean is HdrHistogram's {@code getMean()}: every IO counted at its
 * bucket's median equivalent value. min and max are the exact values the runner measured.
 *
 * @param count IOs in the histogram
 * @param minNs exact minimum
 * @param maxNs exact maximum
 * @param meanNs mean over bucket medians
 * @param p50Ns P50
 * @param p90Ns P90
 * @param p99Ns P99
 * @param p99_9Ns P99.9
 * @param p99_99Ns P99.99
 * @param p99_999Ns P99.999
 * @param p99_9999Ns P99.9999
 */
public record LatencyQos(long count, long minNs, long maxNs, double meanNs, long p50Ns, long p90Ns, long p99Ns,
		long p99_9Ns, long p99_99Ns, long p99_999Ns, long p99_9999Ns) {

	/** The percentiles reported, in the order of the record components. */
	public static final List<String> PERCENTILES = List.of("50", "90", "99", "99.9", "99.99", "99.999", "99.9999");

	/**
	 * Nanoseconds in microseconds.
	 * @param ns nanoseconds
	 * @return microseconds
	 */
	public static double toUs(long ns) {
		return ns / 1000.0;
	}

	public double p50Us() {
		return toUs(this.p50Ns);
	}

	public double p90Us() {
		return toUs(this.p90Ns);
	}

	public double p99Us() {
		return toUs(this.p99Ns);
	}

	public double p99_9Us() {
		return toUs(this.p99_9Ns);
	}

	public double p99_99Us() {
		return toUs(this.p99_99Ns);
	}

	public double p99_999Us() {
		return toUs(this.p99_999Ns);
	}

	public double p99_9999Us() {
		return toUs(this.p99_9999Ns);
	}

	public double maxUs() {
		return toUs(this.maxNs);
	}

	public double meanUs() {
		return this.meanNs / 1000.0;
	}

}
