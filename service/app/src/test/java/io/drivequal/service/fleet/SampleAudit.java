/*
 * Every sample of the fleet, followed from Kafka to Elasticsearch: a consumer of its own reads the
 * samples topic (each record's produce time, and how often each (job, t) was produced), a poller
 * asks Elasticsearch every pollMs for each job's highest searchable t. Together: produced ->
 * searchable for every sample, and the samples lost or duplicated on the way, per job. A sample
 * is stamped searchable when the answer that shows it arrives, so the figure is high by up to one
 * poll period plus the poll's own latency, never low.
 */
package io.drivequal.service.fleet;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import tools.jackson.databind.JsonNode;

final class SampleAudit implements AutoCloseable {

	private static final byte[] T_MEMBER = ",\"t\":".getBytes(StandardCharsets.UTF_8);

	private final FleetSettings settings;

	private final ElasticsearchProbe elasticsearch;

	/** jobId -> index into the arrays below, filled as jobs are submitted. */
	private final Map<String, Integer> jobs = new ConcurrentHashMap<>();

	/** Records of jobs not tracked yet (a job may run before its submission returned). */
	private final Map<String, List<long[]>> pending = new HashMap<>();

	/**
	 * When each t of a job not tracked yet became searchable: jobs start while later ones
	 * are still being submitted, and their first samples' freshness must not wait for
	 * their tracking. Guarded by {@link #pending}.
	 */
	private final Map<String, long[]> pendingSearchableMs = new HashMap<>();

	private final long[][] producedMs;

	private final long[][] searchableMs;

	private final int[][] produced;

	private final int[] visibleT;

	private final AtomicBoolean stop = new AtomicBoolean();

	private final Thread consumer;

	private final Thread poller;

	final Histogram pollMs = new Histogram(60_000, 3);

	private volatile long unknownRecords;

