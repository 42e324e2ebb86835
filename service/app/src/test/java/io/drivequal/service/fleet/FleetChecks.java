/*
 * The fleet run's steps, each leaving its figures in FleetResults: the runners' inventory, bad
 * input at scale, submission until every job runs, the replica kill, the API under load, the end
 * of the jobs, and the audit of every sample (Kafka and Elasticsearch, per job) afterwards.
 */
package io.drivequal.service.fleet;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.ConsumerGroups;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import tools.jackson.databind.JsonNode;

final class FleetChecks {

	private final FleetSettings settings;

	private final FleetResults results;

	private final ElasticsearchProbe elasticsearch;

	private final Admin admin;

	private final List<ServiceReplica> replicas;

	private final String runnerPrefix;

	private final String run;

	private List<FleetJobs.Submitted> submitted = List.of();

	private List<String> history = List.of();

	private long submitStartMs;

	FleetChecks(FleetSettings settings, FleetResults results, ElasticsearchProbe elasticsearch, Admin admin,
			List<ServiceReplica> replicas, String run) {
		this.settings = settings;
		this.results = results;
		this.elasticsearch = elasticsearch;
		this.admin = admin;
		this.replicas = replicas;
		this.run = run;
		this.runnerPrefix = "fleet-" + run + "-";
	}

	List<FleetJobs.Submitted> submitted() {
		return this.submitted;
	}

	private List<ApiClient> apis() {
		return this.replicas.stream().filter((replica) -> replica.process.isAlive()).map((r) -> r.api).toList();
	}

	/** Every drive of every runner in GET /api/v1/drives, its runner alive. */
	List<JsonNode> awaitInventory() throws InterruptedException {
		long start = System.nanoTime();
		List<JsonNode> drives = new ArrayList<>();
		while (System.nanoTime() - start < TimeUnit.MINUTES.toNanos(10)) {
			drives.clear();
			for (JsonNode drive : apis().get(0).get("viewer", "/api/v1/drives").body()) {
				if (drive.path("drive").path("runnerId").asString().startsWith(this.runnerPrefix)
						&& drive.path("runnerAlive").asBoolean()) {
					drives.add(drive);
				}
			}
			if (drives.size() >= this.settings.drives()) {
				break;
			}
			Thread.sleep(2000);
		}
		this.results.drivesSeen = drives.size();
		this.results.inventoryS = (System.nanoTime() - start) / 1e9;
		FleetBenchmark.log("%d drives in the inventory after %.0f s", drives.size(), this.results.inventoryS);
		if (drives.size() < this.settings.drives()) {
			throw new IllegalStateException("only " + drives.size() + " drives reported");
		}
		drives.sort(Comparator.comparing((JsonNode d) -> d.path("drive").path("runnerId").asString())
			.thenComparing((JsonNode d) -> d.path("drive").path("transportAddress").asString()));
		return drives;
	}

	/**
	 * Submissions for drives no runner has: each must be refused and nothing stored or
	 * sent.
	 */
	void badInput() throws Exception {
		this.results.storeBeforeBad = this.elasticsearch.count("drivequal-jobs");
		this.results.commandsBeforeBad = endOffsets("drivequal.runner-commands");
		long start = System.nanoTime();
		this.results.badStatuses = FleetJobs.submitForMissingDrives(this.settings.badSubmissions(), apis(),
				this.settings.submitThreads(), this.run);
		this.results.badSeconds = (System.nanoTime() - start) / 1e9;
		Thread.sleep(3000); // anything a submission queued would be dispatched by now
		this.results.storeAfterBad = this.elasticsearch.count("drivequal-jobs");
		this.results.commandsAfterBad = endOffsets("drivequal.runner-commands");
		FleetBenchmark.log("bad input: %s in %.1f s; jobs stored %d -> %d, commands %d -> %d", this.results.badStatuses,
				this.results.badSeconds, this.results.storeBeforeBad, this.results.storeAfterBad,
				this.results.commandsBeforeBad, this.results.commandsAfterBad);
	}

