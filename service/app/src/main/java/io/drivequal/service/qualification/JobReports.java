/*
 * What the report feature needs from qualification: a job's facts, analysis and verdict as one
 * public record, so the exports never reach into the job store.
 */
package io.drivequal.service.qualification;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.drivequal.analysis.Criterion;
import io.drivequal.service.catalog.PhaseSpec;

import org.springframework.stereotype.Component;

@Component
public class JobReports {

	private final QualificationService qualifications;

	JobReports(QualificationService qualifications) {
		this.qualifications = qualifications;
	}

	/**
	 * A job as its exports show it; analysis and verdict are null until it is analysed.
	 */
	public record JobReport(String id, JobState state, String submitter, String profile, Drive drive,
			List<PhaseSpec> plan, DriveSpec spec, List<Criterion> criteria, Instant queuedAt, Instant startedAt,
			Instant endedAt, String verdict, String failureReason, Map<String, Object> analysis, String criteriaSet,
			AnalysisSettings analysisSettings) {

		public record Drive(String serial, String model, String firmware, String runnerId, String engine,
				Long capacityBytes) {
		}

	}

	/**
	 * @throws io.drivequal.service.platform.NotFoundException for an unknown job (a 404)
	 */
	public JobReport get(String jobId) {
		Job job = this.qualifications.get(jobId);
		return new JobReport(job.jobId(), job.state(), job.submitter(), job.profile(),
				new JobReport.Drive(job.deviceSerial(), job.driveModel(), job.firmware(), job.runnerId(), job.engine(),
						job.capacityBytes()),
				job.plan(), job.spec(), job.criteria(), job.queuedAt(), job.startedAt(), job.endedAt(), job.verdict(),
				job.failureReason(), job.analysis(), job.criteriaSet(), job.analysisSettings());
	}

}