	SampleAudit(FleetSettings settings, String brokers, ElasticsearchProbe elasticsearch) {
		this.settings = settings;
		this.elasticsearch = elasticsearch;
		int drives = settings.drives();
		this.producedMs = new long[drives][settings.runtimeS() + 2];
		this.searchableMs = new long[drives][settings.runtimeS() + 2];
		this.produced = new int[drives][settings.runtimeS() + 2];
		this.visibleT = new int[drives];
		Properties config = new Properties();
		config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers);
		config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
		KafkaConsumer<String, byte[]> kafka = new KafkaConsumer<>(config, new StringDeserializer(),
				new ByteArrayDeserializer());
		// Every partition from its end now: what a warm-up round produced is not this
		// run's. position() resolves the end at once, before any job of the run starts.
		List<TopicPartition> partitions = kafka.partitionsFor("drivequal.samples")
			.stream()
			.map((partition) -> new TopicPartition(partition.topic(), partition.partition()))
			.toList();
		kafka.assign(partitions);
		kafka.seekToEnd(partitions);
		partitions.forEach(kafka::position);
		this.consumer = new Thread(() -> consume(kafka), "fleet-audit-consumer");
		this.poller = new Thread(this::poll, "fleet-freshness-poller");
	}

	void track(String jobId, int index) {
		List<long[]> early;
		synchronized (this.pending) {
			long[] searchable = this.pendingSearchableMs.remove(jobId);
			if (searchable != null) {
				System.arraycopy(searchable, 0, this.searchableMs[index], 0, searchable.length);
				for (int t = 1; t < searchable.length && searchable[t] > 0; t++) {
					this.visibleT[index] = t;
				}
			}
			this.jobs.put(jobId, index);
			early = this.pending.remove(jobId);
		}
		if (early != null) {
			early.forEach((record) -> count(index, (int) record[0], record[1]));
		}
	}

	private void count(int job, int t, long timestampMs) {
		if (t < 1 || t >= this.produced[job].length) {
			this.unknownRecords++;
			return;
		}
		synchronized (this.produced[job]) {
			if (this.produced[job][t]++ == 0) {
				this.producedMs[job][t] = timestampMs;
			}
		}
	}

	void start() {
		this.consumer.start();
		this.poller.start();
	}

	private void consume(KafkaConsumer<String, byte[]> kafka) {
		try (kafka) {
			while (!this.stop.get()) {
				for (ConsumerRecord<String, byte[]> record : kafka.poll(Duration.ofMillis(200))) {
					int t = tOf(record.value());
					Integer job;
					synchronized (this.pending) {
						job = this.jobs.get(record.key());
						if (job == null) {
							this.pending.computeIfAbsent(record.key(), (key) -> new ArrayList<>())
								.add(new long[] { t, record.timestamp() });
							continue;
						}
					}
					count(job, t, record.timestamp());
				}
			}
		}
	}

	/** The sample's t, read from its canonical bytes without parsing the rest. */
	static int tOf(byte[] value) {
		outer: for (int i = 0; i + T_MEMBER.length < value.length; i++) {
			for (int k = 0; k < T_MEMBER.length; k++) {
				if (value[i + k] != T_MEMBER[k]) {
					continue outer;
				}
			}
			int t = 0;
			for (int j = i + T_MEMBER.length; j < value.length && value[j] >= '0' && value[j] <= '9'; j++) {
				t = t * 10 + (value[j] - '0');
			}
			return t;
		}
		return -1;
	}

	private void poll() {
		// Only the last 30 s of samples: a job absent from an answer keeps what was seen
		// of it, and an older sample is stamped when a later one of its job is seen.
		String body = "{\"size\":0,\"query\":{\"range\":{\"@timestamp\":{\"gte\":\"now-30s\"}}},"
				+ "\"aggs\":{\"jobs\":{\"terms\":{\"field\":\"jobId\",\"size\":" + (this.settings.drives() + 100)
				+ "},\"aggs\":{\"t\":{\"max\":{\"field\":\"t\"}}}}}}";
		while (!this.stop.get()) {
			long sent = System.currentTimeMillis();
			try {
				JsonNode response = this.elasticsearch.post("/drivequal-samples-*/_search?ignore_unavailable=true",
						body);
				long seen = System.currentTimeMillis();
				this.pollMs.recordValue(Math.min(60_000, seen - sent));
				for (JsonNode bucket : response.path("aggregations").path("jobs").path("buckets")) {
					String jobId = bucket.path("key").asString();
					double lastT = bucket.path("t").path("value").asDouble();
					synchronized (this.pending) {
						Integer job = this.jobs.get(jobId);
						if (job != null) {
							int maxT = (int) Math.min(this.searchableMs[job].length - 1, lastT);
							for (int t = this.visibleT[job] + 1; t <= maxT; t++) {
								this.searchableMs[job][t] = seen;
							}
							this.visibleT[job] = Math.max(this.visibleT[job], maxT);
						}
						else {
							long[] searchable = this.pendingSearchableMs.computeIfAbsent(jobId,
									(id) -> new long[this.settings.runtimeS() + 2]);
							int maxT = (int) Math.min(searchable.length - 1, lastT);
							for (int t = 1; t <= maxT; t++) {
								if (searchable[t] == 0) {
									searchable[t] = seen;
								}
							}
						}
					}
				}
			}
			catch (RuntimeException ex) {
				FleetBenchmark.log("freshness poll failed: %s", ex.getMessage());
			}
			// at a fixed rate: a slow answer does not stretch the period
			long next = sent + this.settings.pollMs();
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(Math.max(0, next - System.currentTimeMillis())));
		}
	}

	/** Produced -> searchable of every sample produced in [fromMs, toMs). */
	Histogram freshness(long fromMs, long toMs) {
		Histogram histogram = new Histogram(3_600_000, 3);
		for (int job = 0; job < this.producedMs.length; job++) {
			for (int t = 1; t < this.producedMs[job].length; t++) {
				long producedAt = this.producedMs[job][t];
				long searchableAt = this.searchableMs[job][t];
				if (producedAt >= fromMs && producedAt < toMs && searchableAt > 0) {
					histogram.recordValue(Math.max(0, searchableAt - producedAt));
				}
			}
		}
		return histogram;
	}

	/**
	 * Over every job: records of a t in 1..runtimeS beyond its first, t never produced,
	 * and records of no tracked job or outside the phase.
	 */
	record KafkaCounts(long duplicates, long missing, int jobsWithDuplicates, int jobsWithMissing, long unknown) {
	}

	KafkaCounts kafkaCounts() {
		long duplicates = 0;
		long missing = 0;
		int jobsWithDuplicates = 0;
		int jobsWithMissing = 0;
		for (int[] job : this.produced) {
			long d = 0;
			long m = 0;
			synchronized (job) {
				for (int t = 1; t <= this.settings.runtimeS(); t++) {
					d += Math.max(0, job[t] - 1);
					m += (job[t] == 0) ? 1 : 0;
				}
			}
			duplicates += d;
			missing += m;
			jobsWithDuplicates += (d > 0) ? 1 : 0;
			jobsWithMissing += (m > 0) ? 1 : 0;
		}
		long untracked;
		synchronized (this.pending) {
			untracked = this.pending.values().stream().mapToLong(List::size).sum();
		}
		return new KafkaCounts(duplicates, missing, jobsWithDuplicates, jobsWithMissing,
				this.unknownRecords + untracked);
	}

	/** Every sample produced and read back from Kafka, or the deadline passed. */
	void awaitConsumed(long expected, long timeoutS) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
		while (System.nanoTime() < deadline) {
			long seen = 0;
			for (int[] job : this.produced) {
				synchronized (job) {
					for (int t = 1; t < job.length; t++) {
						seen += (job[t] > 0) ? 1 : 0;
					}
				}
			}
			if (seen >= expected) {
				return;
			}
			LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
		}
	}

	@Override
	public void close() throws InterruptedException {
		this.stop.set(true);
		this.consumer.join(10_000);
		this.poller.join(10_000);
	}

}
