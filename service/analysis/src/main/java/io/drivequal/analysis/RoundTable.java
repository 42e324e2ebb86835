// Rounds in parallel primitive arrays: one pass over the seconds, then the detector works on sums and counts only.
package io.drivequal.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Sums, second counts, random-write bytes and eligibility of every round of a series;
 * package-private working form of {@link Round}.
 */
final class RoundTable {

	final int roundLengthS;

	final long[] sumIops;

	final int[] secondsPresent;

	final boolean[] counted;

	final long[] randomWriteBytes;

	final long[] randomWriteBytesAtStart;

	/** Whether the written-bytes fallback alone would make the round eligible. */
	final boolean[] eligibleByBytes;

	/** Set by {@link #applyFreshState}: round index &gt;= the first eligible round. */
	final boolean[] eligible;

	/** The drive's media bytes written in each round; -1 where unknown. */
	final long[] mediaBytes;

	/**
	 * The drive's host bytes written in each round by its own counter; -1 where unknown.
	 */
	final long[] hostBytes;

	final Eligibility eligibility;

	/** The drive's raw NAND capacity, when stated. */
	java.util.OptionalLong rawNandBytes = java.util.OptionalLong.empty();

	private RoundTable(int roundLengthS, int roundCount, Eligibility eligibility) {
		this.roundLengthS = roundLengthS;
		this.sumIops = new long[roundCount];
		this.secondsPresent = new int[roundCount];
		this.counted = new boolean[roundCount];
		this.randomWriteBytes = new long[roundCount];
		this.randomWriteBytesAtStart = new long[roundCount];
		this.eligibleByBytes = new boolean[roundCount];
		this.eligible = new boolean[roundCount];
		this.mediaBytes = new long[roundCount];
		this.hostBytes = new long[roundCount];
		java.util.Arrays.fill(this.mediaBytes, -1);
		java.util.Arrays.fill(this.hostBytes, -1);
		this.eligibility = eligibility;
	}

	/**
	 * Rounds 0..ceil(lastT / L) - 1 of the series.
	 * @param iops per-second IOPS
	 * @param randomWriteBytes per-second random-write bytes of the same phase (seconds
	 * after the last IOPS second are ignored)
	 * @param eligibility what makes a round eligible
	 * @param roundLengthS L, seconds
	 * @return the table
	 */
	static RoundTable of(PerSecondSeries iops, PerSecondSeries randomWriteBytes, Eligibility eligibility,
			int roundLengthS) {
		return of(iops, randomWriteBytes, MediaWrites.none(), eligibility, roundLengthS);
	}

	/**
	 * Rounds 0..ceil(lastT / L) - 1 of the series, with the drive's own write counters.
	 * @param iops per-second IOPS
	 * @param randomWriteBytes per-second random-write bytes of the same phase
	 * @param media the drive's media and host write counters read during the phase
	 * @param eligibility what is known of the phase's history
	 * @param roundLengthS L, seconds
	 * @return the table
	 */
	static RoundTable of(PerSecondSeries iops, PerSecondSeries randomWriteBytes, MediaWrites media,
			Eligibility eligibility, int roundLengthS) {
		checkLength(roundLengthS);
		long roundCount = (iops.lastT() + roundLengthS - 1) / roundLengthS;
		if (roundCount > Integer.MAX_VALUE) {
			throw new IllegalArgumentException("too many rounds: " + roundCount);
		}
		RoundTable table = new RoundTable(roundLengthS, (int) roundCount, eligibility);
		long[] t = iops.rawT();
		long[] values = iops.rawValues();
		for (int i = 0; i < t.length; i++) {
			// t is an interval END: round r holds r*L < t <= (r+1)*L, so t = L is still
			// round 0.
			int round = (int) ((t[i] - 1) / roundLengthS);
			table.sumIops[round] = Math.addExact(table.sumIops[round], values[i]);
			table.secondsPresent[round]++;
		}
		long[] writeT = randomWriteBytes.rawT();
		long[] bytes = randomWriteBytes.rawValues();
		for (int i = 0; i < writeT.length; i++) {
			int round = (int) ((writeT[i] - 1) / roundLengthS);
			if (round < table.size()) {
				table.randomWriteBytes[round] = Math.addExact(table.randomWriteBytes[round], bytes[i]);
			}
		}
		long[][] counters = media.perRound(roundLengthS, table.size());
		System.arraycopy(counters[0], 0, table.mediaBytes, 0, table.size());
		System.arraycopy(counters[1], 0, table.hostBytes, 0, table.size());
		table.rawNandBytes = media.rawNandBytes();
		table.complete();
		return table;
	}

	/**
	 * A table from round totals, as the shared example vectors give them.
	 * @param roundLengthS L
	 * @param sumIops each round's IOPS sum
	 * @param secondsPresent each round's seconds present
	 * @param randomWriteBytes each round's random-write bytes
	 * @param eligibility what makes a round eligible
	 * @return the table
	 */
	static RoundTable ofRounds(int roundLengthS, long[] sumIops, int[] secondsPresent, long[] randomWriteBytes,
			Eligibility eligibility) {
		return ofRounds(roundLengthS, sumIops, secondsPresent, randomWriteBytes, null, null, eligibility);
	}

