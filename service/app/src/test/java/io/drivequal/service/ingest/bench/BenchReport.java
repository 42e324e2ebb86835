/*
 * What the ingest benchmark measured and how docs/benchmarks.md shows it: each run's rate and CPU
 * cost, the rounds' ratios of the service to the raw ceiling, the freshness histogram, and the
 * Markdown tables written to bench.report.
 */
package io.drivequal.service.ingest.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

import io.drivequal.service.ingest.DecodeCost;
import org.HdrHistogram.Histogram;

final class BenchReport {

	private BenchReport() {
	}

	record Run(long samples, long nanos, Processes.Cpu cpu) {

		double rate() {
			return this.samples / (this.nanos / 1e9);
		}

	}

	static final class Round {

		Run ceiling1;

		Run ceiling2;

		Run service;

		double ceiling() {
			return Math.max(this.ceiling1.rate(), this.ceiling2.rate());
		}

		double ratio() {
			return this.service.rate() / ceiling();
		}

		/**
		 * CPU seconds per sample of the cheaper ceiling run over the service's, all three
		 * processes: the throughput ratio when everything is CPU-bound, and far less
		 * sensitive than wall time to what else the shared machine runs.
		 */
		double cpuRatio() {
			return Math.min(this.ceiling1.cpu().perSample(this.ceiling1.samples()),
					this.ceiling2.cpu().perSample(this.ceiling2.samples()))
					/ this.service.cpu().perSample(this.service.samples());
		}

	}

	static final class Freshness {

		final Histogram histogram = new Histogram(3_600_000, 3);

		double achievedRate;

		long missing;

		long pollP50;

	}

	static final class Results {

		final BenchSettings settings;

		final List<Round> rounds = new ArrayList<>();

		Freshness freshness;

		boolean sameShape;

		String loadBefore;

		String loadAfter;

		String placement;

		DecodeCost.Result decode;

		Results(BenchSettings settings) {
			this.settings = settings;
		}

		String markdown() {
			StringBuilder md = new StringBuilder();
			md.append(String.format(Locale.ROOT, "### Ingest benchmark, %s%n%n", Instant.now()));
			md.append(String.format(Locale.ROOT,
					"Machine: %d CPUs, %s; load average before %s, after %s. Elasticsearch heap %s MB, Kafka heap %s MB. "
							+ "%d samples per throughput run over %d jobs, bulk/poll batch %d, %d rounds (order alternating) after a %d-sample warm-up of each path. "
							+ "Ceiling and service documents identical (but for jobId): %s. Placement: %s.%n%n",
					Processes.machineCpus(), memory(), this.loadBefore, this.loadAfter, this.settings.esHeapMb(),
					this.settings.kafkaHeapMb(), this.settings.samples(), this.settings.jobs(),
					this.settings.batchSize(), this.rounds.size(), this.settings.warmupSamples(),
					this.sameShape ? "yes" : "NO", this.placement));
			md.append("| samples/s | ");
			for (int i = 1; i <= this.rounds.size(); i++) {
				md.append("round ").append(i).append(" | ");
			}
			md.append("median |\n|---|");
			md.append("---:|".repeat(this.rounds.size() + 1)).append('\n');
			row(md, "raw bulk ceiling, 1 thread", (r) -> r.ceiling1.rate(), "%.0f");
			row(md, "raw bulk ceiling, 2 threads", (r) -> r.ceiling2.rate(), "%.0f");
			row(md, "**ceiling** (max of the two)", Round::ceiling, "%.0f");
			row(md, "**service** Kafka -> Elasticsearch", (r) -> r.service.rate(), "%.0f");
			row(md, "**ratio** service / ceiling (target >= 0.9)", Round::ratio, "%.2f");
			row(md, "CPU-cost ratio: ceiling / service CPU per sample", Round::cpuRatio, "%.2f");
			md.append("\nCPU seconds per 100k samples (Elasticsearch / Kafka broker / service+benchmark JVM):\n\n");
			md.append("| run | ");
			for (int i = 1; i <= this.rounds.size(); i++) {
				md.append("round ").append(i).append(" | ");
			}
			md.append("\n|---|").append("---|".repeat(this.rounds.size())).append('\n');
			cpuRow(md, "ceiling, 1 thread", (r) -> r.ceiling1);
			cpuRow(md, "ceiling, 2 threads", (r) -> r.ceiling2);
			cpuRow(md, "service", (r) -> r.service);
			if (this.decode != null) {
				md.append(String.format(Locale.ROOT,
						"%nDecoding one sample, CPU time in one thread (%d distinct canonical messages x 100, median of 5 "
								+ "rounds after 5): **stream decoder %.2f us**, general path (tree, compiled schema check, "
								+ "binding) %.2f us; the stream decoder vouched for %d of %d.%n",
						this.decode.messages(), this.decode.streamNanos() / 1000, this.decode.generalNanos() / 1000,
						this.decode.vouched(), this.decode.messages()));
			}
			Freshness f = this.freshness;
			if (f == null) {
				return md.toString();
			}
			md.append(String.format(Locale.ROOT,
					"%nFreshness (produced -> searchable) at %.0f samples/s for %d s "
							+ "(first %d s excluded), %d samples measured, %d never seen; search poll every %d ms "
							+ "(median poll %d ms); index refresh_interval 1 s:%n%n",
					f.achievedRate, this.settings.freshnessSeconds(), this.settings.freshnessWarmupSeconds(),
					f.histogram.getTotalCount(), f.missing, this.settings.pollMs(), f.pollP50));
			md.append("| p50 | p90 | p99 | max | target |\n|---:|---:|---:|---:|---|\n");
			md.append(String.format(Locale.ROOT, "| %d ms | %d ms | %d ms | %d ms | p99 <= 2000 ms |%n",
					f.histogram.getValueAtPercentile(50), f.histogram.getValueAtPercentile(90),
					f.histogram.getValueAtPercentile(99), f.histogram.getMaxValue()));
			return md.toString();
		}

		private void row(StringBuilder md, String name, ToDoubleFunction<Round> value, String format) {
			md.append("| ").append(name).append(" | ");
			double[] values = this.rounds.stream().mapToDouble(value).toArray();
			for (double v : values) {
				md.append(String.format(Locale.ROOT, format, v)).append(" | ");
			}
			md.append(String.format(Locale.ROOT, format, median(values))).append(" |\n");
		}

		private void cpuRow(StringBuilder md, String name, Function<Round, Run> run) {
			md.append("| ").append(name).append(" | ");
			for (Round round : this.rounds) {
				Run r = run.apply(round);
				md.append(r.cpu().per100k(r.samples())).append(" | ");
			}
			md.append('\n');
		}

	}

	private static double median(double[] values) {
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		int n = sorted.length;
		return (n % 2 == 1) ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	}

	private static String memory() {
		try {
			Optional<String> total = Files.readAllLines(Path.of("/proc/meminfo"))
				.stream()
				.filter((line) -> line.startsWith("MemTotal:"))
				.findFirst();
			return total.map((line) -> Long.parseLong(line.replaceAll("\\D", "")) / 1024 / 1024 + " GiB RAM")
				.orElse("? RAM");
		}
		catch (IOException | UncheckedIOException ex) {
			return "? RAM";
		}
	}

}
