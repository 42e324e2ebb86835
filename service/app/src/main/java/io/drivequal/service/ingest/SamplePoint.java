/*
 * One per-second sample as the API serves it: IOPS, MB/s and latency per direction, and the
 * second's effective queue depth when the runner measured it, and its round and step in a phase
 * with adaptive rounds.
 */
package io.drivequal.service.ingest;

import com.fasterxml.jackson.annotation.JsonInclude;

@JsonInclude(JsonInclude.Include.NON_NULL)
public record SamplePoint(int phaseIndex, String phaseName, int t, long timeMs, long readIops, long writeIops,
		long readBytes, long writeBytes, double readMBps, double writeMBps, Latency readLatencyNs,
		Latency writeLatencyNs, Double effectiveQueueDepth, Integer round, Integer step) {

	/** A second of a phase without rounds. */
	public SamplePoint(int phaseIndex, String phaseName, int t, long timeMs, long readIops, long writeIops,
			long readBytes, long writeBytes, double readMBps, double writeMBps, Latency readLatencyNs,
			Latency writeLatencyNs, Double effectiveQueueDepth) {
		this(phaseIndex, phaseName, t, timeMs, readIops, writeIops, readBytes, writeBytes, readMBps, writeMBps,
				readLatencyNs, writeLatencyNs, effectiveQueueDepth, null, null);
	}

	public record Latency(long p50, long p99, long p999, long max) {
	}

	static SamplePoint of(SampleDocument document) {
		return new SamplePoint(document.phaseIndex(), document.phaseName(), document.t(), document.timestampMs(),
				document.read().iops(), document.write().iops(), document.read().bytes(), document.write().bytes(),
				document.read().mbPerS(), document.write().mbPerS(), latency(document.read()),
				latency(document.write()), document.effectiveQueueDepth(), document.round(), document.step());
	}

	private static Latency latency(SampleDocument.DirectionDocument direction) {
		SampleMessage.LatencyNs latency = direction.latencyNs();
		return (latency != null) ? new Latency(latency.p50(), latency.p99(), latency.p999(), latency.max()) : null;
	}

}
