// The known-truth matrix: the steady-state rule judged on simulated drives whose true steady level is known, as a table of answers and errors.
package io.drivequal.analysis;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.Stream;

/**
 * Reads the per-second CSVs of spdk-runner/sim/bench/truth-matrix.sh (one simulated drive
 * each, from its fill to 5 × the tested range of random writes) and judges every test a
 * buyer or operator would run on that drive as a prefix of the run: the seeds' 2000 s
 * test, the 7200 s check and adaptive SNIA rounds (at most 25), each with the drive's
 * media-write counter (read every 10 s, as the runner polls health) and without it. Truth
 * = the mean IOPS of the seconds after 4 × the tested range was written at random.
 *
 * <pre>
 * java -cp service/analysis/target/classes:service/analysis/target/test-classes:$(deps) \
 *     io.drivequal.analysis.TruthMatrix DIR
 * </pre> (service/analysis/bench/truth-matrix.sh runs it with the right class path.)
 */
public final class TruthMatrix {

	/** A figure more than this far from the truth is wrong. */
	static final double WRONG = 0.10;

	static final int MEDIA_POLL_S = 10;

	private TruthMatrix() {
	}

	/** One drive's run. */
	record Drive(String name, Map<String, String> facts, long[] t, long[] ios, long[] writeBytes, long[] mediaBytes,
			long[] hostBytes) {

		long rangeBytes() {
			return Long.parseLong(this.facts.get("range_bytes"));
		}

		/** Mean IOPS after 4 × the range; empty when the run stops short of it. */
		OptionalDouble truth() {
			long written = 0;
			for (int i = 0; i < this.t.length; i++) {
				written += this.writeBytes[i];
				if (written >= 4 * rangeBytes()) {
					double sum = 0;
					for (int j = i + 1; j < this.t.length; j++) {
						sum += this.ios[j];
					}
					int n = this.t.length - i - 1;
					return (n > 0) ? OptionalDouble.of(sum / n) : OptionalDouble.empty();
				}
			}
			return OptionalDouble.empty();
		}

		/** Random writes up to second t as a multiple of the range. */
		double rangeWritesAt(long seconds) {
			long written = 0;
			for (int i = 0; i < this.t.length && this.t[i] <= seconds; i++) {
				written += this.writeBytes[i];
			}
			return (double) written / rangeBytes();
		}

		/**
		 * Whether the drive has settled by the end of round {@code lastRound} (60 s
		 * rounds from t = 1): that round's five-round window and every later one to the
		 * end of the run lie within 10 % of the truth, so the level then is the level it
		 * keeps.
		 */
		boolean settledBy(int lastRound, double truth) {
			int rounds = this.t.length / 60;
			double[] mean = new double[rounds];
			for (int i = 0; i < rounds * 60; i++) {
				mean[i / 60] += this.ios[i] / 60.0;
			}
			for (int x = Math.max(lastRound, 4); x < rounds; x++) {
				double window = (mean[x - 4] + mean[x - 3] + mean[x - 2] + mean[x - 1] + mean[x]) / 5;
				if (Math.abs(window / truth - 1) > WRONG) {
					return false;
				}
			}
			return true;
		}

	}

	/** One judged test. */
	record Cell(String drive, String test, boolean media, double truth, OptionalDouble lastFive, OptionalDouble figure,
			String evidence, SteadyStateResult result, boolean settled) {

		OptionalDouble error() {
			return this.figure.isPresent() ? OptionalDouble.of(this.figure.getAsDouble() / this.truth - 1)
					: OptionalDouble.empty();
		}

		boolean wrong() {
			return error().isPresent() && Math.abs(error().getAsDouble()) > WRONG;
		}

		/**
		 * Whether the phase reached steady state (the first window that held, where a run
		 * to steady state would stop and the report's "from t" starts) more than 10 %
		 * from the truth.
		 */
		boolean reachedWrong() {
			return this.result.reached() && Math.abs(this.result.window().get().avgIops() / this.truth - 1) > WRONG;
		}

		/**
		 * Whether the last five rounds lie within 10 % of the truth: an answer is due.
		 */
		boolean answerDue() {
			return this.lastFive.isPresent() && Math.abs(this.lastFive.getAsDouble() / this.truth - 1) <= WRONG;
		}

	}

