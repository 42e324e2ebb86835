/*
 * Reads a job's stored verdict and figures (its analysis, as the analysis feature recorded it) back
 * into the analysis library's types, so the model verdict judges exactly what each job was judged
 * on; a job without a verdict becomes a missing result with the reason.
 */
package io.drivequal.service.campaigns;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

import io.drivequal.analysis.Comparison;
import io.drivequal.analysis.Criterion;
import io.drivequal.analysis.CriterionResult;
import io.drivequal.analysis.Metric;
import io.drivequal.analysis.Outcome;
import io.drivequal.analysis.SampleRun;
import io.drivequal.analysis.Verdict;
import io.drivequal.service.qualification.JobState;
import io.drivequal.service.qualification.QualificationView;

final class StoredVerdicts {

	private StoredVerdicts() {
	}

	static SampleRun run(String serial, String plan, String jobId, QualificationView job, String campaignId) {
		if (job == null) {
			return SampleRun.missing(serial, plan,
					"job " + jobId + " is not stored; rerun it (POST /api/v1/campaigns/" + campaignId + "/rerun)");
		}
		if (job.state() != JobState.COMPLETED) {
			String why = "job " + jobId + " ended " + job.state()
					+ ((job.failureReason() != null) ? " (" + job.failureReason() + ")" : "");
			return SampleRun.missing(serial, plan,
					job.state().isFinal() ? why + "; rerun it (POST /api/v1/campaigns/" + campaignId + "/rerun)"
							: "job " + jobId + " is " + job.state());
		}
		Optional<Verdict> verdict = verdict(job.analysis());
		if (job.verdict() == null || verdict.isEmpty()) {
			return SampleRun.missing(serial, plan, "job " + jobId + " has no verdict yet");
		}
		return SampleRun.judged(serial, plan, verdict.get(), metrics(job.analysis()));
	}

	/**
	 * The stored analysis.verdict: outcome and criteria as JobAnalyzer's JSON has them.
	 */
	static Optional<Verdict> verdict(Map<String, Object> analysis) {
		if (analysis == null || !(analysis.get("verdict") instanceof Map<?, ?> verdict)) {
			return Optional.empty();
		}
		List<CriterionResult> results = new ArrayList<>();
		if (verdict.get("criteria") instanceof List<?> criteria) {
			for (Object item : criteria) {
				if (!(item instanceof Map<?, ?> result) || !(result.get("criterion") instanceof Map<?, ?> criterion)) {
					continue;
				}
				Optional<Metric> metric = metric(criterion.get("metric"));
				if (metric.isEmpty()) {
					continue;
				}
				Comparison comparison = Comparison.valueOf(String.valueOf(criterion.get("comparison")));
				double limit = ((Number) criterion.get("limit")).doubleValue();
				Optional<String> phase = (criterion.get("phaseName") instanceof String name) ? Optional.of(name)
						: Optional.empty();
				OptionalDouble measured = (result.get("measured") instanceof Number number)
						? OptionalDouble.of(number.doubleValue()) : OptionalDouble.empty();
				Optional<String> measuredIn = (result.get("measuredInPhase") instanceof String name) ? Optional.of(name)
						: Optional.empty();
				results.add(new CriterionResult(new Criterion(metric.get(), comparison, limit, phase),
						Outcome.valueOf(String.valueOf(result.get("outcome"))), measured, measuredIn,
						String.valueOf(result.get("explanation"))));
			}
		}
		return Optional.of(new Verdict(Outcome.valueOf(String.valueOf(verdict.get("outcome"))), results));
	}

	/** The stored analysis.metrics: wire name to (phase, or "") to value. */
	static Map<Metric, Map<String, Double>> metrics(Map<String, Object> analysis) {
		Map<Metric, Map<String, Double>> metrics = new EnumMap<>(Metric.class);
		if (analysis == null || !(analysis.get("metrics") instanceof Map<?, ?> stored)) {
			return metrics;
		}
		stored.forEach((name, byPhase) -> metric(name).ifPresent((metric) -> {
			if (byPhase instanceof Map<?, ?> values) {
				Map<String, Double> known = new LinkedHashMap<>();
				values.forEach((phase, value) -> {
					if (value instanceof Number number) {
						known.put(String.valueOf(phase), number.doubleValue());
					}
				});
				metrics.put(metric, known);
			}
		}));
		return metrics;
	}

	/**
	 * An enum name (STEADY_STATE_IOPS, as the verdict's criteria store it) or a wire
	 * name.
	 */
	private static Optional<Metric> metric(Object name) {
		String text = String.valueOf(name);
		for (Metric metric : Metric.values()) {
			if (metric.name().equals(text) || metric.wireName().equals(text)) {
				return Optional.of(metric);
			}
		}
		return Optional.empty();
	}

}
