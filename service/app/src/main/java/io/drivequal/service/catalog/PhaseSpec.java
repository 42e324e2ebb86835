/*
 * One step of a qualification in the contract's phaseSpec form (schemas/messages/common.schema.json):
 * what the catalog holds, the API accepts, the job stores and the runner receives.
 */
package io.drivequal.service.catalog;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * @param runtimeS a workload's time limit
 * @param sizeBytes a workload's size limit; with runtimeS too, the phase ends at
 * whichever it reaches first (SNIA's write saturation: 4x the capacity or 24 h), and its
 * result says which
 * @param streams a multi-stream workload's streams (then rw, readPercent, blockSizeBytes,
 * queueDepth, rangePercent, sizeBytes, passes and rounds are absent, and runtimeS is
 * required, as the contract says)
 * @param capacityMultiple catalog only: write this many times the drive's user capacity;
 * resolved into {@code sizeBytes} at submission (a runtimeS beside it stays) and never
 * sent to a runner
 * @param purgeFallback purge phases: deallocate when the buyer accepts a TRIM where the
 * drive (or its runner) cannot do purgeMethod; absent, such a purge is refused
 * @param sweepGroup the latency-at-load sweep the phase is a step of: once a step of the
 * group saturates, the runner skips the group's later steps and reports each as skipped
 * @param powerCycle power-cycle phases: the power driver, the cycles and their writes
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PhaseSpec(Integer index, String name, String kind, String rw, Integer readPercent, Integer blockSizeBytes,
		Integer queueDepth, Double rangePercent, Long runtimeS, Long sizeBytes, Integer passes, String dataPattern,
		Long idleS, String purgeMethod, Boolean smartSnapshot, Integer capacityMultiple, RoundSpec rounds,
		String purgeFallback, List<StreamSpec> streams, String sweepGroup, PowerCycleSpec powerCycle) {

	/** The most capacityMultiple may ask: a thousand drive writes. */
	public static final int MAX_CAPACITY_MULTIPLE = 1000;

	@JsonCreator
	public PhaseSpec {
	}

	/** A phase outside a latency-at-load sweep, without a power-cycle plan. */
	public PhaseSpec(Integer index, String name, String kind, String rw, Integer readPercent, Integer blockSizeBytes,
			Integer queueDepth, Double rangePercent, Long runtimeS, Long sizeBytes, Integer passes, String dataPattern,
			Long idleS, String purgeMethod, Boolean smartSnapshot, Integer capacityMultiple, RoundSpec rounds,
			String purgeFallback, List<StreamSpec> streams) {
		this(index, name, kind, rw, readPercent, blockSizeBytes, queueDepth, rangePercent, runtimeS, sizeBytes, passes,
				dataPattern, idleS, purgeMethod, smartSnapshot, capacityMultiple, rounds, purgeFallback, streams, null,
				null);
	}

	/** A power-cycle phase over rangePercent of the drive at queueDepth. */
	public static PhaseSpec ofPowerCycle(Integer index, String name, int queueDepth, double rangePercent,
			PowerCycleSpec powerCycle) {
		return new PhaseSpec(index, name, "power-cycle", null, null, null, queueDepth, rangePercent, null, null, null,
				null, null, null, null, null, null, null, null, null, powerCycle);
	}

	/** A phase without a purge fallback or streams. */
	public PhaseSpec(Integer index, String name, String kind, String rw, Integer readPercent, Integer blockSizeBytes,
			Integer queueDepth, Double rangePercent, Long runtimeS, Long sizeBytes, Integer passes, String dataPattern,
			Long idleS, String purgeMethod, Boolean smartSnapshot, Integer capacityMultiple, RoundSpec rounds) {
		this(index, name, kind, rw, readPercent, blockSizeBytes, queueDepth, rangePercent, runtimeS, sizeBytes, passes,
				dataPattern, idleS, purgeMethod, smartSnapshot, capacityMultiple, rounds, null, null);
	}

	/** A multi-stream workload: its streams and its runtime. */
	public static PhaseSpec ofStreams(Integer index, String name, long runtimeS, List<StreamSpec> streams) {
		return new PhaseSpec(index, name, "workload", null, null, null, null, null, runtimeS, null, null, null, null,
				null, null, null, null, null, streams);
	}

	/** A phase without rounds. */
	public PhaseSpec(Integer index, String name, String kind, String rw, Integer readPercent, Integer blockSizeBytes,
			Integer queueDepth, Double rangePercent, Long runtimeS, Long sizeBytes, Integer passes, String dataPattern,
			Long idleS, String purgeMethod, Boolean smartSnapshot, Integer capacityMultiple) {
		this(index, name, kind, rw, readPercent, blockSizeBytes, queueDepth, rangePercent, runtimeS, sizeBytes, passes,
				dataPattern, idleS, purgeMethod, smartSnapshot, capacityMultiple, null);
	}

	/**
	 * Not a property: kept out of JSON so a phase serializes to exactly the contract's
	 * fields.
	 */
	@JsonIgnore
	public boolean isWorkload() {
		return "workload".equals(this.kind);
	}

	/**
	 * Whether running the phase destroys data on the drive, so the runner performs it
	 * only where its interlocks allow: a purge, a precondition, a deallocation and a
	 * power cycle always; a workload unless it only reads (read, randread, or a
	 * read/write mix of 100% reads); idling and a SMART snapshot never. The runner
	 * applies the same rule, and both sides are pinned by
	 * schemas/examples/phase-rules/destructive.json.
	 */
	public boolean destroysData() {
		if ("purge".equals(this.kind) || "precondition".equals(this.kind) || "deallocate".equals(this.kind)
				|| "power-cycle".equals(this.kind)) {
			return true;
		}
		if (!isWorkload()) {
			return false;
		}
		if (this.streams != null && !this.streams.isEmpty()) {
			return this.streams.stream().anyMatch(StreamSpec::destroysData);
		}
		if (this.rounds != null) {
			return this.rounds.steps() != null && this.rounds.steps().stream().anyMatch(RoundSpec.Step::writes);
		}
		if ("read".equals(this.rw) || "randread".equals(this.rw)) {
			return false;
		}
		boolean mix = "rw".equals(this.rw) || "randrw".equals(this.rw);
		return !(mix && this.readPercent != null && this.readPercent == 100);
	}

	/**
	 * What is wrong with the phase's limits before capacityMultiple is resolved, or null:
	 * a size given twice (sizeBytes and capacityMultiple), a capacityMultiple below 1, or
	 * a workload without rounds that has no limit at all. The contract says the rest once
	 * the plan is resolved; these it cannot see, as capacityMultiple never reaches a
	 * runner.
	 */
	public LimitProblem limitProblem() {
		if (this.capacityMultiple != null && this.sizeBytes != null) {
			return new LimitProblem("capacityMultiple",
					"give the size limit once: sizeBytes or capacityMultiple, not both");
		}
		if (this.capacityMultiple != null
				&& (this.capacityMultiple < 1 || this.capacityMultiple > MAX_CAPACITY_MULTIPLE)) {
			return new LimitProblem("capacityMultiple",
					"must be 1.." + MAX_CAPACITY_MULTIPLE + " (times the user capacity), got " + this.capacityMultiple);
		}
		if (isWorkload() && this.rounds == null && this.runtimeS == null && this.sizeBytes == null
				&& this.capacityMultiple == null) {
			return new LimitProblem("runtimeS", "a workload needs a limit: runtimeS, sizeBytes (or "
					+ "capacityMultiple), or a time and a size (it ends at the first reached)");
		}
		return null;
	}

	/**
	 * @param field the member at fault
	 * @param reason why
	 */
	public record LimitProblem(String field, String reason) {
	}

	public PhaseSpec withIndex(int newIndex) {
		return new PhaseSpec(newIndex, this.name, this.kind, this.rw, this.readPercent, this.blockSizeBytes,
				this.queueDepth, this.rangePercent, this.runtimeS, this.sizeBytes, this.passes, this.dataPattern,
				this.idleS, this.purgeMethod, this.smartSnapshot, this.capacityMultiple, this.rounds,
				this.purgeFallback, this.streams, this.sweepGroup, this.powerCycle);
	}

	public PhaseSpec withRangePercent(Double newRangePercent) {
		return new PhaseSpec(this.index, this.name, this.kind, this.rw, this.readPercent, this.blockSizeBytes,
				this.queueDepth, newRangePercent, this.runtimeS, this.sizeBytes, this.passes, this.dataPattern,
				this.idleS, this.purgeMethod, this.smartSnapshot, this.capacityMultiple, this.rounds,
				this.purgeFallback, this.streams, this.sweepGroup, this.powerCycle);
	}

	/**
	 * Resolves capacityMultiple against the drive into sizeBytes, keeping a runtimeS
	 * beside it (the phase then ends at the first limit reached); a phase without it is
	 * returned unchanged.
	 */
	public PhaseSpec resolvedFor(long userCapacityBytes) {
		if (this.capacityMultiple == null) {
			return this;
		}
		return new PhaseSpec(this.index, this.name, this.kind, this.rw, this.readPercent, this.blockSizeBytes,
				this.queueDepth, this.rangePercent, this.runtimeS, this.capacityMultiple * userCapacityBytes,
				this.passes, this.dataPattern, this.idleS, this.purgeMethod, this.smartSnapshot, null, this.rounds,
				this.purgeFallback, this.streams, this.sweepGroup, this.powerCycle);
	}

	/**
	 * The fields given in {@code override} replace this phase's; name, index and kind
	 * stay. The two limits are replaced one by one: an override's runtimeS replaces the
	 * time limit and keeps a size limit (given as sizeBytes or capacityMultiple, either
	 * of which replaces the other), so a phase with both still ends at the first reached.
	 */
	public PhaseSpec overriddenBy(PhaseSpec override) {
		return new PhaseSpec(this.index, this.name, this.kind, pick(override.rw, this.rw),
				pick(override.readPercent, this.readPercent), pick(override.blockSizeBytes, this.blockSizeBytes),
				pick(override.queueDepth, this.queueDepth), pick(override.rangePercent, this.rangePercent),
				pick(override.runtimeS, this.runtimeS),
				(override.sizeBytes != null) ? override.sizeBytes
						: (override.capacityMultiple != null) ? null : this.sizeBytes,
				pick(override.passes, this.passes), pick(override.dataPattern, this.dataPattern),
				pick(override.idleS, this.idleS), pick(override.purgeMethod, this.purgeMethod),
				pick(override.smartSnapshot, this.smartSnapshot),
				(override.capacityMultiple != null) ? override.capacityMultiple
						: (override.sizeBytes != null) ? null : this.capacityMultiple,
				pick(override.rounds, this.rounds), pick(override.purgeFallback, this.purgeFallback),
				pick(override.streams, this.streams), pick(override.sweepGroup, this.sweepGroup),
				pick(override.powerCycle, this.powerCycle));
	}

	public PhaseSpec withRounds(RoundSpec newRounds) {
		return new PhaseSpec(this.index, this.name, this.kind, this.rw, this.readPercent, this.blockSizeBytes,
				this.queueDepth, this.rangePercent, this.runtimeS, this.sizeBytes, this.passes, this.dataPattern,
				this.idleS, this.purgeMethod, this.smartSnapshot, this.capacityMultiple, newRounds, this.purgeFallback,
				this.streams, this.sweepGroup, this.powerCycle);
	}

	/**
	 * A purge phase that accepts {@code fallback} when the drive cannot do its method.
	 */
	public PhaseSpec withPurgeFallback(String fallback) {
		return new PhaseSpec(this.index, this.name, this.kind, this.rw, this.readPercent, this.blockSizeBytes,
				this.queueDepth, this.rangePercent, this.runtimeS, this.sizeBytes, this.passes, this.dataPattern,
				this.idleS, this.purgeMethod, this.smartSnapshot, this.capacityMultiple, this.rounds, fallback,
				this.streams, this.sweepGroup, this.powerCycle);
	}

	private static <T> T pick(T preferred, T fallback) {
		return (preferred != null) ? preferred : fallback;
	}

}
