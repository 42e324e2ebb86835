// Endurance projection (docs/methodology.md, "tbwBytes" and "dwpd"): TBW from P/E cycles and the measured WAF, then DWPD.
package io.drivequal.analysis;

import java.util.ArrayList;
import java.util.List;

/**
 * TBW = rated P/E cycles x raw NAND bytes / WAF; DWPD = TBW / (user capacity x 365 x
 * warranty years). When the P/E projection is not possible but a rated TBW is given, DWPD
 * comes from the rated TBW, labelled as the vendor's: it is shown, never judged. Inputs
 * not given stay unknown, with the reason.
 */
public final class Endurance {

	private static final int DAYS_PER_YEAR = 365;

	private Endurance() {
	}

	/**
	 * Projects TBW and DWPD.
	 * @param spec the drive's endurance inputs
	 * @param waf the measured WAF (or unknown)
	 * @return the projection; the P/E projection is preferred over the rated TBW
	 */
	public static EnduranceProjection project(EnduranceSpec spec, Measure waf) {
		Measure tbw;
		EnduranceProjection.TbwSource source;
		String projectionGap = projectionGap(spec, waf);
		if (projectionGap == null) {
			tbw = Measure.known(spec.ratedPeCycles().getAsLong() * (double) spec.rawNandBytes().getAsLong()
					/ waf.value().getAsDouble());
			source = EnduranceProjection.TbwSource.PROJECTED_FROM_PE_CYCLES;
		}
		else if (spec.ratedTbwBytes().isPresent()) {
			tbw = Measure.known(spec.ratedTbwBytes().getAsLong());
			source = EnduranceProjection.TbwSource.RATED_TBW;
		}
		else {
			tbw = Measure.unknown("TBW cannot be projected (" + projectionGap + ") and no rated TBW is given");
			source = EnduranceProjection.TbwSource.UNKNOWN;
		}
		return new EnduranceProjection(tbw, dwpd(spec, tbw), source, projectionGap);
	}

	private static String projectionGap(EnduranceSpec spec, Measure waf) {
		List<String> gaps = new ArrayList<>();
		if (spec.ratedPeCycles().isEmpty()) {
			gaps.add("rated P/E cycles not given");
		}
		if (spec.rawNandBytes().isEmpty()) {
			gaps.add("raw NAND bytes not given");
		}
		if (waf instanceof Measure.Unknown unknown) {
			gaps.add("WAF unknown: " + unknown.reason());
		}
		else if (!(waf.value().getAsDouble() > 0)) {
			gaps.add("WAF is " + waf.value().getAsDouble());
		}
		return gaps.isEmpty() ? null : String.join("; ", gaps);
	}

	private static Measure dwpd(EnduranceSpec spec, Measure tbw) {
		List<String> gaps = new ArrayList<>();
		if (tbw instanceof Measure.Unknown) {
			gaps.add("TBW unknown");
		}
		if (spec.userCapacityBytes().isEmpty()) {
			gaps.add("user capacity not given");
		}
		if (spec.warrantyYears().isEmpty()) {
			gaps.add("warranty years not given");
		}
		if (!gaps.isEmpty()) {
			return Measure.unknown("DWPD cannot be computed: " + String.join("; ", gaps));
		}
		double driveWrites = tbw.value().getAsDouble() / spec.userCapacityBytes().getAsLong();
		return Measure.known(driveWrites / (DAYS_PER_YEAR * spec.warrantyYears().getAsDouble()));
	}

}