	/**
	 * A round before the measured one (warmupS > 0): every drive runs one job through the
	 * same path (API, dispatch, runner, ingest, analysis). A lab's Elasticsearch and
	 * Kafka run for months, so the measured run should not be their first minutes, when
	 * each JVM compiles its hot paths: on 2 cores the compiler threads of Elasticsearch
	 * and the replicas took about a third of the machine then. Once every job of the
	 * round is final and analysed, its jobs, samples, phase results, events and health
	 * readings are deleted, so the measured run's store and checks see only its own (the
	 * sample audit starts reading Kafka after the round).
	 */
	void warmUp(List<JsonNode> drives) throws Exception {
		int runtimeS = this.settings.warmupS();
		if (runtimeS <= 0) {
			return;
		}
		long start = System.currentTimeMillis();
		List<String> ids = FleetJobs.submit(drives, apis(), this.settings.submitThreads(), runtimeS)
			.stream()
			.map(FleetJobs.Submitted::jobId)
			.toList();
		FleetBenchmark.log("warm-up: %d jobs of %d s submitted in %.1f s", ids.size(), runtimeS,
				(System.currentTimeMillis() - start) / 1000.0);
		String terms = "{\"terms\":{\"jobId\":["
				+ ids.stream().map((id) -> "\"" + id + "\"").collect(Collectors.joining(",")) + "]}}";
		Map<String, Long> states = awaitFinal(terms, ids.size(), runtimeS, 5_000);
		if (active(states) > 0) {
			// deleting jobs that still run would leave their samples to the measured run
			throw new IllegalStateException("warm-up round not over after " + (runtimeS + 600) + " s: " + states);
		}
		this.results.warmupJobs = ids.size();
		this.results.warmupStates = states;
		this.results.warmupEndedAfterS = (System.currentTimeMillis() - start) / 1000.0;
		this.results.warmupAnalysed = awaitAnalysed(terms, ids.size(), 5_000);
		this.results.warmupDeleted = deleteMatching(
				"drivequal-jobs,drivequal-samples-*,drivequal-phase-results,drivequal-events,drivequal-health", terms);
		// the deleted samples' space back before the run: the index size at the audit is
		// then the run's own
		this.elasticsearch.post("/drivequal-samples-*/_forcemerge?only_expunge_deletes=true", "");
		FleetBenchmark.log("warm-up: %s after %.0f s, %d analysed; %,d documents of the round deleted", states,
				this.results.warmupEndedAfterS, this.results.warmupAnalysed, this.results.warmupDeleted);
	}

	/**
	 * Deletes every document of indices matching query, 10,000 at a time (the harness's
	 * Elasticsearch has no reindex module, so no _delete_by_query); returns how many.
	 */
	private long deleteMatching(String indices, String query) {
		long deleted = 0;
		while (true) {
			this.elasticsearch.post("/" + indices + "/_refresh?ignore_unavailable=true", "");
			JsonNode hits = this.elasticsearch
				.post("/" + indices + "/_search?ignore_unavailable=true",
						"{\"size\":10000,\"_source\":false,\"query\":" + query + "}")
				.path("hits")
				.path("hits");
			if (hits.isEmpty()) {
				return deleted;
			}
			StringBuilder bulk = new StringBuilder();
			for (JsonNode hit : hits) {
				bulk.append("{\"delete\":{\"_index\":\"")
					.append(hit.path("_index").asString())
					.append("\",\"_id\":\"")
					.append(hit.path("_id").asString())
					.append("\"}}\n");
			}
			this.elasticsearch.bulk(bulk.toString());
			deleted += hits.size();
		}
	}

	void submitAndAwaitRunning(List<JsonNode> drives, SampleAudit audit) throws Exception {
		FleetJobs.RunningWatch watch = new FleetJobs.RunningWatch(this.elasticsearch, this.runnerPrefix, drives.size());
		Thread watcher = new Thread(watch, "fleet-running-watch");
		watcher.start();
		this.submitStartMs = System.currentTimeMillis();
		this.submitted = FleetJobs.submit(drives, apis(), this.settings.submitThreads(), this.settings.runtimeS());
		for (int i = 0; i < this.submitted.size(); i++) {
			audit.track(this.submitted.get(i).jobId(), i);
		}
		this.results.submitSeconds = (System.currentTimeMillis() - this.submitStartMs) / 1000.0;
		FleetBenchmark.log("%d jobs submitted in %.1f s", this.submitted.size(), this.results.submitSeconds);
		this.history = FleetJobs.addHistory(this.elasticsearch, this.submitted.get(0).jobId(),
				this.settings.historyJobs(), this.run);
		this.results.storeWithHistory = this.elasticsearch.count("drivequal-jobs");
		FleetBenchmark.log("the store holds %d jobs", this.results.storeWithHistory);
		watcher.join(TimeUnit.MINUTES.toMillis(15));
		watch.stop = true;
		this.results.runningSeen = watch.firstSeenRunningMs.size();
		this.results.allRunningAfterS = (System.currentTimeMillis() - this.submitStartMs) / 1000.0;
		for (FleetJobs.Submitted job : this.submitted) {
			Long seen = watch.firstSeenRunningMs.get(job.jobId());
			if (seen != null) {
				this.results.submitToRunningMs.recordValue(Math.max(0, seen - job.submittedMs()));
			}
		}
		JsonNode hits = this.elasticsearch.post("/drivequal-jobs/_search",
				"{\"size\":%d,\"_source\":[\"queuedAt\",\"startedAt\"],\"query\":{\"prefix\":{\"runnerId\":\"%s\"}}}"
					.formatted(this.submitted.size() + 10, this.runnerPrefix))
			.path("hits")
			.path("hits");
		for (JsonNode hit : hits) {
			JsonNode job = hit.path("_source");
			if (job.has("startedAt")) {
				this.results.submitToAcceptedMs
					.recordValue(Math.max(0, Instant.parse(job.path("startedAt").asString()).toEpochMilli()
							- Instant.parse(job.path("queuedAt").asString()).toEpochMilli()));
			}
		}
		FleetBenchmark.log(
				"%d of %d jobs RUNNING %.0f s after the first submission; submit -> RUNNING p50 %d ms, p99 %d ms",
				this.results.runningSeen, this.submitted.size(), this.results.allRunningAfterS,
				this.results.submitToRunningMs.getValueAtPercentile(50),
				this.results.submitToRunningMs.getValueAtPercentile(99));
	}

