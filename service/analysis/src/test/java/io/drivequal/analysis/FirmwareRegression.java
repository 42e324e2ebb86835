// The firmware-regression check on simulated drives: the reported difference against the known truth, and 20 A/A repeats.
package io.drivequal.analysis;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads the runs of service/analysis/bench/firmware-regression.sh (sim_truth CSVs: one
 * simulated drive each) and prints the truth of each profile (mean IOPS after 4 x the
 * range, per seed and over seeds), the true difference, then 20 A/A and 20 A/B
 * comparisons of four samples against four, each sample's figure being the last five 60 s
 * rounds of a 600 s random-write phase, as the campaign comparison reads them
 * ({@link Regression#compare}). Exit status 1 when fewer than 19 of 20 A/A repeats report
 * no regression at 95 % or fewer than 19 of 20 A/B intervals hold the truth.
 */
public final class FirmwareRegression {

	static final int SAMPLES = 4;

	static final int REPEATS = 20;

	static final int PHASE_S = 600;

	static final int ROUND_S = 60;

	private FirmwareRegression() {
	}

	/**
	 * The mean IOPS of the last five 60 s rounds of the first {@code phaseS} seconds
	 * (round r holds r x 60 < t <= (r + 1) x 60).
	 */
	static double[] lastFiveRounds(TruthMatrix.Drive drive, int phaseS) {
		int rounds = phaseS / ROUND_S;
		double[] values = new double[5];
		for (int i = 0; i < drive.t().length && drive.t()[i] <= phaseS; i++) {
			int round = (int) ((drive.t()[i] - 1) / ROUND_S);
			if (round >= rounds - 5) {
				values[round - (rounds - 5)] += drive.ios()[i] / (double) ROUND_S;
			}
		}
		return values;
	}

	static List<double[]> group(Path dir, String profile, int firstSeed) throws IOException {
		List<double[]> group = new ArrayList<>();
		for (int seed = firstSeed; seed < firstSeed + SAMPLES; seed++) {
			TruthMatrix.Drive drive = TruthMatrix.read(dir.resolve(profile + "@" + seed + ".csv"));
			if (drive.t().length < PHASE_S) {
				throw new IllegalStateException(drive.name() + " has " + drive.t().length + " s, expected " + PHASE_S);
			}
			group.add(lastFiveRounds(drive, PHASE_S));
		}
		return group;
	}

	/** Mean over seeds of each seed's truth, printing each. */
	static double truth(Path dir, String profile, PrintStream out) throws IOException {
		double sum = 0;
		StringBuilder line = new StringBuilder();
		for (int seed = 1; seed <= 8; seed++) {
			double truth = TruthMatrix.read(dir.resolve(profile + "@" + seed + ".csv")).truth().orElseThrow();
			line.append(String.format(Locale.ROOT, " %.1f", truth));
			sum += truth;
		}
		out.println("truth " + profile + " (mean IOPS after 4 x the range, seeds 1-8):" + line);
		return sum / 8;
	}

	static int run(Path out, String baseline, String candidate, PrintStream print) throws IOException {
		double truthA = truth(out.resolve("truth"), baseline, print);
		double truthB = truth(out.resolve("truth"), candidate, print);
		double truePercent = 100 * (truthB / truthA - 1);
		print.printf(Locale.ROOT, "truth: %s %.1f IOPS, %s %.1f IOPS, true difference %+.2f %%%n", baseline, truthA,
				candidate, truthB, truePercent);
		Path jobs = out.resolve("jobs");
		int aaNoRegression = 0;
		int aaHeld = 0;
		int abHeld = 0;
		print.println("A/A (4 samples vs 4 samples of " + baseline + ", other seeds; margin 0 at 95 %):");
		for (int repeat = 0; repeat < REPEATS; repeat++) {
			int seed = 101 + 2 * SAMPLES * repeat;
			Regression.Difference d = Regression.compare(group(jobs, baseline, seed),
					group(jobs, baseline, seed + SAMPLES), 0.95);
			Outcome outcome = d.noRegressionBeyond(0, true);
			aaNoRegression += (outcome != Outcome.FAIL) ? 1 : 0;
			aaHeld += d.holds(0) ? 1 : 0;
			print.printf(Locale.ROOT, "  %2d seeds %d-%d vs %d-%d: %s -> %s%n", repeat + 1, seed, seed + 3, seed + 4,
					seed + 7, d, (outcome == Outcome.FAIL) ? "REGRESSION" : "no regression");
		}
		print.println("A/B (4 samples of " + baseline + " vs 4 of " + candidate + "):");
		for (int repeat = 0; repeat < REPEATS; repeat++) {
			int seedA = 101 + 2 * SAMPLES * repeat;
			int seedB = 301 + SAMPLES * repeat;
			Regression.Difference d = Regression.compare(group(jobs, baseline, seedA), group(jobs, candidate, seedB),
					0.95);
			abHeld += d.holds(truePercent) ? 1 : 0;
			print.printf(Locale.ROOT, "  %2d seeds %d-%d vs %d-%d: %s -> %s%n", repeat + 1, seedA, seedA + 3, seedB,
					seedB + 3, d, d.holds(truePercent) ? "holds the truth" : "MISSES the truth");
		}
		print.printf(Locale.ROOT,
				"A/A: %d of %d report no regression at 95 %%, %d of %d intervals hold 0; A/B: %d of %d intervals hold "
						+ "the true %+.2f %%%n",
				aaNoRegression, REPEATS, aaHeld, REPEATS, abHeld, REPEATS, truePercent);
		return (aaNoRegression >= 19 && abHeld >= 19) ? 0 : 1;
	}

	public static void main(String[] args) throws IOException {
		System.exit(run(Path.of(args[0]), args[1], args[2], System.out));
	}

}
