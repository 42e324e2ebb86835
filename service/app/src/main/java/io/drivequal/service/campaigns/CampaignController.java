/*
 * /api/v1/campaigns: qualify a drive model on several samples — create, list, look up, cancel,
 * rerun one sample's job — and the campaign's exports (JSON, CSV).
 */
package io.drivequal.service.campaigns;

import java.net.URI;
import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

import io.drivequal.service.audit.Audited;
import io.drivequal.service.ingest.PhaseHistograms;
import io.drivequal.service.platform.BadRequestException;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.validation.annotation.Validated;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/campaigns")
@Validated
class CampaignController {

	static final String CONFLICT = "#/components/responses/Conflict";

	/** Elasticsearch's default index.max_result_window. */
	static final int MAX_RESULT_WINDOW = 10000;

	private final CampaignService campaigns;

	private final PhaseHistograms histograms;

	CampaignController(CampaignService campaigns, PhaseHistograms histograms) {
		this.campaigns = campaigns;
		this.histograms = histograms;
	}

	record PageView(long total, int page, int size, List<CampaignView> items) {
	}

	/**
	 * @param serial the sample whose job to run again
	 * @param profile the profile (the grid's column) to run again on it
	 */
	record RerunRequest(@NotBlank @Size(max = 64) String serial, @NotBlank @Size(max = 64) String profile) {
	}

	/**
	 * 201 with Location for a new campaign (its jobs queued); 200 with the original for a
	 * repeated Idempotency-Key. Every job is checked before any is queued: a 400 leaves
	 * nothing behind.
	 */
	@PostMapping
	@Audited("campaign.create")
	@ApiResponse(responseCode = "201", description = "the new campaign, its jobs queued")
	@ApiResponse(responseCode = "200",
			description = "the campaign an earlier request with this Idempotency-Key created")
	ResponseEntity<CampaignView> create(@Valid @RequestBody CampaignRequest request,
			@RequestHeader(name = "Idempotency-Key", required = false) @Parameter(
					description = "repeating a creation with the same key answers the campaign the first one created",
					schema = @Schema(minLength = 1, maxLength = 128)) String idempotencyKey,
			Authentication caller) {
		CampaignService.Created created = this.campaigns.create(request, caller, idempotencyKey);
		URI location = URI.create("/api/v1/campaigns/" + created.campaign().campaignId());
		CampaignView view = CampaignViews.of(this.campaigns.current(created.campaign().campaignId()),
				created.warnings());
		return ResponseEntity.status(created.created() ? HttpStatus.CREATED : HttpStatus.OK)
			.location(location)
			.body(view);
	}

	@GetMapping
	PageView list(@RequestParam(required = false) CampaignState state,
			@RequestParam(required = false) @Parameter(description = "the identify data's model number") String model,
			@RequestParam(required = false) String firmware, @RequestParam(required = false) String submitter,
			@RequestParam(defaultValue = "0") @Min(0) @Max(10000) int page,
			@RequestParam(defaultValue = "20") @Min(1) @Max(100) int size) {
		if ((long) (page + 1) * size > MAX_RESULT_WINDOW) {
			throw new BadRequestException("page",
					"page * size must stay within the first " + MAX_RESULT_WINDOW + " results; narrow the filters");
		}
		CampaignStore.Page result = this.campaigns
			.list(new CampaignStore.CampaignQuery(state, submitter, model, firmware, page, size));
		return new PageView(result.total(), page, size,
				result.campaigns().stream().map((c) -> CampaignViews.of(this.campaigns.refresh(c), null)).toList());
	}

	@GetMapping("/{id}")
	CampaignView get(@PathVariable String id) {
		return CampaignViews.of(this.campaigns.current(id), null);
	}

