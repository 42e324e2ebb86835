/*
 * A campaign as GET /api/v1/campaigns/{id} shows it: the grid of samples x profiles with each job's
 * state, progress and verdict, the counts per job state, progress and ETA, and the model verdict.
 */
package io.drivequal.service.campaigns;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.drivequal.analysis.Criterion;
import io.drivequal.service.qualification.DriveSpec;
import io.drivequal.service.qualification.SubmitRequest;

/**
 * @param profiles the grid's columns: each plan's name (its profile, or phases-N)
 * @param counts the jobs per job state (QUEUED, DISPATCHED, RUNNING, COMPLETED, FAILED,
 * CANCELLED, INTERRUPTED); every state present, 0 when none
 * @param jobs how many jobs the grid holds (samples x profiles)
 * @param progressPercent the mean of the jobs' progress
 * @param etaS the longest of the drives' remaining work (each drive runs its jobs one
 * after another); an estimate, as a job's ETA is
 * @param grid one cell per sample and profile, samples in request order
 * @param needsRerun the cells whose job ended without a result (FAILED, INTERRUPTED,
 * CANCELLED): rerun them with POST /api/v1/campaigns/{id}/rerun
 * @param warnings what the runners will refuse, said at creation (like a job's)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CampaignView(String id, String name, CampaignState state, String submitter,
		CampaignRequest.ModelRef model, List<CampaignRequest.SampleSelector> samples, List<String> profiles,
		List<CampaignPlan> plans, DriveSpec spec, List<Criterion> criteria, String criteriaSet,
		List<CampaignRequest.SpreadLimit> spreadCriteria, String priority, Map<String, Integer> counts, int jobs,
		double progressPercent, long etaS, List<GridCell> grid, List<GridCell> needsRerun, Instant createdAt,
		Instant updatedAt, Instant endedAt, boolean cancelRequested, String verdict, ModelVerdictView modelVerdict,
		List<String> warnings) {

	public record CampaignPlan(String name, SubmitRequest.TestPlan plan) {
	}

	/**
	 * @param jobId the job that stands for this cell now
	 * @param previousJobIds the jobs a rerun replaced, oldest first
	 * @param verdict the job's own verdict, once analysed
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record GridCell(String serial, String profile, String jobId, List<String> previousJobIds, String state,
			Double progressPercent, Long etaS, String verdict, String failureReason, String message, String driveModel,
			String firmware) {
	}

}