	/**
	 * A table from round totals with the drive's per-round media and host bytes (null
	 * arrays, or -1 entries, where unknown).
	 * @param roundLengthS L
	 * @param sumIops each round's IOPS sum
	 * @param secondsPresent each round's seconds present
	 * @param randomWriteBytes each round's random-write bytes
	 * @param mediaBytes each round's media bytes written, or null
	 * @param hostBytes each round's host bytes written by the drive's counter, or null
	 * @param eligibility what is known of the phase's history
	 * @return the table
	 */
	static RoundTable ofRounds(int roundLengthS, long[] sumIops, int[] secondsPresent, long[] randomWriteBytes,
			long[] mediaBytes, long[] hostBytes, Eligibility eligibility) {
		checkLength(roundLengthS);
		if (sumIops.length != secondsPresent.length || sumIops.length != randomWriteBytes.length) {
			throw new IllegalArgumentException("sumIops, secondsPresent and randomWriteBytes must be parallel");
		}
		RoundTable table = new RoundTable(roundLengthS, sumIops.length, eligibility);
		for (int round = 0; round < sumIops.length; round++) {
			if (secondsPresent[round] < 0 || secondsPresent[round] > roundLengthS || sumIops[round] < 0
					|| randomWriteBytes[round] < 0 || (secondsPresent[round] == 0 && sumIops[round] != 0)) {
				throw new IllegalArgumentException(
						"round " + round + " is impossible: " + sumIops[round] + " IOs in " + secondsPresent[round]
								+ " of " + roundLengthS + " s, " + randomWriteBytes[round] + " bytes written");
			}
			table.sumIops[round] = sumIops[round];
			table.secondsPresent[round] = secondsPresent[round];
			table.randomWriteBytes[round] = randomWriteBytes[round];
			if (mediaBytes != null && hostBytes != null) {
				table.mediaBytes[round] = mediaBytes[round];
				table.hostBytes[round] = hostBytes[round];
			}
		}
		table.complete();
		return table;
	}

	private static void checkLength(int roundLengthS) {
		if (roundLengthS < 1) {
			throw new IllegalArgumentException("roundLengthS = " + roundLengthS + ": a round is at least 1 s");
		}
	}

	private void complete() {
		long written = this.eligibility.randomWriteBytesBefore();
		for (int round = 0; round < size(); round++) {
			// >= 90% of L, in integers so that 54 of 60 counts exactly.
			this.counted[round] = 10L * this.secondsPresent[round] >= 9L * this.roundLengthS;
			this.randomWriteBytesAtStart[round] = written;
			this.eligibleByBytes[round] = this.eligibility.eligibleAt(written);
			written = Math.addExact(written, this.randomWriteBytes[round]);
		}
	}

	/** Marks the rounds from the fresh state's end on as eligible. */
	void applyFreshState(FreshState fresh) {
		for (int round = 0; round < size(); round++) {
			this.eligible[round] = fresh.firstEligibleRound().isPresent()
					&& round >= fresh.firstEligibleRound().getAsInt();
		}
	}

	boolean eligibleByBytes(int round) {
		return this.eligibleByBytes[round];
	}

	/**
	 * Whether the media and host bytes of every counted round 0..limit-1 are known, and
	 * at least one round counts (a trailing part-round past the last reading does not
	 * count anyway).
	 */
	boolean mediaKnown(int limit) {
		boolean any = false;
		for (int round = 0; round < limit; round++) {
			if (this.counted[round] && (this.mediaBytes[round] < 0 || this.hostBytes[round] < 0)) {
				return false;
			}
			any |= this.counted[round];
		}
		return any;
	}

	/** The round's write amplification by the drive's counters; empty when unknown. */
	OptionalDouble waf(int round) {
		return (this.mediaBytes[round] >= 0 && this.hostBytes[round] > 0)
				? OptionalDouble.of((double) this.mediaBytes[round] / this.hostBytes[round]) : OptionalDouble.empty();
	}

	int size() {
		return this.sumIops.length;
	}

	double meanIops(int round) {
		return (double) this.sumIops[round] / this.secondsPresent[round];
	}

	List<Round> toRounds() {
		List<Round> rounds = new ArrayList<>(size());
		for (int round = 0; round < size(); round++) {
			OptionalDouble mean = (this.secondsPresent[round] == 0) ? OptionalDouble.empty()
					: OptionalDouble.of(meanIops(round));
			OptionalDouble rangeWrites = this.eligibility.applies()
					? this.eligibility.rangeWrites(this.randomWriteBytesAtStart[round]) : OptionalDouble.empty();
			rounds.add(new Round(round, (long) round * this.roundLengthS, (long) (round + 1) * this.roundLengthS,
					this.secondsPresent[round], this.counted[round], this.sumIops[round], mean,
					this.randomWriteBytes[round], this.randomWriteBytesAtStart[round], rangeWrites,
					this.eligible[round], waf(round)));
		}
		return List.copyOf(rounds);
	}

	/**
	 * The least-squares line of the given rounds' means against their index.
	 * @param indices rounds, at least two
	 * @return {slope per round, mean of the means}
	 */
	double[] line(List<Integer> indices) {
		double meanX = 0;
		double meanY = 0;
		for (int round : indices) {
			meanX += round;
			meanY += meanIops(round);
		}
		meanX /= indices.size();
		meanY /= indices.size();
		double sxy = 0;
		double sxx = 0;
		for (int round : indices) {
			sxy += (round - meanX) * (meanIops(round) - meanY);
			sxx += (round - meanX) * (round - meanX);
		}
		return new double[] { sxy / sxx, meanY };
	}

}
