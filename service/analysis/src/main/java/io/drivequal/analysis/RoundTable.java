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

	final boolean[] eligible;

	final Eligibility eligibility;

	private RoundTable(int roundLengthS, int roundCount, Eligibility eligibility) {
		this.roundLengthS = roundLengthS;
		this.sumIops = new long[roundCount];
		this.secondsPresent = new int[roundCount];
		this.counted = new boolean[roundCount];
		this.randomWriteBytes = new long[roundCount];
		this.randomWriteBytesAtStart = new long[roundCount];
		this.eligible = new boolean[roundCount];
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
			this.eligible[round] = this.eligibility.eligibleAt(written);
			written = Math.addExact(written, this.randomWriteBytes[round]);
		}
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
					this.eligible[round]));
		}
		return List.copyOf(rounds);
	}

}
