/*
 * The fleet run written up in markdown: the table of figures against their goals, the API
 * latencies, the cost of every process, and the run over time (lag, load, liveness).
 */
package io.drivequal.service.fleet;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

import org.HdrHistogram.Histogram;

final class FleetReport {

	private FleetReport() {
	}

	static String markdown(FleetSettings s, FleetResults r, List<FleetMonitor.Snapshot> snapshots) {
		StringBuilder md = new StringBuilder();
		line(md, "### Fleet run %s (%s)", r.run, r.startedAt);
		line(md, "");
		line(md, "%d runners x %d paced drives (sim fluid model, time scale 1: real time; profiles %s), one job each: "
				+ "4 KiB random write QD32 for %d s, one sample per second; %d service replicas (separate JVMs, "
				+ "%d MB heap each); Elasticsearch heap %d MB, Kafka heap %d MB. Load average before: %s; after: %s.",
				s.runners(), s.drivesPerRunner(), String.join(", ", s.profiles()), s.runtimeS(), s.replicas(),
				s.serviceHeapMb(), s.esHeapMb(), s.kafkaHeapMb(), r.loadBefore, r.loadAfter);
		line(md, "");
		line(md, "| figure | measured |");
		line(md, "|---|---|");
		row(md, "drives in the inventory (heartbeats)", "%d, complete %.0f s after the agents started", r.drivesSeen,
				r.inventoryS);
		row(md, "largest heartbeat (%d drives)", "%,d bytes", s.drivesPerRunner(), r.heartbeatBytesMax);
		if (s.warmupS() > 0) {
			row(md, "warm-up round before the run (warm JVMs), then removed from the store",
					"%d jobs of %d s: %s %.0f s after their submission, %d analysed; %,d documents deleted",
					r.warmupJobs, s.warmupS(), r.warmupStates, r.warmupEndedAfterS, r.warmupAnalysed, r.warmupDeleted);
		}
		else {
			row(md, "warm-up round", "none: the run starts on freshly started JVMs");
		}
		row(md, "jobs submitted through the API", "%d in %.1f s (all 201)", s.drives(), r.submitSeconds);
		row(md, "jobs in the store during the run", "%,d", r.storeWithHistory);
		row(md, "all jobs RUNNING", "%d of %d, %.0f s after the first submission", r.runningSeen, s.drives(),
				r.allRunningAfterS);
		row(md, "submit -> RUNNING in the store (1 s polls)", "%s", percentiles(r.submitToRunningMs));
		row(md, "submit -> accepted by the runner", "%s", percentiles(r.submitToAcceptedMs));
		row(md, "final states", "%s after %.0f s", r.finalStates, r.endedAfterS);
		row(md, "samples in Elasticsearch", "%,d of %,d expected", r.documents, (long) s.drives() * s.runtimeS());
		row(md, "jobs with exactly t = 1..%d (no gap, no duplicate)", "%d of %d", s.runtimeS(), r.jobsExact,
				r.jobsCounted);
		row(md, "samples lost / extra in Elasticsearch", "%d / %d (goal 0 / 0)", r.lost, r.extra);
		if (r.kafka != null) {
			row(md, "records produced twice / never in Kafka", "%d / %d (%d jobs / %d jobs); records of no job %d",
					r.kafka.duplicates(), r.kafka.missing(), r.kafka.jobsWithDuplicates(), r.kafka.jobsWithMissing(),
					r.kafka.unknown());
		}
		row(md, "phase-completed events whose sample count is not %d", "%d", s.runtimeS(),
				r.phaseResultSamplesMismatch);
		row(md, "freshness produced -> searchable, whole run", "%s (goal p99 <= 2000 ms)", percentiles(r.freshnessAll));
		row(md, "freshness once every job ran", "%s", percentiles(r.freshnessSteady));
		if (r.freshnessKillWindow != null) {
			row(md, "freshness in the 120 s after the kill", "%s", percentiles(r.freshnessKillWindow));
			row(md, "freshness before the kill", "%s", percentiles(r.freshnessOutsideKill));
			row(md, "replica SIGKILL -> survivors own all partitions", "%.1f s (%s)", r.takeoverS, r.takeoverNote);
		}
		row(md, "freshness poll (its own latency, p50)", "%.0f ms every %d ms", r.pollP50Ms, s.pollMs());
		liveness(md, snapshots);
		row(md, "bad input: submissions for missing drives", "%d: %s in %.1f s", s.badSubmissions(), r.badStatuses,
				r.badSeconds);
		row(md, "bad input: jobs in the store before / after", "%d / %d", r.storeBeforeBad, r.storeAfterBad);
		row(md, "bad input: start commands before / after", "%d / %d", r.commandsBeforeBad, r.commandsAfterBad);
		if (r.sampleIndexDocs > 0) {
			double perDoc = (double) r.sampleIndexBytes / r.sampleIndexDocs;
			row(md, "sample index at the audit (as merged so far)",
					"%,d bytes for %,d documents: %.0f bytes per sample, %.2f MB per drive-hour", r.sampleIndexBytes,
					r.sampleIndexDocs, perDoc, perDoc * 3600 / 1e6);
			if (r.sampleIndexMergedBytes > 0) {
				double merged = (double) r.sampleIndexMergedBytes / r.sampleIndexDocs;
				row(md, "sample index at rest (one segment per shard)",
						"%,d bytes: %.0f bytes per sample, %.2f MB per drive-hour", r.sampleIndexMergedBytes, merged,
						merged * 3600 / 1e6);
			}
		}
		row(md, "analysis of the finished jobs", "%d of %d analysed %.0f s after the audit", r.analysed, s.drives(),
				r.analysisS);
		line(md, "");
		api(md, r.api);
		costs(md, snapshots);
		timeline(md, snapshots, r.freshnessByMinute);
		line(md, "");
		line(md, "Screenshots: %s", String.join("; ", r.screenshots));
		return md.toString();
	}

