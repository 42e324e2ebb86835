/*
 * A per-second sample as the runner sends it (schemas/messages/sample.schema.json).
 * effectiveQueueDepthMilli is null from runners that do not measure it (saved runs, imports); round
 * and step are null outside phases with adaptive rounds.
 */
package io.drivequal.service.ingest;

record SampleMessage(int schemaVersion, String jobId, String runnerId, String deviceSerial, int phaseIndex,
		String phaseName, int t, long timeMs, Direction read, Direction write, Long effectiveQueueDepthMilli,
		Integer round, Integer step) {

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

	/** Unique per (job, phase, second): a redelivered sample overwrites itself. */
	String documentId() {
		return this.jobId + "/" + this.phaseIndex + "/" + this.t;
	}

}
