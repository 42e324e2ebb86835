/*
 * A downsampled stretch of a phase for charts: the min, mean and max IOPS of its seconds, so the
 * dips that matter for consistency are not averaged away.
 */
package io.drivequal.service.ingest;

public record ChartBucket(int phaseIndex, int fromT, int toT, long seconds, double minIops, double meanIops,
		double maxIops) {
}
