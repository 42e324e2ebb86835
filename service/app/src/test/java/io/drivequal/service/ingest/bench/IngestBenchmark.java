/*
 * The ingest benchmark of docs/benchmarks.md: sustained samples/s from Kafka into Elasticsearch
 * through the real service (ServiceIngestRun), as a ratio to the raw bulk ceiling of the same
 * Elasticsearch measured in the same run with the same documents (RawBulkCeiling), and sample
 * freshness (produced -> searchable) at a steady rate (FreshnessProbe), written up by BenchReport.
 * A main class, not a test: `mvn verify` never runs it; the `benchmarks` profile of
 * service/app/pom.xml does (docs/benchmarks.md gives the command and the method).
 *
 * System properties: bench.samples (200000 per throughput run), bench.rounds (5), bench.jobs (200),
 * bench.batchSize (2000, the service's max-poll-records), bench.warmupSamples (5 x samples),
 * bench.freshness.{rate,seconds,warmupSeconds,jobs,pollMs} (1000/s, 60 s, 5 s, 100, 50 ms; seconds=0
 * skips freshness), bench.esHeapMb (1024), bench.kafkaHeapMb (512), bench.dir, bench.report,
 * bench.serviceArgs (extra service arguments, e.g. --drivequal.ingest.concurrency=1),
 * bench.threadCpu (true: print the JVM's CPU per thread group of every service run), bench.esCpus
 * (e.g. 0: Elasticsearch pinned to those CPUs, the broker and this JVM to the others).
 */
package io.drivequal.service.ingest.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import ch.qos.logback.classic.Level;
import io.drivequal.schemas.Contracts;
import io.drivequal.schemas.MessageType;
import io.drivequal.service.ingest.DecodeCost;
import org.slf4j.LoggerFactory;

public final class IngestBenchmark {

	/** Every class of the benchmark, loaded up front (see main). */
	private static final List<Class<?>> CLASSES = List.of(IngestBenchmark.class, BenchSettings.class, BenchStack.class,
			BenchSamples.class, RawBulkCeiling.class, ServiceIngestRun.class, FreshnessProbe.class, BenchReport.class,
			Processes.class, ThreadCpu.class, JitQuiet.class, DecodeCost.class);

	private final BenchSettings settings = BenchSettings.fromSystemProperties();

	private final Contracts contracts = Contracts.load();

