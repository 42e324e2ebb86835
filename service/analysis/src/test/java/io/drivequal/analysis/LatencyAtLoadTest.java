// The latency-at-load sweep's rules: saturation margin, knee (tail multiple or saturation), how far a tail bound holds, and its metrics per TB.
package io.drivequal.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LatencyAtLoadTest {

	private static final OptionalLong FOUR_TB = OptionalLong.of(4_000_000_000_000L);

	/**
	 * Steps of 20k, 40k, ... IOPS, read response P99.99 as given (µs), each achieved in
	 * full.
	 */
	private static List<LatencyAtLoad.Step> steps(long... p9999Us) {
		List<LatencyAtLoad.Step> steps = new ArrayList<>();
		for (int i = 0; i < p9999Us.length; i++) {
			double offered = 20_000.0 * (i + 1);
			steps.add(new LatencyAtLoad.Step("load-" + (i + 1), offered, offered, p9999Us[i] * 1000));
		}
		return steps;
	}

	@Test
	void theKneeIsTheFirstStepWhoseTailExceedsThreeTimesTheLowLoadTail() {
		// 300 µs is exactly 3 x 100 µs: not past it; 301 µs is.
		LatencyAtLoad.Sweep sweep = LatencyAtLoad.judge(steps(100, 120, 300, 301, 2000));
		assertThat(sweep.kneeStep()).isEqualTo(3);
		assertThat(sweep.kneeBy()).isEqualTo("latency");
		assertThat(sweep.saturatedStep()).isEqualTo(-1);
		assertThat(sweep.knee()).map(LatencyAtLoad.Step::phaseName).contains("load-4");
	}

	@Test
	void theLowLoadValueIsTheLowestTailBeforeTheStepSoADisturbedFirstStepDoesNotHideTheKnee() {
		// as the simulated drive after its fill: the 10k step sees the fill's garbage
		// collection (2,081 µs), 20k and 50k do not; 100k's 2,081 µs is past 3 x 311 µs
		LatencyAtLoad.Sweep sweep = LatencyAtLoad.judge(steps(2081, 311, 578, 2081));
		assertThat(sweep.knee()).map(LatencyAtLoad.Step::phaseName).contains("load-4");
		assertThat(sweep.kneeBy()).isEqualTo("latency");
	}

	@Test
	void aStepThatFallsBehindItsOfferByMoreThanTwoPercentIsSaturatedAndIsTheKneeWhenTheTailHasNotRisen() {
		List<LatencyAtLoad.Step> steps = new ArrayList<>(steps(100, 110, 120));
		// 98.1 % of the offer keeps up; 97.9 % does not.
		steps.add(new LatencyAtLoad.Step("load-4", 80_000, 80_000 * 0.981, 130_000));
		steps.add(new LatencyAtLoad.Step("load-5", 100_000, 100_000 * 0.979, 140_000));
		LatencyAtLoad.Sweep sweep = LatencyAtLoad.judge(steps);
		assertThat(steps.get(3).saturated()).isFalse();
		assertThat(sweep.saturatedStep()).isEqualTo(4);
		assertThat(sweep.kneeStep()).isEqualTo(4);
		assertThat(sweep.kneeBy()).isEqualTo("saturation");
	}

	@Test
	void aTailBoundHoldsUpToTheLastStepOfTheUnbrokenRunFromTheFirst() {
		// 2,600 µs breaks the run at load-3: load-4 back under the bound does not count.
		LatencyAtLoad.Sweep sweep = LatencyAtLoad.judge(steps(100, 2500, 2600, 900));
		assertThat(sweep.holdsUpTo(2_500_000)).map(LatencyAtLoad.Step::phaseName).contains("load-2");
		assertThat(sweep.holdsUpTo(99_000)).isEmpty();
		// a saturated step breaks it too, whatever its tail
		List<LatencyAtLoad.Step> saturated = new ArrayList<>(steps(100, 100));
		saturated.add(new LatencyAtLoad.Step("load-3", 60_000, 50_000, 100_000));
		assertThat(LatencyAtLoad.judge(saturated).holdsUpTo(2_500_000)).map(LatencyAtLoad.Step::phaseName)
			.contains("load-2");
	}

	@Test
	void stepsSkippedAfterSaturationCountAsSaturatedBeyondItNotAsMissing() {
		List<LatencyAtLoad.Step> steps = new ArrayList<>(steps(100, 110, 120));
		steps.add(new LatencyAtLoad.Step("load-4", 80_000, 50_000, 900_000));
		steps.add(LatencyAtLoad.Step.skippedAfterSaturation("load-5", 100_000));
		steps.add(LatencyAtLoad.Step.skippedAfterSaturation("load-6", 120_000));
		LatencyAtLoad.Sweep sweep = LatencyAtLoad.judge(steps);
		// the first saturated step is the one that ran; the skipped ones are saturated
		// too
		assertThat(sweep.saturatedStep()).isEqualTo(3);
		assertThat(sweep.knee()).map(LatencyAtLoad.Step::phaseName).contains("load-4");
		assertThat(steps.subList(4, 6)).allMatch(LatencyAtLoad.Step::saturated).allMatch(LatencyAtLoad.Step::skipped);
		assertThat(steps.get(3).skipped()).isFalse();
		// their unmeasured tail (0) never extends how far the bound holds
		assertThat(sweep.holdsUpTo(2_500_000)).map(LatencyAtLoad.Step::phaseName).contains("load-3");
		MetricValues values = new MetricValues().putLatencyAtLoad(sweep, FOUR_TB);
		assertThat(values.of(Metric.KNEE_READ_IOPS_PER_TB).get("load-4").value()).hasValue(20_000.0);
		assertThat(values.of(Metric.READ_IOPS_PER_TB_WITHIN_P9999_2500_US).get("").value()).hasValue(15_000.0);
	}

	@Test
	void theMetricsArePerTbOfUserCapacity() {
		MetricValues values = new MetricValues().putLatencyAtLoad(LatencyAtLoad.judge(steps(100, 200, 2400, 3000)),
				FOUR_TB);
		// knee at load-3 (2,400 µs > 3 x 100 µs): 60k offered / 4 TB
		assertThat(values.of(Metric.KNEE_READ_IOPS_PER_TB)).containsOnlyKeys("load-3");
		assertThat(values.of(Metric.KNEE_READ_IOPS_PER_TB).get("load-3").value()).hasValue(15_000.0);
		// 2,400 µs <= 2,500 µs up to load-3: 60k achieved / 4 TB
		assertThat(values.of(Metric.READ_IOPS_PER_TB_WITHIN_P9999_2500_US).get("").value()).hasValue(15_000.0);
	}

	@Test
	void withoutAKneeTheKneeMetricIsUnknownWithWhyAndAMissedFirstStepHoldsAtZero() {
		MetricValues flat = new MetricValues().putLatencyAtLoad(LatencyAtLoad.judge(steps(3000, 3100, 3200)), FOUR_TB);
		Measure knee = flat.of(Metric.KNEE_READ_IOPS_PER_TB).get("");
		assertThat(knee.isKnown()).isFalse();
		assertThat(((Measure.Unknown) knee).reason()).contains("no knee within the sweep").contains("60000");
		assertThat(flat.of(Metric.READ_IOPS_PER_TB_WITHIN_P9999_2500_US).get("").value()).hasValue(0.0);
		MetricValues unknownCapacity = new MetricValues().putLatencyAtLoad(LatencyAtLoad.judge(steps(100, 1000)),
				OptionalLong.empty());
		assertThat(unknownCapacity.of(Metric.READ_IOPS_PER_TB_WITHIN_P9999_2500_US).get("").isKnown()).isFalse();
	}

	@Test
	void aBuyersLineJudgesTheSweep() {
		// "read P99.99 < 2.5 ms up to 12,000 IOPS per TB"
		Criterion line = Criterion.atLeast(Metric.READ_IOPS_PER_TB_WITHIN_P9999_2500_US, 12_000);
		MetricValues holds = new MetricValues().putLatencyAtLoad(LatencyAtLoad.judge(steps(100, 200, 2400, 3000)),
				FOUR_TB);
		MetricValues misses = new MetricValues().putLatencyAtLoad(LatencyAtLoad.judge(steps(100, 2600, 2400)), FOUR_TB);
		assertThat(VerdictJudge.judge(line, holds).outcome()).isEqualTo(Outcome.PASS);
		assertThat(VerdictJudge.judge(line, misses).outcome()).isEqualTo(Outcome.FAIL);
	}

	@Test
	void aSweepNeedsTwoStepsAndAPositiveOffer() {
		assertThatThrownBy(() -> LatencyAtLoad.judge(steps(100))).hasMessageContaining("at least two steps");
		assertThatThrownBy(() -> new LatencyAtLoad.Step("load-1", 0, 0, 0)).hasMessageContaining("offeredIops");
	}

}
