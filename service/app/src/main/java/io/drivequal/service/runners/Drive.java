/*
 * A drive of the inventory (index drivequal-drives, id = serial), from the latest heartbeat that
 * named it.
 */
package io.drivequal.service.runners;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * @param allowlisted the runner's allowlist permits destructive work on it
 * @param state idle, busy or refused (an interlock would refuse a job)
 * @param interlock why a job would be refused, when it would
 * @param capabilities what the runner probed the drive can do, each missing one with why;
 * null when its runner does not say (older runners): then nothing is checked at
 * submission
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "InventoryDrive", description = "A drive of the inventory as its runner's latest heartbeat reported it")
public record Drive(String serial, String model, String firmware, long capacityBytes, int lbaSizeBytes, String engine,
		String transportAddress, String runnerId, boolean allowlisted, String state, String interlock,
		Instant lastSeenAt, List<Capability> capabilities) {

	/** A drive whose runner does not report capabilities. */
	public Drive(String serial, String model, String firmware, long capacityBytes, int lbaSizeBytes, String engine,
			String transportAddress, String runnerId, boolean allowlisted, String state, String interlock,
			Instant lastSeenAt) {
		this(serial, model, firmware, capacityBytes, lbaSizeBytes, engine, transportAddress, runnerId, allowlisted,
				state, interlock, lastSeenAt, null);
	}

}
