// Whether a candidate (a new firmware, another vendor) is worse than a baseline, with an interval that counts samples and rounds.
package io.drivequal.analysis;

import java.util.List;
import java.util.Locale;

/**
 * The difference between two groups of runs of one figure (two campaigns, or two jobs of
 * one profile) with its uncertainty. Each run is one sample's per-round values (e.g. the
 * round IOPS of its steady-state window).
 *
 * <p>
 * Method: a sample's value is the mean of its rounds; a group's mean is the mean of its
 * samples' values (every sample weighs the same). The statistic is the relative
 * difference of the group means, {@code 100 x (candidate - baseline) / baseline}. Its
 * interval is a Welch t interval on the log of the ratio of the group means: the variance
 * of a group's mean is the sample variance of its samples' values over their number, so
 * it holds both the sample-to-sample variation and each run's round-to-round variation (a
 * sample's value carries the noise of its own rounds; this is the standard analysis of a
 * nested design through its unit means, exact for equal rounds per sample), and the t
 * quantile with Welch-Satterthwaite degrees of freedom pays for estimating that variance
 * from a handful of samples. The delta method carries each group's variance to the log
 * scale ({@code var(ln M) = var(M) / M^2}); the bounds are mapped back to percent, so
 * they are not symmetric around the difference.
 *
 * <p>
 * A group of one sample has no sample-to-sample variation to measure: its variance is
 * that of the mean of its rounds ({@code s^2 / k}, k - 1 degrees of freedom), treating
 * the rounds as independent. That understates the uncertainty of a model (and of a run
 * whose rounds drift); {@link Difference#roundsOnly()} says so.
 *
 * <p>
 * Why not a percentile bootstrap over samples then rounds (what this class did first): a
 * percentile bootstrap over n samples has about the spread of a z interval shrunk by
 * sqrt((n-1)/n), where a handful of samples needs a t quantile; on RegressionTest's data
 * (four samples of five correlated rounds a group, 2000 repeats) its 95 % interval held
 * the truth 90.7 % of the time and an A/A comparison reported a regression 4.9 % of the
 * time; this interval: 96.4 % and 1.9 %.
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
	 * @param baselineSamples samples in the baseline
	 * @param candidateSamples samples in the candidate
	 * @param degreesOfFreedom Welch-Satterthwaite degrees of freedom of the t quantile;
	 * null when neither group varies (the interval is then the point itself)
	 * @param roundsOnly true when a group has one sample, so its variance is its rounds'
	 * alone
	 */
	public record Difference(double baselineMean, double candidateMean, double differencePercent, double lowerPercent,
			double upperPercent, double confidence, int baselineSamples, int candidateSamples, Double degreesOfFreedom,
			boolean roundsOnly) {

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

		/**
		 * @param percent a true difference, in percent
		 * @return whether the interval holds it
		 */
		public boolean holds(double percent) {
			return this.lowerPercent <= percent && percent <= this.upperPercent;
		}

		@Override
		public String toString() {
			return String.format(Locale.ROOT, "%+.2f %% (%.0f %% interval %+.2f to %+.2f %%; %.1f -> %.1f)",
					this.differencePercent, 100 * this.confidence, this.lowerPercent, this.upperPercent,
					this.baselineMean, this.candidateMean);
		}

	}

	/**
	 * The difference with its interval.
	 * @param baseline one array of round values per baseline sample, each non-empty
	 * @param candidate one array of round values per candidate sample, each non-empty
	 * @param confidence the interval's coverage, in (0, 1)
	 * @return the difference
	 */
	public static Difference compare(List<double[]> baseline, List<double[]> candidate, double confidence) {
		if (!(confidence > 0 && confidence < 1)) {
			throw new IllegalArgumentException("confidence must be in (0, 1), got " + confidence);
		}
		GroupMean base = GroupMean.of(baseline, "baseline");
		GroupMean cand = GroupMean.of(candidate, "candidate");
		if (!(base.mean > 0 && cand.mean > 0)) {
			throw new IllegalArgumentException(
					"a relative difference of positive means only: baseline " + base.mean + ", candidate " + cand.mean);
		}
		double baseLogVariance = base.varianceOfMean / (base.mean * base.mean);
		double candLogVariance = cand.varianceOfMean / (cand.mean * cand.mean);
		double logVariance = baseLogVariance + candLogVariance;
		double logRatio = Math.log(cand.mean / base.mean);
		double degreesOfFreedom = Double.POSITIVE_INFINITY;
		double halfWidth = 0;
		if (logVariance > 0) {
			double denominator = term(baseLogVariance, base.degreesOfFreedom)
					+ term(candLogVariance, cand.degreesOfFreedom);
			degreesOfFreedom = logVariance * logVariance / denominator;
			halfWidth = StudentT.quantile((1 + confidence) / 2, degreesOfFreedom) * Math.sqrt(logVariance);
		}
		return new Difference(base.mean, cand.mean, 100 * (cand.mean / base.mean - 1),
				100 * Math.expm1(logRatio - halfWidth), 100 * Math.expm1(logRatio + halfWidth), confidence,
				base.samples, cand.samples, Double.isInfinite(degreesOfFreedom) ? null : degreesOfFreedom,
				base.samples == 1 || cand.samples == 1);
	}

	private static double term(double variance, double degreesOfFreedom) {
		return (variance == 0) ? 0 : variance * variance / degreesOfFreedom;
	}

	/**
	 * A group's mean over samples, the variance of that mean and its degrees of freedom.
	 */
	private record GroupMean(double mean, double varianceOfMean, double degreesOfFreedom, int samples) {

		static GroupMean of(List<double[]> group, String name) {
			if (group == null || group.isEmpty()) {
				throw new IllegalArgumentException("the " + name + " has no samples");
			}
			double[] sampleMeans = new double[group.size()];
			for (int i = 0; i < group.size(); i++) {
				double[] rounds = group.get(i);
				if (rounds == null || rounds.length == 0) {
					throw new IllegalArgumentException("a " + name + " sample has no rounds");
				}
				for (double value : rounds) {
					if (!Double.isFinite(value)) {
						throw new IllegalArgumentException("a " + name + " round is not finite: " + value);
					}
				}
				sampleMeans[i] = mean(rounds);
			}
			if (group.size() == 1) {
				double[] rounds = group.get(0);
				if (rounds.length == 1) {
					throw new IllegalArgumentException(
							"the " + name + " has one sample of one round: no variation to measure an interval from");
				}
				return new GroupMean(sampleMeans[0], variance(rounds) / rounds.length, rounds.length - 1, 1);
			}
			return new GroupMean(mean(sampleMeans), variance(sampleMeans) / sampleMeans.length, sampleMeans.length - 1,
					sampleMeans.length);
		}

		private static double mean(double[] values) {
			double sum = 0;
			for (double value : values) {
				sum += value;
			}
			return sum / values.length;
		}

		/** The sample variance, n - 1 in the denominator. */
		private static double variance(double[] values) {
			double mean = mean(values);
			double squares = 0;
			for (double value : values) {
				squares += (value - mean) * (value - mean);
			}
			return squares / (values.length - 1);
		}

	}

}
