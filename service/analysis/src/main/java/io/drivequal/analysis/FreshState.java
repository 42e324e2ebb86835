// Where a phase's fresh-out-of-box state ended, judged from the strongest evidence the run has, and which evidence that was.
package io.drivequal.analysis;

import java.util.Locale;
import java.util.OptionalInt;

/**
 * The first round that may be part of a steady-state window, and the evidence that
 * decided it. In order of strength:
 * <ol>
 * <li>{@link Evidence#MEDIA_WRITES}: the drive's own media-write counter. A round whose
 * media writes reach 1.10 × its host writes shows garbage collection; the fresh state is
 * over after it. No such round: the drive is still fresh.</li>
 * <li>{@link Evidence#IOPS_CLIFF}: the IOPS record. The first counted round whose mean
 * falls below 0.8 × the best earlier counted round is the cliff at the end of the
 * plateau; the fresh state is over after it.</li>
 * <li>{@link Evidence#WRITTEN_BYTES}: with neither, W × the tested range of random writes
 * ({@link Eligibility#eligibleAt}).</li>
 * </ol>
 * A phase that does not write ({@link Evidence#READ_ONLY}) and a log with no purge or
 * fill before it ({@link Evidence#NO_RESET}) have every round eligible.
 *
 * @param evidence what decided
 * @param firstEligibleRound the first eligible round; empty when no round is
 * @param statement one sentence for the report, e.g. "garbage-collection writes show in
 * round 7 (WAF 1.22): the fresh state ended at t = 480 s"
 */
public record FreshState(Evidence evidence, OptionalInt firstEligibleRound, String statement) {

	/**
	 * Media writes at or above 1.10 × the host writes of a round show garbage collection.
	 */
	static final long GC_WAF_NUMERATOR = 11;

	static final long GC_WAF_DENOMINATOR = 10;

	/**
	 * What decided where the fresh state ended; wire names as the shared vectors use
	 * them.
	 */
	public enum Evidence {

		READ_ONLY("read-only"), NO_RESET("no-reset"), MEDIA_WRITES("media-writes"), IOPS_CLIFF("iops-cliff"),
		WRITTEN_BYTES("written-bytes");

		private final String wireName;

		Evidence(String wireName) {
			this.wireName = wireName;
		}

		/** The name the report, the phase results and the shared vectors use. */
		@com.fasterxml.jackson.annotation.JsonValue
		public String wireName() {
			return this.wireName;
		}

		/**
		 * Whether the level must also hold over the horizon: after a purge or fill the
		 * approach to steady state can be slow (methodology 3.2); a read-only phase or a
		 * log of unknown history is judged by SNIA's published window alone.
		 */
		public boolean needsHorizon() {
			return this != READ_ONLY && this != NO_RESET;
		}

	}

	/**
	 * Judges the rounds 0..limit-1 of a table.
	 * @param rounds the table (means, counted, media and host bytes, random writes at
	 * start)
	 * @param limit rounds considered
	 * @return the fresh state's end
	 */
	static FreshState judge(RoundTable rounds, int limit) {
		Eligibility eligibility = rounds.eligibility;
		if (!eligibility.applies()) {
			return new FreshState(Evidence.READ_ONLY, OptionalInt.of(0),
					"the phase only reads, so every round is eligible");
		}
		if (eligibility.history() == Eligibility.History.UNKNOWN) {
			return new FreshState(Evidence.NO_RESET, OptionalInt.of(0),
					"fresh-state check not applicable: the log does not start from a purge or fill; SNIA's published rules apply");
		}
		if (limit > 0 && rounds.mediaKnown(limit)) {
			for (int round = 0; round < limit; round++) {
				long host = rounds.hostBytes[round];
				if (host > 0 && GC_WAF_DENOMINATOR * rounds.mediaBytes[round] >= GC_WAF_NUMERATOR * host) {
					return new FreshState(Evidence.MEDIA_WRITES, OptionalInt.of(round + 1), String.format(Locale.ROOT,
							"garbage-collection writes show in round %d (WAF %.2f): the fresh state ended at t = %d s",
							round, (double) rounds.mediaBytes[round] / host, (long) (round + 1) * rounds.roundLengthS));
				}
			}
			return new FreshState(Evidence.MEDIA_WRITES, OptionalInt.empty(),
					"fresh: no garbage-collection writes yet (the drive's media writes stay below 1.10 × the host writes in every round)");
		}
		int best = -1;
		for (int round = 0; round < limit; round++) {
			if (!rounds.counted[round]) {
				continue;
			}
			if (best >= 0 && belowFourFifths(rounds, round, best)) {
				return new FreshState(Evidence.IOPS_CLIFF, OptionalInt.of(round + 1), String.format(Locale.ROOT,
						"the IOPS fell from the plateau in round %d (%.0f, below 0.8 × %.0f of round %d): the fresh state ended at t = %d s",
						round, rounds.meanIops(round), rounds.meanIops(best), best,
						(long) (round + 1) * rounds.roundLengthS));
			}
			if (best < 0 || rounds.meanIops(round) > rounds.meanIops(best)) {
				best = round;
			}
		}
		// Written bytes only grow, so the fallback's first round is searched over every
		// round;
		// the detector uses only those below the limit.
		for (int round = 0; round < rounds.size(); round++) {
			if (rounds.eligibleByBytes(round)) {
				return new FreshState(Evidence.WRITTEN_BYTES, OptionalInt.of(round), String.format(Locale.ROOT,
						"no cliff in the IOPS and no media-write counter: eligible once %s × the tested range was written at random, from round %d",
						number(eligibility.rangeWritesRequired()), round));
			}
		}
		String why = eligibility.testedRangeBytes().isEmpty()
				? "no cliff in the IOPS, no media-write counter, and the tested range is unknown"
				: "no cliff in the IOPS, no media-write counter, and fewer than "
						+ number(eligibility.rangeWritesRequired()) + " × the tested range written at random";
		return new FreshState(Evidence.WRITTEN_BYTES, OptionalInt.empty(), "fresh or unknown: " + why);
	}

	/** mean(round) &lt; 0.8 · mean(best), exactly: 5 · S_r · n_b &lt; 4 · S_b · n_r. */
	private static boolean belowFourFifths(RoundTable rounds, int round, int best) {
		java.math.BigInteger left = java.math.BigInteger.valueOf(rounds.sumIops[round])
			.multiply(java.math.BigInteger.valueOf(5L * rounds.secondsPresent[best]));
		java.math.BigInteger right = java.math.BigInteger.valueOf(rounds.sumIops[best])
			.multiply(java.math.BigInteger.valueOf(4L * rounds.secondsPresent[round]));
		return left.compareTo(right) < 0;
	}

	static String number(double value) {
		return (value == Math.rint(value)) ? String.format(Locale.ROOT, "%.1f", value) : Double.toString(value);
	}

}
