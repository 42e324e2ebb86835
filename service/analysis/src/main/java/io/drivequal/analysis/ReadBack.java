// What the runner's read-backs prove, as measures a buyer's criteria can name: a purge's proof and a data verify.
package io.drivequal.analysis;

/**
 * The two read-back results of a job. A purge proof that could not read anything back,
 * and a verify that had nothing to check, are unknown with the reason, never a pass.
 */
public final class ReadBack {

	private ReadBack() {
	}

	/**
	 * purgeVerified: 1 when no block written before the purge read back after it, 0 when
	 * some did.
	 * @param status the runner's purgeVerification status: verified, failed or
	 * unverifiable
	 * @param blocksFound blocks still carrying pre-purge data
	 * @param reason why nothing could be read back (unverifiable only)
	 * @return the measure
	 */
	public static Measure purgeVerified(String status, long blocksFound, String reason) {
		return switch (status) {
			case "verified" -> Measure.known(1);
			case "failed" -> Measure.known(0);
			case "unverifiable" -> Measure.unknown("the purge could not be verified: " + reason);
			default -> throw new IllegalArgumentException(
					"unknown purge verification status " + status + " (" + blocksFound + " blocks found)");
		};
	}

	/**
	 * verifyMismatches: blocks that did not read back as the job wrote them.
	 * @param blocksChecked blocks compared with what was written
	 * @param mismatches blocks that differed
	 * @return the count, or unknown when nothing was checked
	 */
	public static Measure verifyMismatches(long blocksChecked, long mismatches) {
		if (blocksChecked == 0) {
			return Measure.unknown("nothing was verified: the range held no block this job wrote");
		}
		return Measure.known(mismatches);
	}

	/**
	 * powerLossFailedCycles: power cycles that lost a promised block or found a corrupt
	 * one.
	 * @param cycles cycles the phase ran
	 * @param failed cycles that failed
	 * @return the count, or unknown when no cycle ran
	 */
	public static Measure powerLossFailedCycles(long cycles, long failed) {
		if (cycles == 0) {
			return Measure.unknown("no power cycle ran");
		}
		return Measure.known(failed);
	}

	/**
	 * powerLossLostDurableBlocks: blocks lost although promised, over every cycle.
	 * @param cycles cycles the phase ran
	 * @param lostDurable blocks lost although acknowledged-durable
	 * @return the count, or unknown when no cycle ran
	 */
	public static Measure powerLossLostDurableBlocks(long cycles, long lostDurable) {
		if (cycles == 0) {
			return Measure.unknown("no power cycle ran");
		}
		return Measure.known(lostDurable);
	}

}
