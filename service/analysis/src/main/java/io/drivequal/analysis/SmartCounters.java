// The endurance counters of a smart-snapshot event (common.schema.json "smartSnapshot") that WAF needs.
package io.drivequal.analysis;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * A SMART/Health (02h) snapshot with the OCP C0h block when the drive has it.
 *
 * @param available whether the runner could read the log
 * @param reason why not, when unavailable
 * @param dataUnitsWritten thousands of 512-byte units written by the host (x 512,000
 * bytes)
 * @param ocp the OCP extended SMART counters; empty when the drive has no C0h log
 */
public record SmartCounters(boolean available, Optional<String> reason, OptionalLong dataUnitsWritten,
		Optional<OcpCounters> ocp) {

	/** Bytes per SMART data unit: 1000 x 512. */
	public static final long BYTES_PER_DATA_UNIT = 512_000L;

	public static SmartCounters unavailable(String reason) {
		return new SmartCounters(false, Optional.of(reason), OptionalLong.empty(), Optional.empty());
	}

	public static SmartCounters withoutOcp(long dataUnitsWritten) {
		return new SmartCounters(true, Optional.empty(), OptionalLong.of(dataUnitsWritten), Optional.empty());
	}

	public static SmartCounters withOcp(long dataUnitsWritten, long physicalMediaUnitsWrittenBytes) {
		return new SmartCounters(true, Optional.empty(), OptionalLong.of(dataUnitsWritten),
				Optional.of(new OcpCounters(physicalMediaUnitsWrittenBytes)));
	}

	/**
	 * OCP Datacenter NVMe SSD extended SMART log (C0h).
	 *
	 * @param physicalMediaUnitsWrittenBytes bytes written to the NAND
	 */
	public record OcpCounters(long physicalMediaUnitsWrittenBytes) {

	}

}
