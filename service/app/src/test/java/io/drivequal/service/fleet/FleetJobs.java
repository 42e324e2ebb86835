/*
 * The fleet's jobs through the API: one qualification per drive, submitted concurrently over the
 * replicas; the finished jobs that give the store a lab's history; submissions for drives that do
 * not exist; and when each job was first seen RUNNING in the store.
 */
package io.drivequal.service.fleet;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

import io.drivequal.service.it.ApiClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

final class FleetJobs {

	/** A submitted job: its id, when the API was called, and its runner. */
	record Submitted(String jobId, long submittedMs, String runnerId) {
	}

	private FleetJobs() {
	}

	/** Calls f for each item on threads; the results in item order. */
	static <T, R> List<R> parallel(List<T> items, int threads, Function<T, R> f) throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		try {
			List<Future<R>> futures = new ArrayList<>();
			for (T item : items) {
				futures.add(pool.submit(() -> f.apply(item)));
			}
			List<R> results = new ArrayList<>();
			for (Future<R> future : futures) {
				results.add(future.get());
			}
			return results;
		}
		finally {
			pool.shutdown();
		}
	}

	static String plan(int runtimeS) {
		return """
				{"phases":[{"name":"randwrite-4k-qd32","kind":"workload","rw":"randwrite","blockSizeBytes":4096,
				            "queueDepth":32,"rangePercent":100,"runtimeS":%d}]}""".formatted(runtimeS);
	}

	/**
	 * One job per drive, round-robin over the replicas; fails unless every answer is 201.
	 */
	static List<Submitted> submit(List<JsonNode> drives, List<ApiClient> replicas, int threads, int runtimeS)
			throws Exception {
		List<Integer> indices = new ArrayList<>();
		for (int i = 0; i < drives.size(); i++) {
			indices.add(i);
		}
		return parallel(indices, threads, (i) -> {
			JsonNode drive = drives.get(i).path("drive");
			long sent = System.currentTimeMillis();
			ApiClient.Response response = replicas.get(i % replicas.size())
				.post("alice", "/api/v1/qualifications", "{\"drive\":{\"serial\":\"%s\"},\"plan\":%s}"
					.formatted(drive.path("serial").asString(), plan(runtimeS)));
			if (response.status() != 201) {
				throw new IllegalStateException("submission answered " + response.status() + ": " + response.body());
			}
			return new Submitted(response.body().path("id").asString(), sent, drive.path("runnerId").asString());
		});
	}

	/** Status code -> count for submissions naming drives no runner has. */
	static Map<Integer, Integer> submitForMissingDrives(int count, List<ApiClient> replicas, int threads, String run)
			throws Exception {
		List<Integer> indices = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			indices.add(i);
		}
		List<Integer> statuses = parallel(indices, threads,
				(i) -> replicas.get(i % replicas.size())
					.post("alice", "/api/v1/qualifications",
							"{\"drive\":{\"serial\":\"NO-SUCH-DRIVE-%s-%d\"},\"plan\":%s}".formatted(run, i, plan(60)))
					.status());
		Map<Integer, Integer> byStatus = new TreeMap<>();
		statuses.forEach((status) -> byStatus.merge(status, 1, Integer::sum));
		return byStatus;
	}

	/**
	 * Finished jobs modelled on a real one (same drive fields and plan), spread over the
	 * past days, so listings and pages work on a store of a lab's size. Completed ones
	 * carry a verdict, so the analysis has nothing to do for them.
	 */
	static List<String> addHistory(ElasticsearchProbe elasticsearch, String templateJobId, int count, String run) {
		JsonNode template = elasticsearch.get("/drivequal-jobs/_doc/" + templateJobId).path("_source");
		List<String> ids = new ArrayList<>();
		String[] states = { "COMPLETED", "COMPLETED", "FAILED", "CANCELLED", "INTERRUPTED" };
		Instant now = Instant.now();
		StringBuilder bulk = new StringBuilder();
		for (int i = 0; i < count; i++) {
			String id = "hist-" + run + "-" + i;
			ids.add(id);
			ObjectNode job = ((ObjectNode) template).deepCopy();
			Instant queued = now.minusSeconds(600L + 60L * i);
			String state = states[i % states.length];
			job.put("jobId", id);
			job.put("state", state);
			job.put("runnerId", "history-host-" + (i % 20));
			job.put("commandId", "start-" + id);
			job.put("queuedAt", queued.toString());
			job.put("dispatchedAt", queued.plusSeconds(1).toString());
			job.put("startedAt", queued.plusSeconds(2).toString());
			job.put("endedAt", queued.plusSeconds(602).toString());
			job.put("updatedAt", queued.plusSeconds(602).toString());
			if (state.equals("COMPLETED")) {
				job.put("verdict", (i % 10 == 0) ? "FAIL" : "PASS");
			}
			else {
				job.put("failureReason", state.equals("INTERRUPTED") ? "runner-lost" : "io-error");
			}
			bulk.append("{\"index\":{\"_index\":\"drivequal-jobs\",\"_id\":\"").append(id).append("\"}}\n");
			bulk.append(job).append('\n');
			if ((i + 1) % 1000 == 0 || i + 1 == count) {
				elasticsearch.bulk(bulk.toString());
				bulk.setLength(0);
			}
		}
		return ids;
	}

	/**
	 * Polls the store once a second and keeps when each job was first seen RUNNING, until
	 * all are or the stop flag is set.
	 */
	static final class RunningWatch implements Runnable {

		final Map<String, Long> firstSeenRunningMs = new ConcurrentHashMap<>();

		private final ElasticsearchProbe elasticsearch;

		private final String runnerPrefix;

		private final int expected;

		volatile boolean stop;

		RunningWatch(ElasticsearchProbe elasticsearch, String runnerPrefix, int expected) {
			this.elasticsearch = elasticsearch;
			this.runnerPrefix = runnerPrefix;
			this.expected = expected;
		}

		@Override
		public void run() {
			String query = "{\"size\":%d,\"_source\":false,\"query\":{\"bool\":{\"filter\":[{\"term\":{\"state\":\"RUNNING\"}},{\"prefix\":{\"runnerId\":\"%s\"}}]}}}"
				.formatted(this.expected + 100, this.runnerPrefix);
			while (!this.stop && this.firstSeenRunningMs.size() < this.expected) {
				try {
					JsonNode hits = this.elasticsearch.post("/drivequal-jobs/_search", query).path("hits").path("hits");
					long now = System.currentTimeMillis();
					for (JsonNode hit : hits) {
						this.firstSeenRunningMs.putIfAbsent(hit.path("_id").asString(), now);
					}
					Thread.sleep(1000);
				}
				catch (InterruptedException ex) {
					return;
				}
				catch (RuntimeException ex) {
					FleetBenchmark.log("running watch: %s", ex.getMessage());
				}
			}
		}

	}

	/** Jobs matching query (an Elasticsearch query clause) by state. */
	static Map<String, Long> states(ElasticsearchProbe elasticsearch, String query) {
		JsonNode buckets = elasticsearch
			.post("/drivequal-jobs/_search",
					"{\"size\":0,\"query\":%s,\"aggs\":{\"s\":{\"terms\":{\"field\":\"state\"}}}}".formatted(query))
			.path("aggregations")
			.path("s")
			.path("buckets");
		Map<String, Long> states = new TreeMap<>();
		for (JsonNode bucket : buckets) {
			states.put(bucket.path("key").asString(), bucket.path("doc_count").asLong());
		}
		return Collections.unmodifiableMap(states);
	}

}
