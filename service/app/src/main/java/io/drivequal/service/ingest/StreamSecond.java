/*
 * One stream's second of a multi-stream phase as the API serves it: what an open loop offered,
 * what the drive completed per direction, and the second's service and response time percentiles.
 */
package io.drivequal.service.ingest;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * @param offeredIops an open loop's IOs whose intended issue time fell in the second;
 * null for a closed loop
 * @param achievedIops IOs completed in the second, all directions
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StreamSecond(int t, int index, Long offeredIops, long achievedIops, Direction read, Direction write,
		Direction trim) {

	/**
	 * @param latencyNs service time (submission to completion), when the direction had
	 * IOs
	 * @param responseLatencyNs an open loop's response time (intended issue to
	 * completion)
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Direction(long iops, long bytes, SamplePoint.Latency latencyNs,
			SamplePoint.Latency responseLatencyNs) {

		static Direction of(SampleDocument.StreamDirectionDocument document) {
			return new Direction(document.iops(), document.bytes(), latency(document.latencyNs()),
					latency(document.responseLatencyNs()));
		}

		private static SamplePoint.Latency latency(SampleMessage.LatencyNs latency) {
			return (latency != null)
					? new SamplePoint.Latency(latency.p50(), latency.p99(), latency.p999(), latency.max()) : null;
		}

	}

	static StreamSecond of(int t, SampleDocument.StreamDocument stream) {
		return new StreamSecond(t, stream.index(), stream.offeredIops(), stream.achievedIops(),
				Direction.of(stream.read()), Direction.of(stream.write()), Direction.of(stream.trim()));
	}

}
