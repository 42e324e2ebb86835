/*
 * The fleet benchmark of docs/benchmarks.md: a lab of real C agents, each owning paced simulated
 * drives, one qualification per drive submitted through the API of two service replicas (separate
 * JVMs in the same consumer groups) on a real Kafka and Elasticsearch from the harness; measured
 * while it runs (FleetMonitor, SampleAudit, ApiLoad, Screenshots) and checked sample by sample
 * afterwards; written up by FleetReport. A main class, not a test: the fleet-benchmark profile of
 * service/app/pom.xml runs it. Knobs: FleetSettings (-Dfleet.*).
 */
package io.drivequal.service.fleet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

import ch.qos.logback.classic.Level;
import io.drivequal.harness.RealInfrastructure;
import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.ConsumerGroups;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

public final class FleetBenchmark {

	private static final List<Class<?>> CLASSES = List.of(FleetBenchmark.class, FleetSettings.class, FleetResults.class,
			FleetReport.class, FleetJobs.class, FleetJobs.RunningWatch.class, FleetMonitor.class, SampleAudit.class,
			ApiLoad.class, Screenshots.class, ServiceReplica.class, RunnerFleet.class, ProcStats.class,
			ElasticsearchProbe.class, FleetChecks.class, ApiClient.class, ConsumerGroups.class);

	private final FleetSettings settings = FleetSettings.fromSystemProperties();

	private final FleetResults results = new FleetResults();

