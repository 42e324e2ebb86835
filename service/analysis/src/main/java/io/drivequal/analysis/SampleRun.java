// What one sample's job gave for one plan of a campaign: its verdict and figures, or why there is none.
package io.drivequal.analysis;

import java.util.Map;
import java.util.Optional;

/**
 * One sample's result for one plan (profile) of a campaign.
 *
 * @param sample the sample (its serial)
 * @param plan the plan's name
 * @param verdict the job's verdict; empty when the job gave none
 * @param missingReason why there is no verdict (the job failed, was cancelled, runs
 * still); null when there is one
 * @param metrics the job's known figures: metric to (phase name, or "" for the job) to
 * value
 */
public record SampleRun(String sample, String plan, Optional<Verdict> verdict, String missingReason,
		Map<Metric, Map<String, Double>> metrics) {

	public SampleRun {
		if (sample == null || plan == null || verdict == null || metrics == null) {
			throw new IllegalArgumentException("sample, plan, verdict (Optional) and metrics are required");
		}
		if (verdict.isEmpty() && (missingReason == null || missingReason.isBlank())) {
			throw new IllegalArgumentException("a sample run without a verdict says why");
		}
		metrics = Map.copyOf(metrics);
	}

	/**
	 * @param sample the sample
	 * @param plan the plan
	 * @param verdict its job's verdict
	 * @param metrics its job's known figures
	 * @return the judged run
	 */
	public static SampleRun judged(String sample, String plan, Verdict verdict,
			Map<Metric, Map<String, Double>> metrics) {
		return new SampleRun(sample, plan, Optional.of(verdict), null, metrics);
	}

	/**
	 * @param sample the sample
	 * @param plan the plan
	 * @param reason why there is no result
	 * @return a run without a result
	 */
	public static SampleRun missing(String sample, String plan, String reason) {
		return new SampleRun(sample, plan, Optional.empty(), reason, Map.of());
	}

}
