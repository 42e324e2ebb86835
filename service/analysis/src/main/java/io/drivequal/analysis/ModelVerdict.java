// The verdict on a drive model from all its samples: per criterion every sample, the worst, the spread.
package io.drivequal.analysis;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The verdict on a model, judged over every sample of a campaign ({@link ModelJudge}).
 *
 * @param outcome PASS only when every sample passes every criterion and every spread
 * criterion holds; FAIL when a sample fails a criterion or a spread criterion fails;
 * otherwise INCONCLUSIVE
 * @param reasons why it is not PASS: each failure (naming the sample and the criterion)
 * first, then each missing or inconclusive result; empty for PASS
 * @param failingSamples the samples that failed a criterion, in campaign order
 * @param criteria per plan and criterion, every sample's outcome
 * @param spreads the sample-to-sample consistency criteria, per plan
 * @param samples each sample's worst outcome over its plans
 */
public record ModelVerdict(Outcome outcome, List<String> reasons, List<String> failingSamples,
		List<CriterionRow> criteria, List<SpreadResult> spreads, List<SampleOutcome> samples) {

	public ModelVerdict {
		reasons = List.copyOf(reasons);
		failingSamples = List.copyOf(failingSamples);
		criteria = List.copyOf(criteria);
		spreads = List.copyOf(spreads);
		samples = List.copyOf(samples);
	}

	/**
	 * One criterion of one plan, over every sample.
	 *
	 * @param plan the plan's name
	 * @param criterion the criterion
	 * @param outcome FAIL if a sample fails it, else INCONCLUSIVE if a sample has no
	 * answer, else PASS
	 * @param cells one per sample, in campaign order
	 * @param worstSample the sample with the worst measured value (lowest for atLeast,
	 * highest for atMost); empty when none was measured
	 * @param spread the spread of the measured values; empty when none was measured
	 */
	public record CriterionRow(String plan, Criterion criterion, Outcome outcome, List<Cell> cells,
			Optional<String> worstSample, Optional<Spread> spread) {

		public CriterionRow {
			cells = List.copyOf(cells);
		}

	}

	/**
	 * One sample's answer to one criterion.
	 *
	 * @param sample the sample
	 * @param outcome its outcome (INCONCLUSIVE when it has no result)
	 * @param measured the deciding value, when measured
	 * @param explanation the job's sentence, or why there is none
	 */
	public record Cell(String sample, Outcome outcome, OptionalDouble measured, String explanation) {
	}

	/**
	 * A spread criterion judged over one plan's samples.
	 *
	 * @param criterion the criterion
	 * @param plan the plan it was judged over; empty when no plan measured the metric
	 * @param outcome PASS when every sample has a value and their CV is within the limit,
	 * FAIL when it is not, INCONCLUSIVE when a value is missing
	 * @param values each sample's value, in campaign order (absent: not measured)
	 * @param spread the spread of the values present
	 * @param explanation one sentence for the report
	 */
	public record SpreadResult(SpreadCriterion criterion, Optional<String> plan, Outcome outcome,
			List<SampleValue> values, Optional<Spread> spread, String explanation) {

		public SpreadResult {
			values = List.copyOf(values);
		}

	}

	/**
	 * @param sample the sample
	 * @param value its value, when it has one
	 */
	public record SampleValue(String sample, OptionalDouble value) {
	}

	/**
	 * @param sample the sample
	 * @param outcome FAIL if it failed a criterion in any plan, else INCONCLUSIVE if a
	 * plan gave no answer, else PASS
	 */
	public record SampleOutcome(String sample, Outcome outcome) {
	}

}