	static Drive read(Path csv) throws IOException {
		Map<String, String> facts = new HashMap<>();
		List<long[]> rows = new ArrayList<>();
		try (Stream<String> lines = Files.lines(csv)) {
			lines.forEach((line) -> {
				if (line.startsWith("# ")) {
					String[] kv = line.substring(2).split("=", 2);
					facts.put(kv[0], kv[1]);
				}
				else if (!line.startsWith("t,") && !line.isBlank()) {
					String[] f = line.split(",");
					long[] row = new long[5];
					for (int i = 0; i < 5; i++) {
						row[i] = Long.parseLong(f[i]);
					}
					rows.add(row);
				}
			});
		}
		int n = rows.size();
		long[][] cols = new long[5][n];
		for (int i = 0; i < n; i++) {
			for (int c = 0; c < 5; c++) {
				cols[c][i] = rows.get(i)[c];
			}
		}
		String name = csv.getFileName().toString().replaceFirst("\\.csv$", "");
		return new Drive(name, facts, cols[0], cols[1], cols[2], cols[3], cols[4]);
	}

	/** The tests judged on each drive: name, seconds, round limit. */
	static final List<Object[]> TESTS = List.of(new Object[] { "2000s", 2000, 0 }, new Object[] { "7200s", 7200, 0 },
			new Object[] { "adaptive", 25 * 60, 25 });

	static List<Cell> judge(Drive drive) {
		OptionalDouble truth = drive.truth();
		if (truth.isEmpty()) {
			throw new IllegalArgumentException(drive.name() + ": the run stops before 4 × the range");
		}
		List<Cell> cells = new ArrayList<>();
		for (Object[] test : TESTS) {
			int seconds = (int) test[1];
			int maxRounds = (int) test[2];
			for (boolean media : new boolean[] { true, false }) {
				SteadyStateResult result = analyze(drive, seconds, maxRounds, media);
				OptionalDouble figure;
				if (maxRounds > 0) {
					figure = result.reached() ? OptionalDouble.of(result.window().get().avgIops())
							: OptionalDouble.empty();
				}
				else {
					figure = result.steadyStateIops();
				}
				OptionalDouble lastFive = result.end().window().isPresent()
						? OptionalDouble.of(result.end().window().get().avgIops()) : OptionalDouble.empty();
				if (maxRounds > 0 && result.reached()) {
					lastFive = figure;
				}
				int lastRound = (maxRounds > 0 && result.reached()) ? result.window().get().lastRoundIndex()
						: seconds / 60 - 1;
				cells.add(new Cell(drive.name(), (String) test[0], media, truth.getAsDouble(), lastFive, figure,
						result.freshState().evidence().wireName(), result,
						drive.settledBy(lastRound, truth.getAsDouble())));
			}
		}
		return cells;
	}

	static SteadyStateResult analyze(Drive drive, int seconds, int maxRounds, boolean media) {
		PerSecondSeries.Builder iops = PerSecondSeries.builder();
		PerSecondSeries.Builder written = PerSecondSeries.builder();
		List<MediaWrites.Reading> readings = new ArrayList<>();
		for (int i = 0; i < drive.t().length && drive.t()[i] <= seconds; i++) {
			iops.add(drive.t()[i], drive.ios()[i]);
			written.add(drive.t()[i], drive.writeBytes()[i]);
			if (drive.t()[i] == 1 || drive.t()[i] % MEDIA_POLL_S == 0) {
				readings.add(new MediaWrites.Reading(drive.t()[i], drive.mediaBytes()[i], drive.hostBytes()[i]));
			}
		}
		Eligibility eligibility = Eligibility.afterRandomWrites(Eligibility.DEFAULT_RANGE_WRITES_REQUIRED,
				drive.rangeBytes(), 0, "since the fill");
		IopsPhaseOptions options = IopsPhaseOptions.defaults();
		if (maxRounds > 0) {
			options = options.withMaxRounds(maxRounds);
		}
		return IopsPhaseAnalyzer
			.analyze(iops.build(), written.build(),
					media ? new MediaWrites(readings,
							java.util.OptionalLong.of(Long.parseLong(drive.facts().get("raw_bytes"))))
							: MediaWrites.none(),
					eligibility, options)
			.steadyState();
	}

