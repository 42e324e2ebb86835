/*
 * Published (as a Spring application event, in the thread that wrote it) when a job enters a new
 * state or gets its verdict, right after the write won. The webhooks feature turns it into
 * notifications; QualificationChanges offers the same facts again for jobs changed lately, so a
 * crash between the write and the listener costs a delay, not the notification.
 */
package io.drivequal.service.qualification;

import java.time.Instant;
import java.util.List;

/**
 * @param previousState the state before, null for a new job or when not known (the replay
 * of QualificationChanges)
 * @param verdictRecorded true when this change is the verdict being recorded
 * @param time when the job entered {@code state} (or got its verdict)
 */
public record QualificationChanged(String jobId, JobState previousState, JobState state, boolean verdictRecorded,
		String verdict, String submitter, List<String> submitterTeams, String deviceSerial, String driveModel,
		String firmware, String profile, String failureReason, String message, Instant time) {

	static QualificationChanged of(Job job, JobState previousState, boolean verdictRecorded) {
		return new QualificationChanged(job.jobId(), previousState, job.state(), verdictRecorded, job.verdict(),
				job.submitter(), (job.submitterTeams() != null) ? job.submitterTeams() : List.of(), job.deviceSerial(),
				job.driveModel(), job.firmware(), job.profile(), job.failureReason(), job.message(),
				verdictRecorded ? job.updatedAt() : enteredAt(job));
	}

	/** When the job entered its current state, as its own timestamps tell. */
	private static Instant enteredAt(Job job) {
		Instant entered = switch (job.state()) {
			case QUEUED -> job.queuedAt();
			case DISPATCHED -> job.dispatchedAt();
			case RUNNING -> job.startedAt();
			default -> job.endedAt();
		};
		return (entered != null) ? entered : job.updatedAt();
	}

}
