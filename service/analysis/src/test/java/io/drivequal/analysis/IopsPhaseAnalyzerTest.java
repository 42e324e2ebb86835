// The per-phase entry point on a realistic 2000 s phase: both steady-state windows, both consistency windows.
package io.drivequal.analysis;

import java.util.Random;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class IopsPhaseAnalyzerTest {

	@Test
	void consistency2000sProfile() {
		// FOB burst for 120 s, then ~100k IOPS with noise; 4 KiB writes. The tested range
		// is what rounds 0..2 write, so round 3 is the first eligible round; the fixed
		// window t >= 1400 has 601 seconds.
		Random random = new Random(2000);
		long[] iops = new long[2000];
		long[] bytes = new long[2000];
		long firstThreeRounds = 0;
		for (int i = 0; i < iops.length; i++) {
			iops[i] = (i < 120) ? 400_000 : 100_000 + random.nextInt(10_000) - 5_000;
			bytes[i] = iops[i] * 4096;
			firstThreeRounds += (i < 180) ? bytes[i] : 0;
		}
		IopsPhaseAnalysis analysis = IopsPhaseAnalyzer.analyze(PerSecondSeries.consecutive(iops),
				PerSecondSeries.consecutive(bytes), Eligibility.afterRandomWrites(1.0, firstThreeRounds, 0, "test"),
				IopsPhaseOptions.consistency2000s());
		assertThat(analysis.sampleCount()).isEqualTo(2000);
		SteadyStateResult steadyState = analysis.steadyState();
		// The cliff (400k to 100k) is round 2: the fresh state ends there, whatever the
		// written bytes say, and the first window whose ten-round horizon (rounds 3..12)
		// holds ends at round 12.
		assertThat(steadyState.freshState().evidence()).isEqualTo(FreshState.Evidence.IOPS_CLIFF);
		assertThat(steadyState.firstEligibleRound()).hasValue(3);
		assertThat(steadyState.reachedAtRound()).hasValue(12);
		// Steady at end: rounds 28..32 (round 33 holds 20 s and does not count); the
		// steady-state consistency is taken there.
		assertThat(steadyState.end().holds()).isTrue();
		assertThat(steadyState.end().firstRoundIndex()).isEqualTo(28);
		assertThat(steadyState.steadyStateIops().getAsDouble()).isBetween(99_000.0, 101_000.0);
		assertThat(analysis.steadyStateConsistency().orElseThrow().sampleCount()).isEqualTo(300);
		assertThat(analysis.steadyStateConsistency().orElseThrow().firstT()).isEqualTo(28 * 60 + 1);
		assertThat(analysis.fixedWindowConsistency().orElseThrow().sampleCount()).isEqualTo(601);
		assertThat(analysis.fixedWindowConsistency().orElseThrow().ratio().getAsDouble()).isBetween(0.9, 1.0);
	}

	@Test
	void noFixedWindowUnlessAsked() {
		IopsPhaseAnalysis analysis = IopsPhaseAnalyzer.analyze(PerSecondSeries.consecutive(1, 1, 1, 1, 1),
				PerSecondSeries.empty(), Eligibility.notApplicable("reads"), IopsPhaseOptions.defaults());
		assertThat(analysis.fixedWindowConsistency()).isEmpty();
		assertThat(IopsPhaseOptions.sniaPts().maxRounds()).hasValue(25);
	}

}
