/*
 * CPU time of the benchmark's three processes (Elasticsearch, the Kafka broker, and this JVM with
 * the service and the ceiling's client), from /proc: on a shared machine the CPU cost per sample
 * moves far less with other tenants' load than wall time does.
 */
package io.drivequal.service.ingest.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.Locale;
import java.util.stream.Collectors;

import io.drivequal.service.fleet.ProcStats;

record Processes(long elasticsearch, long kafka) {

	private static final double TICKS_PER_SECOND = ProcStats.TICKS_PER_SECOND;

	static Processes find() {
		long es = -1;
		long kafka = -1;
		for (ProcessHandle process : ProcessHandle.current().descendants().toList()) {
			String commandLine = commandLine(process.pid());
			if (commandLine.contains("org.elasticsearch.bootstrap.Elasticsearch")) {
				es = process.pid();
			}
			else if (commandLine.contains("kafka.Kafka")) {
				kafka = process.pid();
			}
		}
		return new Processes(es, kafka);
	}

	/** The whole command line: ProcessHandle.Info truncates long class paths. */
	private static String commandLine(long pid) {
		try {
			return new String(Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline")), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			return "";
		}
	}

	/**
	 * Pins Elasticsearch (every thread; threads started later inherit it) to esCpus and
	 * the broker and this JVM to the machine's other CPUs, as on a deployment where
	 * Elasticsearch has cores of its own. Returns what it did, for the report.
	 */
	String place(String esCpus) throws IOException, InterruptedException {
		int cpus = machineCpus();
		BitSet es = cpuList(esCpus, cpus);
		BitSet others = new BitSet(cpus);
		others.set(0, cpus);
		others.andNot(es);
		if (es.isEmpty() || others.isEmpty()) {
			throw new IllegalArgumentException("bench.esCpus=" + esCpus + " must leave Elasticsearch and the rest "
					+ "at least one of the " + cpus + " CPUs each");
		}
		String rest = others.stream().mapToObj(Integer::toString).collect(Collectors.joining(","));
		taskset(this.elasticsearch, esCpus);
		taskset(this.kafka, rest);
		taskset(ProcessHandle.current().pid(), rest);
		return "Elasticsearch pinned to CPU " + esCpus + ", the Kafka broker and the benchmark's JVM (service, "
				+ "ceiling client) to CPU " + rest;
	}

	/**
	 * The machine's CPUs from /proc/cpuinfo: once this JVM is pinned,
	 * availableProcessors() counts only its own.
	 */
	static int machineCpus() {
		try {
			return (int) Files.readAllLines(Path.of("/proc/cpuinfo"))
				.stream()
				.filter((line) -> line.startsWith("processor"))
				.count();
		}
		catch (IOException ex) {
			return Runtime.getRuntime().availableProcessors();
		}
	}

	private static BitSet cpuList(String list, int cpus) {
		BitSet set = new BitSet(cpus);
		for (String part : list.split(",")) {
			String[] range = part.trim().split("-");
			int from = Integer.parseInt(range[0].trim());
			int to = (range.length > 1) ? Integer.parseInt(range[1].trim()) : from;
			if (from < 0 || to >= cpus || from > to) {
				throw new IllegalArgumentException("bench.esCpus=" + list + ": CPUs are 0-" + (cpus - 1));
			}
			set.set(from, to + 1);
		}
		return set;
	}

	private static void taskset(long pid, String cpus) throws IOException, InterruptedException {
		if (pid < 0) {
			throw new IllegalStateException("no process to pin to CPU " + cpus);
		}
		Process taskset = new ProcessBuilder("taskset", "--all-tasks", "--cpu-list", "--pid", cpus, Long.toString(pid))
			.redirectErrorStream(true)
			.start();
		String output = new String(taskset.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (taskset.waitFor() != 0) {
			throw new IOException("taskset of pid " + pid + " to CPU " + cpus + " failed: " + output.strip());
		}
	}

	Cpu cpu() {
		return new Cpu(ticks(this.elasticsearch), ticks(this.kafka), ticks(ProcessHandle.current().pid()));
	}

	private static long ticks(long pid) {
		return (pid < 0) ? 0 : ProcStats.cpuTicks(pid);
	}

	record Cpu(long elasticsearch, long kafka, long jvm) {

		Cpu minus(Cpu other) {
			return new Cpu(this.elasticsearch - other.elasticsearch, this.kafka - other.kafka, this.jvm - other.jvm);
		}

		double perSample(long samples) {
			return (this.elasticsearch + this.kafka + this.jvm) / (double) samples;
		}

		String per100k(long samples) {
			double scale = 100_000.0 / samples / TICKS_PER_SECOND;
			return String.format(Locale.ROOT, "%.1f / %.1f / %.1f", this.elasticsearch * scale, this.kafka * scale,
					this.jvm * scale);
		}

		@Override
		public String toString() {
			return String.format(Locale.ROOT, "ES %.1f, Kafka %.1f, JVM %.1f", this.elasticsearch / TICKS_PER_SECOND,
					this.kafka / TICKS_PER_SECOND, this.jvm / TICKS_PER_SECOND);
		}

	}

}
