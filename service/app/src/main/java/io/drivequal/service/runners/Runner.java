/*
 * A runner of the fleet (index drivequal-runners, id = runnerId), from its latest heartbeat.
 */
package io.drivequal.service.runners;

import java.time.Instant;
import java.util.List;

public record Runner(String runnerId, String hostname, String runnerVersion, List<String> engines, int intervalMs,
		int deviceCount, List<String> activeJobIds, Instant lastHeartbeatAt) {
}
