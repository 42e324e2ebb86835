/*
 * Turns a campaign and its jobs (read once) into what the API shows: the grid, counts, progress and
 * ETA computed at read time from the jobs, as a job's progress is.
 */
package io.drivequal.service.campaigns;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.drivequal.service.qualification.JobState;
import io.drivequal.service.qualification.QualificationView;

final class CampaignViews {

	private CampaignViews() {
	}

	static CampaignView of(CampaignService.Current current, List<String> warnings) {
		Campaign campaign = current.campaign();
		Map<String, Integer> counts = CampaignService.emptyCounts();
		List<CampaignView.GridCell> grid = new ArrayList<>();
		List<CampaignView.GridCell> needsRerun = new ArrayList<>();
		Map<String, Long> remainingByDrive = new HashMap<>();
		double progress = 0;
		for (Campaign.Cell cell : campaign.cells()) {
			QualificationView job = current.jobs().get(cell.jobId());
			CampaignView.GridCell view;
			if (job == null) {
				counts.merge(JobState.QUEUED.name(), 1, Integer::sum);
				view = new CampaignView.GridCell(cell.serial(), cell.plan(), cell.jobId(), previous(cell), "MISSING",
						0.0, null, null, null,
						"the job is not stored (the service stopped while queueing it); rerun it", null, null);
				needsRerun.add(view);
			}
			else {
				counts.merge(job.state().name(), 1, Integer::sum);
				view = new CampaignView.GridCell(cell.serial(), cell.plan(), cell.jobId(), previous(cell),
						job.state().name(), job.progressPercent(), job.etaS(), job.verdict(), job.failureReason(),
						job.message(), (job.drive() != null) ? job.drive().model() : null,
						(job.drive() != null) ? job.drive().firmware() : null);
				progress += (job.progressPercent() != null) ? job.progressPercent()
						: (job.state() == JobState.COMPLETED ? 100 : 0);
				if (!job.state().isFinal() && job.etaS() != null) {
					remainingByDrive.merge(cell.serial(), job.etaS(), Long::sum);
				}
				if (job.state().isFinal() && job.state() != JobState.COMPLETED) {
					needsRerun.add(view);
				}
			}
			grid.add(view);
		}
		int jobs = campaign.cells().size();
		double percent = (jobs > 0) ? Math.round(10.0 * progress / jobs) / 10.0 : 0;
		long eta = remainingByDrive.values().stream().mapToLong(Long::longValue).max().orElse(0);
		return new CampaignView(campaign.campaignId(), campaign.name(), campaign.state(), campaign.submitter(),
				campaign.model(), campaign.samples(), campaign.plans().stream().map(Campaign.Plan::name).toList(),
				campaign.plans()
					.stream()
					.map((plan) -> new CampaignView.CampaignPlan(plan.name(), plan.plan()))
					.toList(),
				campaign.spec(), campaign.criteria(), campaign.criteriaSet(), campaign.spreadCriteria(),
				campaign.priority(), counts, jobs, campaign.state() == CampaignState.COMPLETED ? 100.0 : percent,
				campaign.state().isFinal() ? 0 : eta, grid, needsRerun.isEmpty() ? null : needsRerun,
				campaign.createdAt(), campaign.updatedAt(), campaign.endedAt(), campaign.cancelRequestedAt() != null,
				campaign.verdict(), campaign.modelVerdict(),
				(warnings == null || warnings.isEmpty()) ? null : warnings);
	}

	private static List<String> previous(Campaign.Cell cell) {
		return (cell.previousJobIds() == null || cell.previousJobIds().isEmpty()) ? null : cell.previousJobIds();
	}

}
