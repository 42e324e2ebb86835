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

import io.drivequal.service.catalog.PhaseSpec;

record Job(String jobId, JobState state, String submitter, String profile, String deviceSerial, String driveModel,
		String firmware, String runnerId, String transportAddress, String engine, Long capacityBytes,
		Integer lbaSizeBytes, String idempotencyKey, String commandId, Instant queuedAt, Instant dispatchedAt,
		Instant startedAt, Instant endedAt, Instant updatedAt, Integer currentPhaseIndex, Long expectedDurationS,
		String verdict, String failureReason, String message, Instant cancelRequestedAt, String cancelRequestedBy,
		List<PhaseSpec> plan, DriveSpec spec, List<Criterion> criteria, Map<String, Object> analysis,
		String criteriaSet, AnalysisSettings analysisSettings, String priority, Integer priorityRank, Long queueOrder,
		Instant notBefore, List<String> submitterTeams, LatencyMonitorConfig latencyMonitor) {

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
		}

		Job build() {
			return new Job(this.jobId, this.state, this.submitter, this.profile, this.deviceSerial, this.driveModel,
					this.firmware, this.runnerId, this.transportAddress, this.engine, this.capacityBytes,
					this.lbaSizeBytes, this.idempotencyKey, this.commandId, this.queuedAt, this.dispatchedAt,
					this.startedAt, this.endedAt, this.updatedAt, this.currentPhaseIndex, this.expectedDurationS,
					this.verdict, this.failureReason, this.message, this.cancelRequestedAt, this.cancelRequestedBy,
					this.plan, this.spec, this.criteria, this.analysis, this.criteriaSet, this.analysisSettings,
					this.priority, this.priorityRank, this.queueOrder, this.notBefore, this.submitterTeams,
					this.latencyMonitor);
		}

	}

}
