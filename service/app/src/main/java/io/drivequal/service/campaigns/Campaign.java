/*
 * A campaign as stored in Elasticsearch (index drivequal-campaigns, id = campaignId). Immutable; a
 * change is a new Campaign written back with optimistic concurrency (CampaignStore.update).
 */
package io.drivequal.service.campaigns;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.drivequal.analysis.Criterion;
import io.drivequal.service.qualification.DriveSpec;
import io.drivequal.service.qualification.SubmitRequest;

/**
 * @param plans the profiles each sample runs, by their campaign name (the grid's columns)
 * @param cells one per sample and plan: the job that stands for it now, and the jobs it
 * replaced (reruns)
 * @param counts the cells' current jobs per job state, as of {@code updatedAt}
 * @param reruns how many reruns the campaign had (event ids of the webhooks count them)
 * @param modelVerdict the model verdict (analysis.ModelVerdict as the API shows it) once
 * every job has ended
 */
record Campaign(String campaignId, String name, CampaignState state, String submitter, List<String> submitterTeams,
		CampaignRequest.ModelRef model, List<CampaignRequest.SampleSelector> samples, List<Plan> plans, DriveSpec spec,
		List<Criterion> criteria, String criteriaSet, List<CampaignRequest.SpreadLimit> spreadCriteria, String priority,
		List<Cell> cells, Map<String, Integer> counts, int reruns, Instant createdAt, Instant updatedAt,
		Instant endedAt, Instant cancelRequestedAt, String cancelRequestedBy, String verdict,
		ModelVerdictView modelVerdict, String idempotencyKey) {

	/**
	 * @param name the plan's name in the campaign: its profile, or phases-N for explicit
	 * phases
	 */
	record Plan(String name, SubmitRequest.TestPlan plan) {
	}

	/**
	 * @param previousJobIds the jobs this cell had before a rerun, oldest first
	 */
	record Cell(String serial, String plan, String jobId, List<String> previousJobIds) {

		Cell rerunAs(String newJobId) {
			List<String> previous = new ArrayList<>((this.previousJobIds != null) ? this.previousJobIds : List.of());
			previous.add(this.jobId);
			return new Cell(this.serial, this.plan, newJobId, previous);
		}

	}

	static String newId() {
		return "c-" + UUID.randomUUID().toString().replace("-", "").substring(0, 24);
	}

	Campaign with(CampaignState state, Map<String, Integer> counts, Instant updatedAt, Instant endedAt, String verdict,
			ModelVerdictView modelVerdict) {
		return new Campaign(this.campaignId, this.name, state, this.submitter, this.submitterTeams, this.model,
				this.samples, this.plans, this.spec, this.criteria, this.criteriaSet, this.spreadCriteria,
				this.priority, this.cells, counts, this.reruns, this.createdAt, updatedAt, endedAt,
				this.cancelRequestedAt, this.cancelRequestedBy, verdict, modelVerdict, this.idempotencyKey);
	}

	Campaign cancelRequested(Instant at, String by) {
		return new Campaign(this.campaignId, this.name, this.state, this.submitter, this.submitterTeams, this.model,
				this.samples, this.plans, this.spec, this.criteria, this.criteriaSet, this.spreadCriteria,
				this.priority, this.cells, this.counts, this.reruns, this.createdAt, at, this.endedAt, at, by,
				this.verdict, this.modelVerdict, this.idempotencyKey);
	}

	/** The cell of {@code serial} and {@code plan} now stands for {@code newJobId}. */
	Campaign rerun(int cellIndex, String newJobId, Instant at) {
		List<Cell> changed = new ArrayList<>(this.cells);
		changed.set(cellIndex, this.cells.get(cellIndex).rerunAs(newJobId));
		return new Campaign(this.campaignId, this.name, CampaignState.RUNNING, this.submitter, this.submitterTeams,
				this.model, this.samples, this.plans, this.spec, this.criteria, this.criteriaSet, this.spreadCriteria,
				this.priority, changed, this.counts, this.reruns + 1, this.createdAt, at, null, this.cancelRequestedAt,
				this.cancelRequestedBy, null, null, this.idempotencyKey);
	}

}
