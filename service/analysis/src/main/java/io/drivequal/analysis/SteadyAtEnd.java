// The last five rounds of a phase ("steady at end"): the window the steady-state criteria are judged on.
package io.drivequal.analysis;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Whether the phase ends in steady state. The window is the five rounds ending at the
 * last counted round (a trailing round that does not count, such as the 20 s left of a
 * 2000 s phase, is left out); it holds when all five count, all five are eligible, both
 * SNIA bounds hold, and where the rule asks for them the write amplification's bounds and
 * the horizon hold ({@link SteadyStateDetector}, {@link SteadyStateHorizon}).
 *
 * @param firstRoundIndex first round of the window; -1 when the phase has fewer than five
 * rounds up to its last counted one
 * @param lastRoundIndex last counted round; -1 when no round counts
 * @param window the figures of the five rounds when all five count (even if they do not
 * hold); empty otherwise
 * @param horizon the horizon ending at the last counted round, where the rule needs it (a
 * writing phase after a purge or fill); empty otherwise
 * @param holds whether the phase is steady at its end
 * @param failures why not, in the order counted, eligible, bounds, write amplification,
 * horizon; empty when it holds
 */
public record SteadyAtEnd(int firstRoundIndex, int lastRoundIndex, Optional<SteadyStateWindow> window,
		Optional<SteadyStateHorizon> horizon, boolean holds, List<SteadyStateFailure> failures) {

	public SteadyAtEnd {
		failures = List.copyOf(failures);
		if (holds != failures.isEmpty() || (holds && window.isEmpty())) {
			throw new IllegalArgumentException("a window holds exactly when nothing failed, and then has figures");
		}
	}

	/**
	 * The average of the window's round means when it holds.
	 * @return the steady-state IOPS, or empty
	 */
	public OptionalDouble avgIopsWhenHolding() {
		return this.holds ? OptionalDouble.of(this.window.get().avgIops()) : OptionalDouble.empty();
	}

	/**
	 * The failures as one sentence for a report or an INCONCLUSIVE criterion.
	 * @return e.g. "rounds 28–32 are not eligible: ...; range 31.2 % ..."
	 */
	public String reason() {
		return String.join("; ", this.failures.stream().map(SteadyStateFailure::message).toList());
	}

}
