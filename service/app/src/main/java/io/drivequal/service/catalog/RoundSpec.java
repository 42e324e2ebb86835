/*
 * Adaptive rounds of a workload phase, in the contract's roundSpec form
 * (schemas/messages/common.schema.json): the steps every round runs, the tracking variable the
 * runner watches for steady state, and when it gives up.
 */
package io.drivequal.service.catalog;

import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * @param steps one stimulus each, run for stepRuntimeS in order, every round
 * @param stepRuntimeS SNIA: 60; defaults to it at submission
 * @param tracking which step's metric decides steady state; null: exactly maxRounds
 * rounds
 * @param maxRounds SNIA: 25; defaults to it at submission
 * @param rangeWritesRequired W for the runner's stop; defaults to the job's W at
 * submission
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RoundSpec(List<Step> steps, Integer stepRuntimeS, Tracking tracking, Integer maxRounds,
		Double rangeWritesRequired) {

	/** SNIA PTS: one-minute steps. */
	public static final int DEFAULT_STEP_RUNTIME_S = 60;

	/** SNIA PTS: at most 25 rounds. */
	public static final int DEFAULT_MAX_ROUNDS = 25;

	/**
	 * The tracking metrics the runner computes per step, the contract's
	 * roundSpec.tracking.metric: IOPS and bytes per second (means of the step's seconds),
	 * and the mean latency of the step's IOs in nanoseconds (SNIA's Latency test).
	 */
	public static final Set<String> METRICS = Set.of("iops", "bytesPerS", "meanLatencyNs");

	/**
	 * An IO step (rw, blockSizeBytes, queueDepth, optionally its own runtimeS) or a
	 * host-idle wait (idleS alone).
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Step(String rw, Integer readPercent, Integer blockSizeBytes, Integer queueDepth, Integer runtimeS,
			Integer idleS) {

		/**
		 * Not a property: kept out of JSON so a step serializes to exactly the contract's
		 * fields.
		 */
		@JsonIgnore
		public boolean isIdle() {
			return this.idleS != null;
		}

		/** Whether the step's writes land at random (they count toward W). */
		public boolean writesAtRandom() {
			return !isIdle() && ("randwrite".equals(this.rw) || "randrw".equals(this.rw))
					&& (this.readPercent == null || this.readPercent < 100);
		}

		/** Whether the step may write at all. */
		public boolean writes() {
			if (isIdle() || "read".equals(this.rw) || "randread".equals(this.rw)) {
				return false;
			}
			boolean mix = "rw".equals(this.rw) || "randrw".equals(this.rw);
			return !(mix && this.readPercent != null && this.readPercent == 100);
		}

	}

	/**
	 * @param step 0-based index into steps
	 * @param metric iops, bytesPerS or meanLatencyNs
	 */
	public record Tracking(Integer step, String metric) {
	}

	public RoundSpec {
		steps = (steps != null) ? List.copyOf(steps) : null;
	}

	/** The defaults SNIA gives, and the job's W where the round names none. */
	public RoundSpec withDefaults(double jobRangeWritesRequired) {
		return new RoundSpec(this.steps, (this.stepRuntimeS != null) ? this.stepRuntimeS : DEFAULT_STEP_RUNTIME_S,
				this.tracking, (this.maxRounds != null) ? this.maxRounds : DEFAULT_MAX_ROUNDS,
				(this.rangeWritesRequired != null) ? this.rangeWritesRequired : jobRangeWritesRequired);
	}

	/** The longest the phase can run: every round to the last. */
	public long maxDurationS() {
		int rounds = (this.maxRounds != null) ? this.maxRounds : DEFAULT_MAX_ROUNDS;
		long roundS = 0;
		for (Step step : (this.steps != null) ? this.steps : List.<Step>of()) {
			roundS += stepSeconds(step);
		}
		return rounds * roundS;
	}

	/** A step's seconds: its wait, its own runtimeS, or the round's. */
	public long stepSeconds(Step step) {
		if (step.idleS() != null) {
			return step.idleS();
		}
		if (step.runtimeS() != null) {
			return step.runtimeS();
		}
		return (this.stepRuntimeS != null) ? this.stepRuntimeS : DEFAULT_STEP_RUNTIME_S;
	}

}
