// PASS / FAIL / INCONCLUSIVE per criterion and for the job, with the measured value next to the limit.
package io.drivequal.analysis;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class VerdictJudgeTest {

	@Test
	void passFailAndInconclusive() {
		MetricValues values = new MetricValues().put(Metric.CONSISTENCY_RATIO, "randwrite", Measure.known(0.92))
			.put(Metric.WRITE_LATENCY_P9999_US, "randwrite", Measure.known(5200))
			.put(Metric.WAF, "endurance", Measure.unknown("the drive has no OCP C0h log"));
		Verdict verdict = VerdictJudge.judge(List.of(Criterion.atLeast(Metric.CONSISTENCY_RATIO, 0.9),
				Criterion.atMost(Metric.WRITE_LATENCY_P9999_US, 5000).inPhase("randwrite"),
				Criterion.atMost(Metric.WAF, 3)), values);
		assertThat(verdict.outcome()).isEqualTo(Outcome.FAIL);
		assertThat(verdict.criteria()).extracting(CriterionResult::outcome)
			.containsExactly(Outcome.PASS, Outcome.FAIL, Outcome.INCONCLUSIVE);
		CriterionResult latency = verdict.criteria().get(1);
		assertThat(latency.measured()).hasValue(5200.0);
		assertThat(latency.measuredInPhase()).contains("randwrite");
		assertThat(latency.explanation())
			.isEqualTo("writeLatencyP9999Us measured 5200 us in phase randwrite, limit <= 5000");
		assertThat(verdict.criteria().get(2).explanation()).contains("the drive has no OCP C0h log");
	}

	@Test
	void inconclusiveWithoutFailures() {
		MetricValues values = new MetricValues().put(Metric.STEADY_STATE_REACHED, "a", Measure.known(1));
		Verdict verdict = VerdictJudge.judge(
				List.of(Criterion.atLeast(Metric.STEADY_STATE_REACHED, 1), Criterion.atLeast(Metric.DWPD, 1)), values);
		assertThat(verdict.outcome()).isEqualTo(Outcome.INCONCLUSIVE);
		assertThat(verdict.criteria().get(1).explanation()).isEqualTo("dwpd was not measured");
	}

	@Test
	void passWhenEveryCriterionPasses() {
		MetricValues values = new MetricValues().put(Metric.TRIM_RECOVERY, Measure.known(0.95));
		Verdict verdict = VerdictJudge.judge(List.of(Criterion.atLeast(Metric.TRIM_RECOVERY, 0.95)), values);
		assertThat(verdict.outcome()).isEqualTo(Outcome.PASS);
		assertThat(verdict.criteria().get(0).measuredInPhase()).isEmpty();
	}

	@Test
	void noCriteriaIsNotAPass() {
		assertThat(VerdictJudge.judge(List.of(), new MetricValues()).outcome()).isEqualTo(Outcome.INCONCLUSIVE);
	}

	@Test
	void aCriterionWithoutPhaseAppliesToEveryPhaseAndReportsTheWorst() {
		MetricValues values = new MetricValues().put(Metric.READ_LATENCY_P99_US, "qd1", Measure.known(90))
			.put(Metric.READ_LATENCY_P99_US, "qd128", Measure.known(2400))
			.put(Metric.READ_LATENCY_P99_US, "oltp", Measure.known(3100));
		CriterionResult result = VerdictJudge.judge(Criterion.atMost(Metric.READ_LATENCY_P99_US, 3000), values);
		assertThat(result.outcome()).isEqualTo(Outcome.FAIL);
		assertThat(result.measured()).hasValue(3100.0);
		assertThat(result.measuredInPhase()).contains("oltp");
		CriterionResult passing = VerdictJudge.judge(Criterion.atMost(Metric.READ_LATENCY_P99_US, 3100), values);
		assertThat(passing.outcome()).isEqualTo(Outcome.PASS);
		assertThat(passing.measured()).hasValue(3100.0);
		// A failure beats an unknown elsewhere; an unknown beats a pass.
		values.put(Metric.READ_LATENCY_P99_US, "idle", Measure.unknown("the phase recorded no reads"));
		assertThat(VerdictJudge.judge(Criterion.atMost(Metric.READ_LATENCY_P99_US, 3000), values).outcome())
			.isEqualTo(Outcome.FAIL);
		assertThat(VerdictJudge.judge(Criterion.atMost(Metric.READ_LATENCY_P99_US, 4000), values).outcome())
			.isEqualTo(Outcome.INCONCLUSIVE);
	}

	@Test
	void boundsAreInclusive() {
		MetricValues values = new MetricValues().put(Metric.WAF, Measure.known(2.5));
		assertThat(VerdictJudge.judge(Criterion.atMost(Metric.WAF, 2.5), values).outcome()).isEqualTo(Outcome.PASS);
		assertThat(VerdictJudge.judge(Criterion.atLeast(Metric.WAF, 2.5), values).outcome()).isEqualTo(Outcome.PASS);
	}

	@Test
	void iopsPhaseFeedsTheSteadyStateAndConsistencyMetrics() {
		long[] flat = new long[600];
		Arrays.fill(flat, 1000);
		IopsPhaseAnalysis analysis = IopsPhaseAnalyzer.analyze(PerSecondSeries.consecutive(flat),
				PerSecondSeries.empty(), Eligibility.notApplicable("reads"),
				new IopsPhaseOptions(60, OptionalInt.empty(), OptionalLong.of(400)));
		MetricValues values = new MetricValues().putIopsPhase("rw", analysis)
			.putWriteLatency("rw", Optional.empty())
			.putThroughput("seq", Throughput.meanMBps(PerSecondSeries.consecutive(5_000_000)));
		Verdict verdict = VerdictJudge.judge(List.of(Criterion.atLeast(Metric.STEADY_STATE_REACHED, 1),
				Criterion.atLeast(Metric.STEADY_STATE_IOPS, 1000), Criterion.atLeast(Metric.CONSISTENCY_RATIO, 1),
				Criterion.atLeast(Metric.CONSISTENCY_RATIO_FIXED_WINDOW, 1),
				Criterion.atLeast(Metric.THROUGHPUT_MBPS, 5)), values);
		assertThat(verdict.outcome()).isEqualTo(Outcome.PASS);
		assertThat(VerdictJudge.judge(Criterion.atMost(Metric.WRITE_LATENCY_P99_US, 1), values).explanation())
			.contains("the phase recorded no writes");
	}

	@Test
	void notReachedSteadyStateFailsReachedAndLeavesIopsUnknown() {
		IopsPhaseAnalysis analysis = IopsPhaseAnalyzer.analyze(PerSecondSeries.consecutive(1, 2, 4, 8, 16, 32),
				PerSecondSeries.empty(), Eligibility.notApplicable("reads"),
				IopsPhaseOptions.defaults().withRoundLengthS(1));
		MetricValues values = new MetricValues().putIopsPhase("rw", analysis);
		assertThat(VerdictJudge.judge(Criterion.atLeast(Metric.STEADY_STATE_REACHED, 1), values).outcome())
			.isEqualTo(Outcome.FAIL);
		CriterionResult iops = VerdictJudge.judge(Criterion.atLeast(Metric.STEADY_STATE_IOPS, 1), values);
		assertThat(iops.outcome()).isEqualTo(Outcome.INCONCLUSIVE);
		assertThat(iops.explanation())
			.contains("not steady at the end of the phase: range 241.9 % of the average exceeds 20 %; "
					+ "slope excursion 232.3 % of the average exceeds 10 %");
	}

}
