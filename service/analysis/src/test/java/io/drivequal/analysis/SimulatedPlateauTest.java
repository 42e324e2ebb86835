// Regression: the simulated client drive's fresh-out-of-box plateau (op25) must not pass as steady state, as it did under the old rule.
package io.drivequal.analysis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.OptionalInt;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The captures in src/test/resources/sim are what the runner's simulated drive produces
 * for the demo's two jobs (see the README there). The old rule took the first window that
 * held, eligible or not: on op25 that is rounds 0..4, the plateau, at 67,569 IOPS, while
 * the drive spends the second half of the run near 33k.
 */
class SimulatedPlateauTest {

	private static final long CAPACITY_BYTES = 256_000_000_000L;

	@Test
	void op25SteadyStateIopsIsTheBandTheDriveSustainsNotItsFreshPlateau() throws IOException {
		Capture op25 = Capture.read("client-7pct-op25-randwrite.csv");
		long testedRangeBytes = CAPACITY_BYTES * 75 / 100;
		IopsPhaseAnalysis analysis = IopsPhaseAnalyzer.analyze(op25.iops, op25.writeBytes,
				Eligibility.afterRandomWrites(1.0, testedRangeBytes, 0, "since the fill in phase 1"),
				IopsPhaseOptions.consistency2000s());
		SteadyStateResult steadyState = analysis.steadyState();
		double meanAfter1400 = op25.meanIopsAfter(1400);

		// The plateau (rounds 0..4, ~68k) is not eligible: it is the drive's clean spare
		// area, not its garbage collection.
		for (int round = 0; round <= 4; round++) {
			assertThat(steadyState.rounds().get(round).eligible()).as("plateau round %d eligible", round).isFalse();
			assertThat(steadyState.rounds().get(round).meanIops().getAsDouble()).isGreaterThan(65_000);
		}
		assertThat(steadyState.firstEligibleRound()).hasValue(20);
		assertThat(steadyState.reachedAtRound()).hasValue(24);
		assertThat(steadyState.end().holds()).isTrue();
		assertThat(steadyState.end().firstRoundIndex()).isEqualTo(28);
		double steadyStateIops = steadyState.steadyStateIops().getAsDouble();
		System.out.printf(
				"op25: steadyStateIops %.1f (rounds %d-%d), mean over t > 1400 s %.1f (ratio %.4f); reached at round %d%n",
				steadyStateIops, steadyState.end().firstRoundIndex(), steadyState.end().lastRoundIndex(), meanAfter1400,
				steadyStateIops / meanAfter1400, steadyState.reachedAtRound().getAsInt());
		assertThat(withinTenPercent(steadyStateIops, meanAfter1400))
			.as("steadyStateIops within 10%% of %.1f", meanAfter1400)
			.isTrue();

		// The same check on the old rule's figure fails: with every round eligible (W =
		// 0) the first window that holds is the plateau.
		SteadyStateResult oldRule = SteadyStateDetector.detect(op25.iops, op25.writeBytes,
				Eligibility.afterRandomWrites(0.0, testedRangeBytes, 0, "every round eligible"), 60,
				OptionalInt.empty());
		double oldRuleIops = oldRule.window().orElseThrow().avgIops();
		System.out.printf("op25 under the old rule: rounds %d-%d at %.1f IOPS%n",
				oldRule.window().get().firstRoundIndex(), oldRule.window().get().lastRoundIndex(), oldRuleIops);
		assertThat(oldRule.reachedAtRound()).hasValue(4);
		assertThat(Math.round(oldRuleIops)).isEqualTo(67_569);
		assertThat(withinTenPercent(oldRuleIops, meanAfter1400)).isFalse();
	}

	@Test
	void consistency2000sNeverLeavesItsFreshStateBySnia() throws IOException {
		Capture plain = Capture.read("client-7pct-randwrite.csv");
		IopsPhaseAnalysis analysis = IopsPhaseAnalyzer.analyze(plain.iops, plain.writeBytes,
				Eligibility.afterRandomWrites(1.0, CAPACITY_BYTES, 0, "since the fill in phase 1"),
				IopsPhaseOptions.consistency2000s());
		SteadyStateResult steadyState = analysis.steadyState();
		// 2000 s at 5k-9k IOPS write 0.30 of the 256 GB range: no round is eligible.
		assertThat(steadyState.firstEligibleRound()).isEmpty();
		assertThat(steadyState.reached()).isFalse();
		assertThat(steadyState.steadyStateIops()).isEmpty();
		assertThat(steadyState.end().failures()).extracting(SteadyStateFailure::kind)
			.containsExactly(SteadyStateFailure.Kind.ROUNDS_NOT_ELIGIBLE);
		assertThat(steadyState.notSteadyReason().orElseThrow()).isEqualTo("not steady at the end of the phase: "
				+ "rounds 28–32 are not eligible: random writes since the last purge or fill reached 0.26–0.29 × "
				+ "the tested range by their start, below W = 1.0 (since the fill in phase 1)");
		// The fixed window still reports what the seeds' zoom shows.
		System.out.printf(
				"consistency-2000s: random writes %.3f × the range by t = 2000; fixed window mean %.1f, "
						+ "ratio %.4f%n",
				(double) Arrays.stream(plain.writeBytes.values()).sum() / CAPACITY_BYTES,
				analysis.fixedWindowConsistency().orElseThrow().meanIops(),
				analysis.fixedWindowConsistency().orElseThrow().ratio().getAsDouble());
		assertThat(analysis.steadyStateConsistency()).isEmpty();
	}

	private static boolean withinTenPercent(double value, double reference) {
		return Math.abs(value - reference) <= 0.10 * reference;
	}

	/**
	 * A captured phase: t,writeIos,writeBytes per line after '#' comments and a header.
	 */
	private record Capture(PerSecondSeries iops, PerSecondSeries writeBytes) {

		static Capture read(String name) throws IOException {
			PerSecondSeries.Builder iops = PerSecondSeries.builder();
			PerSecondSeries.Builder bytes = PerSecondSeries.builder();
			try (InputStream in = SimulatedPlateauTest.class.getResourceAsStream("/sim/" + name);
					BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
				for (String line = reader.readLine(); line != null; line = reader.readLine()) {
					if (line.startsWith("#") || line.startsWith("t,")) {
						continue;
					}
					String[] fields = line.split(",");
					long t = Long.parseLong(fields[0]);
					iops.add(t, Long.parseLong(fields[1]));
					bytes.add(t, Long.parseLong(fields[2]));
				}
			}
			Capture capture = new Capture(iops.build(), bytes.build());
			assertThat(capture.iops.size()).isEqualTo(2000);
			return capture;
		}

		double meanIopsAfter(long firstExclusiveT) {
			long[] window = this.iops.valuesIn(firstExclusiveT, this.iops.lastT());
			return (double) Arrays.stream(window).sum() / window.length;
		}

	}

}
