/*
 * One capability of a drive as its runner probed it (schemas/messages/common.schema.json
 * #/$defs/capabilities): a purge method, SMART, the OCP C0h log, temperature thresholds, the
 * volatile write cache, FDP; available, or missing with why. What a plan needs is checked against
 * these at submission.
 */
package io.drivequal.service.runners;

import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * @param name the contract's capability name (format-user-data, smart, ocp-smart-c0h,
 * ...)
 * @param missing why not, when not available: device-lacks-it, runner-lacks-sys-admin,
 * engine-cannot, runner-policy, probe-failed
 * @param enabled volatile-write-cache and fdp: their setting, when the runner read it
 * @param detail what the probe found, in words
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Capability(String name, boolean available, String missing, Boolean enabled, String detail) {

	/** The capability called {@code name} in a drive's list; empty when not listed. */
	public static Optional<Capability> find(List<Capability> capabilities, String name) {
		if (capabilities == null) {
			return Optional.empty();
		}
		return capabilities.stream().filter((capability) -> capability.name().equals(name)).findFirst();
	}

	/**
	 * What would provide a missing capability, for the operator or buyer who reads the
	 * refusal (docs/operations.md, "What the runner can do").
	 */
	public String remedy() {
		if (this.missing == null) {
			return null;
		}
		return switch (this.missing) {
			case "runner-lacks-sys-admin" ->
				"grant the runner CAP_SYS_ADMIN (Helm: runner.securityContext.capabilities."
						+ "add: [IPC_LOCK, SYS_ADMIN]) so it can send NVMe admin commands, or use the spdk engine";
			case "engine-cannot" ->
				"run the drive under an engine that reaches it (uring on an NVMe namespace, or spdk)";
			case "runner-policy" -> "qualify the drive on a controller with a single namespace";
			case "probe-failed" -> "check the drive and the runner's log: the probe failed (" + this.detail + ")";
			default -> "a drive that has it";
		};
	}

}
