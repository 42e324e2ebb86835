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
import java.util.Locale;

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
