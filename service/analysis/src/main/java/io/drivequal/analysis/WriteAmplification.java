// Write amplification factor from two SMART snapshots; "unknown" with its reason whenever it cannot be measured.
package io.drivequal.analysis;

import java.util.OptionalLong;

/**
 * WAF = Δ OCP physicalMediaUnitsWrittenBytes / (Δ SMART dataUnitsWritten x 512,000)
 * between a snapshot before and one after (docs/methodology.md, "waf").
 */
public final class WriteAmplification {

	private WriteAmplification() {
	}

	/**
	 * WAF between two snapshots.
	 * @param before snapshot before the phase
	 * @param after snapshot after the phase
	 * @return the WAF with the deltas, or unknown with the reason (a snapshot unavailable
	 * or without the OCP block, no host writes, a counter that went backwards)
	 */
	public static WafResult between(SmartCounters before, SmartCounters after) {
		String missing = missing(before, "before");
		if (missing == null) {
			missing = missing(after, "after");
		}
		if (missing != null) {
			return WafResult.unknown(missing);
		}
		long hostUnits = after.dataUnitsWritten().getAsLong() - before.dataUnitsWritten().getAsLong();
		long mediaBytes = after.ocp().get().physicalMediaUnitsWrittenBytes()
				- before.ocp().get().physicalMediaUnitsWrittenBytes();
		if (hostUnits < 0 || mediaBytes < 0) {
			return WafResult.unknown("a write counter went backwards between the snapshots (host data units "
					+ hostUnits + ", media bytes " + mediaBytes + ")");
		}
		if (hostUnits == 0) {
			return WafResult.unknown("the host wrote no data unit between the snapshots");
		}
		double hostBytes = hostUnits * (double) SmartCounters.BYTES_PER_DATA_UNIT;
		OptionalLong exactHostBytes = (hostUnits <= Long.MAX_VALUE / SmartCounters.BYTES_PER_DATA_UNIT)
				? OptionalLong.of(hostUnits * SmartCounters.BYTES_PER_DATA_UNIT) : OptionalLong.empty();
		return new WafResult(Measure.known(mediaBytes / hostBytes), exactHostBytes, OptionalLong.of(mediaBytes));
	}

	private static String missing(SmartCounters snapshot, String which) {
		if (!snapshot.available()) {
			return "the SMART snapshot " + which + " is unavailable: " + snapshot.reason().orElse("no reason given");
		}
		if (snapshot.dataUnitsWritten().isEmpty()) {
			return "the SMART snapshot " + which + " has no Data Units Written";
		}
		if (snapshot.ocp().isEmpty()) {
			return "the SMART snapshot " + which
					+ " has no OCP C0h log (physical media units written), so WAF cannot be measured";
		}
		return null;
	}

	/**
	 * WAF with the two deltas it comes from.
	 *
	 * @param waf media bytes / host bytes, or unknown with the reason
	 * @param hostBytesWritten Δ dataUnitsWritten x 512,000
	 * @param mediaBytesWritten Δ physicalMediaUnitsWrittenBytes
	 */
	public record WafResult(Measure waf, OptionalLong hostBytesWritten, OptionalLong mediaBytesWritten) {

		static WafResult unknown(String reason) {
			return new WafResult(Measure.unknown(reason), OptionalLong.empty(), OptionalLong.empty());
		}

	}

}
