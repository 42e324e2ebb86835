// Projected endurance (TBW, DWPD) with where the TBW came from, so a report never mixes a datasheet figure with a measurement silently.
package io.drivequal.analysis;

/**
 * Endurance projected from the measured WAF (or taken from the rated TBW).
 *
 * @param tbwBytes bytes the host can write over the drive's life
 * @param dwpd drive writes per day over the warranty
 * @param source how the TBW was obtained
 * @param projectionGap why the TBW could not be projected from the measurement (null when
 * it was)
 */
public record EnduranceProjection(Measure tbwBytes, Measure dwpd, TbwSource source, String projectionGap) {

	/**
	 * The TBW as a figure about the measured drive: the projection when there is one;
	 * unknown otherwise, so that a datasheet's rated TBW never satisfies a criterion.
	 * @return the measured-drive TBW
	 */
	public Measure measuredTbwBytes() {
		return measuredOnly(this.tbwBytes);
	}

	/**
	 * The DWPD as a figure about the measured drive (see {@link #measuredTbwBytes()}).
	 * @return the measured-drive DWPD
	 */
	public Measure measuredDwpd() {
		return measuredOnly(this.dwpd);
	}

	private Measure measuredOnly(Measure figure) {
		if (this.source != TbwSource.RATED_TBW) {
			return figure;
		}
		return Measure.unknown("not measured: " + this.projectionGap
				+ "; the vendor's rated TBW is the datasheet's figure, not this drive's");
	}

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
