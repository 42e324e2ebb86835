// Judges a drive model from its samples: every sample must pass every criterion, and the samples must agree.
package io.drivequal.analysis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * The model verdict of a campaign: the same criteria judged on every sample (each job's
 * own {@link Verdict}), per criterion every sample's outcome, the worst sample and the
 * spread across samples, plus the sample-to-sample consistency criteria
 * ({@link SpreadCriterion}). PASS only when every sample passes every criterion and every
 * spread criterion holds; FAIL, naming the sample and the criterion, when one fails;
 * otherwise INCONCLUSIVE with the reasons (a sample's result is missing or inconclusive).
 * A campaign with neither criteria nor spread criteria is INCONCLUSIVE: nothing was
 * checked.
 */
public final class ModelJudge {

	private ModelJudge() {
	}

	/**
	 * The model verdict.
	 * @param samples the samples, in campaign order
	 * @param plans the plans (profiles) every sample ran, in campaign order
	 * @param runs one per sample and plan; a pair without a run counts as missing
	 * @param spreads the sample-to-sample consistency criteria
	 * @return the verdict
	 */
	public static ModelVerdict judge(List<String> samples, List<String> plans, List<SampleRun> runs,
			List<SpreadCriterion> spreads) {
		Map<String, SampleRun> byCell = new LinkedHashMap<>();
		for (SampleRun run : runs) {
			byCell.put(key(run.sample(), run.plan()), run);
		}
		List<String> failures = new ArrayList<>();
		List<String> open = new ArrayList<>();
		Set<String> failing = new LinkedHashSet<>();
		Map<String, Outcome> sampleOutcomes = new LinkedHashMap<>();
		samples.forEach((sample) -> sampleOutcomes.put(sample, Outcome.PASS));
		List<ModelVerdict.CriterionRow> rows = new ArrayList<>();
		for (String plan : plans) {
			for (String sample : samples) {
				SampleRun run = byCell.get(key(sample, plan));
				if (run == null || run.verdict().isEmpty()) {
					String reason = (run != null) ? run.missingReason() : "no job";
					open.add("sample " + sample + " has no result for " + plan + ": " + reason);
					sampleOutcomes.merge(sample, Outcome.INCONCLUSIVE, ModelJudge::worse);
				}
			}
			for (Criterion criterion : criteriaOf(samples, plan, byCell)) {
				ModelVerdict.CriterionRow row = row(samples, plan, criterion, byCell);
				rows.add(row);
				for (ModelVerdict.Cell cell : row.cells()) {
					SampleRun run = byCell.get(key(cell.sample(), plan));
					boolean hasResult = run != null && run.verdict().isPresent();
					if (cell.outcome() == Outcome.FAIL) {
						failures.add("sample " + cell.sample() + " fails " + describe(criterion) + " in " + plan + ": "
								+ cell.explanation());
						failing.add(cell.sample());
						sampleOutcomes.merge(cell.sample(), Outcome.FAIL, ModelJudge::worse);
					}
					else if (cell.outcome() == Outcome.INCONCLUSIVE && hasResult) {
						open.add("sample " + cell.sample() + ", " + describe(criterion) + " in " + plan + ": "
								+ cell.explanation());
						sampleOutcomes.merge(cell.sample(), Outcome.INCONCLUSIVE, ModelJudge::worse);
					}
				}
			}
		}
		List<ModelVerdict.SpreadResult> spreadResults = new ArrayList<>();
		for (SpreadCriterion criterion : spreads) {
			for (ModelVerdict.SpreadResult result : spread(samples, plans, criterion, byCell)) {
				spreadResults.add(result);
				if (result.outcome() == Outcome.FAIL) {
					failures.add(result.explanation());
				}
				else if (result.outcome() == Outcome.INCONCLUSIVE) {
					open.add(result.explanation());
				}
			}
		}
		if (rows.isEmpty() && spreadResults.isEmpty()) {
			open.add("no criteria were given, so nothing was checked");
		}
		Outcome outcome = !failures.isEmpty() ? Outcome.FAIL : (!open.isEmpty() ? Outcome.INCONCLUSIVE : Outcome.PASS);
		List<String> reasons = new ArrayList<>(failures);
		reasons.addAll(open);
		List<ModelVerdict.SampleOutcome> perSample = new ArrayList<>();
		sampleOutcomes.forEach((sample, result) -> perSample.add(new ModelVerdict.SampleOutcome(sample, result)));
		return new ModelVerdict(outcome, reasons, List.copyOf(failing), rows, spreadResults, perSample);
	}

	/** The criteria the samples' jobs of a plan were judged on, first seen first. */
	private static Set<Criterion> criteriaOf(List<String> samples, String plan, Map<String, SampleRun> byCell) {
		Set<Criterion> criteria = new LinkedHashSet<>();
		for (String sample : samples) {
			SampleRun run = byCell.get(key(sample, plan));
			if (run != null && run.verdict().isPresent()) {
				run.verdict().get().criteria().forEach((result) -> criteria.add(result.criterion()));
			}
		}
		return criteria;
	}

	private static ModelVerdict.CriterionRow row(List<String> samples, String plan, Criterion criterion,
			Map<String, SampleRun> byCell) {
		List<ModelVerdict.Cell> cells = new ArrayList<>();
		List<Double> measured = new ArrayList<>();
		String worst = null;
		double worstValue = Double.NaN;
		boolean anyFail = false;
		boolean anyOpen = false;
		for (String sample : samples) {
			SampleRun run = byCell.get(key(sample, plan));
			ModelVerdict.Cell cell;
			if (run == null || run.verdict().isEmpty()) {
				cell = new ModelVerdict.Cell(sample, Outcome.INCONCLUSIVE, OptionalDouble.empty(),
						"no result: " + ((run != null) ? run.missingReason() : "no job"));
			}
			else {
				cell = run.verdict()
					.get()
					.criteria()
					.stream()
					.filter((result) -> result.criterion().equals(criterion))
					.findFirst()
					.map((result) -> new ModelVerdict.Cell(sample, result.outcome(), result.measured(),
							result.explanation()))
					.orElseGet(() -> new ModelVerdict.Cell(sample, Outcome.INCONCLUSIVE, OptionalDouble.empty(),
							"the job was not judged on this criterion"));
			}
			cells.add(cell);
			anyFail |= cell.outcome() == Outcome.FAIL;
			anyOpen |= cell.outcome() == Outcome.INCONCLUSIVE;
			if (cell.measured().isPresent()) {
				double value = cell.measured().getAsDouble();
				measured.add(value);
				if (worst == null || criterion.comparison().worse(value, worstValue)) {
					worst = sample;
					worstValue = value;
				}
			}
		}
		Outcome outcome = anyFail ? Outcome.FAIL : (anyOpen ? Outcome.INCONCLUSIVE : Outcome.PASS);
		return new ModelVerdict.CriterionRow(plan, criterion, outcome, cells, Optional.ofNullable(worst),
				measured.isEmpty() ? Optional.empty() : Optional.of(Spread.of(measured)));
	}

	private static List<ModelVerdict.SpreadResult> spread(List<String> samples, List<String> plans,
			SpreadCriterion criterion, Map<String, SampleRun> byCell) {
		List<ModelVerdict.SpreadResult> results = new ArrayList<>();
		List<String> judged = criterion.plan().map(List::of).orElse(plans);
		for (String plan : judged) {
			List<ModelVerdict.SampleValue> values = new ArrayList<>();
			List<String> missing = new ArrayList<>();
			List<Double> present = new ArrayList<>();
			boolean anyMeasures = false;
			for (String sample : samples) {
				SampleRun run = byCell.get(key(sample, plan));
				ValueOf value = valueOf(run, criterion);
				anyMeasures |= value.measures();
				values.add(new ModelVerdict.SampleValue(sample, value.value()));
				if (value.value().isPresent()) {
					present.add(value.value().getAsDouble());
				}
				else {
					missing.add(sample + " (" + value.why() + ")");
				}
			}
			if (!anyMeasures && criterion.plan().isEmpty() && byCellsOf(samples, plan, byCell)) {
				// A plan none of whose samples measures the metric is not what the
				// criterion is about.
				continue;
			}
			Optional<Spread> spread = present.isEmpty() ? Optional.empty() : Optional.of(Spread.of(present));
			String subject = criterion.metric().wireName()
					+ criterion.phaseName().map((p) -> " in phase " + p).orElse("") + " across the samples of " + plan;
			String limit = "limit CV <= " + format(criterion.maxCvPercent()) + " %";
			Outcome outcome;
			String explanation;
			if (!missing.isEmpty()) {
				outcome = Outcome.INCONCLUSIVE;
				explanation = subject + ": no value for " + String.join(", ", missing) + "; " + limit;
			}
			else if (spread.get().cvPercent().isEmpty()) {
				outcome = Outcome.INCONCLUSIVE;
				explanation = subject + ": the CV needs at least two samples and a mean other than 0; " + limit;
			}
			else {
				double cv = spread.get().cvPercent().getAsDouble();
				outcome = (cv <= criterion.maxCvPercent()) ? Outcome.PASS : Outcome.FAIL;
				explanation = subject + ": CV " + format(cv) + " % over " + present.size() + " samples (min "
						+ format(spread.get().min()) + ", max " + format(spread.get().max()) + "), " + limit;
			}
			results
				.add(new ModelVerdict.SpreadResult(criterion, Optional.of(plan), outcome, values, spread, explanation));
		}
		if (results.isEmpty()) {
			results.add(new ModelVerdict.SpreadResult(criterion, Optional.empty(), Outcome.INCONCLUSIVE, List.of(),
					Optional.empty(),
					criterion.metric().wireName() + " had no value in any plan of the campaign; limit CV <= "
							+ format(criterion.maxCvPercent()) + " %"));
		}
		return results;
	}

	/**
	 * Whether every sample of the plan has a result, so silence about a metric is
	 * meaningful.
	 */
	private static boolean byCellsOf(List<String> samples, String plan, Map<String, SampleRun> byCell) {
		return samples.stream().allMatch((sample) -> {
			SampleRun run = byCell.get(key(sample, plan));
			return run != null && run.verdict().isPresent();
		});
	}

	private record ValueOf(OptionalDouble value, boolean measures, String why) {
	}

	private static ValueOf valueOf(SampleRun run, SpreadCriterion criterion) {
		if (run == null || run.verdict().isEmpty()) {
			return new ValueOf(OptionalDouble.empty(), false,
					"no result: " + ((run != null) ? run.missingReason() : "no job"));
		}
		Map<String, Double> byPhase = run.metrics().getOrDefault(criterion.metric(), Map.of());
		if (criterion.phaseName().isPresent()) {
			Double value = byPhase.get(criterion.phaseName().get());
			return (value != null) ? new ValueOf(OptionalDouble.of(value), true, null) : new ValueOf(
					OptionalDouble.empty(), !byPhase.isEmpty(), "not measured in phase " + criterion.phaseName().get());
		}
		if (byPhase.containsKey("")) {
			return new ValueOf(OptionalDouble.of(byPhase.get("")), true, null);
		}
		if (byPhase.size() == 1) {
			return new ValueOf(OptionalDouble.of(byPhase.values().iterator().next()), true, null);
		}
		if (byPhase.isEmpty()) {
			return new ValueOf(OptionalDouble.empty(), false, "not measured");
		}
		return new ValueOf(OptionalDouble.empty(), true,
				"measured in phases " + String.join(", ", byPhase.keySet()) + ": the criterion must name one");
	}

	private static Outcome worse(Outcome a, Outcome b) {
		if (a == Outcome.FAIL || b == Outcome.FAIL) {
			return Outcome.FAIL;
		}
		return (a == Outcome.INCONCLUSIVE || b == Outcome.INCONCLUSIVE) ? Outcome.INCONCLUSIVE : Outcome.PASS;
	}

	/** "steadyStateIops >= 20000 in phase randwrite" */
	static String describe(Criterion criterion) {
		return criterion.metric().wireName() + " " + criterion.comparison().symbol() + " " + format(criterion.limit())
				+ criterion.phaseName().map((phase) -> " in phase " + phase).orElse("");
	}

	private static String format(double value) {
		if (value == Math.rint(value) && Math.abs(value) < 1e15) {
			return String.valueOf((long) value);
		}
		if (Math.abs(value) >= 100) {
			return String.format(Locale.ROOT, "%.0f", value);
		}
		String text = String.format(Locale.ROOT, "%.3g", value);
		return text.contains(".") && !text.contains("e") ? text.replaceAll("0+$", "").replaceAll("\\.$", "") : text;
	}

	private static String key(String sample, String plan) {
		return sample + "\u0000" + plan;
	}

}
