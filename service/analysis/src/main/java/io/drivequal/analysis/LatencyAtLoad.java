// Latency at load: a sweep of offered read rates, where it saturates, where its tail turns up (the knee), and how far a tail bound holds.
package io.drivequal.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The steps of a latency-at-load sweep, in the order they ran (docs/methodology.md,
 * "Latency at load"): each step offers an open-loop read rate, and reports the rate it
 * achieved and its read response-time P99.99 (from the intended issue time, so a queue
 * that builds up shows).
 * <ul>
 * <li>A step is <b>saturated</b> when it achieved less than (1 -
 * {@value #SATURATION_MARGIN}) of what it offered: the drive no longer keeps up.</li>
 * <li>The <b>knee</b> is the first step whose response P99.99 exceeds
 * {@value #KNEE_MULTIPLE} times the low-load value (the lowest P99.99 of the steps before
 * it, so one disturbed light step, e.g. behind the garbage collection a fill left, does
 * not hide the knee), or the first saturated step, whichever comes first. None of the
 * steps: no knee within the sweep.</li>
 * <li>A step the runner <b>skipped</b> because an earlier step of its sweep saturated
 * (the sweep stops there) counts as saturated beyond that step: a rate the drive did not
 * keep up with, never missing data.</li>
 * <li>A tail bound <b>holds up to</b> the achieved rate of the highest step such that it
 * and every step before it are unsaturated with a response P99.99 at or below the
 * bound.</li>
 * </ul>
 */
public final class LatencyAtLoad {

	/** A step saturates when it achieves less than (1 - this) of its offered rate. */
	public static final double SATURATION_MARGIN = 0.02;

	/** The knee: response P99.99 above this multiple of the low-load value. */
	public static final double KNEE_MULTIPLE = 3.0;

	/**
	 * The read P99.99 bound of readIopsPerTbWithinP9999Of2500Us: FioSynth's
	 * 4K_L2R6DWPD_wTRIM read P99.99 target (ocp-diag-autoval-ssd fiosynth_targets.json),
	 * 2,500 µs.
	 */
	public static final long FIOSYNTH_READ_P9999_BOUND_NS = 2_500_000L;

	private LatencyAtLoad() {
	}

	/**
	 * One step as measured.
	 *
	 * @param phaseName the step's phase
	 * @param offeredIops the open-loop read streams' offered IOs per second
	 * @param achievedIops their completed reads per second
	 * @param responseP9999Ns their read response-time P99.99
	 * @param skipped the runner skipped the step after an earlier one saturated: nothing
	 * achieved, no tail measured (responseP9999Ns 0), saturated by definition
	 */
	public record Step(String phaseName, double offeredIops, double achievedIops, long responseP9999Ns,
			boolean skipped) {

		/**
		 * A step that ran.
		 * @param phaseName the step's phase
		 * @param offeredIops the offered rate
		 * @param achievedIops the achieved rate
		 * @param responseP9999Ns the read response-time P99.99
		 */
		public Step(String phaseName, double offeredIops, double achievedIops, long responseP9999Ns) {
			this(phaseName, offeredIops, achievedIops, responseP9999Ns, false);
		}

		/**
		 * A step the runner skipped because the sweep saturated before it.
		 * @param phaseName the step's phase
		 * @param offeredIops the rate it would have offered (its plan's)
		 * @return the step, saturated
		 */
		public static Step skippedAfterSaturation(String phaseName, double offeredIops) {
			return new Step(phaseName, offeredIops, 0, 0, true);
		}

		public Step {
			if (phaseName == null || phaseName.isBlank()) {
				throw new IllegalArgumentException("a step needs its phase name");
			}
			if (!(offeredIops > 0) || !Double.isFinite(offeredIops)) {
				throw new IllegalArgumentException(
						"step " + phaseName + ": offeredIops must be > 0, got " + offeredIops);
			}
			if (!(achievedIops >= 0) || !Double.isFinite(achievedIops) || responseP9999Ns < 0) {
				throw new IllegalArgumentException(
						"step " + phaseName + ": achievedIops and responseP9999Ns must be >= 0");
			}
		}

		/**
		 * Whether the drive fell behind the offer by more than the margin.
		 * @return achieved &lt; (1 - margin) x offered, or skipped
		 */
		public boolean saturated() {
			return this.skipped || this.achievedIops < (1 - SATURATION_MARGIN) * this.offeredIops;
		}

	}

	/**
	 * The sweep judged.
	 *
	 * @param steps the steps in the order they ran
	 * @param kneeStep the knee's index in steps, -1 when no step is one
	 * @param kneeBy "latency" (the tail rose past the multiple) or "saturation", null
	 * without a knee
	 * @param saturatedStep the first saturated step's index, -1 when none saturated
	 */
	public record Sweep(List<Step> steps, int kneeStep, String kneeBy, int saturatedStep) {

		public Sweep {
			steps = List.copyOf(steps);
		}

		/**
		 * The knee's step.
		 * @return the step, empty when the drive kept up with every step
		 */
		public Optional<Step> knee() {
			return (this.kneeStep < 0) ? Optional.empty() : Optional.of(this.steps.get(this.kneeStep));
		}

		/**
		 * The highest achieved rate up to which a response P99.99 bound holds.
		 * @param boundNs the bound
		 * @return the achieved IOPS of the last step of the unbroken run from the first
		 * step that is unsaturated and within the bound; empty when the first step fails
		 */
		public Optional<Step> holdsUpTo(long boundNs) {
			Step held = null;
			for (Step step : this.steps) {
				if (step.saturated() || step.responseP9999Ns() > boundNs) {
					break;
				}
				held = step;
			}
			return Optional.ofNullable(held);
		}

	}

	/**
	 * Judge a sweep.
	 * @param steps the steps in the order they ran; at least two
	 * @return the sweep with its knee and saturation
	 */
	public static Sweep judge(List<Step> steps) {
		if (steps.size() < 2) {
			throw new IllegalArgumentException("a sweep needs at least two steps, got " + steps.size());
		}
		List<Step> ordered = new ArrayList<>(steps);
		int saturated = -1;
		for (int i = 0; i < ordered.size(); i++) {
			if (ordered.get(i).saturated()) {
				saturated = i;
				break;
			}
		}
		long low = ordered.get(0).responseP9999Ns();
		int knee = -1;
		String by = null;
		for (int i = 1; i < ordered.size(); i++) {
			if (i == saturated) {
				knee = i;
				by = "saturation";
				break;
			}
			if (ordered.get(i).responseP9999Ns() > KNEE_MULTIPLE * low) {
				knee = i;
				by = "latency";
				break;
			}
			low = Math.min(low, ordered.get(i).responseP9999Ns());
		}
		if (saturated == 0) {
			knee = 0;
			by = "saturation";
		}
		return new Sweep(ordered, knee, by, saturated);
	}

	/**
	 * A rate per TB (10^12 bytes) of user capacity.
	 * @param iops the rate
	 * @param capacityBytes the drive's user capacity, if known
	 * @return the rate per TB, or unknown with why
	 */
	static Measure perTb(double iops, OptionalLong capacityBytes) {
		if (capacityBytes.isEmpty() || capacityBytes.getAsLong() <= 0) {
			return Measure.unknown("the drive's user capacity is not known");
		}
		return Measure.known(iops / (capacityBytes.getAsLong() / 1e12));
	}

}
