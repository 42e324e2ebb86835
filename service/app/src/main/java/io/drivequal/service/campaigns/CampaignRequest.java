/*
 * POST /api/v1/campaigns: which model, which samples of it, what to run on each, and what the model
 * must achieve — the criteria as a job submission takes them, plus how much the samples may differ.
 */
package io.drivequal.service.campaigns;

import java.util.List;

import io.drivequal.analysis.Criterion;
import io.drivequal.service.qualification.DriveSpec;
import io.drivequal.service.qualification.SubmitRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * @param name a label for people; optional
 * @param model the model under qualification; every sample's identify data must match it
 * @param samples the samples' drives, each in a runner's inventory, no serial twice
 * @param profiles what every sample runs, each as a job's plan (a catalog profile with
 * optional overrides, or explicit phases); no profile twice
 * @param criteria judged on every sample's job, after the named set's
 * @param criteriaSet a named set of the catalog (GET /api/v1/criteria-sets), judged on
 * every job
 * @param spreadCriteria how much the samples may differ (coefficient of variation across
 * samples)
 * @param priority of every job: normal (default) or high; urgent needs the admin role
 */
public record CampaignRequest(@Size(max = 128) String name, @NotNull @Valid ModelRef model,
		@NotNull @Size(min = 1, max = 64) List<@Valid @NotNull SampleSelector> samples,
		@NotNull @Size(min = 1, max = 16) List<SubmitRequest.@Valid @NotNull TestPlan> profiles, @Valid DriveSpec spec,
		@Size(max = 64) List<@NotNull Criterion> criteria, @Size(max = 64) String criteriaSet,
		@Size(max = 16) List<@Valid @NotNull SpreadLimit> spreadCriteria,
		@Pattern(regexp = "^(normal|high|urgent)$", message = "must be normal, high or urgent") String priority) {

	/**
	 * @param vendor the vendor's name; recorded (the NVMe identify data the runners
	 * report carry no vendor name, so it is not checked)
	 * @param model the identify data's model number; every sample must report exactly
	 * this
	 * @param firmware the identify data's firmware revision; every sample must report
	 * exactly this
	 */
	public record ModelRef(@Size(max = 64) String vendor, @NotBlank @Size(max = 64) String model,
			@NotBlank @Size(max = 16) String firmware) {
	}

	/**
	 * @param serial a drive in a runner's inventory
	 * @param runnerId optional: assert which runner holds it
	 */
	public record SampleSelector(@NotBlank @Size(max = 64) String serial, @Size(max = 64) String runnerId) {
	}

	/**
	 * The samples' agreement: the coefficient of variation of {@code metric} across the
	 * samples must be at most {@code maxCvPercent}.
	 *
	 * @param metric a metric's wire name (GET /api/v1/metrics)
	 * @param profile the profile it applies to; absent: every profile that measures the
	 * metric
	 * @param phase the phase whose value counts; absent: the job-level value, else the
	 * one phase that measures it
	 * @param maxCvPercent e.g. 5 for "at most 5 %"
	 */
	public record SpreadLimit(@NotBlank @Size(max = 64) String metric, @Size(max = 64) String profile,
			@Size(max = 64) String phase, @NotNull @DecimalMin("0") @DecimalMax("1000") Double maxCvPercent) {
	}

}
