// How one IOPS phase is analysed; the profiles differ only in round length, round limit and fixed window.
package io.drivequal.analysis;

import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Options of {@link IopsPhaseAnalyzer}.
 *
 * @param roundLengthS L, seconds (60 by default)
 * @param maxRounds stop the steady-state detector after this many rounds (PTS: 25); empty
 * for no limit
 * @param fixedWindowFirstT first second (inclusive) of the fixed consistency window;
 * empty for none
 */
public record IopsPhaseOptions(int roundLengthS, OptionalInt maxRounds, OptionalLong fixedWindowFirstT) {

	public IopsPhaseOptions {
		if (roundLengthS < 1) {
			throw new IllegalArgumentException("roundLengthS = " + roundLengthS + ": a round is at least 1 s");
		}
		if (maxRounds.isPresent() && maxRounds.getAsInt() < 5) {
			throw new IllegalArgumentException("maxRounds = " + maxRounds.getAsInt() + ": a window needs 5 rounds");
		}
		if (fixedWindowFirstT.isPresent() && fixedWindowFirstT.getAsLong() < 1) {
			throw new IllegalArgumentException("fixedWindowFirstT = " + fixedWindowFirstT.getAsLong() + ": t >= 1");
		}
	}

	/**
	 * 60 s rounds, no round limit, no fixed window (steady-state-2h, idle-recovery).
	 * @return the options
	 */
	public static IopsPhaseOptions defaults() {
		return new IopsPhaseOptions(Rounds.DEFAULT_ROUND_LENGTH_S, OptionalInt.empty(), OptionalLong.empty());
	}

	/**
	 * 60 s rounds and the fixed window t &gt;= 1400 (consistency-2000s and its op25
	 * variant).
	 * @return the options
	 */
	public static IopsPhaseOptions consistency2000s() {
		return defaults().withFixedWindowFirstT(Consistency.FIXED_WINDOW_FIRST_T_2000S);
	}

	/**
	 * 60 s rounds stopping after 25 rounds, as SNIA PTS does.
	 * @return the options
	 */
	public static IopsPhaseOptions sniaPts() {
		return new IopsPhaseOptions(Rounds.DEFAULT_ROUND_LENGTH_S, OptionalInt.of(25), OptionalLong.empty());
	}

	public IopsPhaseOptions withFixedWindowFirstT(long firstT) {
		return new IopsPhaseOptions(this.roundLengthS, this.maxRounds, OptionalLong.of(firstT));
	}

	public IopsPhaseOptions withMaxRounds(int rounds) {
		return new IopsPhaseOptions(this.roundLengthS, OptionalInt.of(rounds), this.fixedWindowFirstT);
	}

	public IopsPhaseOptions withRoundLengthS(int lengthS) {
		return new IopsPhaseOptions(lengthS, this.maxRounds, this.fixedWindowFirstT);
	}

}
