// A purge proof or a verify that proved nothing must never pass a criterion.
package io.drivequal.analysis;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReadBackTest {

	@Test
	void purgeStatusesBecomeMeasures() {
		assertThat(ReadBack.purgeVerified("verified", 0, null)).isEqualTo(Measure.known(1));
		assertThat(ReadBack.purgeVerified("failed", 16384, null)).isEqualTo(Measure.known(0));
		assertThat(ReadBack.purgeVerified("unverifiable", 0, "the null engine stores nothing"))
			.isEqualTo(Measure.unknown("the purge could not be verified: the null engine stores nothing"));
		assertThatThrownBy(() -> ReadBack.purgeVerified("maybe", 0, null)).isInstanceOf(IllegalArgumentException.class);
	}

	@Test
	void aVerifyOfNothingIsUnknown() {
		assertThat(ReadBack.verifyMismatches(16384, 2)).isEqualTo(Measure.known(2));
		assertThat(ReadBack.verifyMismatches(16384, 0)).isEqualTo(Measure.known(0));
		assertThat(ReadBack.verifyMismatches(0, 0).isKnown()).isFalse();
	}

	@Test
	void aPowerCyclePhaseThatRanNoCycleIsUnknown() {
		assertThat(ReadBack.powerLossFailedCycles(100, 42)).isEqualTo(Measure.known(42));
		assertThat(ReadBack.powerLossLostDurableBlocks(100, 0)).isEqualTo(Measure.known(0));
		assertThat(ReadBack.powerLossFailedCycles(0, 0).isKnown()).isFalse();
		assertThat(ReadBack.powerLossLostDurableBlocks(0, 0).isKnown()).isFalse();
		Verdict liar = VerdictJudge.judge(List.of(Criterion.atMost(Metric.POWER_LOSS_FAILED_CYCLES, 0)),
				new MetricValues().put(Metric.POWER_LOSS_FAILED_CYCLES, "power-cycles",
						ReadBack.powerLossFailedCycles(100, 42)));
		assertThat(liar.outcome()).isEqualTo(Outcome.FAIL);
	}

	@Test
	void theCriteriaJudgeThem() {
		MetricValues values = new MetricValues()
			.put(Metric.PURGE_VERIFIED, "purge", ReadBack.purgeVerified("failed", 3, null))
			.put(Metric.VERIFY_MISMATCHES, "verify", ReadBack.verifyMismatches(16384, 0));
		Verdict verdict = VerdictJudge.judge(
				List.of(Criterion.atLeast(Metric.PURGE_VERIFIED, 1), Criterion.atMost(Metric.VERIFY_MISMATCHES, 0)),
				values);
		assertThat(verdict.criteria()).extracting(CriterionResult::outcome).containsExactly(Outcome.FAIL, Outcome.PASS);
		assertThat(verdict.outcome()).isEqualTo(Outcome.FAIL);
		Verdict nothingChecked = VerdictJudge.judge(List.of(Criterion.atMost(Metric.VERIFY_MISMATCHES, 0)),
				new MetricValues().put(Metric.VERIFY_MISMATCHES, "verify", ReadBack.verifyMismatches(0, 0)));
		assertThat(nothingChecked.outcome()).isEqualTo(Outcome.INCONCLUSIVE);
	}

}
