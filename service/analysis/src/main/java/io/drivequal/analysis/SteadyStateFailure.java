// Why a steady-state window does not hold, in a form both the report (message) and the shared vectors (kind, rounds) can compare.
package io.drivequal.analysis;

import java.util.List;

/**
 * One reason a window does not hold.
 *
 * @param kind what went wrong; its wire name is what the shared example vectors name
 * @param rounds the rounds concerned (0-based), empty for the bounds
 * @param message one sentence for the report
 */
public record SteadyStateFailure(Kind kind, List<Integer> rounds, String message) {

	public SteadyStateFailure {
		rounds = List.copyOf(rounds);
	}

	/** The reasons, with the names schemas/examples/steady-state uses. */
	public enum Kind {

		/** Fewer than five counted rounds at the end of the phase. */
		TOO_FEW_ROUNDS("too-few-rounds"),
		/** A round of the window has fewer than 90% of its seconds. */
		ROUNDS_NOT_COUNTED("rounds-not-counted"),
		/** A round of the window is before the end of the drive's fresh state. */
		ROUNDS_NOT_ELIGIBLE("rounds-not-eligible"),
		/**
		 * The written-bytes fallback decided and the tested range is unknown, so no round
		 * is eligible.
		 */
		TESTED_RANGE_UNKNOWN("tested-range-unknown"),
		/** max(y) - min(y) &gt; 0.20 · avg(y). */
		RANGE_ABOVE_BOUND("range-above-bound"),
		/** |b| · 4 &gt; 0.10 · avg(y). */
		SLOPE_ABOVE_BOUND("slope-above-bound"),
		/**
		 * The media-write evidence decided, and the rounds' write amplification does not
		 * hold the two bounds.
		 */
		WAF_NOT_STEADY("waf-not-steady"),
		/**
		 * The horizon reaches before the fresh state's end or over a round that does not
		 * count, or its level still moves (range or excursion above the bounds).
		 */
		LEVEL_STILL_MOVING("level-still-moving");

		private final String wireName;

		Kind(String wireName) {
			this.wireName = wireName;
		}

		public String wireName() {
			return this.wireName;
		}

	}

}
