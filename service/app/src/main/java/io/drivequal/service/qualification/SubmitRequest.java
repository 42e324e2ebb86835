/*
 * POST /api/v1/qualifications: which drive, what to run, what the buyer knows of the drive, and
 * what it must achieve.
 */
package io.drivequal.service.qualification;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonCreator;
import io.drivequal.analysis.Criterion;
import io.drivequal.service.catalog.PhaseSpec;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;

/**
 * @param criteriaSet a named set of the catalog (GET /api/v1/criteria-sets); its criteria
 * are judged before {@code criteria}
 * @param priority normal (default) or high; urgent needs the admin role
 * @param notBefore the job waits in its drive's queue until then, without holding others
 * up
 */
public record SubmitRequest(@NotNull @Valid DriveSelector drive, @NotNull @Valid TestPlan plan, @Valid DriveSpec spec,
		@Size(max = 64) List<@NotNull Criterion> criteria, @Size(max = 64) String criteriaSet,
		@Pattern(regexp = "^(normal|high|urgent)$", message = "must be normal, high or urgent") String priority,
		Instant notBefore) {

	/**
	 * @param serial the drive's serial; it must be in a runner's inventory
	 * @param runnerId, transportAddress optional: assert where the drive is
	 */
	public record DriveSelector(@NotBlank @Size(min = 1, max = 64) String serial, @Size(max = 64) String runnerId,
			@Size(max = 256) String transportAddress) {
	}

	/**
	 * A catalog profile (with optional overrides), explicit phases or a fio job file:
	 * exactly one.
	 *
	 * @param rangePercent limits every phase's LBA range (spare-area emulation)
	 * @param phaseOverrides fields replacing those of the profile's phases, by phase name
	 * @param analysis analysis settings replacing the profile's for this job
	 * @param purgeFallback deallocate: where the drive (or its runner) cannot do a purge
	 * phase's method, run a TRIM of the whole drive instead, which SNIA PTS does not
	 * accept as a purge (the results and the report say so); absent, such a plan is
	 * refused (422)
	 * @param latencyMonitor configure the drive's OCP latency monitor before the first
	 * phase
	 * @param sweep a latency-at-load sweep: one of the plan's multi-stream phases
	 * expanded into a step per offered rate (docs/api.md)
	 * @param fio a fio job file instead of phases: it becomes the phases POST
	 * /api/v1/plans/fio answers for it
	 */
	public record TestPlan(@Size(max = 64) String profile, @Positive @DecimalMax("100") Double rangePercent,
			Map<String, PhaseSpec> phaseOverrides, @Size(min = 1, max = 64) List<@NotNull PhaseSpec> phases,
			@Valid AnalysisSettings analysis,
			@Pattern(regexp = "^deallocate$", message = "must be deallocate") String purgeFallback,
			@Valid LatencyMonitorConfig latencyMonitor, Sweep sweep, @Valid FioJob fio) {

		@JsonCreator
		public TestPlan {
		}

		/** A plan without a fio job file. */
		public TestPlan(String profile, Double rangePercent, Map<String, PhaseSpec> phaseOverrides,
				List<PhaseSpec> phases, AnalysisSettings analysis, String purgeFallback,
				LatencyMonitorConfig latencyMonitor, Sweep sweep) {
			this(profile, rangePercent, phaseOverrides, phases, analysis, purgeFallback, latencyMonitor, sweep, null);
		}

		/** A plan without a sweep. */
		public TestPlan(String profile, Double rangePercent, Map<String, PhaseSpec> phaseOverrides,
				List<PhaseSpec> phases, AnalysisSettings analysis, String purgeFallback,
				LatencyMonitorConfig latencyMonitor) {
			this(profile, rangePercent, phaseOverrides, phases, analysis, purgeFallback, latencyMonitor, null, null);
		}

	}

	/**
	 * plan.sweep: which phase to sweep and the rates, as a list or as start, step and
	 * count.
	 *
	 * @param phase the name of a multi-stream workload phase of the plan: its steps
	 * replace it, named phase-RATE (10k, 1m) and all in sweepGroup phase
	 * @param stream the name of its open-loop stream whose rateIops each step sets; may
	 * be absent when the phase has exactly one open-loop stream at rateIops
	 * @param ratesIops the rates, rising; or instead
	 * @param startIops the first rate,
	 * @param stepIops added for each next one,
	 * @param steps how many
	 */
	public record Sweep(String phase, String stream, List<Long> ratesIops, Long startIops, Long stepIops,
			Integer steps) {
	}

	/**
	 * plan.fio: a fio job file, the way POST /api/v1/plans/fio takes it; exactly one of
	 * the two.
	 *
	 * @param name a shipped job file (schemas/examples/fio-jobs/accepted/, without .fio)
	 * @param jobFile the job file's text
	 */
	public record FioJob(@Size(max = 64) String name, @Size(max = 65_536) String jobFile) {
	}

}
