/*
 * The model verdict as the API shows and the campaign document stores it: analysis.ModelVerdict
 * with wire names (metrics, comparators) and plain numbers.
 */
package io.drivequal.service.campaigns;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.drivequal.analysis.Comparison;
import io.drivequal.analysis.ModelVerdict;
import io.drivequal.analysis.Spread;

/**
 * @param outcome PASS, FAIL or INCONCLUSIVE
 * @param reasons why not PASS: failures first (naming sample and criterion), then missing
 * or inconclusive results
 * @param failingSamples serials of the samples that failed a criterion
 * @param criteria per profile and criterion: every sample, the worst, the spread
 * @param spreads the sample-to-sample consistency criteria, per profile
 * @param samples each sample's worst outcome over its profiles
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ModelVerdictView(String outcome, List<String> reasons, List<String> failingSamples,
		List<ModelCriterionRow> criteria, List<SpreadRow> spreads, List<SampleVerdict> samples, Instant judgedAt) {

	/**
	 * @param worstSample the sample with the worst measured value (lowest for atLeast,
	 * highest for atMost)
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record ModelCriterionRow(String profile, String metric, String comparator, double limit, String phase,
			String outcome, List<SampleCell> samples, String worstSample, SpreadFigures spread) {
	}

	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record SampleCell(String serial, String outcome, Double measured, String explanation) {
	}

	/**
	 * @param cvPercent sample standard deviation / mean x 100; absent with fewer than two
	 * values
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record SpreadFigures(int samples, double min, double max, double mean, Double cvPercent) {
	}

	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record SpreadRow(String metric, String profile, String phase, double maxCvPercent, String outcome,
			List<SpreadValue> values, SpreadFigures spread, String explanation) {
	}

	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record SpreadValue(String serial, Double value) {
	}

	public record SampleVerdict(String serial, String outcome) {
	}

	static ModelVerdictView of(ModelVerdict verdict, Instant judgedAt) {
		return new ModelVerdictView(verdict.outcome().name(), verdict.reasons(), verdict.failingSamples(), verdict
			.criteria()
			.stream()
			.map((row) -> new ModelCriterionRow(row.plan(), row.criterion().metric().wireName(),
					comparator(row.criterion().comparison()), row.criterion().limit(),
					row.criterion().phaseName().orElse(null), row.outcome().name(),
					row.cells()
						.stream()
						.map((cell) -> new SampleCell(cell.sample(), cell.outcome().name(),
								cell.measured().isPresent() ? cell.measured().getAsDouble() : null, cell.explanation()))
						.toList(),
					row.worstSample().orElse(null), row.spread().map(ModelVerdictView::figures).orElse(null)))
			.toList(),
				verdict.spreads()
					.stream()
					.map((spread) -> new SpreadRow(spread.criterion().metric().wireName(), spread.plan().orElse(null),
							spread.criterion().phaseName().orElse(null), spread.criterion().maxCvPercent(),
							spread.outcome().name(),
							spread.values()
								.stream()
								.map((value) -> new SpreadValue(value.sample(),
										value.value().isPresent() ? value.value().getAsDouble() : null))
								.toList(),
							spread.spread().map(ModelVerdictView::figures).orElse(null), spread.explanation()))
					.toList(),
				verdict.samples()
					.stream()
					.map((sample) -> new SampleVerdict(sample.sample(), sample.outcome().name()))
					.toList(),
				judgedAt);
	}

	static String comparator(Comparison comparison) {
		return (comparison == Comparison.AT_LEAST) ? "atLeast" : "atMost";
	}

	private static SpreadFigures figures(Spread spread) {
		return new SpreadFigures(spread.samples(), spread.min(), spread.max(), spread.mean(),
				spread.cvPercent().isPresent() ? spread.cvPercent().getAsDouble() : null);
	}

}
