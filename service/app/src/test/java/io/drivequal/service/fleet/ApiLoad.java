/*
 * The API under a lab's reads while the fleet runs: clients loop over the listings the web pages
 * ask for (the first page, the running jobs, the last page the store can page to) and job details
 * (running jobs, whose detail reads the latest sample, and finished ones), spread over the
 * replicas; latency per request kind, from send to the last byte.
 */
package io.drivequal.service.fleet;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.drivequal.service.it.ApiClient;
import org.HdrHistogram.Histogram;

final class ApiLoad {

	record Kind(String name, List<String> paths) {
	}

	/** Latency (ms) per request kind, and the requests that did not answer 200. */
	record Result(Map<String, Histogram> latencyMs, long errors, double seconds) {
	}

	private ApiLoad() {
	}

	static Result run(List<ApiClient> replicas, List<String> runningJobs, List<String> finishedJobs, int clients,
			int seconds) throws Exception {
		List<Kind> kinds = List
			.of(new Kind("list: first page of 25", List.of("/api/v1/qualifications?page=0&size=25")),
					new Kind("list: RUNNING, 100", List.of("/api/v1/qualifications?state=RUNNING&page=0&size=100")),
					new Kind("list: page 100 of 100", List.of("/api/v1/qualifications?page=99&size=100")),
					new Kind("detail: running job",
							runningJobs.stream().map((id) -> "/api/v1/qualifications/" + id).toList()),
					new Kind("detail: finished job",
							finishedJobs.stream().map((id) -> "/api/v1/qualifications/" + id).toList()))
			.stream()
			// A run without history (-Dfleet.historyJobs=0) has no finished job to ask
			// for.
			.filter((kind) -> !kind.paths().isEmpty())
			.toList();
		Map<String, Histogram> latency = new LinkedHashMap<>();
		kinds.forEach((kind) -> latency.put(kind.name(), new Histogram(120_000, 3)));
		AtomicLong errors = new AtomicLong();
		long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
		ExecutorService pool = Executors.newFixedThreadPool(clients);
		List<Future<?>> running = new ArrayList<>();
		for (int c = 0; c < clients; c++) {
			Random random = new Random(c);
			running.add(pool.submit(() -> {
				int i = 0;
				while (System.nanoTime() < end) {
					Kind kind = kinds.get(i++ % kinds.size());
					String path = kind.paths().get(random.nextInt(kind.paths().size()));
					ApiClient api = replicas.get(random.nextInt(replicas.size()));
					long start = System.nanoTime();
					int status = api.request("viewer", "GET", path, null).status();
					long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
					Histogram histogram = latency.get(kind.name());
					synchronized (histogram) {
						histogram.recordValue(Math.min(120_000, ms));
					}
					if (status != 200) {
						errors.incrementAndGet();
					}
				}
				return null;
			}));
		}
		for (Future<?> client : running) {
			client.get();
		}
		pool.shutdown();
		return new Result(latency, errors.get(), seconds);
	}

}
