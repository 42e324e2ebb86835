/*
 * Sample freshness, produced -> searchable, at a steady rate with the service's sample listener
 * running: a poller asks Elasticsearch for every job's highest searchable t and records, for
 * each sample, how long after its production it became searchable.
 */
package io.drivequal.service.ingest.bench;

import java.io.IOException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.elasticsearch.client.Request;

import org.springframework.kafka.listener.MessageListenerContainer;

final class FreshnessProbe {

	private final BenchStack stack;

	private final BenchSettings settings;

	private final ObjectMapper json = new ObjectMapper();

	FreshnessProbe(BenchStack stack, BenchSettings settings) {
		this.stack = stack;
		this.settings = settings;
	}

	/**
	 * Produces at a steady rate with the listener running; a poller asks Elasticsearch
	 * for every job's highest searchable t (a job's samples are on one partition and
	 * indexed in order, so everything up to it is searchable) and records searchable -
	 * produced.
	 */
	BenchReport.Freshness measure() throws Exception {
		MessageListenerContainer container = this.stack.sampleListener();
		String index = "drivequal-samples-" + BenchSamples.MONTH.format(Instant.now());
		this.stack.freshIndex(index);
		this.stack.consumeSamples();
		long assignDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
		while (container.getAssignedPartitions() == null || container.getAssignedPartitions().size() < 12) {
			if (System.nanoTime() > assignDeadline) {
				throw new IllegalStateException("sample listener got no partitions within 60 s");
			}
			Thread.sleep(50);
		}
		int total = this.settings.freshnessRate() * this.settings.freshnessSeconds();
		long[] produced = new long[total];
		long[] searchable = new long[total];
		AtomicInteger producedCount = new AtomicInteger();
		AtomicBoolean stop = new AtomicBoolean();
		long searchStartMs = System.currentTimeMillis() - 1000;
		Histogram pollLatency = new Histogram(60_000, 3);
		Thread poller = new Thread(() -> {
			int[] visibleT = new int[this.settings.freshnessJobs()];
			while (!stop.get()) {
				long sent = System.currentTimeMillis();
				Map<Integer, Integer> maxT = maxSearchableT(index, searchStartMs);
				long seen = System.currentTimeMillis();
				pollLatency.recordValue(Math.max(0, seen - sent));
				maxT.forEach((job, t) -> {
					for (int tt = visibleT[job] + 1; tt <= t; tt++) {
						int i = (tt - 1) * this.settings.freshnessJobs() + job;
						if (i < total) {
							searchable[i] = seen;
						}
					}
					visibleT[job] = Math.max(visibleT[job], t);
				});
				if (producedCount.get() == total && allSeen(searchable)) {
					return;
				}
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(this.settings.pollMs()));
			}
		}, "freshness-poller");
		poller.setDaemon(true);
		poller.start();
		IngestBenchmark.log("freshness: producing %d samples/s for %d s over %d jobs", this.settings.freshnessRate(),
				this.settings.freshnessSeconds(), this.settings.freshnessJobs());
		long start = System.nanoTime();
		double intervalNanos = 1e9 / this.settings.freshnessRate();
		for (int i = 0; i < total; i++) {
			long due = start + (long) (i * intervalNanos);
			long wait = due - System.nanoTime();
			if (wait > 0) {
				LockSupport.parkNanos(wait);
			}
			int job = i % this.settings.freshnessJobs();
			int t = i / this.settings.freshnessJobs() + 1;
			long now = System.currentTimeMillis();
			produced[i] = now;
			BenchSamples.Sample sample = BenchSamples.sample("fr", job, t, now);
			this.stack.producer.send(new ProducerRecord<>(BenchStack.SAMPLES_TOPIC, sample.jobId(), sample.message()));
			producedCount.incrementAndGet();
		}
		double produceSeconds = (System.nanoTime() - start) / 1e9;
		this.stack.producer.flush();
		poller.join(TimeUnit.SECONDS.toMillis(60));
		stop.set(true);
		poller.join();
		container.stop();
		BenchReport.Freshness result = new BenchReport.Freshness();
		result.achievedRate = total / produceSeconds;
		result.pollP50 = pollLatency.getValueAtPercentile(50);
		int from = this.settings.freshnessWarmupSeconds() * this.settings.freshnessRate();
		for (int i = from; i < total; i++) {
			if (searchable[i] == 0) {
				result.missing++;
			}
			else {
				result.histogram.recordValue(Math.max(0, searchable[i] - produced[i]));
			}
		}
		IngestBenchmark.log(
				"freshness: produced %.0f samples/s; p50 %d ms, p99 %d ms, max %d ms over %d samples (%d never seen)",
				result.achievedRate, result.histogram.getValueAtPercentile(50),
				result.histogram.getValueAtPercentile(99), result.histogram.getMaxValue(),
				result.histogram.getTotalCount(), result.missing);
		return result;
	}

	private static boolean allSeen(long[] searchable) {
		for (long time : searchable) {
			if (time == 0) {
				return false;
			}
		}
		return true;
	}

	/** Highest searchable t of every freshness job, from one small aggregation. */
	private Map<Integer, Integer> maxSearchableT(String index, long sinceMs) {
		String body = "{\"size\":0,\"query\":{\"bool\":{\"filter\":[{\"prefix\":{\"jobId\":\"bench-fr-\"}},"
				+ "{\"range\":{\"@timestamp\":{\"gte\":" + sinceMs + "}}}]}},\"aggs\":{\"jobs\":{\"terms\":"
				+ "{\"field\":\"jobId\",\"size\":" + this.settings.freshnessJobs()
				+ "},\"aggs\":{\"t\":{\"max\":{\"field\":\"t\"}}}}}}";
		Map<Integer, Integer> maxT = new HashMap<>();
		try {
			Request request = new Request("POST", "/" + index + "/_search");
			request.setJsonEntity(body);
			JsonNode response = this.json.readTree(this.stack.rest.performRequest(request).getEntity().getContent());
			for (JsonNode bucket : response.path("aggregations").path("jobs").path("buckets")) {
				String jobId = bucket.path("key").asText();
				int job = Integer.parseInt(jobId.substring(jobId.lastIndexOf("-j") + 2));
				maxT.put(job, bucket.path("t").path("value").asInt());
			}
		}
		catch (IOException ex) {
			IngestBenchmark.log("freshness poll failed: %s", ex);
		}
		return maxT;
	}

}
