// The steady-state verdict of one phase with the evidence (window figures and every round) a buyer can check by hand.
package io.drivequal.analysis;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * Result of the SNIA steady-state detector over one phase.
 *
 * @param reached whether a window held
 * @param roundLengthS L
 * @param maxRounds the round limit the detector stopped at, if any (PTS: 25)
 * @param window when reached, the first window that held; otherwise the last window that
 * could be evaluated (5 consecutive counted rounds); empty when no window could be
 * evaluated
 * @param windowsEvaluated how many windows were checked
 * @param rounds every round of the phase, counted or not
 */
public record SteadyStateResult(boolean reached, int roundLengthS, OptionalInt maxRounds,
		Optional<SteadyStateWindow> window, int windowsEvaluated, List<Round> rounds) {

	public SteadyStateResult {
		rounds = List.copyOf(rounds);
		if (reached && window.isEmpty()) {
			throw new IllegalArgumentException("a reached steady state needs its window");
		}
	}

	/**
	 * The steady-state IOPS: the window's average round mean.
	 * @return avg of the window when reached, else empty
	 */
	public OptionalDouble steadyStateIops() {
		return this.reached ? OptionalDouble.of(this.window.get().avgIops()) : OptionalDouble.empty();
	}

}
