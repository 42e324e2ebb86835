/*
 * What the campaigns feature needs from qualification: check a campaign's jobs all together before
 * any is queued, queue them, read them back as the API shows jobs, and cancel them. The jobs are
 * ordinary jobs: queued per drive, dispatched, analysed and judged as any submission.
 */
package io.drivequal.service.qualification;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.drivequal.service.platform.ConflictException;
import io.drivequal.service.platform.NotFoundException;

import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Component;

@Component
public class CampaignJobs {

	private final QualificationService qualifications;

	private final JobStore store;

	private final Views views;

	CampaignJobs(QualificationService qualifications, JobStore store, Views views) {
		this.qualifications = qualifications;
		this.store = store;
		this.views = views;
	}

	/** A job checked and ready to queue; only this feature can look inside. */
	public static final class PreparedJob {

		private final Job job;

		private final List<String> warnings;

		private PreparedJob(Job job, List<String> warnings) {
			this.job = job;
			this.warnings = warnings;
		}

		public String jobId() {
			return this.job.jobId();
		}

		public List<String> warnings() {
			return this.warnings;
		}

	}

	/** A fresh job id. */
	public static String newJobId() {
		return Job.newId();
	}

	/**
	 * Checks one job as a submission would, and stores nothing.
	 * @param priority normal, high or urgent (already checked against the caller)
	 * @throws io.drivequal.service.platform.BadRequestException naming the field of
	 * {@code request} that is wrong
	 */
	public PreparedJob prepare(String jobId, SubmitRequest request, Authentication caller) {
		JobPriority priority = (request.priority() != null) ? JobPriority.ofWireName(request.priority()).orElseThrow()
				: JobPriority.NORMAL;
		QualificationService.Prepared prepared = this.qualifications.prepare(request, caller, jobId, null, priority);
		return new PreparedJob(prepared.job(), prepared.warnings());
	}

	/**
	 * Refuses a priority the caller may not give (urgent needs the admin role), as a
	 * submission does.
	 */
	public static void checkPriority(String priority, Authentication caller) {
		if (priority != null) {
			DriveQueues.checkAllowed(JobPriority.ofWireName(priority).orElseThrow(), caller);
		}
	}

	/** Queues a prepared job; false when it is queued already (a repeated step). */
	public boolean queue(PreparedJob prepared) {
		return this.qualifications.create(prepared.job);
	}

	/**
	 * The jobs as the API lists them (progress and ETA included), by id; ids without a
	 * job are absent. One multi-get and, for running jobs, one search.
	 */
	public Map<String, QualificationView> views(Collection<String> jobIds) {
		List<Job> jobs = new ArrayList<>(this.store.findAll(jobIds).values());
		Map<String, QualificationView> byId = new LinkedHashMap<>();
		for (QualificationView view : this.views.page(jobs)) {
			byId.put(view.id(), view);
		}
		return byId;
	}

	/**
	 * Cancels a job that is still active, on behalf of whoever may cancel the campaign.
	 * @return the job after the request, or empty when it had ended already (or was never
	 * stored)
	 */
	public Optional<JobState> cancel(String jobId, String caller) {
		try {
			return Optional.of(this.qualifications.cancel(jobId, caller, true).state());
		}
		catch (ConflictException | NotFoundException ex) {
			return Optional.empty();
		}
	}

}
