// Per-second completion-latency percentiles rebuilt from a fio histogram log, like a runner sample's latencyNs.
package io.drivequal.analysis.fio;

/**
 * Percentiles of one second's completion latencies from fio's histogram log: nearest rank
 * over fio's bins, each bin taken at its midpoint (fio's own convention; with coarseness
 * c a bin is 2^c of fio's 1/64-wide bins, so the error is at most 2^c/128).
 *
 * @param p50Ns P50
 * @param p99Ns P99
 * @param p999Ns P99.9
 * @param maxNs midpoint of the highest non-empty bin
 */
public record FioSecondLatencyNs(long p50Ns, long p99Ns, long p999Ns, long maxNs) {

}