	private static void liveness(StringBuilder md, List<FleetMonitor.Snapshot> snapshots) {
		int minAlive = snapshots.stream().mapToInt(FleetMonitor.Snapshot::runnersAlive).min().orElse(-1);
		int known = snapshots.stream().mapToInt(FleetMonitor.Snapshot::runnersKnown).max().orElse(-1);
		double oldest = snapshots.stream().mapToDouble(FleetMonitor.Snapshot::oldestHeartbeatS).max().orElse(-1);
		long maxLag = snapshots.stream().mapToLong((snapshot) -> snapshot.lag().get("samples")).max().orElse(-1);
		row(md, "runners alive (fewest seen) / oldest heartbeat", "%d of %d / %.1f s (timeout 20 s)", minAlive, known,
				oldest);
		row(md, "samples consumer lag, largest seen", "%,d records", maxLag);
	}

	private static void api(StringBuilder md, ApiLoad.Result result) {
		if (result == null) {
			return;
		}
		line(md, "API while the fleet ran (%.0f s, errors %d):", result.seconds(), result.errors());
		line(md, "");
		line(md, "| request | count | p50 ms | p99 ms | max ms |");
		line(md, "|---|---:|---:|---:|---:|");
		result.latencyMs()
			.forEach((kind, h) -> line(md, "| %s | %d | %d | %d | %d |", kind, h.getTotalCount(),
					h.getValueAtPercentile(50), h.getValueAtPercentile(99), h.getMaxValue()));
		line(md, "");
	}

	private static void costs(StringBuilder md, List<FleetMonitor.Snapshot> snapshots) {
		if (snapshots.isEmpty()) {
			return;
		}
		line(md, "CPU (%% of one core, mean over the run's %d samples of %d s) and memory (largest RSS):",
				snapshots.size(), FleetMonitor.PERIOD_S);
		line(md, "");
		line(md, "| process | CPU mean | CPU max | RSS max MB |");
		line(md, "|---|---:|---:|---:|");
		for (String name : snapshots.get(0).cpuPercent().keySet()) {
			if (name.startsWith("agent-")) {
				continue;
			}
			line(md, "| %s | %.1f | %.1f | %.0f |", name, mean(snapshots, name), max(snapshots, name),
					snapshots.stream()
						.mapToDouble((snapshot) -> snapshot.rssMb().getOrDefault(name, 0.0))
						.max()
						.orElse(0));
		}
		List<String> agents = snapshots.get(0)
			.cpuPercent()
			.keySet()
			.stream()
			.filter((n) -> n.startsWith("agent-"))
			.toList();
		if (!agents.isEmpty()) {
			double sum = agents.stream().mapToDouble((name) -> mean(snapshots, name)).sum();
			double worst = agents.stream().mapToDouble((name) -> mean(snapshots, name)).max().orElse(0);
			double rss = agents.stream()
				.mapToDouble((name) -> snapshots.stream()
					.mapToDouble((snapshot) -> snapshot.rssMb().getOrDefault(name, 0.0))
					.max()
					.orElse(0))
				.max()
				.orElse(0);
			line(md, "| %d agents together | %.1f | | |", agents.size(), sum);
			line(md, "| one agent (mean / busiest) | %.2f / %.2f | | %.0f |", sum / agents.size(), worst, rss);
		}
		OptionalDouble busy = snapshots.stream().mapToDouble(FleetMonitor.Snapshot::machineBusyPercent).average();
		line(md, "| the machine (all processes, %% of all cores) | %.0f | %.0f | |", busy.orElse(0),
				snapshots.stream().mapToDouble(FleetMonitor.Snapshot::machineBusyPercent).max().orElse(0));
		line(md, "");
	}

