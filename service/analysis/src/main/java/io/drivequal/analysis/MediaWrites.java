// The drive's own write counters read during a phase: what turns "garbage collection has started" and "the write amplification has stopped moving" into measurements.
package io.drivequal.analysis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The drive's cumulative media writes (OCP C0h physical media units written, in bytes)
 * and host writes (SMART data units written × 512,000, or an exact host byte count) as
 * read at instants of a phase. Per round, both counters are interpolated linearly at the
 * round's boundaries; a boundary no reading reaches is unknown, never extrapolated (a
 * reading up to {@link #EDGE_TOLERANCE_S} outside the phase's readings stands for the
 * boundary, since the runner polls at the phase's start and end).
 *
 * @param readings the readings, in any order; counters never decrease in time
 * @param rawNandBytes the drive's raw NAND capacity when its spec states it: with the
 * tested range, its spare area, from which the level a still-converging drive heads for
 * is projected ({@link SteadyStateTrend})
 */
public record MediaWrites(List<Reading> readings, java.util.OptionalLong rawNandBytes) {

	/** How far a boundary may lie outside the first or last reading. */
	public static final double EDGE_TOLERANCE_S = 2.0;

	/** One reading of both counters, {@code elapsedS} into the phase. */
	public record Reading(double elapsedS, long mediaBytes, long hostBytes) {

		public Reading {
			if (!Double.isFinite(elapsedS) || mediaBytes < 0 || hostBytes < 0) {
				throw new IllegalArgumentException("a reading needs a finite time and counters >= 0");
			}
		}

	}

	/** Readings without a stated raw NAND capacity. */
	public MediaWrites(List<Reading> readings) {
		this(readings, java.util.OptionalLong.empty());
	}

	public MediaWrites {
		List<Reading> sorted = new ArrayList<>(readings);
		sorted.sort(Comparator.comparingDouble(Reading::elapsedS));
		readings = List.copyOf(sorted);
	}

	/** No counter: the drive reports none (no OCP C0h log), or no reading arrived. */
	public static MediaWrites none() {
		return new MediaWrites(List.of());
	}

	/**
	 * Per-round media and host bytes.
	 * @param roundLengthS L
	 * @param rounds how many rounds
	 * @return [0] media bytes, [1] host bytes of each round; -1 where unknown
	 */
	long[][] perRound(int roundLengthS, int rounds) {
		long[][] out = new long[2][rounds];
		double[] media = new double[rounds + 1];
		double[] host = new double[rounds + 1];
		boolean[] known = new boolean[rounds + 1];
		for (int boundary = 0; boundary <= rounds; boundary++) {
			double[] at = at((double) boundary * roundLengthS);
			known[boundary] = at != null;
			if (at != null) {
				media[boundary] = at[0];
				host[boundary] = at[1];
			}
		}
		for (int round = 0; round < rounds; round++) {
			boolean both = known[round] && known[round + 1];
			out[0][round] = both ? Math.max(0, Math.round(media[round + 1] - media[round])) : -1;
			out[1][round] = both ? Math.max(0, Math.round(host[round + 1] - host[round])) : -1;
		}
		return out;
	}

	/** Both counters at {@code timeS}, or null when no reading reaches it. */
	private double[] at(double timeS) {
		if (this.readings.isEmpty()) {
			return null;
		}
		Reading first = this.readings.get(0);
		Reading last = this.readings.get(this.readings.size() - 1);
		if (timeS <= first.elapsedS()) {
			return (first.elapsedS() - timeS <= EDGE_TOLERANCE_S)
					? new double[] { first.mediaBytes(), first.hostBytes() } : null;
		}
		if (timeS >= last.elapsedS()) {
			return (timeS - last.elapsedS() <= EDGE_TOLERANCE_S) ? new double[] { last.mediaBytes(), last.hostBytes() }
					: null;
		}
		for (int i = 1; i < this.readings.size(); i++) {
			Reading after = this.readings.get(i);
			if (after.elapsedS() >= timeS) {
				Reading before = this.readings.get(i - 1);
				double span = after.elapsedS() - before.elapsedS();
				double share = (span > 0) ? (timeS - before.elapsedS()) / span : 1;
				return new double[] { before.mediaBytes() + share * (after.mediaBytes() - before.mediaBytes()),
						before.hostBytes() + share * (after.hostBytes() - before.hostBytes()) };
			}
		}
		return null;
	}

}
