// The drive's own latency buckets at one reading (OCP Latency Monitor log C3h), as the analysis counts them.
package io.drivequal.analysis.health;

import java.util.List;

/**
 * The latency monitor's thresholds and bucket counters at one reading. Bucket i counts
 * the commands whose latency was at least threshold i (and below threshold i + 1; bucket
 * 3: at least threshold D). The active counters count since the drive's active bucket
 * timer last started; when it reaches its threshold the drive copies them to the static
 * counters and restarts them.
 *
 * @param thresholdsMs thresholds A..D, milliseconds
 * @param active per direction (read, write, deallocate) the four active bucket counters
 * @param statics the same for the static buckets
 */
public record LatencyMonitorCounts(List<Integer> thresholdsMs, List<List<Long>> active, List<List<Long>> statics) {

	/** The directions in the order of active and statics. */
	public static final List<String> DIRECTIONS = List.of("read", "write", "deallocate");

	public static final int BUCKETS = 4;

	public LatencyMonitorCounts {
		if (thresholdsMs.size() != BUCKETS || active.size() != DIRECTIONS.size() || statics.size() != DIRECTIONS.size()
				|| active.stream().anyMatch((buckets) -> buckets.size() != BUCKETS)
				|| statics.stream().anyMatch((buckets) -> buckets.size() != BUCKETS)) {
			throw new IllegalArgumentException("a latency monitor has 4 thresholds and 4 buckets per direction");
		}
		thresholdsMs = List.copyOf(thresholdsMs);
		active = active.stream().map(List::copyOf).toList();
		statics = statics.stream().map(List::copyOf).toList();
	}

	/**
	 * Commands counted in one bucket of one direction between this reading and a later
	 * one. When the later active counter is below this one the timer restarted in
	 * between: the counts before the restart are the later static counter's (one restart
	 * assumed; the runner sets the longest timer, 65,535 x 5 minutes).
	 */
	public long countedUntil(LatencyMonitorCounts later, int direction, int bucket) {
		long before = this.active.get(direction).get(bucket);
		long after = later.active.get(direction).get(bucket);
		if (after >= before) {
			return after - before;
		}
		return Math.max(0, later.statics.get(direction).get(bucket) - before) + after;
	}

}