	private static void timeline(StringBuilder md, List<FleetMonitor.Snapshot> snapshots,
			Map<Long, Histogram> freshnessByMinute) {
		line(md, "The run every minute (lag in records; ES requests per second from everyone; CPU %% of one core; "
				+ "freshness of the samples produced in the minute before the row):");
		line(md, "");
		line(md, "| s | load | machine busy %% | samples lag | events lag | heartbeats lag | runners alive | oldest heartbeat s | ES GET/s | ES search/s | replicas CPU | freshness p50 / p99 ms |");
		line(md, "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|");
		for (int i = 0; i < snapshots.size(); i += 6) {
			FleetMonitor.Snapshot s = snapshots.get(i);
			StringBuilder replicas = new StringBuilder();
			s.cpuPercent().forEach((name, cpu) -> {
				if (name.startsWith("replica-")) {
					replicas.append(replicas.isEmpty() ? "" : " / ").append(String.format(Locale.ROOT, "%.0f", cpu));
				}
			});
			Histogram freshness = freshnessByMinute.get(s.wallMs());
			String fresh = (freshness == null || freshness.getTotalCount() == 0) ? "-" : String.format(Locale.ROOT,
					"%,d / %,d", freshness.getValueAtPercentile(50), freshness.getValueAtPercentile(99));
			line(md, "| %d | %s | %.0f | %d | %d | %d | %d/%d | %.1f | %.0f | %.0f | %s | %s |", s.elapsedS(),
					s.load().split(" ")[0], s.machineBusyPercent(), s.lag().get("samples"), s.lag().get("events"),
					s.lag().get("heartbeats"), s.runnersAlive(), s.runnersKnown(), s.oldestHeartbeatS(), s.esGetsPerS(),
					s.esSearchesPerS(), replicas, fresh);
		}
	}

	private static double mean(List<FleetMonitor.Snapshot> snapshots, String name) {
		return snapshots.stream().mapToDouble((s) -> s.cpuPercent().getOrDefault(name, 0.0)).average().orElse(0);
	}

	private static double max(List<FleetMonitor.Snapshot> snapshots, String name) {
		return snapshots.stream().mapToDouble((s) -> s.cpuPercent().getOrDefault(name, 0.0)).max().orElse(0);
	}

	static String percentiles(Histogram h) {
		if (h == null || h.getTotalCount() == 0) {
			return "none";
		}
		return String.format(Locale.ROOT, "p50 %,d ms, p90 %,d ms, p99 %,d ms, max %,d ms (%,d values)",
				h.getValueAtPercentile(50), h.getValueAtPercentile(90), h.getValueAtPercentile(99), h.getMaxValue(),
				h.getTotalCount());
	}

	private static void row(StringBuilder md, String figure, String format, Object... args) {
		int placeholders = figure.split("%", -1).length - 1;
		Object[] figureArgs = Arrays.copyOf(args, placeholders);
		Object[] valueArgs = Arrays.copyOfRange(args, placeholders, args.length);
		line(md, "| %s | %s |", String.format(Locale.ROOT, figure, figureArgs),
				String.format(Locale.ROOT, format, valueArgs));
	}

	private static void line(StringBuilder md, String format, Object... args) {
		md.append(String.format(Locale.ROOT, format, args)).append('\n');
	}

}
