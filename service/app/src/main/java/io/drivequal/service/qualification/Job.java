/*
 * A qualification job as stored in Elasticsearch (index drivequal-jobs, id = jobId). Immutable;
 * a change is a new Job made through edit(), written back with optimistic concurrency.
 */
package io.drivequal.service.qualification;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

import io.drivequal.analysis.Criterion;
import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.runners.Capability;

record Job(String jobId, JobState state, String submitter, String profile, String deviceSerial, String driveModel,
		String firmware, String runnerId, String transportAddress, String engine, Long capacityBytes,
		Integer lbaSizeBytes, String idempotencyKey, String commandId, Instant queuedAt, Instant dispatchedAt,
		Instant startedAt, Instant endedAt, Instant updatedAt, Integer currentPhaseIndex, Long expectedDurationS,
		String verdict, String failureReason, String message, Instant cancelRequestedAt, String cancelRequestedBy,
		List<PhaseSpec> plan, DriveSpec spec, List<Criterion> criteria, Map<String, Object> analysis,
		String criteriaSet, AnalysisSettings analysisSettings, String priority, Integer priorityRank, Long queueOrder,
		Instant notBefore, List<String> submitterTeams, Instant runnerLostAt, List<Gap> gaps,
		List<Capability> driveCapabilities, List<PhaseTime> phaseTimes, LatencyMonitorConfig latencyMonitor) {

	/**
	 * A runner loss the job survived (docs/reliability.md, "Resume after a short runner
	 * loss"): the runner was silent from lostAt, back and told to resume at resumedAt,
	 * from second fromSecond of phase phaseIndex (0: the phase restarted). gapRound is
	 * the round of that phase the gap falls in (fromSecond / round length), which no
	 * figure counts; null when the phase restarted.
	 */
	record Gap(int phaseIndex, long fromSecond, Integer gapRound, Instant lostAt, Instant resumedAt, long gapS,
			long eventSeq) {
	}

	/**
	 * When each phase ran, by the runner's wall clock (its events' time), and how long it
	 * ran on the phase's own clock (a simulated drive's is virtual): what ETAs are
	 * measured from, for this job and, once it completed, for the next of its model.
	 *
	 * @param simulatedClock the phase-started event said clock: simulated
	 * @param endedAt, clockMs null until the phase-completed event
	 */
	record PhaseTime(int index, Instant startedAt, boolean simulatedClock, Instant endedAt, Long clockMs) {

		/** Wall seconds from start to end; null while it runs. */
		Double wallS() {
			return (this.endedAt != null && this.startedAt != null)
					? Math.max(0, this.endedAt.toEpochMilli() - this.startedAt.toEpochMilli()) / 1000.0 : null;
		}

	}

	/** The time of phase {@code index}, if it started. */
	PhaseTime phaseTime(int index) {
		if (this.phaseTimes == null) {
			return null;
		}
		return this.phaseTimes.stream().filter((time) -> time.index() == index).findFirst().orElse(null);
	}

	/** A fresh job id, for a job submitted without an Idempotency-Key or imported. */
	static String newId() {
		return "q-" + UUID.randomUUID().toString().replace("-", "").substring(0, 24);
	}

	Job edit(Consumer<Draft> change) {
		Draft draft = new Draft(this);
		change.accept(draft);
		return draft.build();
	}

	/** The mutable twin of Job, only ever used inside edit(). */
	static final class Draft {

		String jobId;

		JobState state;

		String submitter;

		String profile;

		String deviceSerial;

		String driveModel;

		String firmware;

		String runnerId;

		String transportAddress;

		String engine;

		Long capacityBytes;

		Integer lbaSizeBytes;

		String idempotencyKey;

		String commandId;

		Instant queuedAt;

		Instant dispatchedAt;

		Instant startedAt;

		Instant endedAt;

		Instant updatedAt;

		Integer currentPhaseIndex;

		Long expectedDurationS;

		String verdict;

		String failureReason;

		String message;

		Instant cancelRequestedAt;

		String cancelRequestedBy;

		List<PhaseSpec> plan;

		DriveSpec spec;

		List<Criterion> criteria;

		Map<String, Object> analysis;

		String criteriaSet;

		AnalysisSettings analysisSettings;

		String priority;

		Integer priorityRank;

		Long queueOrder;

		Instant notBefore;

		LatencyMonitorConfig latencyMonitor;

		List<String> submitterTeams;

		Instant runnerLostAt;

		List<Gap> gaps;

		/** What the drive's runner probed it can do when the job was submitted. */
		List<Capability> driveCapabilities;

		List<PhaseTime> phaseTimes;

		Draft() {
		}

		Draft(Job job) {
			this.jobId = job.jobId;
			this.state = job.state;
			this.submitter = job.submitter;
			this.profile = job.profile;
			this.deviceSerial = job.deviceSerial;
			this.driveModel = job.driveModel;
			this.firmware = job.firmware;
			this.runnerId = job.runnerId;
			this.transportAddress = job.transportAddress;
			this.engine = job.engine;
			this.capacityBytes = job.capacityBytes;
			this.lbaSizeBytes = job.lbaSizeBytes;
			this.idempotencyKey = job.idempotencyKey;
			this.commandId = job.commandId;
			this.queuedAt = job.queuedAt;
			this.dispatchedAt = job.dispatchedAt;
			this.startedAt = job.startedAt;
			this.endedAt = job.endedAt;
			this.updatedAt = job.updatedAt;
			this.currentPhaseIndex = job.currentPhaseIndex;
			this.expectedDurationS = job.expectedDurationS;
			this.verdict = job.verdict;
			this.failureReason = job.failureReason;
			this.message = job.message;
			this.cancelRequestedAt = job.cancelRequestedAt;
			this.cancelRequestedBy = job.cancelRequestedBy;
			this.plan = job.plan;
			this.spec = job.spec;
			this.criteria = job.criteria;
			this.analysis = job.analysis;
			this.criteriaSet = job.criteriaSet;
			this.analysisSettings = job.analysisSettings;
			this.priority = job.priority;
			this.priorityRank = job.priorityRank;
			this.queueOrder = job.queueOrder;
			this.notBefore = job.notBefore;
			this.latencyMonitor = job.latencyMonitor;
			this.submitterTeams = job.submitterTeams;
			this.runnerLostAt = job.runnerLostAt;
			this.gaps = job.gaps;
			this.driveCapabilities = job.driveCapabilities;
			this.phaseTimes = job.phaseTimes;
		}

		Job build() {
			return new Job(this.jobId, this.state, this.submitter, this.profile, this.deviceSerial, this.driveModel,
					this.firmware, this.runnerId, this.transportAddress, this.engine, this.capacityBytes,
					this.lbaSizeBytes, this.idempotencyKey, this.commandId, this.queuedAt, this.dispatchedAt,
					this.startedAt, this.endedAt, this.updatedAt, this.currentPhaseIndex, this.expectedDurationS,
					this.verdict, this.failureReason, this.message, this.cancelRequestedAt, this.cancelRequestedBy,
					this.plan, this.spec, this.criteria, this.analysis, this.criteriaSet, this.analysisSettings,
					this.priority, this.priorityRank, this.queueOrder, this.notBefore, this.submitterTeams,
					this.runnerLostAt, this.gaps, this.driveCapabilities, this.phaseTimes, this.latencyMonitor);
		}

	}

}
