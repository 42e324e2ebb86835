/*
 * A drive of the inventory (index drivequal-drives, id = serial), from the latest heartbeat that
 * named it.
 */
package io.drivequal.service.runners;

import java.time.Instant;

/**
 * @param allowlisted the runner's allowlist permits destructive work on it
 * @param state idle, busy or refused (an interlock would refuse a job)
 * @param interlock why a job would be refused, when it would
 */
public record Drive(String serial, String model, String firmware, long capacityBytes, int lbaSizeBytes, String engine,
		String transportAddress, String runnerId, boolean allowlisted, String state, String interlock,
		Instant lastSeenAt) {
}
