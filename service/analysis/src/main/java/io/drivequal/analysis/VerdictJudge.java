// Judges a buyer's criteria against the measured values: the verdict next to every number.
package io.drivequal.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Each criterion gets PASS, FAIL or INCONCLUSIVE (value missing or unknown). A criterion
 * naming a phase looks only there; one without a phase applies to every value of its
 * metric (each phase and the job) and reports the worst. The job is FAIL if any criterion
 * fails, else INCONCLUSIVE if any is inconclusive, else PASS; a job without criteria is
 * INCONCLUSIVE, since nothing was checked.
 */
public final class VerdictJudge {

	private VerdictJudge() {
	}

	/**
	 * The verdict.
	 * @param criteria the buyer's criteria
	 * @param values what was measured
	 * @return the job's outcome and every criterion's result, in the given order
	 */
	public static Verdict judge(List<Criterion> criteria, MetricValues values) {
		List<CriterionResult> results = new ArrayList<>(criteria.size());
		boolean anyFail = false;
		boolean anyInconclusive = criteria.isEmpty();
		for (Criterion criterion : criteria) {
			CriterionResult result = judge(criterion, values);
			results.add(result);
			anyFail |= result.outcome() == Outcome.FAIL;
			anyInconclusive |= result.outcome() == Outcome.INCONCLUSIVE;
		}
		Outcome outcome = anyFail ? Outcome.FAIL : (anyInconclusive ? Outcome.INCONCLUSIVE : Outcome.PASS);
		return new Verdict(outcome, results);
	}

	/**
	 * One criterion's result.
	 * @param criterion the criterion
	 * @param values what was measured
	 * @return its result
	 */
	public static CriterionResult judge(Criterion criterion, MetricValues values) {
		Map<String, Measure> measured = values.of(criterion.metric());
		String where = criterion.phaseName().map((phase) -> " in phase " + phase).orElse("");
		if (criterion.phaseName().isPresent()) {
			Measure value = measured.get(criterion.phaseName().get());
			measured = (value == null) ? Map.of() : Map.of(criterion.phaseName().get(), value);
		}
		if (measured.isEmpty()) {
			return new CriterionResult(criterion, Outcome.INCONCLUSIVE, OptionalDouble.empty(), Optional.empty(),
					criterion.metric().wireName() + " was not measured" + where);
		}
		Comparison comparison = criterion.comparison();
		String worstFailing = null;
		String worst = null;
		String firstUnknown = null;
		for (Map.Entry<String, Measure> entry : measured.entrySet()) {
			OptionalDouble value = entry.getValue().value();
			if (value.isEmpty()) {
				firstUnknown = (firstUnknown != null) ? firstUnknown : entry.getKey();
				continue;
			}
			double number = value.getAsDouble();
			if (worst == null || comparison.worse(number, measured.get(worst).value().getAsDouble())) {
				worst = entry.getKey();
			}
			if (!comparison.accepts(number, criterion.limit()) && (worstFailing == null
					|| comparison.worse(number, measured.get(worstFailing).value().getAsDouble()))) {
				worstFailing = entry.getKey();
			}
		}
		if (worstFailing != null) {
			return decided(criterion, Outcome.FAIL, worstFailing, measured.get(worstFailing));
		}
		if (firstUnknown != null) {
			Measure.Unknown unknown = (Measure.Unknown) measured.get(firstUnknown);
			return new CriterionResult(criterion, Outcome.INCONCLUSIVE, OptionalDouble.empty(), phase(firstUnknown),
					criterion.metric().wireName() + " is unknown" + phaseText(firstUnknown) + ": " + unknown.reason());
		}
		return decided(criterion, Outcome.PASS, worst, measured.get(worst));
	}

	private static CriterionResult decided(Criterion criterion, Outcome outcome, String key, Measure value) {
		double number = value.value().getAsDouble();
		String explanation = String.format(Locale.ROOT, "%s measured %s %s%s, limit %s %s",
				criterion.metric().wireName(), format(number), criterion.metric().unit(), phaseText(key),
				criterion.comparison().symbol(), format(criterion.limit()));
		return new CriterionResult(criterion, outcome, OptionalDouble.of(number), phase(key), explanation);
	}

	private static Optional<String> phase(String key) {
		return MetricValues.isJobLevel(key) ? Optional.empty() : Optional.of(key);
	}

	private static String phaseText(String key) {
		return MetricValues.isJobLevel(key) ? "" : " in phase " + key;
	}

	private static String format(double number) {
		return (number == Math.rint(number) && Math.abs(number) < 1e15) ? Long.toString((long) number)
				: String.format(Locale.ROOT, "%.6g", number);
	}

}
