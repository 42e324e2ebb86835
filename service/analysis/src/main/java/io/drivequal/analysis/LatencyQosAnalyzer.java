// Rebuilds the runner's histograms with HdrHistogram, merges them and reads the QoS percentiles.
package io.drivequal.analysis;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * Latency QoS from one or several {@link PhaseLatencyHistogram}s (e.g. reads + writes, or
 * several phases).
 */
public final class LatencyQosAnalyzer {

	private LatencyQosAnalyzer() {
	}

	/**
	 * QoS of the merged histograms.
	 * @param histograms histograms to merge; empty ones are allowed
	 * @return the QoS; empty when no IO was recorded
	 * @throws IllegalArgumentException when a histogram is not in the contract's bucket
	 * layout
	 */
	public static Optional<LatencyQos> of(List<PhaseLatencyHistogram> histograms) {
		Histogram merged = new Histogram(PhaseLatencyHistogram.SIGNIFICANT_DIGITS);
		long minNs = Long.MAX_VALUE;
		long maxNs = Long.MIN_VALUE;
		for (PhaseLatencyHistogram histogram : histograms) {
			merged.add(rebuild(histogram));
			if (histogram.totalCount() > 0) {
				minNs = Math.min(minNs, histogram.minNs());
				maxNs = Math.max(maxNs, histogram.maxNs());
			}
		}
		if (merged.getTotalCount() == 0) {
			return Optional.empty();
		}
		long[] values = percentiles(merged, maxNs);
		return Optional.of(new LatencyQos(merged.getTotalCount(), minNs, maxNs, merged.getMean(), values[0], values[1],
				values[2], values[3], values[4], values[5], values[6]));
	}

	/**
	 * QoS of the given histograms merged.
	 * @param histograms one or more histograms
	 * @return the QoS; empty when no IO was recorded
	 */
	public static Optional<LatencyQos> of(PhaseLatencyHistogram... histograms) {
		return of(List.of(histograms));
	}

	/**
	 * Rebuilds the HdrHistogram exactly: recordValueWithCount of each bucket's lowest
	 * value.
	 * @param histogram the contract form
	 * @return an auto-resizing histogram with 2 significant digits
	 */
	public static Histogram rebuild(PhaseLatencyHistogram histogram) {
		Histogram rebuilt = new Histogram(PhaseLatencyHistogram.SIGNIFICANT_DIGITS);
		List<PhaseLatencyHistogram.BucketCount> counts = histogram.counts();
		for (int i = 0; i < counts.size(); i++) {
			long value = counts.get(i).lowestEquivalentValueNs();
			if (rebuilt.lowestEquivalentValue(value) != value) {
				throw new IllegalArgumentException("counts[" + i + "] value " + value
						+ " is not a bucket's lowest equivalent value (that would be "
						+ rebuilt.lowestEquivalentValue(value) + ")");
			}
			rebuilt.recordValueWithCount(value, counts.get(i).count());
		}
		if (!counts.isEmpty()) {
			long first = counts.get(0).lowestEquivalentValueNs();
			long last = counts.get(counts.size() - 1).lowestEquivalentValueNs();
			if (rebuilt.lowestEquivalentValue(histogram.minNs()) != first
					|| rebuilt.lowestEquivalentValue(histogram.maxNs()) != last) {
				throw new IllegalArgumentException("minNs " + histogram.minNs() + " / maxNs " + histogram.maxNs()
						+ " are not in the first / last bucket (" + first + " / " + last + ")");
			}
		}
		return rebuilt;
	}

	private static long[] percentiles(Histogram histogram, long maxNs) {
		long total = histogram.getTotalCount();
		long[] ranks = new long[LatencyQos.PERCENTILES.size()];
		for (int i = 0; i < ranks.length; i++) {
			ranks[i] = NearestRank.rank(new BigDecimal(LatencyQos.PERCENTILES.get(i)), total);
		}
		long[] values = new long[ranks.length];
		int next = 0;
		long cumulative = 0;
		for (HistogramIterationValue bucket : histogram.recordedValues()) {
			cumulative += bucket.getCountAddedInThisIterationStep();
			while (next < ranks.length && ranks[next] <= cumulative) {
				long highest = histogram.highestEquivalentValue(bucket.getValueIteratedTo());
				values[next++] = Math.min(highest, maxNs);
			}
		}
		return values;
	}

}
