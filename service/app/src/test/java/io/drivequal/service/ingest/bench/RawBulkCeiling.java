/*
 * The ingest benchmark's yardstick: the documents the service would store, bulk-indexed straight
 * into the same Elasticsearch with the official client, in batches of the service's size, as fast
 * as one or two threads can. The service's rate is reported as a ratio to this.
 */
package io.drivequal.service.ingest.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import co.elastic.clients.elasticsearch.core.BulkResponse;
import co.elastic.clients.elasticsearch.core.bulk.BulkOperation;

final class RawBulkCeiling {

	private final BenchStack stack;

	private final BenchSettings settings;

	RawBulkCeiling(BenchStack stack, BenchSettings settings) {
		this.stack = stack;
		this.settings = settings;
	}

	BenchReport.Run run(String run, int count, int threads) throws Exception {
		List<List<BenchSamples.Sample>> batches = new ArrayList<>();
		List<BenchSamples.Sample> all = BenchSamples.throughput(run, count, this.settings.jobs());
		for (int from = 0; from < all.size(); from += this.settings.batchSize()) {
			batches.add(all.subList(from, Math.min(all.size(), from + this.settings.batchSize())));
		}
		List<List<Object>> documents = batches.stream()
			.map((batch) -> batch.stream().map((sample) -> (Object) sample.document()).toList())
			.toList();
		this.stack.freshIndex(BenchSamples.THROUGHPUT_INDEX);
		JitQuiet.await();
		AtomicInteger next = new AtomicInteger();
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		Map<String, Long> threadsBefore = this.settings.threadCpu() ? ThreadCpu.snapshot() : Map.of();
		Processes.Cpu before = this.stack.processes.cpu();
		long start = System.nanoTime();
		long nanos;
		Processes.Cpu cpu;
		try {
			List<Future<?>> workers = new ArrayList<>();
			for (int i = 0; i < threads; i++) {
				workers.add(pool.submit(() -> {
					for (int b = next.getAndIncrement(); b < batches.size(); b = next.getAndIncrement()) {
						bulk(batches.get(b), documents.get(b));
					}
					return null;
				}));
			}
			for (Future<?> worker : workers) {
				worker.get();
			}
			nanos = System.nanoTime() - start;
			cpu = this.stack.processes.cpu().minus(before);
			if (this.settings.threadCpu()) {
				// before the pool ends: a finished thread's CPU time is gone
				IngestBenchmark.log("JVM threads, CPU ms: %s", ThreadCpu.since(threadsBefore));
			}
		}
		finally {
			pool.shutdown();
		}
		this.stack.expectDocuments(BenchSamples.THROUGHPUT_INDEX, count);
		BenchReport.Run result = new BenchReport.Run(count, nanos, cpu);
		IngestBenchmark.log("ceiling %s (%d thread%s): %d samples in %.2f s = %.0f samples/s; CPU s %s", run, threads,
				(threads == 1) ? "" : "s", count, nanos / 1e9, result.rate(), cpu);
		return result;
	}

	private void bulk(List<BenchSamples.Sample> batch, List<Object> documents) throws IOException {
		List<BulkOperation> operations = new ArrayList<>(batch.size());
		for (int i = 0; i < batch.size(); i++) {
			BenchSamples.Sample sample = batch.get(i);
			Object document = documents.get(i);
			operations.add(BulkOperation.of((op) -> op.index(
					(index) -> index.index(BenchSamples.THROUGHPUT_INDEX).id(sample.documentId()).document(document))));
		}
		BulkResponse response = this.stack.client.bulk((bulk) -> bulk.operations(operations));
		if (response.errors()) {
			throw new IllegalStateException("bulk errors, first: " + response.items()
				.stream()
				.filter((item) -> item.error() != null)
				.findFirst()
				.map((item) -> item.error().reason())
				.orElse("?"));
		}
	}

}
