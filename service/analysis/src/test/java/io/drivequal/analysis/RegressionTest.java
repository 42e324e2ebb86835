// The difference between two groups of runs: it holds a known truth, an A/A comparison reports no regression, and its coverage is what it claims.
package io.drivequal.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class RegressionTest {

	/**
	 * A group of {@code samples} runs of {@code rounds} rounds: each sample's level is
	 * {@code level} times (1 + N(0, 1 %)) (batch spread); its rounds follow an AR(1)
	 * process around it (correlation 0.5 from round to round, 2 % marginal deviation), as
	 * a drive's GC makes neighbouring rounds alike.
	 */
	static List<double[]> group(double level, int samples, int rounds, long seed) {
		SplittableRandom random = new SplittableRandom(seed);
		List<double[]> group = new ArrayList<>();
		double rho = 0.5;
		for (int s = 0; s < samples; s++) {
			double sampleLevel = level * (1 + 0.01 * gaussian(random));
			double[] values = new double[rounds];
			double deviation = gaussian(random);
			for (int r = 0; r < rounds; r++) {
				values[r] = sampleLevel * (1 + 0.02 * deviation);
				deviation = rho * deviation + Math.sqrt(1 - rho * rho) * gaussian(random);
			}
			group.add(values);
		}
		return group;
	}

	private static double gaussian(SplittableRandom random) {
		// Box-Muller: SplittableRandom has no nextGaussian on Java 17.
		double u = 1 - random.nextDouble();
		double v = random.nextDouble();
		return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
	}

	@Test
	void aTwelvePercentSlowerFirmwareIsFoundWithAnIntervalThatHoldsTheTruth() {
		List<double[]> a = group(8000, 4, 5, 1);
		List<double[]> b = group(8000 * 0.88, 4, 5, 2);
		Regression.Difference difference = Regression.compare(a, b, 0.95);
		assertThat(difference.holds(-12)).as(difference.toString()).isTrue();
		assertThat(difference.upperPercent()).as(difference.toString()).isLessThan(-5);
		assertThat(difference.noRegressionBeyond(5, true)).isEqualTo(Outcome.FAIL);
		assertThat(difference.noRegressionBeyond(20, true)).isEqualTo(Outcome.PASS);
		assertThat(difference.noRegressionBeyond(12, true)).isEqualTo(Outcome.INCONCLUSIVE);
		// Lower is better (latency): the same numbers are an improvement.
		assertThat(difference.noRegressionBeyond(5, false)).isEqualTo(Outcome.PASS);
		assertThat(difference.baselineSamples()).isEqualTo(4);
		assertThat(difference.degreesOfFreedom()).isBetween(3.0, 6.0);
		assertThat(difference.roundsOnly()).isFalse();
	}

	/**
	 * The 95 % interval holds the true difference in 95 % of 2000 seeded repeats (four
	 * samples of five correlated rounds a group, a true -5 %), within the binomial noise
	 * of 2000 repeats (-1 %, +1.5 %), so it is neither too narrow nor wider than it needs
	 * to be; and an A/A comparison (same level, other seeds) reports a regression at 95 %
	 * (margin 0: the whole interval below 0) in 2.5 % of 2000 repeats, the one-sided
	 * share a calibrated two-sided interval gives, so 19 of 20 A/A repeats pass with
	 * probability 0.91.
	 */
	@Test
	void theIntervalCoversTheTruthAsOftenAsItClaims() {
		int repeats = 2000;
		int covered = 0;
		int falseRegressions = 0;
		for (int repeat = 0; repeat < repeats; repeat++) {
			List<double[]> a = group(10_000, 4, 5, 10_000 + 2 * repeat);
			List<double[]> b = group(9_500, 4, 5, 10_001 + 2 * repeat);
			covered += Regression.compare(a, b, 0.95).holds(-5) ? 1 : 0;
			List<double[]> same = group(10_000, 4, 5, 90_000 + repeat);
			falseRegressions += (Regression.compare(a, same, 0.95).noRegressionBeyond(0, true) == Outcome.FAIL) ? 1 : 0;
		}
		assertThat(covered / (double) repeats).isBetween(0.94, 0.97);
		assertThat(falseRegressions / (double) repeats).isBetween(0.015, 0.035);
	}

	@Test
	void oneSampleAGroupFallsBackToItsRoundsAndSaysSo() {
		Regression.Difference roundsOnly = Regression.compare(List.of(new double[] { 100, 100, 100 }),
				List.of(new double[] { 95, 100, 105 }), 0.95);
		assertThat(roundsOnly.roundsOnly()).isTrue();
		// Candidate mean 100, its mean's variance 25 / 3, 2 degrees of freedom, t =
		// 4.303.
		double halfWidth = 4.302653 * Math.sqrt(25.0 / 3) / 100;
		assertThat(roundsOnly.degreesOfFreedom()).isCloseTo(2, within(1e-9));
		assertThat(roundsOnly.lowerPercent()).isCloseTo(100 * Math.expm1(-halfWidth), within(1e-4));
		assertThat(roundsOnly.upperPercent()).isCloseTo(100 * Math.expm1(halfWidth), within(1e-4));
	}

	@Test
	void theSamplesSpreadWidensTheIntervalEvenWhenEveryRunIsFlat() {
		List<double[]> flat = List.of(new double[] { 100, 100 }, new double[] { 100, 100 });
		List<double[]> spread = List.of(new double[] { 90, 90, 90 }, new double[] { 110, 110, 110 });
		Regression.Difference difference = Regression.compare(flat, spread, 0.95);
		// Candidate: mean 100, sample values 90 and 110 -> variance of the mean 100, 1
		// degree of freedom (t = 12.706); the flat baseline adds nothing.
		assertThat(difference.degreesOfFreedom()).isCloseTo(1, within(1e-9));
		assertThat(difference.upperPercent()).isCloseTo(100 * Math.expm1(12.7062 * 0.1), within(0.05));
		Regression.Difference point = Regression.compare(flat, flat, 0.95);
		assertThat(point.upperPercent()).as("nothing varies: a point").isZero();
		assertThat(point.degreesOfFreedom()).as("no t quantile, and no Infinity in JSON").isNull();
	}

	@Test
	void badInputIsRefused() {
		assertThatThrownBy(() -> Regression.compare(List.of(), group(1, 2, 2, 1), 0.95))
			.hasMessageContaining("baseline has no samples");
		assertThatThrownBy(() -> Regression.compare(List.of(new double[] { 5 }), group(1, 2, 2, 1), 0.95))
			.hasMessageContaining("one sample of one round");
		assertThatThrownBy(() -> Regression.compare(group(1, 2, 2, 1), group(1, 2, 2, 1), 1))
			.hasMessageContaining("confidence");
	}

}