	/**
	 * SIGKILL of the last replica killReplicaAtS after steadyFromMs; a no-op thread
	 * without.
	 */
	Thread scheduleKill(long steadyFromMs) {
		Thread killer = new Thread(() -> {
			if (this.settings.killReplicaAtS() <= 0 || this.replicas.size() < 2) {
				return;
			}
			try {
				Thread.sleep(Math.max(0,
						steadyFromMs + this.settings.killReplicaAtS() * 1000L - System.currentTimeMillis()));
				ServiceReplica victim = this.replicas.get(this.replicas.size() - 1);
				int membersBefore = samplesGroup().members().size();
				this.results.killedAtMs = System.currentTimeMillis();
				victim.kill();
				FleetBenchmark.log("SIGKILL %s (pid %d)", victim.name, victim.pid());
				awaitTakeover(membersBefore - membersBefore / this.replicas.size());
			}
			catch (Exception ex) {
				this.results.takeoverNote = "kill failed: " + ex;
			}
		}, "fleet-replica-killer");
		killer.start();
		return killer;
	}

	private ConsumerGroupDescription samplesGroup() throws Exception {
		return this.admin.describeConsumerGroups(List.of("drivequal-service-samples"))
			.all()
			.get()
			.get("drivequal-service-samples");
	}

	/**
	 * Until the survivors' sample consumers (survivorMembers: the group less the victim's
	 * share) own every partition and the lag is back to normal.
	 */
	private void awaitTakeover(int survivorMembers) throws Exception {
		while (System.currentTimeMillis() - this.results.killedAtMs < 600_000) {
			ConsumerGroupDescription group = samplesGroup();
			int assigned = group.members()
				.stream()
				.mapToInt((member) -> member.assignment().topicPartitions().size())
				.sum();
			long lag = ConsumerGroups.lag(this.admin, "drivequal-service-samples", "drivequal.samples");
			if (group.members().size() <= survivorMembers && assigned == 12 && lag < this.settings.drives() * 3L) {
				this.results.takeoverS = (System.currentTimeMillis() - this.results.killedAtMs) / 1000.0;
				this.results.takeoverNote = group.members().size() + " consumers own the 12 partitions, lag " + lag;
				FleetBenchmark.log("takeover after %.1f s: %s", this.results.takeoverS, this.results.takeoverNote);
				return;
			}
			Thread.sleep(1000);
		}
	}

	void apiLoad() throws Exception {
		List<String> running = this.submitted.stream().map(FleetJobs.Submitted::jobId).toList();
		this.results.api = ApiLoad.run(apis(), running, this.history, this.settings.apiClients(),
				this.settings.apiSeconds());
		FleetBenchmark.log("API load done: %d errors", this.results.api.errors());
	}

	/**
	 * Until every job of the run is final, or the runtime plus 10 minutes from now (every
	 * job runs when this is called; dispatch may have taken long).
	 */
	void awaitEnd() throws InterruptedException {
		Map<String, Long> states = awaitFinal("{\"prefix\":{\"runnerId\":\"%s\"}}".formatted(this.runnerPrefix), 0,
				this.settings.runtimeS(), 10_000);
		this.results.finalStates = states;
		this.results.endedAfterS = (System.currentTimeMillis() - this.submitStartMs) / 1000.0;
		FleetBenchmark.log("jobs ended after %.0f s: %s", this.results.endedAfterS, states);
	}

