/*
 * One step of a qualification in the contract's phaseSpec form (schemas/messages/common.schema.json):
 * what the catalog holds, the API accepts, the job stores and the runner receives.
 */
package io.drivequal.service.catalog;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * @param capacityMultiple catalog only: write this many times the drive's user capacity;
 * resolved into {@code sizeBytes} at submission and never sent to a runner
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PhaseSpec(Integer index, String name, String kind, String rw, Integer readPercent, Integer blockSizeBytes,
		Integer queueDepth, Double rangePercent, Long runtimeS, Long sizeBytes, Integer passes, String dataPattern,
		Long idleS, String purgeMethod, Boolean smartSnapshot, Integer capacityMultiple, RoundSpec rounds) {

	@JsonCreator
	public PhaseSpec {
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
	 * only where its interlocks allow: a purge, a precondition and a deallocation always;
	 * a workload unless it only reads (read, randread, or a read/write mix of 100%
	 * reads); idling and a SMART snapshot never. The runner applies the same rule, and
	 * both sides are pinned by schemas/examples/phase-rules/destructive.json.
	 */
	public boolean destroysData() {
		if ("purge".equals(this.kind) || "precondition".equals(this.kind) || "deallocate".equals(this.kind)) {
			return true;
		}
		if (!isWorkload()) {
			return false;
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

	public PhaseSpec withIndex(int newIndex) {
		return new PhaseSpec(newIndex, this.name, this.kind, this.rw, this.readPercent, this.blockSizeBytes,
				this.queueDepth, this.rangePercent, this.runtimeS, this.sizeBytes, this.passes, this.dataPattern,
				this.idleS, this.purgeMethod, this.smartSnapshot, this.capacityMultiple, this.rounds);
	}

	public PhaseSpec withRangePercent(Double newRangePercent) {
		return new PhaseSpec(this.index, this.name, this.kind, this.rw, this.readPercent, this.blockSizeBytes,
				this.queueDepth, newRangePercent, this.runtimeS, this.sizeBytes, this.passes, this.dataPattern,
				this.idleS, this.purgeMethod, this.smartSnapshot, this.capacityMultiple, this.rounds);
	}

	/**
	 * Resolves capacityMultiple against the drive; a phase without it is returned
	 * unchanged.
	 */
	public PhaseSpec resolvedFor(long userCapacityBytes) {
		if (this.capacityMultiple == null) {
			return this;
		}
		return new PhaseSpec(this.index, this.name, this.kind, this.rw, this.readPercent, this.blockSizeBytes,
				this.queueDepth, this.rangePercent, null, this.capacityMultiple * userCapacityBytes, this.passes,
				this.dataPattern, this.idleS, this.purgeMethod, this.smartSnapshot, null, this.rounds);
	}

	/**
	 * The fields given in {@code override} replace this phase's; name, index and kind
	 * stay.
	 */
	public PhaseSpec overriddenBy(PhaseSpec override) {
		return new PhaseSpec(this.index, this.name, this.kind, pick(override.rw, this.rw),
				pick(override.readPercent, this.readPercent), pick(override.blockSizeBytes, this.blockSizeBytes),
				pick(override.queueDepth, this.queueDepth), pick(override.rangePercent, this.rangePercent),
				(override.sizeBytes != null) ? null : pick(override.runtimeS, this.runtimeS),
				(override.runtimeS != null) ? null : pick(override.sizeBytes, this.sizeBytes),
				pick(override.passes, this.passes), pick(override.dataPattern, this.dataPattern),
				pick(override.idleS, this.idleS), pick(override.purgeMethod, this.purgeMethod),
				pick(override.smartSnapshot, this.smartSnapshot),
				(override.runtimeS != null || override.sizeBytes != null) ? null : this.capacityMultiple,
				pick(override.rounds, this.rounds));
	}

	public PhaseSpec withRounds(RoundSpec newRounds) {
		return new PhaseSpec(this.index, this.name, this.kind, this.rw, this.readPercent, this.blockSizeBytes,
				this.queueDepth, this.rangePercent, this.runtimeS, this.sizeBytes, this.passes, this.dataPattern,
				this.idleS, this.purgeMethod, this.smartSnapshot, this.capacityMultiple, newRounds);
	}

	private static <T> T pick(T preferred, T fallback) {
		return (preferred != null) ? preferred : fallback;
	}

}
