// Rounds in parallel primitive arrays: one pass over the seconds, then the detector works on sums and counts only.
package io.drivequal.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Sums and second counts of every round of a series; package-private working form of
 * {@link Round}.
 */
final class RoundTable {

	final int roundLengthS;

	final long[] sumIops;

	final int[] secondsPresent;

	final boolean[] counted;

	private RoundTable(int roundLengthS, int roundCount) {
		this.roundLengthS = roundLengthS;
		this.sumIops = new long[roundCount];
		this.secondsPresent = new int[roundCount];
		this.counted = new boolean[roundCount];
	}

	/**
	 * Rounds 0..ceil(lastT / L) - 1 of the series.
	 * @param iops per-second IOPS
	 * @param roundLengthS L, seconds
	 * @return the table
	 */
	static RoundTable of(PerSecondSeries iops, int roundLengthS) {
		if (roundLengthS < 1) {
			throw new IllegalArgumentException("roundLengthS = " + roundLengthS + ": a round is at least 1 s");
		}
		long roundCount = (iops.lastT() + roundLengthS - 1) / roundLengthS;
		if (roundCount > Integer.MAX_VALUE) {
			throw new IllegalArgumentException("too many rounds: " + roundCount);
		}
		RoundTable table = new RoundTable(roundLengthS, (int) roundCount);
		long[] t = iops.rawT();
		long[] values = iops.rawValues();
		for (int i = 0; i < t.length; i++) {
			// t is an interval END: round r holds r*L < t <= (r+1)*L, so t = L is still
			// round 0.
			int round = (int) ((t[i] - 1) / roundLengthS);
			table.sumIops[round] = Math.addExact(table.sumIops[round], values[i]);
			table.secondsPresent[round]++;
		}
		for (int round = 0; round < table.counted.length; round++) {
			// >= 90% of L, in integers so that 54 of 60 counts exactly.
			table.counted[round] = 10L * table.secondsPresent[round] >= 9L * roundLengthS;
		}
		return table;
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
			rounds.add(new Round(round, (long) round * this.roundLengthS, (long) (round + 1) * this.roundLengthS,
					this.secondsPresent[round], this.counted[round], this.sumIops[round], mean));
		}
		return List.copyOf(rounds);
	}

}