	/** Freshness, and every job's samples counted in Kafka and in Elasticsearch. */
	void audit(SampleAudit audit, long steadyFromMs, long endMs) throws Exception {
		long expected = (long) this.submitted.size() * this.settings.runtimeS();
		audit.awaitConsumed(expected, 300);
		ConsumerGroups.awaitCommittedToTheEnd(this.admin, "drivequal-service-samples", "drivequal.samples",
				Duration.ofMinutes(10));
		Thread.sleep(3000);
		this.results.freshnessAll = audit.freshness(this.submitStartMs, endMs);
		this.results.freshnessSteady = audit.freshness(steadyFromMs, endMs);
		if (this.results.killedAtMs > 0) {
			this.results.freshnessKillWindow = audit.freshness(this.results.killedAtMs,
					this.results.killedAtMs + 120_000);
			this.results.freshnessOutsideKill = audit.freshness(steadyFromMs, this.results.killedAtMs);
		}
		this.results.pollP50Ms = audit.pollMs.getValueAtPercentile(50);
		this.results.kafka = audit.kafkaCounts();
		Map<String, Integer> index = new HashMap<>();
		for (FleetJobs.Submitted job : this.submitted) {
			index.put(job.jobId(), 1);
		}
		this.elasticsearch.post("/drivequal-samples-*/_refresh", "");
		JsonNode buckets = this.elasticsearch.post("/drivequal-samples-*/_search",
				"{\"size\":0,\"query\":{\"prefix\":{\"runnerId\":\"%s\"}},\"aggs\":{\"jobs\":{\"terms\":{\"field\":\"jobId\",\"size\":%d},\"aggs\":{\"t\":{\"stats\":{\"field\":\"t\"}}}}}}"
					.formatted(this.runnerPrefix, this.submitted.size() + 100))
			.path("aggregations")
			.path("jobs")
			.path("buckets");
		long runtime = this.settings.runtimeS();
		for (JsonNode bucket : buckets) {
			if (index.remove(bucket.path("key").asString()) == null) {
				continue;
			}
			long count = bucket.path("doc_count").asLong();
			JsonNode t = bucket.path("t");
			this.results.jobsCounted++;
			this.results.documents += count;
			this.results.lost += Math.max(0, runtime - count);
			this.results.extra += Math.max(0, count - runtime);
			if (count == runtime && t.path("min").asDouble() == 1 && t.path("max").asDouble() == runtime) {
				this.results.jobsExact++;
			}
		}
		this.results.lost += (long) index.size() * runtime; // jobs without a single
															// document
		JsonNode phases = this.elasticsearch.post("/drivequal-phase-results/_search",
				"{\"size\":0,\"query\":{\"prefix\":{\"runnerId\":\"%s\"}},\"aggs\":{\"wrong\":{\"filter\":{\"bool\":{\"must_not\":{\"term\":{\"samples\":%d}}}}}}}"
					.formatted(this.runnerPrefix, runtime));
		this.results.phaseResultSamplesMismatch = phases.path("aggregations").path("wrong").path("doc_count").asLong();
		JsonNode indices = sampleIndices();
		this.results.sampleIndexBytes = total(indices, "store.size");
		this.results.sampleIndexDocs = total(indices, "docs.count");
		FleetBenchmark.log("audit: %d of %d jobs exact; lost %d, extra %d; Kafka %s; freshness p99 %d ms",
				this.results.jobsExact, this.submitted.size(), this.results.lost, this.results.extra,
				this.results.kafka, this.results.freshnessAll.getValueAtPercentile(99));
	}

	/**
	 * The sample indices at rest: merged to one segment per shard, as Elasticsearch's
	 * background merges leave an index some time after its last write. The size at the
	 * audit depends on how far those merges had got (235 and 465 bytes a sample in two
	 * runs of the same code), so the capacity plan takes this one. After every other
	 * measurement: the merge costs the node a minute of CPU.
	 */
	void measureMergedSampleIndex() throws InterruptedException {
		long start = System.currentTimeMillis();
		String task = this.elasticsearch
			.post("/drivequal-samples-*/_forcemerge?max_num_segments=1&wait_for_completion=false", "")
			.path("task")
			.asString();
		while (!this.elasticsearch.get("/_tasks/" + task).path("completed").asBoolean()) {
			if (System.currentTimeMillis() - start > 15 * 60_000L) {
				FleetBenchmark.log("force merge still running after 15 min; merged size not measured");
				return;
			}
			Thread.sleep(2000);
		}
		this.results.sampleIndexMergedBytes = total(sampleIndices(), "store.size");
		FleetBenchmark.log("sample indices merged in %.0f s: %,d bytes", (System.currentTimeMillis() - start) / 1e3,
				this.results.sampleIndexMergedBytes);
	}