	private IngestBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
			.setLevel(Level.WARN);
		// Load every class of the benchmark now: a concurrent build in the same target/
		// may recompile test-classes while this runs for minutes.
		for (Class<?> type : CLASSES) {
			for (Class<?> nested : type.getDeclaredClasses()) {
				Class.forName(nested.getName(), true, type.getClassLoader());
				for (Class<?> inner : nested.getDeclaredClasses()) {
					Class.forName(inner.getName(), true, type.getClassLoader());
				}
			}
		}
		new IngestBenchmark().run();
	}

	private void run() throws Exception {
		String loadBefore = loadAverage();
		deletePreviousInstances();
		try (BenchStack stack = BenchStack.start(this.settings, this.contracts)) {
			String placement = "every process on any CPU";
			if (!this.settings.esCpus().isEmpty()) {
				placement = stack.processes.place(this.settings.esCpus());
				log("%s", placement);
			}
			checkMessagesAreValid();
			BenchReport.Results results = measure(stack);
			results.decode = DecodeCost.measure(this.contracts,
					BenchSamples.throughput("decode", 2000, this.settings.jobs())
						.stream()
						.map(BenchSamples.Sample::message)
						.toList(),
					100);
			log("decoding one sample: stream %.0f ns, general path %.0f ns", results.decode.streamNanos(),
					results.decode.generalNanos());
			results.placement = placement;
			results.loadBefore = loadBefore;
			results.loadAfter = loadAverage();
			String markdown = results.markdown();
			System.out.println();
			System.out.println(markdown);
			Path report = this.settings.report();
			Files.createDirectories(report.toAbsolutePath().getParent());
			Files.writeString(report, markdown, StandardCharsets.UTF_8);
			log("wrote %s", report.toAbsolutePath());
		}
	}

	/**
	 * Every run starts its nodes on new ports in new directories; the previous runs' data
	 * (about 0.5 GB each) goes, the current run's logs stay for a look afterwards.
	 */
	private void deletePreviousInstances() throws IOException {
		if (!Files.isDirectory(this.settings.dir())) {
			return;
		}
		try (var instances = Files.list(this.settings.dir())) {
			for (Path instance : instances.filter((path) -> path.getFileName().toString().matches("(es|kafka)-\\d+"))
				.toList()) {
				try (var tree = Files.walk(instance)) {
					for (Path path : tree.sorted(Comparator.reverseOrder()).toList()) {
						Files.deleteIfExists(path);
					}
				}
			}
		}
	}

	private BenchReport.Results measure(BenchStack stack) throws Exception {
		RawBulkCeiling ceiling = new RawBulkCeiling(stack, this.settings);
		ServiceIngestRun service = new ServiceIngestRun(stack, this.settings);
		int samples = this.settings.samples();
		BenchReport.Results results = new BenchReport.Results(this.settings);
		log("warm-up: %d samples through the raw client and through the service", this.settings.warmupSamples());
		// Both paths and Elasticsearch JIT-compiled before anything is measured.
		ceiling.run("w1", this.settings.warmupSamples(), 1);
		ceiling.run("w2", this.settings.warmupSamples(), 2);
		service.run("ws", this.settings.warmupSamples());
		for (int round = 1; round <= this.settings.rounds(); round++) {
			BenchReport.Round r = new BenchReport.Round();
			if (round == 1) {
				r.ceiling1 = ceiling.run("c1r" + round, samples, 1);
				Map<String, Object> ceilingDocument = source(stack, "c1r" + round);
				r.ceiling2 = ceiling.run("c2r" + round, samples, 2);
				r.service = service.run("svr" + round, samples);
				results.sameShape = sameShape(ceilingDocument, source(stack, "svr" + round));
			}
			else if (round % 2 == 0) {
				// Alternate the order, so a drift in the machine's other load favours
				// neither.
				r.service = service.run("svr" + round, samples);
				r.ceiling2 = ceiling.run("c2r" + round, samples, 2);
				r.ceiling1 = ceiling.run("c1r" + round, samples, 1);
			}
			else {
				r.ceiling1 = ceiling.run("c1r" + round, samples, 1);
				r.ceiling2 = ceiling.run("c2r" + round, samples, 2);
				r.service = service.run("svr" + round, samples);
			}
			log("round %d: ceiling 1 thread %.0f/s, 2 threads %.0f/s, service %.0f/s, ratio %.2f, CPU-cost ratio %.2f",
					round, r.ceiling1.rate(), r.ceiling2.rate(), r.service.rate(), r.ratio(), r.cpuRatio());
			results.rounds.add(r);
		}
		results.freshness = (this.settings.freshnessSeconds() > 0) ? new FreshnessProbe(stack, this.settings).measure()
				: null;
		return results;
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> source(BenchStack stack, String run) throws IOException {
		String id = BenchSamples.jobId(run, 2) + "/2/1";
		Map<String, Object> source = stack.client
			.get((get) -> get.index(BenchSamples.THROUGHPUT_INDEX).id(id), Map.class)
			.source();
		if (source == null) {
			throw new IllegalStateException("no document " + id);
		}
		return source;
	}

	/** The ceiling's documents and the service's are the same JSON but for the jobId. */
	private static boolean sameShape(Map<String, Object> ceiling, Map<String, Object> service) {
		Map<String, Object> a = new LinkedHashMap<>(ceiling);
		Map<String, Object> b = new LinkedHashMap<>(service);
		a.remove("jobId");
		b.remove("jobId");
		boolean same = a.equals(b);
		if (!same) {
			log("documents differ:%n  ceiling %s%n  service %s", a, b);
		}
		return same;
	}

	private void checkMessagesAreValid() {
		for (int job = 0; job < 4; job++) {
			byte[] message = BenchSamples.sample("check", job, 1, BenchSamples.THROUGHPUT_BASE_MS).message();
			var validation = this.contracts.validate(MessageType.SAMPLE, message);
			if (!validation.valid()) {
				throw new IllegalStateException("generated sample is invalid: " + validation.summary() + ": "
						+ new String(message, StandardCharsets.UTF_8));
			}
		}
	}

	private static String loadAverage() {
		try {
			return Files.readString(Path.of("/proc/loadavg")).trim();
		}
		catch (IOException ex) {
			return "?";
		}
	}

	static void closeQuietly(AutoCloseable closeable) {
		if (closeable != null) {
			try {
				closeable.close();
			}
			catch (Exception ex) {
				log("closing %s failed: %s", closeable, ex);
			}
		}
	}

	static void log(String format, Object... args) {
		System.out.printf(Locale.ROOT, "[bench] " + format + "%n", args);
	}

}
