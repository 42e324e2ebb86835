// The per-phase entry point on a realistic 2000 s phase: steady state, both consistency windows.
package io.drivequal.analysis;

import java.util.Random;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class IopsPhaseAnalyzerTest {

	@Test
	void consistency2000sProfile() {
		// FOB burst for 120 s, then ~100k IOPS with noise; the fixed window t >= 1400 has
		// 601 seconds.
		Random random = new Random(2000);
		long[] iops = new long[2000];
		for (int i = 0; i < iops.length; i++) {
			iops[i] = (i < 120) ? 400_000 : 100_000 + random.nextInt(10_000) - 5_000;
		}
		IopsPhaseAnalysis analysis = IopsPhaseAnalyzer.analyze(PerSecondSeries.consecutive(iops),
				IopsPhaseOptions.consistency2000s());
		assertThat(analysis.sampleCount()).isEqualTo(2000);
		assertThat(analysis.steadyState().reached()).isTrue();
		// Rounds 0 and 1 are the burst; the first window without them is rounds 2..6 (x =
		// 6).
		assertThat(analysis.steadyState().window().orElseThrow().lastRoundIndex()).isEqualTo(6);
		assertThat(analysis.steadyStateConsistency().orElseThrow().sampleCount()).isEqualTo(300);
		assertThat(analysis.steadyStateConsistency().orElseThrow().firstT()).isEqualTo(121);
		assertThat(analysis.fixedWindowConsistency().orElseThrow().sampleCount()).isEqualTo(601);
		assertThat(analysis.fixedWindowConsistency().orElseThrow().ratio().getAsDouble()).isBetween(0.9, 1.0);
	}

	@Test
	void noFixedWindowUnlessAsked() {
		IopsPhaseAnalysis analysis = IopsPhaseAnalyzer.analyze(PerSecondSeries.consecutive(1, 1, 1, 1, 1),
				IopsPhaseOptions.defaults());
		assertThat(analysis.fixedWindowConsistency()).isEmpty();
		assertThat(IopsPhaseOptions.sniaPts().maxRounds()).hasValue(25);
	}

}
