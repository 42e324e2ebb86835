/*
 * A job's stored verdict and figures (the analysis document as JobAnalyzer's JSON has it) read back
 * into the analysis library's types, and a job without a verdict as a missing result with why.
 */
package io.drivequal.service.campaigns;

import java.util.List;
import java.util.Map;

import io.drivequal.analysis.Comparison;
import io.drivequal.analysis.Metric;
import io.drivequal.analysis.Outcome;
import io.drivequal.analysis.SampleRun;
import io.drivequal.service.qualification.JobState;
import io.drivequal.service.qualification.QualificationView;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StoredVerdictsTest {

	/** As the analysis sweeper stores it: enum names, numbers, null for the absent. */
	private static final Map<String, Object> ANALYSIS = Map.of("verdict", Map.of("outcome", "FAIL", "criteria", List.of(
			Map.of("criterion",
					Map.of("metric", "STEADY_STATE_IOPS", "comparison", "AT_LEAST", "limit", 5000.0, "phaseName",
							"randwrite-4k-qd32"),
					"outcome", "PASS", "measured", 8075.57, "measuredInPhase", "randwrite-4k-qd32", "explanation",
					"steadyStateIops measured 8075.57 IOPS in phase randwrite-4k-qd32, limit >= 5000"),
			Map.of("criterion", Map.of("metric", "WRITE_LATENCY_P9999_US", "comparison", "AT_MOST", "limit", 100000),
					"outcome", "FAIL", "measured", 127926.3, "explanation", "measured 127926 us"))),
			"metrics", Map.of("steadyStateIops", Map.of("randwrite-4k-qd32", 8075.57), "trimRecovery", Map.of("", 0.9),
					"noSuchMetric", Map.of("x", 1.0)));

	private static QualificationView job(JobState state, String verdict, Map<String, Object> analysis,
			String failureReason) {
		return new QualificationView("q-1", state, "alice", null, null, null, null, null, null, null, null, null, null,
				null, null, null, null, false, verdict, failureReason, null, analysis, null, null, null, "normal", null,
				null, null);
	}

	@Test
	void aJudgedJobIsItsVerdictAndFigures() {
		SampleRun run = StoredVerdicts.run("S1", "consistency-2000s", "q-1",
				job(JobState.COMPLETED, "FAIL", ANALYSIS, null), "c-1");
		assertThat(run.verdict()).isPresent();
		assertThat(run.verdict().get().outcome()).isEqualTo(Outcome.FAIL);
		var first = run.verdict().get().criteria().get(0);
		assertThat(first.criterion().metric()).isEqualTo(Metric.STEADY_STATE_IOPS);
		assertThat(first.criterion().comparison()).isEqualTo(Comparison.AT_LEAST);
		assertThat(first.criterion().phaseName()).contains("randwrite-4k-qd32");
		assertThat(first.measured()).hasValue(8075.57);
		var second = run.verdict().get().criteria().get(1);
		assertThat(second.criterion().phaseName()).isEmpty();
		assertThat(second.criterion().limit()).isEqualTo(100000.0);
		assertThat(second.outcome()).isEqualTo(Outcome.FAIL);
		assertThat(run.metrics()).containsOnlyKeys(Metric.STEADY_STATE_IOPS, Metric.TRIM_RECOVERY);
		assertThat(run.metrics().get(Metric.TRIM_RECOVERY)).containsEntry("", 0.9);
	}

	@Test
	void aJobWithoutAResultSaysWhyAndHowToRerunIt() {
		SampleRun lost = StoredVerdicts.run("S1", "p", "q-1",
				job(JobState.INTERRUPTED, null, null, "runner local fell silent"), "c-1");
		assertThat(lost.verdict()).isEmpty();
		assertThat(lost.missingReason()).isEqualTo(
				"job q-1 ended INTERRUPTED (runner local fell silent); rerun it (POST /api/v1/campaigns/c-1/rerun)");
		assertThat(
				StoredVerdicts.run("S1", "p", "q-1", job(JobState.COMPLETED, null, null, null), "c-1").missingReason())
			.isEqualTo("job q-1 has no verdict yet");
		assertThat(StoredVerdicts.run("S1", "p", "q-9", null, "c-1").missingReason())
			.startsWith("job q-9 is not stored");
	}

}
