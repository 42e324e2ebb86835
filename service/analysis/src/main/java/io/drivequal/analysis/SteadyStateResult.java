// The steady-state verdict of one phase with the evidence (both windows, every round, the eligibility rule's inputs) a buyer can check by hand.
package io.drivequal.analysis;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * Result of the SNIA steady-state detector over one phase, with two windows: the first
 * eligible window that holds ("reached at round x", where a run to steady state would
 * stop) and the last five rounds ("steady at end", what the steady-state figures and
 * criteria use).
 *
 * @param roundLengthS L
 * @param maxRounds the round limit the detector stopped at, if any (PTS: 25)
 * @param eligibility the inputs that made rounds eligible (W, tested range, earlier
 * random writes)
 * @param firstEligibleRound the first eligible round within the limit; empty if none
 * @param reached whether an eligible window held
 * @param window when reached, the first eligible window that held; otherwise the last
 * eligible window evaluated; empty when no window of five consecutive counted, eligible
 * rounds exists
 * @param windowsEvaluated how many eligible windows were checked
 * @param end the last five rounds
 * @param rounds every round of the phase, counted or not, eligible or not
 */
public record SteadyStateResult(int roundLengthS, OptionalInt maxRounds, Eligibility eligibility,
		OptionalInt firstEligibleRound, boolean reached, Optional<SteadyStateWindow> window, int windowsEvaluated,
		SteadyAtEnd end, List<Round> rounds) {

	public SteadyStateResult {
		rounds = List.copyOf(rounds);
		if (reached && window.isEmpty()) {
			throw new IllegalArgumentException("a reached steady state needs its window");
		}
	}

	/**
	 * The round at which steady state was reached.
	 * @return x of the first eligible window that held, or empty
	 */
	public OptionalInt reachedAtRound() {
		return this.reached ? OptionalInt.of(this.window.get().lastRoundIndex()) : OptionalInt.empty();
	}

	/**
	 * The steady-state IOPS: the average round mean of the last five rounds, when they
	 * hold. A phase that reached steady state earlier but is not steady at its end has
	 * none: the drive did not sustain it.
	 * @return avg of the end window when it holds, else empty
	 */
	public OptionalDouble steadyStateIops() {
		return this.end.avgIopsWhenHolding();
	}

	/**
	 * The window the steady-state figures (IOPS, consistency) are taken over.
	 * @return the end window when it holds, else empty
	 */
	public Optional<SteadyStateWindow> steadyStateWindow() {
		return this.end.holds() ? this.end.window() : Optional.empty();
	}

	/**
	 * Why there is no steady-state IOPS, for a report or an INCONCLUSIVE criterion.
	 * @return e.g. "not steady at the end of the phase: rounds 28–32 are not eligible:
	 * ..."; empty when the end window holds
	 */
	public Optional<String> notSteadyReason() {
		return this.end.holds() ? Optional.empty()
				: Optional.of("not steady at the end of the phase: " + this.end.reason());
	}

}
