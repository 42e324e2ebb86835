/*
 * A per-second sample as the runner sends it (schemas/messages/sample.schema.json).
 * effectiveQueueDepthMilli is null from runners that do not measure it (saved runs, imports); round
 * and step are null outside phases with adaptive rounds; wallMs and clockRateMilli are null
 * outside simulated clocks (and clockRateMilli early in a phase); trim and streams are null outside
 * multi-stream phases.
 */
package io.drivequal.service.ingest;

import java.util.List;

record SampleMessage(int schemaVersion, String jobId, String runnerId, String deviceSerial, int phaseIndex,
		String phaseName, int t, long timeMs, Direction read, Direction write, Long effectiveQueueDepthMilli,
		Integer round, Integer step, Long wallMs, Long clockRateMilli, Direction trim, List<StreamSecond> streams) {

	/** A sample of a phase without streams, its clock not simulated. */
	SampleMessage(int schemaVersion, String jobId, String runnerId, String deviceSerial, int phaseIndex,
			String phaseName, int t, long timeMs, Direction read, Direction write, Long effectiveQueueDepthMilli,
			Integer round, Integer step, Direction trim, List<StreamSecond> streams) {
		this(schemaVersion, jobId, runnerId, deviceSerial, phaseIndex, phaseName, t, timeMs, read, write,
				effectiveQueueDepthMilli, round, step, null, null, trim, streams);
	}

	/** A sample of a phase without streams. */
	SampleMessage(int schemaVersion, String jobId, String runnerId, String deviceSerial, int phaseIndex,
			String phaseName, int t, long timeMs, Direction read, Direction write, Long effectiveQueueDepthMilli,
			Integer round, Integer step) {
		this(schemaVersion, jobId, runnerId, deviceSerial, phaseIndex, phaseName, t, timeMs, read, write,
				effectiveQueueDepthMilli, round, step, null, null);
	}

	/** A sample of a phase without rounds. */
	SampleMessage(int schemaVersion, String jobId, String runnerId, String deviceSerial, int phaseIndex,
			String phaseName, int t, long timeMs, Direction read, Direction write, Long effectiveQueueDepthMilli) {
		this(schemaVersion, jobId, runnerId, deviceSerial, phaseIndex, phaseName, t, timeMs, read, write,
				effectiveQueueDepthMilli, null, null);
	}

	record Direction(long ios, long bytes, LatencyNs latencyNs) {
	}

	record LatencyNs(long p50, long p99, long p999, long max) {
	}

	/**
	 * One stream's second: offeredIos only for an open loop; responseLatencyNs (intended
	 * issue to completion) only for an open loop's directions with IOs.
	 */
	record StreamSecond(int index, Long offeredIos, StreamDirection read, StreamDirection write, StreamDirection trim) {
	}

	record StreamDirection(long ios, long bytes, LatencyNs latencyNs, LatencyNs responseLatencyNs) {
	}

	/** Unique per (job, phase, second): a redelivered sample overwrites itself. */
	String documentId() {
		return this.jobId + "/" + this.phaseIndex + "/" + this.t;
	}

}
