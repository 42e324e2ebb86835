// Entry point for a phase's rounds on their own (reports and charts), without running the steady-state detector.
package io.drivequal.analysis;

import java.util.List;

/** Splits a phase's per-second IOPS into rounds (docs/methodology.md, "Rounds"). */
public final class Rounds {

	/** SNIA PTS's round length, and the catalog's. */
	public static final int DEFAULT_ROUND_LENGTH_S = 60;

	private Rounds() {
	}

	/**
	 * Rounds 0..ceil(lastT / L) - 1, each with its seconds present, whether it counts
	 * (&gt;= 90% of L seconds), its mean IOPS and whether it is eligible (after the fresh
	 * state's end, {@link FreshState}).
	 * @param iops per-second IOPS of one phase
	 * @param randomWriteBytes per-second random-write bytes of the phase
	 * @param eligibility what makes a round eligible
	 * @param roundLengthS L, seconds
	 * @return the rounds in order; empty for an empty series
	 */
	public static List<Round> of(PerSecondSeries iops, PerSecondSeries randomWriteBytes, Eligibility eligibility,
			int roundLengthS) {
		RoundTable table = RoundTable.of(iops, randomWriteBytes, eligibility, roundLengthS);
		table.applyFreshState(FreshState.judge(table, table.size()));
		return table.toRounds();
	}

}
