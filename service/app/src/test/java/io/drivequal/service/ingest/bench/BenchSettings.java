/*
 * The ingest benchmark's knobs, read once from system properties (-Dbench.*), so every part of the
 * run and its report see the same values.
 */
package io.drivequal.service.ingest.bench;

import java.nio.file.Path;

/**
 * @param batchSize the service's consumer max-poll-records: its largest bulk request
 * @param samples per throughput run
 * @param jobs the throughput runs' samples are spread over
 * @param warmupSamples through each path before the rounds: five runs' worth by default,
 * since after one the JIT compilers still took 0.1-0.8 CPU-s in each measured service run
 * (docs/benchmarks.md)
 * @param freshnessSeconds 0 skips the freshness measurement
 * @param threadCpu print the JVM's CPU per thread group of every service run
 * @param esCpus empty: every process anywhere; else the CPU list (taskset's form)
 * Elasticsearch is pinned to, with the Kafka broker and this JVM (service, ceiling
 * client) pinned to the others
 */
record BenchSettings(int batchSize, int samples, int jobs, int rounds, int warmupSamples, int freshnessRate,
		int freshnessSeconds, int freshnessWarmupSeconds, int freshnessJobs, int pollMs, int esHeapMb, int kafkaHeapMb,
		Path dir, Path report, String serviceArgs, boolean threadCpu, String esCpus) {

	static BenchSettings fromSystemProperties() {
		int samples = Integer.getInteger("bench.samples", 200_000);
		return new BenchSettings(Integer.getInteger("bench.batchSize", 2000), samples,
				Integer.getInteger("bench.jobs", 200), Integer.getInteger("bench.rounds", 5),
				Integer.getInteger("bench.warmupSamples", 5 * samples),
				Integer.getInteger("bench.freshness.rate", 1000), Integer.getInteger("bench.freshness.seconds", 60),
				Integer.getInteger("bench.freshness.warmupSeconds", 5), Integer.getInteger("bench.freshness.jobs", 100),
				Integer.getInteger("bench.freshness.pollMs", 50), Integer.getInteger("bench.esHeapMb", 1024),
				Integer.getInteger("bench.kafkaHeapMb", 512),
				Path.of(System.getProperty("bench.dir", "target/bench-infra")),
				Path.of(System.getProperty("bench.report", "target/ingest-benchmark.md")),
				System.getProperty("bench.serviceArgs", "").trim(), Boolean.getBoolean("bench.threadCpu"),
				System.getProperty("bench.esCpus", "").trim());
	}

}
