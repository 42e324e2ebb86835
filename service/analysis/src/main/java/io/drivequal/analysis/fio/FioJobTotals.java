// A fio job's totals for one direction, from its JSON output: what the vendor's own summary said.
package io.drivequal.analysis.fio;

import java.util.Map;

/**
 * Totals of one direction of a fio job (fio 3.x JSON, latencies in ns).
 *
 * @param totalIos IOs completed
 * @param ioBytes bytes transferred
 * @param iops fio's average IOPS
 * @param bandwidthBytesPerS fio's average bandwidth, bytes/s
 * @param runtimeMs the direction's runtime
 * @param clatMinNs smallest completion latency (exact)
 * @param clatMaxNs largest completion latency (exact)
 * @param clatMeanNs mean completion latency
 * @param latMeanNs mean total latency (submission + completion)
 * @param clatPercentilesNs fio's completion-latency percentiles as it printed them (key:
 * the percentile as fio writes it, e.g. "99.990000"; value: fio's bin midpoint, ns)
 */
public record FioJobTotals(long totalIos, long ioBytes, double iops, long bandwidthBytesPerS, long runtimeMs,
		long clatMinNs, long clatMaxNs, double clatMeanNs, double latMeanNs, Map<String, Long> clatPercentilesNs) {

	public FioJobTotals {
		clatPercentilesNs = Map.copyOf(clatPercentilesNs);
	}

}
