/*
 * A runner heartbeat as it arrives (schemas/messages/runner-heartbeat.schema.json).
 */
package io.drivequal.service.runners;

import java.util.List;

record HeartbeatMessage(int schemaVersion, String runnerId, String time, int intervalMs, String runnerVersion,
		String hostname, List<String> engines, List<DeviceEntry> devices, List<ActiveJob> activeJobs) {

	/**
	 * @param capabilities what the runner probed; null from runners older than the field
	 */
	record DeviceEntry(Device device, boolean allowlisted, String state, String interlock,
			List<Capability> capabilities) {
	}

	record Device(String serial, String model, String firmware, long capacityBytes, int lbaSizeBytes, String engine,
			String transportAddress) {
	}

	record ActiveJob(String jobId, String deviceSerial, int phaseIndex) {
	}

}
