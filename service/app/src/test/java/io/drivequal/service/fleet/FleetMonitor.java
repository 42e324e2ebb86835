/*
 * What the fleet costs while it runs, every 10 s: CPU and memory of every process (from /proc),
 * the machine's busy share and load, the service consumers' lag, the runners' liveness as the API
 * reports it, and the requests the service makes of Elasticsearch (GETs and searches per second).
 */
package io.drivequal.service.fleet;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.ConsumerGroups;
import org.apache.kafka.clients.admin.Admin;
import tools.jackson.databind.JsonNode;

final class FleetMonitor implements AutoCloseable {

	static final int PERIOD_S = 10;

	/** Consumer groups of the service and the topic each reads. */
	static final Map<String, String> GROUPS = Map.of("samples", "drivequal.samples", "events", "drivequal.job-events",
			"heartbeats", "drivequal.runner-heartbeats");

	/**
	 * One look at the fleet, taken at wallMs. cpuPercent: of one core, over the period
	 * before it.
	 */
	record Snapshot(long elapsedS, long wallMs, String load, double machineBusyPercent, Map<String, Double> cpuPercent,
			Map<String, Double> rssMb, Map<String, Long> lag, int runnersAlive, int runnersKnown,
			double oldestHeartbeatS, double esGetsPerS, double esSearchesPerS) {
	}

	private final Map<String, Supplier<List<Long>>> processes;

	private final Admin admin;

	private final Supplier<ApiClient> api;

	private final ElasticsearchProbe elasticsearch;

	private final long startNanos = System.nanoTime();

	private final List<Snapshot> snapshots = Collections.synchronizedList(new ArrayList<>());

	private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

	private Map<String, Long> lastTicks = new LinkedHashMap<>();

	private long[] lastMachine = ProcStats.machineTicks();

	private long lastNanos = System.nanoTime();

	private long[] lastEs;

	/**
	 * @param processes by name (elasticsearch, kafka, replica-1, agents, ...), each a
	 * supplier of its current pids; a group of several pids is summed
	 * @param api a replica that is alive (asked for the runners' liveness)
	 */
	FleetMonitor(Map<String, Supplier<List<Long>>> processes, Admin admin, Supplier<ApiClient> api,
			ElasticsearchProbe elasticsearch) {
		this.processes = processes;
		this.admin = admin;
		this.api = api;
		this.elasticsearch = elasticsearch;
		this.lastEs = elasticsearch.requestCounters();
		for (String name : processes.keySet()) {
			this.lastTicks.put(name, ticks(name));
		}
	}

	void start() {
		this.timer.scheduleWithFixedDelay(this::sample, PERIOD_S, PERIOD_S, TimeUnit.SECONDS);
	}

	List<Snapshot> snapshots() {
		synchronized (this.snapshots) {
			return List.copyOf(this.snapshots);
		}
	}

	private long ticks(String name) {
		return this.processes.get(name).get().stream().mapToLong(ProcStats::cpuTicks).sum();
	}

	private void sample() {
		try {
			long now = System.nanoTime();
			double seconds = (now - this.lastNanos) / 1e9;
			Map<String, Double> cpu = new LinkedHashMap<>();
			Map<String, Double> rss = new LinkedHashMap<>();
			Map<String, Long> ticks = new LinkedHashMap<>();
			for (String name : this.processes.keySet()) {
				long current = ticks(name);
				ticks.put(name, current);
				cpu.put(name, Math.max(0, current - this.lastTicks.getOrDefault(name, current))
						/ ProcStats.TICKS_PER_SECOND / seconds * 100);
				rss.put(name, this.processes.get(name).get().stream().mapToDouble(ProcStats::rssMb).sum());
			}
			long[] machine = ProcStats.machineTicks();
			double busy = 100.0 * (machine[0] - this.lastMachine[0]) / Math.max(1, machine[1] - this.lastMachine[1]);
			Map<String, Long> lag = new LinkedHashMap<>();
			for (Map.Entry<String, String> group : GROUPS.entrySet()) {
				lag.put(group.getKey(),
						ConsumerGroups.lag(this.admin, "drivequal-service-" + group.getKey(), group.getValue()));
			}
			int alive = 0;
			int known = 0;
			double oldest = 0;
			try {
				JsonNode runners = this.api.get().get("viewer", "/api/v1/runners").body();
				long wall = System.currentTimeMillis();
				for (JsonNode runner : runners) {
					known++;
					alive += runner.path("alive").asBoolean() ? 1 : 0;
					oldest = Math.max(oldest,
							(wall - java.time.Instant.parse(runner.path("lastHeartbeatAt").asString()).toEpochMilli())
									/ 1000.0);
				}
			}
			catch (RuntimeException ex) {
				alive = -1;
			}
			long[] es = this.elasticsearch.requestCounters();
			double gets = (es[0] - this.lastEs[0]) / seconds;
			double searches = (es[1] - this.lastEs[1]) / seconds;
			this.snapshots.add(new Snapshot((now - this.startNanos) / 1_000_000_000L, System.currentTimeMillis(),
					ProcStats.loadAverage(), busy, cpu, rss, lag, alive, known, oldest, gets, searches));
			this.lastTicks = ticks;
			this.lastMachine = machine;
			this.lastNanos = now;
			this.lastEs = es;
		}
		catch (Exception ex) {
			FleetBenchmark.log("monitor: %s", ex);
		}
	}

	@Override
	public void close() {
		this.timer.shutdownNow();
	}

}