	private FleetBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
			.setLevel(Level.WARN);
		// Load every class now: a concurrent build may recompile test-classes meanwhile.
		for (Class<?> type : CLASSES) {
			for (Class<?> nested : type.getDeclaredClasses()) {
				Class.forName(nested.getName(), true, type.getClassLoader());
			}
		}
		new FleetBenchmark().run();
		System.exit(0);
	}

	private void run() throws Exception {
		FleetSettings s = this.settings;
		String run = Long.toString(System.currentTimeMillis() / 1000 % 1_000_000, 36);
		this.results.run = run;
		this.results.loadBefore = ProcStats.loadAverage();
		this.results.startedAt = Instant.now().toString();
		Path dir = Files.createDirectories(s.dir().resolve("run-" + run));
		deletePreviousInstances(s.dir());
		log("run %s: %d runners x %d drives, %d s per job, %d replicas; logs under %s", run, s.runners(),
				s.drivesPerRunner(), s.runtimeS(), s.replicas(), dir.toAbsolutePath());
		List<ServiceReplica> replicas = new ArrayList<>();
		RealInfrastructure infrastructure = RealInfrastructure.start(s.dir(), s.esHeapMb(), s.kafkaHeapMb(),
				s.startTimeoutS());
		try (Admin admin = Admin
			.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, infrastructure.kafkaBootstrapServers()))) {
			for (int i = 1; i <= s.replicas(); i++) {
				replicas.add(ServiceReplica.start("replica-" + i, s, infrastructure, dir));
			}
			for (ServiceReplica replica : replicas) {
				replica.awaitHealthy(s.startTimeoutS());
			}
			log("%d replicas up", replicas.size());
			ElasticsearchProbe elasticsearch = new ElasticsearchProbe(infrastructure.elasticsearchUrl());
			try (RunnerFleet fleet = RunnerFleet.start(s, infrastructure.kafkaBootstrapServers(), run, dir)) {
				FleetChecks checks = new FleetChecks(s, this.results, elasticsearch, admin, replicas, run);
				List<JsonNode> drives = checks.awaitInventory();
				checks.heartbeatSize(infrastructure.kafkaBootstrapServers());
				checks.warmUp(drives);
				measure(s, replicas, fleet, checks, drives, infrastructure, admin, elasticsearch, dir);
			}
		}
		finally {
			for (ServiceReplica replica : replicas) {
				closeQuietly(replica);
			}
			infrastructure.close();
		}
	}

	/** The measured run, from the bad input to the report. */
	private void measure(FleetSettings s, List<ServiceReplica> replicas, RunnerFleet fleet, FleetChecks checks,
			List<JsonNode> drives, RealInfrastructure infrastructure, Admin admin, ElasticsearchProbe elasticsearch,
			Path dir) throws Exception {
		try (SampleAudit audit = new SampleAudit(s, infrastructure.kafkaBootstrapServers(), elasticsearch);
				FleetMonitor monitor = new FleetMonitor(processes(replicas, fleet), admin, () -> aliveApi(replicas),
						elasticsearch)) {
			audit.start();
			monitor.start();
			checks.badInput();
			checks.submitAndAwaitRunning(drives, audit);
			long steadyFromMs = System.currentTimeMillis();
			Thread killer = checks.scheduleKill(steadyFromMs);
			Thread.sleep(30_000);
			checks.apiLoad();
			// the last job submitted is the last dispatched: still running, with a
			// live chart
			this.results.screenshots = Screenshots.take("http://127.0.0.1:" + replicas.get(0).port,
					checks.submitted().get(checks.submitted().size() - 1).jobId(), dir);
			checks.awaitEnd();
			killer.join();
			long endMs = System.currentTimeMillis();
			checks.audit(audit, steadyFromMs, endMs);
			checks.awaitAnalysis();
			this.results.loadAfter = ProcStats.loadAverage();
			monitor.close();
			for (FleetMonitor.Snapshot snapshot : monitor.snapshots()) {
				this.results.freshnessByMinute.put(snapshot.wallMs(),
						audit.freshness(snapshot.wallMs() - 60_000, snapshot.wallMs()));
			}
			checks.measureMergedSampleIndex();
			String markdown = FleetReport.markdown(s, this.results, monitor.snapshots());
			System.out.println();
			System.out.println(markdown);
			Files.createDirectories(s.report().toAbsolutePath().getParent());
			Files.writeString(s.report(), markdown, StandardCharsets.UTF_8);
			Files.writeString(dir.resolve("report.md"), markdown, StandardCharsets.UTF_8);
			log("wrote %s", s.report().toAbsolutePath());
		}
	}

	/** Every process of the lab by name, for the monitor; each agent on its own. */
	private static Map<String, Supplier<List<Long>>> processes(List<ServiceReplica> replicas, RunnerFleet fleet) {
		Map<String, Supplier<List<Long>>> processes = new LinkedHashMap<>();
		long es = ProcStats.descendant("org.elasticsearch.bootstrap.Elasticsearch");
		long kafka = ProcStats.descendant("kafka.Kafka");
		processes.put("elasticsearch", () -> List.of(es));
		processes.put("kafka", () -> List.of(kafka));
		for (ServiceReplica replica : replicas) {
			processes.put(replica.name, () -> replica.process.isAlive() ? List.of(replica.pid()) : List.of());
		}
		List<Long> agents = fleet.pids();
		for (int i = 0; i < agents.size(); i++) {
			long pid = agents.get(i);
			processes.put("agent-" + i, () -> List.of(pid));
		}
		long self = ProcessHandle.current().pid();
		processes.put("benchmark", () -> List.of(self));
		return processes;
	}

	private static ApiClient aliveApi(List<ServiceReplica> replicas) {
		return replicas.stream().filter((replica) -> replica.process.isAlive()).findFirst().orElseThrow().api;
	}

	/** Earlier runs' Elasticsearch and Kafka data (logs of the current run stay). */
	private static void deletePreviousInstances(Path dir) throws IOException {
		if (!Files.isDirectory(dir)) {
			return;
		}
		try (var instances = Files.list(dir)) {
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

	static void closeQuietly(AutoCloseable closeable) {
		try {
			closeable.close();
		}
		catch (Exception ex) {
			log("closing %s failed: %s", closeable, ex);
		}
	}

	static void log(String format, Object... args) {
		System.out.printf(Locale.ROOT, "[fleet %tT] " + format + "%n", prepend(System.currentTimeMillis(), args));
	}

	private static Object[] prepend(Object first, Object[] rest) {
		Object[] all = new Object[rest.length + 1];
		all[0] = first;
		System.arraycopy(rest, 0, all, 1, rest.length);
		return all;
	}

}
