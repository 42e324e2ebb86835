// Sequential-phase throughput in MB/s (decimal megabytes, as drive datasheets state it).
package io.drivequal.analysis;

import java.util.Optional;

/** Mean MB/s over a phase's per-second bytes. */
public final class Throughput {

	private Throughput() {
	}

	/**
	 * Mean throughput: Σ bytes / N / 1e6 over the N seconds present.
	 * @param bytesPerSecond bytes completed in each second (read, write or both, as the
	 * caller chooses)
	 * @return mean MB/s; empty when no second is present
	 */
	public static Optional<ThroughputResult> meanMBps(PerSecondSeries bytesPerSecond) {
		if (bytesPerSecond.isEmpty()) {
			return Optional.empty();
		}
		long[] values = bytesPerSecond.rawValues();
		long totalBytes = 0;
		for (long bytes : values) {
			totalBytes = Math.addExact(totalBytes, bytes);
		}
		return Optional.of(new ThroughputResult(values.length, totalBytes, totalBytes / 1e6 / values.length));
	}

	/**
	 * Mean throughput of one phase.
	 *
	 * @param seconds seconds present
	 * @param totalBytes bytes over those seconds
	 * @param meanMBps totalBytes / 1e6 / seconds
	 */
	public record ThroughputResult(int seconds, long totalBytes, double meanMBps) {

	}

}
