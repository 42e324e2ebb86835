/*
 * What the fio import needs from qualification: a run done elsewhere recorded as a COMPLETED job,
 * which the analysis sweep then judges like one a runner ran.
 */
package io.drivequal.service.qualification;

import java.time.Instant;
import java.util.List;

import io.drivequal.analysis.Criterion;
import io.drivequal.service.catalog.PhaseSpec;

import org.springframework.stereotype.Component;

@Component
public class ImportedJobs {

	private final JobStore store;

	private final Views views;

	ImportedJobs(JobStore store, Views views) {
		this.store = store;
		this.views = views;
	}

	/**
	 * A finished run from outside drivequal.
	 *
	 * @param runnerId who ran it, e.g. "fio-import"; no runner of the fleet
	 * @param message what the import noted about the run
	 */
	public record ImportedJob(String jobId, String submitter, String profile, String deviceSerial, String driveModel,
			String firmware, Long capacityBytes, String runnerId, Instant startedAt, Instant endedAt,
			List<PhaseSpec> plan, DriveSpec spec, List<Criterion> criteria, String message,
			AnalysisSettings analysisSettings) {
	}

	/** An id for the job to come, so its samples can be written before it is recorded. */
	public String newJobId() {
		return Job.newId();
	}

	/**
	 * Records the run as COMPLETED: the job's samples and phase results must already be
	 * written, since the analysis sweep may pick it up at once.
	 */
	public QualificationView recordCompleted(ImportedJob imported) {
		Job.Draft draft = new Job.Draft();
		draft.jobId = imported.jobId();
		draft.state = JobState.COMPLETED;
		draft.submitter = imported.submitter();
		draft.profile = imported.profile();
		draft.deviceSerial = imported.deviceSerial();
		draft.driveModel = imported.driveModel();
		draft.firmware = imported.firmware();
		draft.capacityBytes = imported.capacityBytes();
		draft.runnerId = imported.runnerId();
		draft.queuedAt = imported.startedAt();
		draft.startedAt = imported.startedAt();
		draft.endedAt = imported.endedAt();
		draft.updatedAt = imported.endedAt();
		draft.plan = imported.plan();
		draft.spec = imported.spec();
		draft.criteria = imported.criteria();
		draft.message = imported.message();
		draft.analysisSettings = imported.analysisSettings();
		Job job = draft.build();
		this.store.create(job);
		return this.views.summary(job);
	}

}