	/**
	 * Prints the table and the totals; returns the number of wrong figures and reached
	 * windows.
	 */
	static int print(List<Drive> drives, PrintStream out) {
		List<Cell> cells = new ArrayList<>();
		out.println(
				"| drive | test | counter | truth IOPS | last 5 rounds | verdict's figure | error | decided by | projection (error) |");
		out.println("|---|---|---|---|---|---|---|---|---|");
		for (Drive drive : drives) {
			for (Cell cell : judge(drive)) {
				cells.add(cell);
				SteadyStateResult result = cell.result();
				String projection = result.trend()
					.projection()
					.map((p) -> String.format(Locale.ROOT, "%,.0f ± %,.0f (%+.1f %%%s)", p.levelIops(),
							p.uncertaintyIops(), 100 * (p.levelIops() / cell.truth() - 1),
							(Math.abs(p.levelIops() - cell.truth()) <= p.uncertaintyIops()) ? ", truth inside"
									: ", TRUTH OUTSIDE"))
					.orElse("");
				out.printf(Locale.ROOT, "| %s | %s | %s | %,.0f | %s | %s | %s | %s | %s |%n", cell.drive(),
						cell.test(), cell.media() ? "media" : "none", cell.truth(),
						percent(cell.lastFive(), cell.truth()),
						cell.figure().isPresent() ? String.format(Locale.ROOT, "%,.0f", cell.figure().getAsDouble())
								: "INCONCLUSIVE",
						cell.error().isPresent() ? String.format(Locale.ROOT, "%+.1f %%%s",
								100 * cell.error().getAsDouble(), cell.wrong() ? " WRONG" : "") : "",
						cell.evidence(), projection);
			}
		}
		out.println();
		out.println(
				"The 2-hour checks with the drive's media counter: the one-line answer, the truth, the WAF every 10 rounds");
		for (Cell cell : cells) {
			if (cell.test().equals("7200s") && cell.media()) {
				StringBuilder waf = new StringBuilder();
				for (Round round : cell.result().rounds()) {
					if (round.index() % 10 == 0 && round.waf().isPresent()) {
						waf.append(String.format(Locale.ROOT, " %d:%.2f", round.index(), round.waf().getAsDouble()));
					}
				}
				out.printf(Locale.ROOT, "- %s (truth %,.0f IOPS): %s%n  WAF by round:%s%n", cell.drive(), cell.truth(),
						cell.result().summary(), waf);
			}
		}
		long wrong = cells.stream().filter(Cell::wrong).count();
		long due = cells.stream().filter(Cell::answerDue).count();
		long answered = cells.stream().filter((c) -> c.answerDue() && c.figure().isPresent()).count();
		long settled = cells.stream().filter(Cell::settled).count();
		long settledAnswered = cells.stream().filter((c) -> c.settled() && c.figure().isPresent()).count();
		long projections = cells.stream().filter((c) -> c.result().trend().projection().isPresent()).count();
		long inside = cells.stream()
			.filter((c) -> c.result()
				.trend()
				.projection()
				.map((p) -> Math.abs(p.levelIops() - c.truth()) <= p.uncertaintyIops())
				.orElse(false))
			.count();
		out.printf(Locale.ROOT,
				"%ncells %d, wrong figures %d, answered %d of %d whose last five rounds are within 10 %% of truth (%.0f %%), projections %d with the truth inside their uncertainty %d%n",
				cells.size(), wrong, answered, due, (due > 0) ? 100.0 * answered / due : 0, projections, inside);
		out.printf(Locale.ROOT,
				"answered %d of %d where the drive has settled by the test's end (that window and every later one within 10 %% of truth)%n",
				settledAnswered, settled);
		List<Cell> wrongReached = cells.stream().filter(Cell::reachedWrong).toList();
		out.printf(Locale.ROOT,
				"reached windows (where a run to steady state would stop) more than 10 %% from truth: %d%s%n",
				wrongReached.size(),
				wrongReached.stream()
					.map((c) -> String.format(Locale.ROOT, " %s %s %s round %d (%+.1f %%)", c.drive(), c.test(),
							c.media() ? "media" : "none", c.result().reachedAtRound().getAsInt(),
							100 * (c.result().window().get().avgIops() / c.truth() - 1)))
					.collect(java.util.stream.Collectors.joining(";")));
		out.println();
		out.println("Due cells withheld (last five rounds within 10 % of truth, no figure), and why:");
		for (Cell cell : cells) {
			if (cell.answerDue() && cell.figure().isEmpty()) {
				out.printf(Locale.ROOT, "- %s %s %s (last five %+.1f %%, drift %s): %s%n", cell.drive(), cell.test(),
						cell.media() ? "media" : "none", 100 * (cell.lastFive().getAsDouble() / cell.truth() - 1),
						cell.result()
							.trend()
							.driftPercentPerRound()
							.stream()
							.mapToObj((d) -> String.format(Locale.ROOT, "%+.2f %%/round", d))
							.findFirst()
							.orElse("n/a"),
						cell.result().end().reason());
			}
		}
		return (int) (wrong + wrongReached.size());
	}

