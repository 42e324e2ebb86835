// Whether a candidate (a new firmware, another vendor) is worse than a baseline, with a bootstrap interval over samples and rounds.
package io.drivequal.analysis;

import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The difference between two groups of runs of one figure (two campaigns, or two jobs of
 * one profile) with its uncertainty. Each run is one sample's per-round values (e.g. the
 * round IOPS of its steady-state window).
 *
 * <p>
 * Method: the statistic is the relative difference of the group means, {@code 100 x
 * (candidate - baseline) / baseline}, where a group's mean is the mean over its samples
 * of each sample's mean round value. Its interval is a two-stage (hierarchical)
 * percentile bootstrap: each of {@code resamples} replicates draws, per group, as many
 * samples as the group has, with replacement, and within each drawn sample as many rounds
 * as it has, with replacement, then computes the statistic; the interval is the
 * replicates' (1 - confidence) / 2 and (1 + confidence) / 2 quantiles. So both the
 * sample-to-sample and the round-to-round variation widen it. With one sample per group
 * only the round-to-round variation is seen, which understates the uncertainty of a
 * model; with few samples (under about five) a percentile bootstrap is known to be
 * somewhat too narrow. The random stream is seeded: the same data give the same interval.
 */
public final class Regression {

	private Regression() {
	}

	/**
	 * @param baselineMean the baseline group's mean
	 * @param candidateMean the candidate group's mean
	 * @param differencePercent 100 x (candidate - baseline) / baseline
	 * @param lowerPercent the interval's lower bound, in percent
	 * @param upperPercent the interval's upper bound, in percent
	 * @param confidence e.g. 0.95
	 * @param resamples the bootstrap replicates
	 */
	public record Difference(double baselineMean, double candidateMean, double differencePercent, double lowerPercent,
			double upperPercent, double confidence, int resamples) {

		/**
		 * "no regression beyond {@code marginPercent} % at this confidence": FAIL when
		 * the whole interval lies beyond the margin on the worse side (a regression
		 * shown), PASS when the whole interval lies on the better side of it,
		 * INCONCLUSIVE when the interval straddles it (more samples or rounds would
		 * decide).
		 * @param marginPercent e.g. 5 for 5 %
		 * @param higherIsBetter true for IOPS or throughput, false for latency or WAF
		 * @return the outcome
		 */
		public Outcome noRegressionBeyond(double marginPercent, boolean higherIsBetter) {
			double worseEdge = higherIsBetter ? this.upperPercent : -this.lowerPercent;
			double betterEdge = higherIsBetter ? this.lowerPercent : -this.upperPercent;
			if (worseEdge < -marginPercent) {
				return Outcome.FAIL;
			}
			return (betterEdge >= -marginPercent) ? Outcome.PASS : Outcome.INCONCLUSIVE;
		}

		@Override
		public String toString() {
			return String.format(Locale.ROOT, "%+.2f %% (%.0f %% interval %+.2f to %+.2f %%; %.1f -> %.1f)",
					this.differencePercent, 100 * this.confidence, this.lowerPercent, this.upperPercent,
					this.baselineMean, this.candidateMean);
		}

	}

	/**
	 * The difference with its bootstrap interval.
	 * @param baseline one array of round values per baseline sample, each non-empty
	 * @param candidate one array of round values per candidate sample, each non-empty
	 * @param confidence the interval's coverage, in (0, 1)
	 * @param resamples bootstrap replicates, at least 100
	 * @param seed the random stream's seed
	 * @return the difference
	 */
	public static Difference compare(List<double[]> baseline, List<double[]> candidate, double confidence,
			int resamples, long seed) {
		check(baseline, "baseline");
		check(candidate, "candidate");
		if (!(confidence > 0 && confidence < 1) || resamples < 100) {
			throw new IllegalArgumentException("confidence in (0, 1) and at least 100 resamples");
		}
		double base = groupMean(baseline);
		double cand = groupMean(candidate);
		if (base == 0) {
			throw new IllegalArgumentException("the baseline's mean is 0: no relative difference");
		}
		SplittableRandom random = new SplittableRandom(seed);
		double[] replicates = new double[resamples];
		for (int i = 0; i < resamples; i++) {
			double b = resampledMean(baseline, random);
			double c = resampledMean(candidate, random);
			replicates[i] = (b == 0) ? Double.NaN : 100 * (c - b) / b;
		}
		java.util.Arrays.sort(replicates);
		double lower = NearestRankQuantile.of(replicates, (1 - confidence) / 2);
		double upper = NearestRankQuantile.of(replicates, (1 + confidence) / 2);
		return new Difference(base, cand, 100 * (cand - base) / base, lower, upper, confidence, resamples);
	}

	private static void check(List<double[]> group, String name) {
		if (group == null || group.isEmpty()) {
			throw new IllegalArgumentException("the " + name + " has no samples");
		}
		for (double[] rounds : group) {
			if (rounds == null || rounds.length == 0) {
				throw new IllegalArgumentException("a " + name + " sample has no rounds");
			}
			for (double value : rounds) {
				if (!Double.isFinite(value)) {
					throw new IllegalArgumentException("a " + name + " round is not finite: " + value);
				}
			}
		}
	}

	private static double groupMean(List<double[]> group) {
		double sum = 0;
		for (double[] rounds : group) {
			double s = 0;
			for (double value : rounds) {
				s += value;
			}
			sum += s / rounds.length;
		}
		return sum / group.size();
	}

	private static double resampledMean(List<double[]> group, SplittableRandom random) {
		double sum = 0;
		for (int i = 0; i < group.size(); i++) {
			double[] rounds = group.get(random.nextInt(group.size()));
			double s = 0;
			for (int r = 0; r < rounds.length; r++) {
				s += rounds[random.nextInt(rounds.length)];
			}
			sum += s / rounds.length;
		}
		return sum / group.size();
	}

	/**
	 * The q-quantile of sorted values, nearest rank (NaN replicates sort last and are
	 * never reached in practice).
	 */
	private static final class NearestRankQuantile {

		static double of(double[] sorted, double q) {
			int rank = (int) Math.ceil(q * sorted.length);
			return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
		}

	}

}