	/** The sample indices' rows of _cat/indices, sizes in bytes. */
	private JsonNode sampleIndices() {
		return this.elasticsearch.get("/_cat/indices/drivequal-samples-*?format=json&bytes=b");
	}

	private static long total(JsonNode rows, String column) {
		long total = 0;
		for (JsonNode row : rows) {
			total += row.path(column).asLong();
		}
		return total;
	}

	private static final List<String> ACTIVE_STATES = List.of("QUEUED", "DISPATCHED", "RUNNING");

	private static long active(Map<String, Long> states) {
		return states.entrySet()
			.stream()
			.filter((e) -> ACTIVE_STATES.contains(e.getKey()))
			.mapToLong(Map.Entry::getValue)
			.sum();
	}

	/**
	 * The states of the jobs matching query, polled every pollMs until at least expected
	 * are stored and none is active, or runtimeS plus 10 minutes from now; the last
	 * states seen.
	 */
	private Map<String, Long> awaitFinal(String query, int expected, int runtimeS, long pollMs)
			throws InterruptedException {
		long deadline = System.currentTimeMillis() + (runtimeS + 600) * 1000L;
		Map<String, Long> states = Map.of();
		while (System.currentTimeMillis() < deadline) {
			states = FleetJobs.states(this.elasticsearch, query);
			if (states.values().stream().mapToLong(Long::longValue).sum() >= expected && active(states) == 0) {
				break;
			}
			Thread.sleep(pollMs);
		}
		return states;
	}

	/**
	 * The jobs matching query that carry a verdict, counted every pollMs until expected
	 * or analysisWaitS; the last count.
	 */
	private int awaitAnalysed(String query, int expected, long pollMs) throws InterruptedException {
		long start = System.currentTimeMillis();
		String analysed = "{\"query\":{\"bool\":{\"filter\":[%s,{\"exists\":{\"field\":\"verdict\"}}]}}}"
			.formatted(query);
		int count = 0;
		while (System.currentTimeMillis() - start < this.settings.analysisWaitS() * 1000L) {
			this.elasticsearch.post("/drivequal-jobs/_refresh", "");
			count = (int) this.elasticsearch.post("/drivequal-jobs/_count", analysed).path("count").asLong();
			if (count >= expected) {
				break;
			}
			Thread.sleep(pollMs);
		}
		return count;
	}

	/** How long the replicas take to analyse the finished jobs (up to analysisWaitS). */
	void awaitAnalysis() throws InterruptedException {
		long start = System.currentTimeMillis();
		this.results.analysed = awaitAnalysed("{\"prefix\":{\"runnerId\":\"%s\"}}".formatted(this.runnerPrefix),
				this.submitted.size(), 15_000);
		this.results.analysisS = (System.currentTimeMillis() - start) / 1000.0;
		FleetBenchmark.log("%d jobs analysed %.0f s after the audit", this.results.analysed, this.results.analysisS);
	}

	/**
	 * The largest heartbeat on the topic (the runners' inventories, every drive listed).
	 */
	void heartbeatSize(String brokers) {
		Properties config = new Properties();
		config.put("bootstrap.servers", brokers);
		config.put("group.id", "fleet-bench-heartbeats-" + this.run);
		config.put("auto.offset.reset", "earliest");
		try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
				new ByteArrayDeserializer())) {
			consumer.subscribe(List.of("drivequal.runner-heartbeats"));
			long deadline = System.currentTimeMillis() + 15_000;
			while (System.currentTimeMillis() < deadline) {
				for (var record : consumer.poll(Duration.ofMillis(500))) {
					if (record.key() != null && record.key().startsWith(this.runnerPrefix)) {
						this.results.heartbeatBytesMax = Math.max(this.results.heartbeatBytesMax,
								record.value().length);
					}
				}
			}
		}
	}

	private long endOffsets(String topic) throws Exception {
		Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
		this.admin.describeTopics(List.of(topic))
			.allTopicNames()
			.get()
			.get(topic)
			.partitions()
			.forEach((p) -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
		return this.admin.listOffsets(latest).all().get().values().stream().mapToLong((info) -> info.offset()).sum();
	}

}
