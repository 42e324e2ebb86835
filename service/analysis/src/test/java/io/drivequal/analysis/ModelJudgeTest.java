// The model verdict over a campaign's samples: PASS, FAIL naming sample and criterion, INCONCLUSIVE with reasons, the spread.
package io.drivequal.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ModelJudgeTest {

	private static final String PLAN = "consistency-2000s";

	private static final String PHASE = "randwrite-4k-qd32";

	private static final List<String> SAMPLES = List.of("S1", "S2", "S3", "S4");

	private static final List<Criterion> CRITERIA = List.of(
			Criterion.atLeast(Metric.STEADY_STATE_IOPS, 20000).inPhase(PHASE),
			Criterion.atMost(Metric.WRITE_LATENCY_P9999_US, 10000));

	/** A sample's job judged on CRITERIA with these figures. */
	private static SampleRun run(String sample, double iops, double p9999) {
		MetricValues values = new MetricValues().put(Metric.STEADY_STATE_IOPS, PHASE, Measure.known(iops))
			.put(Metric.WRITE_LATENCY_P9999_US, PHASE, Measure.known(p9999));
		return SampleRun.judged(sample, PLAN, VerdictJudge.judge(CRITERIA, values), values.known());
	}

	private static List<SampleRun> runs(double... iops) {
		List<SampleRun> runs = new ArrayList<>();
		for (int i = 0; i < iops.length; i++) {
			runs.add(run(SAMPLES.get(i), iops[i], 4000 + 100 * i));
		}
		return runs;
	}

	@Test
	void passWhenEverySamplePassesAndTheSamplesAgree() {
		ModelVerdict verdict = ModelJudge.judge(SAMPLES, List.of(PLAN), runs(21000, 21500, 22000, 21200),
				List.of(SpreadCriterion.cvAtMost(Metric.STEADY_STATE_IOPS, 5)));
		assertThat(verdict.outcome()).isEqualTo(Outcome.PASS);
		assertThat(verdict.reasons()).isEmpty();
		assertThat(verdict.criteria()).hasSize(2);
		ModelVerdict.CriterionRow iops = verdict.criteria().get(0);
		assertThat(iops.cells()).extracting(ModelVerdict.Cell::outcome).containsOnly(Outcome.PASS);
		assertThat(iops.worstSample()).contains("S1");
		Spread spread = iops.spread().orElseThrow();
		assertThat(spread.min()).isEqualTo(21000);
		assertThat(spread.max()).isEqualTo(22000);
		assertThat(spread.mean()).isEqualTo(21425);
		// sample sd of 21000, 21500, 22000, 21200 = 434.93; / 21425
		assertThat(spread.cvPercent().getAsDouble()).isCloseTo(2.0300, within(1e-3));
		assertThat(verdict.criteria().get(1).worstSample()).as("the highest latency is the worst").contains("S4");
		ModelVerdict.SpreadResult agreement = verdict.spreads().get(0);
		assertThat(agreement.outcome()).isEqualTo(Outcome.PASS);
		assertThat(agreement.explanation()).contains("CV 2.03 %").contains("limit CV <= 5 %");
	}

	@Test
	void failNamesTheSampleAndTheCriterion() {
		ModelVerdict verdict = ModelJudge.judge(SAMPLES, List.of(PLAN), runs(21000, 21500, 15000, 21200), List.of());
		assertThat(verdict.outcome()).isEqualTo(Outcome.FAIL);
		assertThat(verdict.failingSamples()).containsExactly("S3");
		assertThat(verdict.reasons()).hasSize(1);
		assertThat(verdict.reasons().get(0)).startsWith(
				"sample S3 fails steadyStateIops >= 20000 in phase randwrite-4k-qd32 in consistency-2000s: steadyStateIops measured 15000 IOPS");
		assertThat(verdict.criteria().get(0).worstSample()).contains("S3");
		assertThat(verdict.samples()).extracting(ModelVerdict.SampleOutcome::outcome)
			.containsExactly(Outcome.PASS, Outcome.PASS, Outcome.FAIL, Outcome.PASS);
	}

	@Test
	void samplesThatEachPassButDisagreeFailTheSpreadCriterion() {
		ModelVerdict verdict = ModelJudge.judge(SAMPLES, List.of(PLAN), runs(21000, 30000, 22000, 21200),
				List.of(SpreadCriterion.cvAtMost(Metric.STEADY_STATE_IOPS, 5)));
		assertThat(verdict.criteria()).extracting(ModelVerdict.CriterionRow::outcome).containsOnly(Outcome.PASS);
		assertThat(verdict.outcome()).isEqualTo(Outcome.FAIL);
		assertThat(verdict.spreads().get(0).outcome()).isEqualTo(Outcome.FAIL);
		assertThat(verdict.reasons().get(0))
			.startsWith("steadyStateIops across the samples of consistency-2000s: CV 18.4 % over 4 samples (min 21000, "
					+ "max 30000), limit CV <= 5 %");
	}

	@Test
	void aMissingResultIsInconclusiveWithItsReasonAndNeverPass() {
		List<SampleRun> runs = runs(21000, 21500, 22000);
		runs.add(SampleRun.missing("S4", PLAN, "job q-4 ended INTERRUPTED (runner lost); rerun it"));
		ModelVerdict verdict = ModelJudge.judge(SAMPLES, List.of(PLAN), runs,
				List.of(SpreadCriterion.cvAtMost(Metric.STEADY_STATE_IOPS, 5)));
		assertThat(verdict.outcome()).isEqualTo(Outcome.INCONCLUSIVE);
		assertThat(verdict.reasons()).first()
			.isEqualTo(
					"sample S4 has no result for consistency-2000s: job q-4 ended INTERRUPTED (runner lost); rerun it");
		assertThat(verdict.criteria().get(0).cells().get(3).outcome()).isEqualTo(Outcome.INCONCLUSIVE);
		assertThat(verdict.criteria().get(0).spread().orElseThrow().samples()).isEqualTo(3);
		assertThat(verdict.spreads().get(0).outcome()).isEqualTo(Outcome.INCONCLUSIVE);
		assertThat(verdict.samples().get(3).outcome()).isEqualTo(Outcome.INCONCLUSIVE);
	}

	@Test
	void aFailureOutranksAMissingResult() {
		List<SampleRun> runs = runs(21000, 12000, 22000);
		ModelVerdict verdict = ModelJudge.judge(SAMPLES, List.of(PLAN), runs, List.of());
		assertThat(verdict.outcome()).isEqualTo(Outcome.FAIL);
		assertThat(verdict.reasons().get(0)).startsWith("sample S2 fails");
		assertThat(verdict.reasons().get(1)).isEqualTo("sample S4 has no result for consistency-2000s: no job");
	}

	@Test
	void anInconclusiveSampleCriterionMakesTheModelInconclusive() {
		MetricValues values = new MetricValues().put(Metric.STEADY_STATE_IOPS, PHASE,
				Measure.unknown("not steady by the end of the phase"));
		List<SampleRun> runs = runs(21000, 21500, 22000);
		runs.add(SampleRun.judged("S4", PLAN, VerdictJudge.judge(CRITERIA, values), values.known()));
		ModelVerdict verdict = ModelJudge.judge(SAMPLES, List.of(PLAN), runs, List.of());
		assertThat(verdict.outcome()).isEqualTo(Outcome.INCONCLUSIVE);
		assertThat(verdict.reasons()).anyMatch((reason) -> reason.startsWith("sample S4, steadyStateIops >= 20000")
				&& reason.contains("not steady by the end of the phase"));
	}

	@Test
	void everyPlanIsJudgedAndASpreadCriterionCanNameOne() {
		String other = "consistency-2000s-op25";
		List<SampleRun> runs = runs(21000, 21500, 22000, 21200);
		for (String sample : SAMPLES) {
			MetricValues values = new MetricValues().put(Metric.STEADY_STATE_IOPS, PHASE,
					Measure.known(sample.equals("S2") ? 40000 : 30000));
			runs.add(SampleRun.judged(sample, other, VerdictJudge.judge(CRITERIA.subList(0, 1), values),
					values.known()));
		}
		SpreadCriterion onlyFirst = new SpreadCriterion(Metric.STEADY_STATE_IOPS, Optional.of(PLAN), Optional.of(PHASE),
				5);
		ModelVerdict verdict = ModelJudge.judge(SAMPLES, List.of(PLAN, other), runs, List.of(onlyFirst));
		assertThat(verdict.outcome()).isEqualTo(Outcome.PASS);
		assertThat(verdict.criteria()).extracting(ModelVerdict.CriterionRow::plan).containsExactly(PLAN, PLAN, other);
		assertThat(verdict.spreads()).hasSize(1);
		ModelVerdict everyPlan = ModelJudge.judge(SAMPLES, List.of(PLAN, other), runs,
				List.of(SpreadCriterion.cvAtMost(Metric.STEADY_STATE_IOPS, 5)));
		assertThat(everyPlan.spreads()).extracting(ModelVerdict.SpreadResult::outcome)
			.containsExactly(Outcome.PASS, Outcome.FAIL);
		assertThat(everyPlan.failingSamples()).as("no sample failed a criterion of its own").isEmpty();
	}

	@Test
	void nothingToCheckIsInconclusive() {
		MetricValues values = new MetricValues();
		ModelVerdict verdict = ModelJudge.judge(List.of("S1"), List.of(PLAN),
				List.of(SampleRun.judged("S1", PLAN, VerdictJudge.judge(List.of(), values), Map.of())), List.of());
		assertThat(verdict.outcome()).isEqualTo(Outcome.INCONCLUSIVE);
		assertThat(verdict.reasons()).containsExactly("no criteria were given, so nothing was checked");
	}

	@Test
	void theSpreadOfOneValueHasNoCv() {
		Spread one = Spread.of(List.of(5.0));
		assertThat(one.cvPercent()).isEmpty();
		assertThat(one.min()).isEqualTo(5.0);
		assertThat(Spread.of(List.of(2.0, 4.0)).cvPercent().getAsDouble()).isCloseTo(47.1405, within(1e-3));
	}

}