	/**
	 * The submitter or an admin: queued jobs are cancelled at once, running ones are told
	 * to stop. 200 when the campaign is CANCELLED now; 202 while its runners stop.
	 */
	@PostMapping("/{id}/cancel")
	@Audited("campaign.cancel")
	@ApiResponse(responseCode = "200", description = "no job was running: CANCELLED now")
	@ApiResponse(responseCode = "202", description = "runners were told to stop the running jobs")
	@ApiResponse(responseCode = "409", ref = CONFLICT)
	ResponseEntity<CampaignView> cancel(@PathVariable String id, Authentication caller) {
		CampaignView view = CampaignViews.of(this.campaigns.cancel(id, caller), null);
		return ResponseEntity.status((view.state() == CampaignState.CANCELLED) ? HttpStatus.OK : HttpStatus.ACCEPTED)
			.body(view);
	}

	/**
	 * The submitter or an admin: one cell's job has ended (a runner was lost, the job
	 * failed or was cancelled) and runs again as a new job; the cell keeps the old one in
	 * its history and the model verdict waits for the new one.
	 */
	@PostMapping("/{id}/rerun")
	@Audited("campaign.rerun")
	@ApiResponse(responseCode = "200", description = "the campaign, the cell's new job queued")
	@ApiResponse(responseCode = "409", ref = CONFLICT)
	CampaignView rerun(@PathVariable String id, @Valid @RequestBody RerunRequest rerun, Authentication caller) {
		return CampaignViews.of(this.campaigns.rerun(id, rerun.serial(), rerun.profile(), caller), null);
	}

	/**
	 * This campaign (the candidate, e.g. a new firmware) against a baseline campaign on
	 * one profile: the relative difference of their steady-state round IOPS with its
	 * Welch t interval over the samples' means (which carry each run's rounds), and "no
	 * regression beyond marginPercent % at this confidence" (docs/api.md, "Campaigns").
	 */
	@GetMapping("/{id}/compare")
	CampaignComparison.View compare(@PathVariable String id,
			@RequestParam @Parameter(description = "the baseline campaign's id") String baseline,
			@RequestParam @Parameter(description = "the profile (plan name) both campaigns ran") String profile,
			@RequestParam(required = false) @Parameter(
					description = "the phase; absent: the one phase with an IOPS analysis") String phase,
			@RequestParam(defaultValue = "5") @DecimalMin("0") @DecimalMax("100") double marginPercent,
			@RequestParam(defaultValue = "0.95") @DecimalMin("0.5") @DecimalMax("0.999") double confidence) {
		return CampaignComparison.compare(this.campaigns.current(id), this.campaigns.current(baseline), profile, phase,
				marginPercent, confidence);
	}

	/**
	 * Fleet-wide latency: per profile, phase and direction, the percentiles of the merged
	 * latency histograms of every sample's completed job (never averaged percentiles),
	 * with each sample's own beside them.
	 */
	@GetMapping("/{id}/latency")
	CampaignLatency.FleetLatencyView latency(@PathVariable String id) {
		return CampaignLatency.of(this.campaigns.current(id), this.histograms);
	}

	/** The campaign with its grid and model verdict, as a file. */
	@GetMapping(path = "/{id}/results.json", produces = MediaType.APPLICATION_JSON_VALUE)
	ResponseEntity<CampaignView> resultsJson(@PathVariable String id) {
		CampaignView view = CampaignViews.of(this.campaigns.current(id), null);
		return ResponseEntity.ok()
			.header(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=\"" + id + "-results.json\"")
			.body(view);
	}

	/**
	 * One row per sample, profile and criterion (the sample's outcome and measured
	 * value), then the rows of each criterion's worst sample and spread, then the spread
	 * criteria.
	 */
	@GetMapping(path = "/{id}/results.csv", produces = "text/csv")
	@ApiResponse(responseCode = "200", description = "the grid and the model verdict as CSV",
			content = @Content(mediaType = "text/csv", schema = @Schema(type = "string")))
	ResponseEntity<String> resultsCsv(@PathVariable String id) {
		CampaignView view = CampaignViews.of(this.campaigns.current(id), null);
		return ResponseEntity.ok()
			.contentType(MediaType.parseMediaType("text/csv; charset=utf-8"))
			.header(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=\"" + id + "-results.csv\"")
			.body(CampaignCsv.of(view));
	}

}
