/*
 * The fleet benchmark's knobs, read once from system properties (-Dfleet.*), so every part of the
 * run and its report see the same values.
 */
package io.drivequal.service.fleet;

import java.nio.file.Path;
import java.util.List;

/**
 * @param runners agent processes, each owning drivesPerRunner paced simulated drives
 * @param runtimeS each job's one workload phase: one sample per second for this long
 * @param replicas service JVMs sharing the consumer groups
 * @param historyJobs finished jobs added to the store so listings see the size of a lab
 * @param badSubmissions submissions for drives that do not exist
 * @param killReplicaAtS SIGKILL of the last replica this long after every job runs; 0:
 * none
 * @param apiSeconds the API list/detail load, once every job runs
 * @param pollMs how often the freshness poller asks Elasticsearch
 * @param profiles sim profiles the drives cycle through
 * @param analysisWaitS how long to wait for the replicas to analyse the finished jobs
 * @param startTimeoutS how long Elasticsearch, Kafka and each replica may take to start
 * (a loaded machine starts slowly)
 * @param replicaJvmArgs extra JVM options of every replica (a profiler, for one)
 * @param warmupS a round before the measured one: every drive runs one job this long,
 * then the round is removed from the store; 0: none, the run measures freshly started
 * JVMs
 */
record FleetSettings(int runners, int drivesPerRunner, int runtimeS, int replicas, int historyJobs, int badSubmissions,
		int killReplicaAtS, int apiSeconds, int apiClients, int pollMs, int submitThreads, int esHeapMb,
		int kafkaHeapMb, int serviceHeapMb, List<String> profiles, Path dir, Path report, Path runner, Path serviceJar,
		String serviceArgs, int analysisWaitS, int startTimeoutS, String replicaJvmArgs, int warmupS) {

	static FleetSettings fromSystemProperties() {
		return new FleetSettings(Integer.getInteger("fleet.runners", 20),
				Integer.getInteger("fleet.drivesPerRunner", 50), Integer.getInteger("fleet.runtimeS", 600),
				Integer.getInteger("fleet.replicas", 2), Integer.getInteger("fleet.historyJobs", 9000),
				Integer.getInteger("fleet.badSubmissions", 1000), Integer.getInteger("fleet.killReplicaAtS", 0),
				Integer.getInteger("fleet.apiSeconds", 60), Integer.getInteger("fleet.apiClients", 4),
				Integer.getInteger("fleet.pollMs", 100), Integer.getInteger("fleet.submitThreads", 8),
				Integer.getInteger("fleet.esHeapMb", 1024), Integer.getInteger("fleet.kafkaHeapMb", 512),
				Integer.getInteger("fleet.serviceHeapMb", 512),
				List.of(System
					.getProperty("fleet.profiles", "test-client-7pct,test-enterprise-eager,test-datacenter-high-op")
					.split(",")),
				Path.of(System.getProperty("fleet.dir", "target/fleet")),
				Path.of(System.getProperty("fleet.report", "target/fleet-benchmark.md")),
				Path.of(System.getProperty("drivequal.runner.binary",
						"../../spdk-runner/target/build/drivequal-runner")),
				Path.of(System.getProperty("drivequal.service.jar", "target/drivequal-service-0.1.0-SNAPSHOT.jar")),
				System.getProperty("fleet.serviceArgs", "").trim(), Integer.getInteger("fleet.analysisWaitS", 600),
				Integer.getInteger("fleet.startTimeoutS", 900), System.getProperty("fleet.replicaJvmArgs", "").trim(),
				Integer.getInteger("fleet.warmupS", 120));
	}

	int drives() {
		return this.runners * this.drivesPerRunner;
	}

}
