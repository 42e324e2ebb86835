// The drive's health during a job: what its readings say (temperature, warnings, media errors) and when it throttled.
/**
 * Health readings of a job (job-event type health, polled every few seconds while the job
 * runs) turned into the figures and criteria of docs/methodology.md "Drive health":
 * {@link io.drivequal.analysis.health.HealthSummary#of} over the job's readings (maximum
 * temperature, critical-warning bits seen, new media errors, spare, wear, the drive's own
 * throttling counters), and
 * {@link io.drivequal.analysis.health.ThermalThrottleDetector#detect} over one workload
 * phase's per-second IOPS and its readings (the seconds the IOPS dropped while the drive
 * was at its throttle temperature). Plain Java, like the rest of the library.
 */
package io.drivequal.analysis.health;