	private static String percent(OptionalDouble value, double truth) {
		return value.isPresent() ? String.format(Locale.ROOT, "%,.0f (%+.1f %%)", value.getAsDouble(),
				100 * (value.getAsDouble() / truth - 1)) : "";
	}

	/**
	 * The first two hours of a drive as 60 s rounds with the drive's counters, and its
	 * truth: the CI subset's fixture (TruthMatrixTest).
	 */
	static void exportRounds(Drive drive, Path out) throws IOException {
		List<String> lines = new ArrayList<>();
		lines.add("# drive=" + drive.name());
		drive.facts().forEach((key, value) -> lines.add("# " + key + "=" + value));
		lines.add(String.format(Locale.ROOT, "# truth_iops=%.1f", drive.truth().getAsDouble()));
		lines.add("round,sumIops,secondsPresent,writeBytes,mediaBytes,hostBytes");
		long mediaBefore = drive.mediaBytes()[0] - drive.writeBytes()[0];
		long hostBefore = drive.hostBytes()[0] - drive.writeBytes()[0];
		for (int round = 0; round < 120 && (round + 1) * 60 <= drive.t().length; round++) {
			long sum = 0;
			long written = 0;
			for (int i = round * 60; i < (round + 1) * 60; i++) {
				sum += drive.ios()[i];
				written += drive.writeBytes()[i];
			}
			int last = (round + 1) * 60 - 1;
			lines.add(String.format(Locale.ROOT, "%d,%d,60,%d,%d,%d", round, sum, written,
					drive.mediaBytes()[last] - mediaBefore, drive.hostBytes()[last] - hostBefore));
			mediaBefore = drive.mediaBytes()[last];
			hostBefore = drive.hostBytes()[last];
		}
		Files.write(out, lines);
	}

	public static void main(String[] args) throws IOException {
		if (args.length < 1 || args.length > 2) {
			System.err.println(
					"usage: TruthMatrix DIR [EXPORT_DIR] (CSVs of spdk-runner/sim/bench/truth-matrix.sh; EXPORT_DIR gets the CI subset's round fixtures)");
			System.exit(2);
		}
		List<Drive> drives = new ArrayList<>();
		try (Stream<Path> files = Files.list(Path.of(args[0]))) {
			for (Path csv : files.filter((f) -> f.toString().endsWith(".csv")).sorted().toList()) {
				drives.add(read(csv));
			}
		}
		if (args.length == 2) {
			for (Drive drive : drives) {
				exportRounds(drive, Path.of(args[1]).resolve(drive.name() + ".csv"));
			}
		}
		Optional<Integer> wrong = Optional.of(print(drives, System.out));
		System.exit(wrong.get() == 0 ? 0 : 1);
	}

}
