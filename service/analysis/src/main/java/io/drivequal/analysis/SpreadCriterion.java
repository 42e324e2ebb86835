// A sample-to-sample consistency criterion, e.g. "steadyStateIops CV across samples at most 5 %".
package io.drivequal.analysis;

import java.util.Optional;

/**
 * How much the samples of a model may differ in one figure: the coefficient of variation
 * ({@link Spread#cvPercent()}) of the metric across the samples must be at most
 * {@code maxCvPercent}.
 *
 * @param metric the figure compared across samples
 * @param plan the campaign plan (profile) it applies to; empty: every plan that measures
 * the metric
 * @param phaseName the phase whose value counts; empty: the job-level value, else the one
 * phase that measures the metric
 * @param maxCvPercent the largest coefficient of variation accepted, in percent
 */
public record SpreadCriterion(Metric metric, Optional<String> plan, Optional<String> phaseName, double maxCvPercent) {

	public SpreadCriterion {
		if (metric == null || plan == null || phaseName == null) {
			throw new IllegalArgumentException("metric, plan and phaseName (Optional) are required");
		}
		if (!Double.isFinite(maxCvPercent) || maxCvPercent < 0) {
			throw new IllegalArgumentException("maxCvPercent must be a finite number >= 0, got " + maxCvPercent);
		}
	}

	/**
	 * @param metric the figure
	 * @param maxCvPercent the largest CV accepted, in percent
	 * @return the criterion for every plan, the metric's job-level or only phase value
	 */
	public static SpreadCriterion cvAtMost(Metric metric, double maxCvPercent) {
		return new SpreadCriterion(metric, Optional.empty(), Optional.empty(), maxCvPercent);
	}

}
