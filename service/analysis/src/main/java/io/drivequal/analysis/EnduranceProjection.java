// Projected endurance (TBW, DWPD) with where the TBW came from, so a report never mixes a datasheet figure with a measurement silently.
package io.drivequal.analysis;

/**
 * Endurance projected from the measured WAF (or taken from the rated TBW).
 *
 * @param tbwBytes bytes the host can write over the drive's life
 * @param dwpd drive writes per day over the warranty
 * @param source how the TBW was obtained
 */
public record EnduranceProjection(Measure tbwBytes, Measure dwpd, TbwSource source) {

	/** Where the TBW comes from. */
	public enum TbwSource {

		/** rated P/E cycles x raw NAND bytes / measured WAF. */
		PROJECTED_FROM_PE_CYCLES,
		/** The vendor's rated TBW, as given. */
		RATED_TBW,
		/** Neither could be obtained. */
		UNKNOWN

	}

}
