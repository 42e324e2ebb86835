// The steady-state verdict of one phase with the evidence (both windows, every round, the eligibility rule's inputs) a buyer can check by hand.
package io.drivequal.analysis;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * Result of the SNIA steady-state detector over one phase, with two windows: the first
 * eligible window that holds ("reached at round x", where a run to steady state would
 * stop) and the last five rounds ("steady at end", what the steady-state figures and
 * criteria use).
 *
 * @param roundLengthS L
 * @param maxRounds the round limit the detector stopped at, if any (PTS: 25)
 * @param eligibility what is known of the phase's history (purge or fill, W of the
 * written-bytes fallback, tested range, earlier random writes)
 * @param freshState where the fresh state ended and which evidence decided it
 * @param firstEligibleRound the first eligible round within the limit; empty if none
 * @param reached whether an eligible window held
 * @param window when reached, the first eligible window that held; otherwise the last
 * eligible window evaluated; empty when no window of five consecutive counted, eligible
 * rounds exists
 * @param windowsEvaluated how many eligible windows were checked
 * @param end the last five rounds
 * @param rounds every round of the phase, counted or not, eligible or not
 * @param trend where the level is going at the end of the phase: drift per round, and a
 * projection when it is not steady
 */
public record SteadyStateResult(int roundLengthS, OptionalInt maxRounds, Eligibility eligibility, FreshState freshState,
		OptionalInt firstEligibleRound, boolean reached, Optional<SteadyStateWindow> window, int windowsEvaluated,
		SteadyAtEnd end, List<Round> rounds, SteadyStateTrend trend) {

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

	/**
	 * The answer in one line, as datacenter operations read it, e.g. "steady: yes, from t
	 * = 960 s at 43,520 IOPS (decided by media-writes)" or "steady: no: still rising 1.1
	 * % per round; projected ~170,000 ± 12,000 IOPS (a projection, not a measurement);
	 * the fresh plateau ended at t = 480 s".
	 * @return the line
	 */
	@com.fasterxml.jackson.annotation.JsonProperty("answer")
	public String summary() {
		String decided = " (fresh state judged by " + this.freshState.evidence().wireName() + ")";
		String within = "steady within " + phaseLength() + ": ";
		if (this.end.holds()) {
			SteadyStateWindow from = this.window.filter((w) -> this.reached).orElse(this.end.window().get());
			return within + String.format(Locale.ROOT, "yes, from t = %d s; %,.0f IOPS over the last five rounds",
					from.windowStartS(), this.end.window().get().avgIops()) + decided;
		}
		StringBuilder line = new StringBuilder(within + "no: ");
		if (this.trend.driftPercentPerRound().isPresent()) {
			double drift = this.trend.driftPercentPerRound().getAsDouble();
			line.append(String.format(Locale.ROOT, "still %s %.1f %% per round", (drift >= 0) ? "rising" : "falling",
					Math.abs(drift)));
		}
		else {
			line.append(this.end.reason());
		}
		this.trend.projection()
			.ifPresentOrElse(
					(projection) -> line.append(String.format(Locale.ROOT,
							"; projected ~%,.0f ± %,.0f IOPS (a projection, not a measurement)", projection.levelIops(),
							projection.uncertaintyIops())),
					() -> this.trend.cannotProject().ifPresent((why) -> line.append("; ").append(why)));
		if (this.freshState.evidence().needsHorizon() && this.freshState.firstEligibleRound().isPresent()) {
			line.append("; fresh plateau ended at t = ")
				.append((long) this.freshState.firstEligibleRound().getAsInt() * this.roundLengthS)
				.append(" s");
		}
		return line.append(decided).toString();
	}

	/** "2 h", "1.5 h" or "2000 s": how long the phase's rounds ran. */
	private String phaseLength() {
		long seconds = 0;
		for (Round round : this.rounds) {
			if (round.secondsPresent() > 0) {
				seconds = round.startExclusiveS() + round.secondsPresent();
			}
		}
		if (seconds >= 3600 && seconds % 1800 == 0) {
			double hours = seconds / 3600.0;
			return (hours == Math.rint(hours)) ? String.format(Locale.ROOT, "%.0f h", hours)
					: String.format(Locale.ROOT, "%.1f h", hours);
		}
		return seconds + " s";
	}

}
