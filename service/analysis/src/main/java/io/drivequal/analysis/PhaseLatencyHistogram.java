// A phase's latency histogram exactly as the contract carries it (common.schema.json "latencyHistogram").
package io.drivequal.analysis;

import java.util.ArrayList;
import java.util.List;

import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * HdrHistogram bucket layout with 2 significant digits (256 sub-buckets, unit 1 ns):
 * every non-empty bucket as its lowest equivalent value and its count, ascending.
 *
 * @param significantDigits always 2
 * @param totalCount sum of the counts
 * @param minNs exact smallest latency recorded
 * @param maxNs exact largest latency recorded
 * @param counts non-empty buckets, ascending by value
 */
public record PhaseLatencyHistogram(int significantDigits, long totalCount, long minNs, long maxNs,
		List<BucketCount> counts) {

	/** The contract's (and the runner's) precision. */
	public static final int SIGNIFICANT_DIGITS = 2;

	public PhaseLatencyHistogram {
		if (significantDigits != SIGNIFICANT_DIGITS) {
			throw new IllegalArgumentException("significantDigits = " + significantDigits + ", expected "
					+ SIGNIFICANT_DIGITS + " (the contract's bucket layout)");
		}
		counts = List.copyOf(counts);
		long sum = 0;
		for (int i = 0; i < counts.size(); i++) {
			BucketCount bucket = counts.get(i);
			if (i > 0 && bucket.lowestEquivalentValueNs() <= counts.get(i - 1).lowestEquivalentValueNs()) {
				throw new IllegalArgumentException("counts[" + i + "] value " + bucket.lowestEquivalentValueNs()
						+ " is not above the previous bucket's; buckets must be ascending");
			}
			sum = Math.addExact(sum, bucket.count());
		}
		if (sum != totalCount) {
			throw new IllegalArgumentException("totalCount = " + totalCount + " but the counts sum to " + sum);
		}
		if (totalCount > 0 && (minNs < 0 || maxNs < minNs)) {
			throw new IllegalArgumentException("minNs = " + minNs + ", maxNs = " + maxNs + " are inconsistent");
		}
	}

	/**
	 * From the contract's [lowestEquivalentValueNs, count] pairs.
	 * @param totalCount sum of the counts
	 * @param minNs exact minimum
	 * @param maxNs exact maximum
	 * @param pairs [value, count] per non-empty bucket, ascending
	 * @return the histogram
	 */
	public static PhaseLatencyHistogram fromPairs(long totalCount, long minNs, long maxNs, long[][] pairs) {
		List<BucketCount> counts = new ArrayList<>(pairs.length);
		for (int i = 0; i < pairs.length; i++) {
			if (pairs[i].length != 2) {
				throw new IllegalArgumentException("counts[" + i + "] has " + pairs[i].length + " items, expected 2");
			}
			counts.add(new BucketCount(pairs[i][0], pairs[i][1]));
		}
		return new PhaseLatencyHistogram(SIGNIFICANT_DIGITS, totalCount, minNs, maxNs, counts);
	}

	/**
	 * The contract form of an HdrHistogram with 2 significant digits.
	 * @param histogram the histogram
	 * @param minNs exact minimum, if known (else the histogram's lowest equivalent
	 * minimum)
	 * @param maxNs exact maximum, if known (else the histogram's highest equivalent
	 * maximum)
	 * @return the histogram in the contract's form
	 */
	public static PhaseLatencyHistogram from(AbstractHistogram histogram, long minNs, long maxNs) {
		if (histogram.getNumberOfSignificantValueDigits() != SIGNIFICANT_DIGITS) {
			throw new IllegalArgumentException("the histogram has " + histogram.getNumberOfSignificantValueDigits()
					+ " significant digits, expected " + SIGNIFICANT_DIGITS);
		}
		List<BucketCount> counts = new ArrayList<>();
		for (HistogramIterationValue bucket : histogram.recordedValues()) {
			counts.add(new BucketCount(histogram.lowestEquivalentValue(bucket.getValueIteratedTo()),
					bucket.getCountAddedInThisIterationStep()));
		}
		return new PhaseLatencyHistogram(SIGNIFICANT_DIGITS, histogram.getTotalCount(), minNs, maxNs, counts);
	}

	/**
	 * The IOs slower than a threshold: those in buckets whose lowest value is above it.
	 * Exact to the bucket layout (an IO at most 1/128 above the threshold, in the
	 * threshold's own bucket, is not counted); 0 when the maximum is not above it.
	 * @param thresholdNs the threshold
	 * @return the count
	 */
	public long countAbove(long thresholdNs) {
		if (this.maxNs <= thresholdNs) {
			return 0;
		}
		long above = 0;
		for (BucketCount bucket : this.counts) {
			if (bucket.lowestEquivalentValueNs() > thresholdNs) {
				above += bucket.count();
			}
		}
		return above;
	}

	/**
	 * One non-empty bucket.
	 *
	 * @param lowestEquivalentValueNs the bucket's lowest value
	 * @param count IOs in it, at least 1
	 */
	public record BucketCount(long lowestEquivalentValueNs, long count) {

		public BucketCount {
			if (lowestEquivalentValueNs < 0) {
				throw new IllegalArgumentException("bucket value " + lowestEquivalentValueNs + " is negative");
			}
			if (count < 1) {
				throw new IllegalArgumentException(
						"bucket " + lowestEquivalentValueNs + " has count " + count + "; empty buckets are omitted");
			}
		}

	}

}
