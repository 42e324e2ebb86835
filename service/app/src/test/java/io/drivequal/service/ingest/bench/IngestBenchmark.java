/*
 * The ingest benchmark of docs/benchmarks.md: sustained samples/s from Kafka into Elasticsearch
 * through the real service, as a ratio to the raw bulk ceiling of the same Elasticsearch measured
 * in the same run with the same documents, and sample freshness (produced -> searchable) at a
 * steady rate. A main class, not a test: `mvn verify` never runs it; the `benchmarks` profile of
 * service/app/pom.xml does (docs/benchmarks.md gives the command and the method).
 *
 * System properties: bench.samples (200000 per throughput run), bench.rounds (5), bench.jobs (200),
 * bench.batchSize (2000, the service's max-poll-records), bench.warmupSamples (= samples),
 * bench.freshness.{rate,seconds,warmupSeconds,jobs,pollMs} (1000/s, 60 s, 5 s, 100, 50 ms; seconds=0
 * skips freshness), bench.esHeapMb (1024), bench.kafkaHeapMb (512), bench.dir, bench.report,
 * bench.serviceArgs (extra service arguments, e.g. --drivequal.ingest.concurrency=1),
 * bench.threadCpu (true: print the JVM's CPU per thread group of every service run).
 */
package io.drivequal.service.ingest.bench;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import ch.qos.logback.classic.Level;
import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.HealthStatus;
import co.elastic.clients.elasticsearch.core.BulkResponse;
import co.elastic.clients.elasticsearch.core.bulk.BulkOperation;
import co.elastic.clients.json.jackson.JacksonJsonpMapper;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.drivequal.harness.RealInfrastructure;
import io.drivequal.schemas.Contracts;
import io.drivequal.schemas.MessageType;
import io.drivequal.service.DrivequalApplication;
import org.HdrHistogram.Histogram;
import org.apache.http.HttpHost;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.RestClient;
import org.slf4j.LoggerFactory;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

public final class IngestBenchmark {

	private static final String SAMPLES_TOPIC = "drivequal.samples";

	private static final String GROUP = "drivequal-service-samples";

	private static final String LISTENER_ID = "drivequal-samples";

	private static final DateTimeFormatter MONTH = DateTimeFormatter.ofPattern("yyyy.MM").withZone(ZoneOffset.UTC);

	/**
	 * Throughput samples carry times in one fixed past month, so every throughput run
	 * writes into the same fresh index, apart from the current month's freshness index.
	 */
	private static final long THROUGHPUT_BASE_MS = LocalDate.now(ZoneOffset.UTC)
		.withDayOfMonth(1)
		.minusMonths(6)
		.plusDays(10)
		.atStartOfDay()
		.toInstant(ZoneOffset.UTC)
		.toEpochMilli();

	private static final String THROUGHPUT_INDEX = "drivequal-samples-"
			+ MONTH.format(Instant.ofEpochMilli(THROUGHPUT_BASE_MS));

	/** The service's consumer max-poll-records: its largest bulk request. */
	private final int batchSize = Integer.getInteger("bench.batchSize", 2000);

	private final int samples = Integer.getInteger("bench.samples", 200_000);

	private final int jobs = Integer.getInteger("bench.jobs", 200);

	private final int rounds = Integer.getInteger("bench.rounds", 5);

	private final int warmupSamples = Integer.getInteger("bench.warmupSamples", this.samples);

	private final int freshnessRate = Integer.getInteger("bench.freshness.rate", 1000);

	private final int freshnessSeconds = Integer.getInteger("bench.freshness.seconds", 60);

	private final int freshnessWarmupSeconds = Integer.getInteger("bench.freshness.warmupSeconds", 5);

	private final int freshnessJobs = Integer.getInteger("bench.freshness.jobs", 100);

	private final int pollMs = Integer.getInteger("bench.freshness.pollMs", 50);

	private final Path dir = Path.of(System.getProperty("bench.dir", "target/bench-infra"));

	private final Path report = Path.of(System.getProperty("bench.report", "target/ingest-benchmark.md"));

	private final ObjectMapper json = new ObjectMapper();

	private final Contracts contracts = Contracts.load();

	private RealInfrastructure infrastructure;

	private ConfigurableApplicationContext service;

	private RestClient rest;

	private ElasticsearchClient client;

	private Admin admin;

	private KafkaProducer<String, byte[]> producer;

	private Processes processes;

	private IngestBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
			.setLevel(Level.WARN);
		// Load every class of the benchmark now: a concurrent build in the same target/
		// may recompile test-classes while this runs for minutes.
		for (Class<?> type : List.of(IngestBenchmark.class, BenchSamples.class)) {
			for (Class<?> nested : type.getDeclaredClasses()) {
				Class.forName(nested.getName(), true, type.getClassLoader());
				for (Class<?> inner : nested.getDeclaredClasses()) {
					Class.forName(inner.getName(), true, type.getClassLoader());
				}
			}
		}
		new IngestBenchmark().run();
	}

	private void run() throws Exception {
		String loadBefore = loadAverage();
		deletePreviousInstances();
		log("starting Elasticsearch and Kafka under %s", this.dir.toAbsolutePath());
		this.infrastructure = RealInfrastructure.start(this.dir, Integer.getInteger("bench.esHeapMb", 1024),
				Integer.getInteger("bench.kafkaHeapMb", 512), 180);
		try {
			this.rest = RestClient.builder(HttpHost.create(this.infrastructure.elasticsearchUrl())).build();
			this.client = elasticsearchClient(this.rest);
			installTemplates();
			this.service = startService();
			this.admin = Admin.create(
					Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, this.infrastructure.kafkaBootstrapServers()));
			this.producer = producer();
			this.processes = Processes.find();
			checkMessagesAreValid();
			Results results = measure();
			results.loadBefore = loadBefore;
			results.loadAfter = loadAverage();
			String markdown = results.markdown();
			System.out.println();
			System.out.println(markdown);
			Files.createDirectories(this.report.toAbsolutePath().getParent());
			Files.writeString(this.report, markdown, StandardCharsets.UTF_8);
			log("wrote %s", this.report.toAbsolutePath());
		}
		finally {
			closeQuietly(this.producer);
			closeQuietly(this.admin);
			closeQuietly(this.service);
			closeQuietly(this.rest);
			this.infrastructure.close();
		}
	}

	/**
	 * Every run starts its nodes on new ports in new directories; the previous runs' data
	 * (about 0.5 GB each) goes, the current run's logs stay for a look afterwards.
	 */
	private void deletePreviousInstances() throws IOException {
		if (!Files.isDirectory(this.dir)) {
			return;
		}
		try (var instances = Files.list(this.dir)) {
			for (Path instance : instances.filter((path) -> path.getFileName().toString().matches("(es|kafka)-\\d+"))
				.toList()) {
				try (var tree = Files.walk(instance)) {
					for (Path path : tree.sorted(java.util.Comparator.reverseOrder()).toList()) {
						Files.deleteIfExists(path);
					}
				}
			}
		}
	}

	private Results measure() throws Exception {
		Results results = new Results();
		log("warm-up: %d samples through the raw client and through the service", this.warmupSamples);
		// Both paths and Elasticsearch JIT-compiled before anything is measured.
		ceiling("w1", this.warmupSamples, 1);
		ceiling("w2", this.warmupSamples, 2);
		serviceIngest("ws", this.warmupSamples);
		for (int round = 1; round <= this.rounds; round++) {
			Round r = new Round();
			if (round == 1) {
				r.ceiling1 = ceiling("c1r" + round, this.samples, 1);
				Map<String, Object> ceilingDocument = source("c1r" + round);
				r.ceiling2 = ceiling("c2r" + round, this.samples, 2);
				r.service = serviceIngest("svr" + round, this.samples);
				results.sameShape = sameShape(ceilingDocument, source("svr" + round));
			}
			else if (round % 2 == 0) {
				// Alternate the order, so a drift in the machine's other load favours
				// neither.
				r.service = serviceIngest("svr" + round, this.samples);
				r.ceiling2 = ceiling("c2r" + round, this.samples, 2);
				r.ceiling1 = ceiling("c1r" + round, this.samples, 1);
			}
			else {
				r.ceiling1 = ceiling("c1r" + round, this.samples, 1);
				r.ceiling2 = ceiling("c2r" + round, this.samples, 2);
				r.service = serviceIngest("svr" + round, this.samples);
			}
			log("round %d: ceiling 1 thread %.0f/s, 2 threads %.0f/s, service %.0f/s, ratio %.2f, CPU-cost ratio %.2f",
					round, r.ceiling1.rate(), r.ceiling2.rate(), r.service.rate(), r.ratio(), r.cpuRatio());
			results.rounds.add(r);
		}
		results.freshness = (this.freshnessSeconds > 0) ? freshness() : null;
		return results;
	}

	// ---- raw ceiling ------------------------------------------------------------------

	/**
	 * The same documents the service would store, bulk-indexed with the official client
	 * in batches of the service's size, as fast as {@code threads} threads can.
	 */
	private Run ceiling(String run, int count, int threads) throws Exception {
		List<List<BenchSamples.Sample>> batches = new ArrayList<>();
		List<BenchSamples.Sample> all = throughputSamples(run, count);
		for (int from = 0; from < all.size(); from += this.batchSize) {
			batches.add(all.subList(from, Math.min(all.size(), from + this.batchSize)));
		}
		List<List<Object>> documents = batches.stream()
			.map((batch) -> batch.stream().map((sample) -> (Object) sample.document()).toList())
			.toList();
		freshIndex(THROUGHPUT_INDEX);
		AtomicInteger next = new AtomicInteger();
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		Processes.Cpu before = this.processes.cpu();
		long start = System.nanoTime();
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
		}
		finally {
			pool.shutdown();
		}
		long nanos = System.nanoTime() - start;
		Processes.Cpu cpu = this.processes.cpu().minus(before);
		expectDocuments(THROUGHPUT_INDEX, count);
		Run result = new Run(count, nanos, cpu);
		log("ceiling %s (%d thread%s): %d samples in %.2f s = %.0f samples/s; CPU s %s", run, threads,
				(threads == 1) ? "" : "s", count, nanos / 1e9, result.rate(), cpu);
		return result;
	}

	private void bulk(List<BenchSamples.Sample> batch, List<Object> documents) throws IOException {
		List<BulkOperation> operations = new ArrayList<>(batch.size());
		for (int i = 0; i < batch.size(); i++) {
			BenchSamples.Sample sample = batch.get(i);
			Object document = documents.get(i);
			operations.add(BulkOperation.of((op) -> op
				.index((index) -> index.index(THROUGHPUT_INDEX).id(sample.documentId()).document(document))));
		}
		BulkResponse response = this.client.bulk((bulk) -> bulk.operations(operations));
		if (response.errors()) {
			throw new IllegalStateException("bulk errors, first: " + response.items()
				.stream()
				.filter((item) -> item.error() != null)
				.findFirst()
				.map((item) -> item.error().reason())
				.orElse("?"));
		}
	}

	// ---- service ingest ---------------------------------------------------------------

	/**
	 * Produces {@code count} samples while the service's sample listener is stopped, then
	 * starts it and times the committed offsets from the first committed batch to the
	 * end: the service's sustained rate including decoding, schema validation, bulk
	 * indexing and committing after acknowledgement.
	 */
	private Run serviceIngest(String run, int count) throws Exception {
		MessageListenerContainer container = this.service.getBean(KafkaListenerEndpointRegistry.class)
			.getListenerContainer(LISTENER_ID);
		freshIndex(THROUGHPUT_INDEX);
		long committedBefore = committed();
		for (BenchSamples.Sample sample : throughputSamples(run, count)) {
			this.producer.send(new ProducerRecord<>(SAMPLES_TOPIC, sample.jobId(), sample.message()));
		}
		this.producer.flush();
		long target = endOffsets() - committedBefore;
		if (target != count) {
			throw new IllegalStateException("expected " + count + " new records on " + SAMPLES_TOPIC + ", found "
					+ target + " (is another consumer or producer using the topic?)");
		}
		long startNanos = System.nanoTime();
		container.start();
		long firstNanos = 0;
		long firstDone = 0;
		Processes.Cpu cpuAtFirst = null;
		Map<String, Long> threadsAtFirst = Map.of();
		long deadline = startNanos + TimeUnit.MINUTES.toNanos(10);
		long done;
		while (true) {
			done = committed() - committedBefore;
			long now = System.nanoTime();
			if (done > 0 && firstNanos == 0) {
				firstNanos = now;
				firstDone = done;
				cpuAtFirst = this.processes.cpu();
				threadsAtFirst = ThreadCpu.snapshot();
			}
			if (done >= count) {
				break;
			}
			if (now > deadline) {
				throw new IllegalStateException("service committed only " + done + " of " + count + " in 10 min");
			}
			// Polling the group's offsets costs the broker and this JVM CPU the ceiling
			// does not pay: fine-grained only near the start and the end of the run.
			Thread.sleep((done == 0 || done > count * 0.9) ? 20 : 250);
		}
		long lastNanos = System.nanoTime();
		Processes.Cpu cpu = this.processes.cpu().minus(cpuAtFirst);
		if (Boolean.getBoolean("bench.threadCpu")) {
			log("JVM threads, CPU ms: %s", ThreadCpu.since(threadsAtFirst));
		}
		container.stop();
		expectDocuments(THROUGHPUT_INDEX, count);
		Run result = new Run(count - firstDone, lastNanos - firstNanos, cpu);
		log("service %s: first batch (%d) committed %.2f s after start, then %d samples in %.2f s = %.0f samples/s;"
				+ " CPU s %s", run, firstDone, (firstNanos - startNanos) / 1e9, count - firstDone,
				(lastNanos - firstNanos) / 1e9, result.rate(), cpu);
		return result;
	}

	// ---- freshness --------------------------------------------------------------------

	/**
	 * Produces at a steady rate with the listener running; a poller asks Elasticsearch
	 * for every job's highest searchable t (a job's samples are on one partition and
	 * indexed in order, so everything up to it is searchable) and records searchable -
	 * produced.
	 */
	private Freshness freshness() throws Exception {
		MessageListenerContainer container = this.service.getBean(KafkaListenerEndpointRegistry.class)
			.getListenerContainer(LISTENER_ID);
		String index = "drivequal-samples-" + MONTH.format(Instant.now());
		freshIndex(index);
		container.start();
		long assignDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
		while (container.getAssignedPartitions() == null || container.getAssignedPartitions().size() < 12) {
			if (System.nanoTime() > assignDeadline) {
				throw new IllegalStateException("sample listener got no partitions within 60 s");
			}
			Thread.sleep(50);
		}
		int total = this.freshnessRate * this.freshnessSeconds;
		long[] produced = new long[total];
		long[] searchable = new long[total];
		AtomicInteger producedCount = new AtomicInteger();
		AtomicBoolean stop = new AtomicBoolean();
		long searchStartMs = System.currentTimeMillis() - 1000;
		Histogram pollLatency = new Histogram(60_000, 3);
		Thread poller = new Thread(() -> {
			int[] visibleT = new int[this.freshnessJobs];
			while (!stop.get()) {
				long sent = System.currentTimeMillis();
				Map<Integer, Integer> maxT = maxSearchableT(index, searchStartMs);
				long seen = System.currentTimeMillis();
				pollLatency.recordValue(Math.max(0, seen - sent));
				maxT.forEach((job, t) -> {
					for (int tt = visibleT[job] + 1; tt <= t; tt++) {
						int i = (tt - 1) * this.freshnessJobs + job;
						if (i < total) {
							searchable[i] = seen;
						}
					}
					visibleT[job] = Math.max(visibleT[job], t);
				});
				if (producedCount.get() == total && allSeen(searchable)) {
					return;
				}
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(this.pollMs));
			}
		}, "freshness-poller");
		poller.setDaemon(true);
		poller.start();
		log("freshness: producing %d samples/s for %d s over %d jobs", this.freshnessRate, this.freshnessSeconds,
				this.freshnessJobs);
		long start = System.nanoTime();
		double intervalNanos = 1e9 / this.freshnessRate;
		for (int i = 0; i < total; i++) {
			long due = start + (long) (i * intervalNanos);
			long wait = due - System.nanoTime();
			if (wait > 0) {
				LockSupport.parkNanos(wait);
			}
			int job = i % this.freshnessJobs;
			int t = i / this.freshnessJobs + 1;
			long now = System.currentTimeMillis();
			produced[i] = now;
			BenchSamples.Sample sample = BenchSamples.sample("fr", job, t, now);
			this.producer.send(new ProducerRecord<>(SAMPLES_TOPIC, sample.jobId(), sample.message()));
			producedCount.incrementAndGet();
		}
		double produceSeconds = (System.nanoTime() - start) / 1e9;
		this.producer.flush();
		poller.join(TimeUnit.SECONDS.toMillis(60));
		stop.set(true);
		poller.join();
		container.stop();
		Freshness result = new Freshness();
		result.achievedRate = total / produceSeconds;
		result.pollP50 = pollLatency.getValueAtPercentile(50);
		int from = this.freshnessWarmupSeconds * this.freshnessRate;
		for (int i = from; i < total; i++) {
			if (searchable[i] == 0) {
				result.missing++;
			}
			else {
				result.histogram.recordValue(Math.max(0, searchable[i] - produced[i]));
			}
		}
		log("freshness: produced %.0f samples/s; p50 %d ms, p99 %d ms, max %d ms over %d samples (%d never seen)",
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
				+ "{\"field\":\"jobId\",\"size\":" + this.freshnessJobs
				+ "},\"aggs\":{\"t\":{\"max\":{\"field\":\"t\"}}}}}}";
		Map<Integer, Integer> maxT = new HashMap<>();
		try {
			Request request = new Request("POST", "/" + index + "/_search");
			request.setJsonEntity(body);
			JsonNode response = this.json.readTree(this.rest.performRequest(request).getEntity().getContent());
			for (JsonNode bucket : response.path("aggregations").path("jobs").path("buckets")) {
				String jobId = bucket.path("key").asText();
				int job = Integer.parseInt(jobId.substring(jobId.lastIndexOf("-j") + 2));
				maxT.put(job, bucket.path("t").path("value").asInt());
			}
		}
		catch (IOException ex) {
			log("freshness poll failed: %s", ex);
		}
		return maxT;
	}

	// ---- plumbing ---------------------------------------------------------------------

	/**
	 * Samples of a throughput run in the order runners produce them: second by second.
	 */
	private List<BenchSamples.Sample> throughputSamples(String run, int count) {
		List<BenchSamples.Sample> samples = new ArrayList<>(count);
		int perJob = (count + this.jobs - 1) / this.jobs;
		for (int t = 1; t <= perJob && samples.size() < count; t++) {
			for (int job = 0; job < this.jobs && samples.size() < count; job++) {
				samples.add(BenchSamples.sample(run, job, t, THROUGHPUT_BASE_MS + t * 1000L));
			}
		}
		return samples;
	}

	/** Same transport and mapper as the service's ElasticsearchConfiguration. */
	private static ElasticsearchClient elasticsearchClient(RestClient restClient) {
		ObjectMapper mapper = new ObjectMapper().registerModule(new JavaTimeModule())
			.disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
			.disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
			.setSerializationInclusion(JsonInclude.Include.NON_NULL);
		return new ElasticsearchClient(new RestClientTransport(restClient, new JacksonJsonpMapper(mapper)));
	}

	private void installTemplates() throws IOException {
		for (String name : Contracts.INDEX_TEMPLATE_NAMES) {
			String body = this.contracts.indexTemplate(name);
			this.client.indices().putIndexTemplate((template) -> template.name(name).withJson(new StringReader(body)));
		}
	}

	/**
	 * Deletes and re-creates the index (from the template), so every run starts empty.
	 */
	private void freshIndex(String index) throws IOException {
		if (this.client.indices().exists((exists) -> exists.index(index)).value()) {
			this.client.indices().delete((delete) -> delete.index(index));
		}
		this.client.indices().create((create) -> create.index(index));
		this.client.cluster()
			.health((health) -> health.index(index)
				.waitForStatus(HealthStatus.Yellow)
				.timeout((timeout) -> timeout.time("30s")));
	}

	private void expectDocuments(String index, long expected) throws IOException {
		this.client.indices().refresh((refresh) -> refresh.index(index));
		long count = this.client.count((c) -> c.index(index)).count();
		if (count != expected) {
			throw new IllegalStateException(index + " holds " + count + " documents, expected " + expected);
		}
	}

	@SuppressWarnings("unchecked")
	private Map<String, Object> source(String run) throws IOException {
		String id = BenchSamples.jobId(run, 2) + "/2/1";
		Map<String, Object> source = this.client.get((get) -> get.index(THROUGHPUT_INDEX).id(id), Map.class).source();
		if (source == null) {
			throw new IllegalStateException("no document " + id);
		}
		return source;
	}

	/** The ceiling's documents and the service's are the same JSON but for the jobId. */
	private static boolean sameShape(Map<String, Object> ceiling, Map<String, Object> service) {
		Map<String, Object> a = new LinkedHashMap<>(ceiling);
		Map<String, Object> b = new LinkedHashMap<>(service);
		a.remove("jobId");
		b.remove("jobId");
		boolean same = a.equals(b);
		if (!same) {
			log("documents differ:%n  ceiling %s%n  service %s", a, b);
		}
		return same;
	}

	private void checkMessagesAreValid() {
		for (int job = 0; job < 4; job++) {
			byte[] message = BenchSamples.sample("check", job, 1, THROUGHPUT_BASE_MS).message();
			var validation = this.contracts.validate(MessageType.SAMPLE, message);
			if (!validation.valid()) {
				throw new IllegalStateException("generated sample is invalid: " + validation.summary() + ": "
						+ new String(message, StandardCharsets.UTF_8));
			}
		}
	}

	private ConfigurableApplicationContext startService() {
		log("starting the service (sample listener stopped until each run starts it)");
		List<String> args = new ArrayList<>(
				List.of("--spring.kafka.bootstrap-servers=" + this.infrastructure.kafkaBootstrapServers(),
						"--drivequal.elasticsearch.url=" + this.infrastructure.elasticsearchUrl(), "--server.port=0",
						"--drivequal.security.mode=local", "--spring.kafka.listener.auto-startup=false",
						// production schedules, not the test config's fast ones
						"--drivequal.scheduling.dispatch-interval=1s", "--drivequal.scheduling.sweep-interval=2s",
						"--drivequal.analysis.sweep-interval=2s", "--logging.level.root=WARN"));
		// Extra service arguments for tuning experiments, separated by spaces.
		String extra = System.getProperty("bench.serviceArgs", "").trim();
		if (!extra.isEmpty()) {
			args.addAll(List.of(extra.split("\\s+")));
		}
		log("service arguments: %s", args);
		return new SpringApplicationBuilder(DrivequalApplication.class).run(args.toArray(String[]::new));
	}

	/** Like the C runner's producer: idempotent, acks=all, lz4, linger 5 ms. */
	private KafkaProducer<String, byte[]> producer() {
		Map<String, Object> config = new HashMap<>();
		config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, this.infrastructure.kafkaBootstrapServers());
		config.put(ProducerConfig.ACKS_CONFIG, "all");
		config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
		config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
		config.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
		config.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
		return new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
	}

	private long committed() throws Exception {
		Map<TopicPartition, OffsetAndMetadata> offsets = this.admin.listConsumerGroupOffsets(GROUP)
			.partitionsToOffsetAndMetadata()
			.get();
		return offsets.entrySet()
			.stream()
			.filter((entry) -> entry.getKey().topic().equals(SAMPLES_TOPIC) && entry.getValue() != null)
			.mapToLong((entry) -> entry.getValue().offset())
			.sum();
	}

	private long endOffsets() throws Exception {
		int partitions = this.admin.describeTopics(List.of(SAMPLES_TOPIC))
			.allTopicNames()
			.get()
			.get(SAMPLES_TOPIC)
			.partitions()
			.size();
		Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
		for (int p = 0; p < partitions; p++) {
			latest.put(new TopicPartition(SAMPLES_TOPIC, p), OffsetSpec.latest());
		}
		return this.admin.listOffsets(latest).all().get().values().stream().mapToLong((info) -> info.offset()).sum();
	}

	private static String loadAverage() {
		try {
			return Files.readString(Path.of("/proc/loadavg")).trim();
		}
		catch (IOException ex) {
			return "?";
		}
	}

	private static void closeQuietly(AutoCloseable closeable) {
		if (closeable != null) {
			try {
				closeable.close();
			}
			catch (Exception ex) {
				log("closing %s failed: %s", closeable, ex);
			}
		}
	}

	static void log(String format, Object... args) {
		System.out.printf(Locale.ROOT, "[bench] " + format + "%n", args);
	}

	// ---- results ----------------------------------------------------------------------

	record Run(long samples, long nanos, Processes.Cpu cpu) {

		double rate() {
			return this.samples / (this.nanos / 1e9);
		}

	}

	static final class Round {

		Run ceiling1;

		Run ceiling2;

		Run service;

		double ceiling() {
			return Math.max(this.ceiling1.rate(), this.ceiling2.rate());
		}

		double ratio() {
			return this.service.rate() / ceiling();
		}

		/**
		 * CPU seconds per sample of the cheaper ceiling run over the service's, all three
		 * processes: the throughput ratio when everything is CPU-bound, and far less
		 * sensitive than wall time to what else the shared machine runs.
		 */
		double cpuRatio() {
			return Math.min(this.ceiling1.cpu().perSample(this.ceiling1.samples()),
					this.ceiling2.cpu().perSample(this.ceiling2.samples()))
					/ this.service.cpu().perSample(this.service.samples());
		}

	}

	static final class Freshness {

		final Histogram histogram = new Histogram(3_600_000, 3);

		double achievedRate;

		long missing;

		long pollP50;

	}

	final class Results {

		final List<Round> rounds = new ArrayList<>();

		Freshness freshness;

		boolean sameShape;

		String loadBefore;

		String loadAfter;

		String markdown() {
			StringBuilder md = new StringBuilder();
			md.append(String.format(Locale.ROOT, "### Ingest benchmark, %s%n%n", Instant.now()));
			md.append(String.format(Locale.ROOT,
					"Machine: %d CPUs, %s; load average before %s, after %s. Elasticsearch heap %s MB, Kafka heap %s MB. "
							+ "%d samples per throughput run over %d jobs, bulk/poll batch %d, %d rounds (order alternating) after a %d-sample warm-up of each path. "
							+ "Ceiling and service documents identical (but for jobId): %s.%n%n",
					Runtime.getRuntime().availableProcessors(), memory(), this.loadBefore, this.loadAfter,
					Integer.getInteger("bench.esHeapMb", 1024), Integer.getInteger("bench.kafkaHeapMb", 512),
					IngestBenchmark.this.samples, IngestBenchmark.this.jobs, IngestBenchmark.this.batchSize,
					this.rounds.size(), IngestBenchmark.this.warmupSamples, this.sameShape ? "yes" : "NO"));
			md.append("| samples/s | ");
			for (int i = 1; i <= this.rounds.size(); i++) {
				md.append("round ").append(i).append(" | ");
			}
			md.append("median |\n|---|");
			md.append("---:|".repeat(this.rounds.size() + 1)).append('\n');
			row(md, "raw bulk ceiling, 1 thread", (r) -> r.ceiling1.rate(), "%.0f");
			row(md, "raw bulk ceiling, 2 threads", (r) -> r.ceiling2.rate(), "%.0f");
			row(md, "**ceiling** (max of the two)", Round::ceiling, "%.0f");
			row(md, "**service** Kafka -> Elasticsearch", (r) -> r.service.rate(), "%.0f");
			row(md, "**ratio** service / ceiling (target >= 0.8)", Round::ratio, "%.2f");
			row(md, "CPU-cost ratio: ceiling / service CPU per sample", Round::cpuRatio, "%.2f");
			md.append("\nCPU seconds per 100k samples (Elasticsearch / Kafka broker / service+benchmark JVM):\n\n");
			md.append("| run | ");
			for (int i = 1; i <= this.rounds.size(); i++) {
				md.append("round ").append(i).append(" | ");
			}
			md.append("\n|---|").append("---|".repeat(this.rounds.size())).append('\n');
			cpuRow(md, "ceiling, 1 thread", (r) -> r.ceiling1);
			cpuRow(md, "ceiling, 2 threads", (r) -> r.ceiling2);
			cpuRow(md, "service", (r) -> r.service);
			Freshness f = this.freshness;
			if (f == null) {
				return md.toString();
			}
			md.append(String.format(Locale.ROOT,
					"%nFreshness (produced -> searchable) at %.0f samples/s for %d s "
							+ "(first %d s excluded), %d samples measured, %d never seen; search poll every %d ms "
							+ "(median poll %d ms); index refresh_interval 1 s:%n%n",
					f.achievedRate, IngestBenchmark.this.freshnessSeconds, IngestBenchmark.this.freshnessWarmupSeconds,
					f.histogram.getTotalCount(), f.missing, IngestBenchmark.this.pollMs, f.pollP50));
			md.append("| p50 | p90 | p99 | max | target |\n|---:|---:|---:|---:|---|\n");
			md.append(String.format(Locale.ROOT, "| %d ms | %d ms | %d ms | %d ms | p99 <= 2000 ms |%n",
					f.histogram.getValueAtPercentile(50), f.histogram.getValueAtPercentile(90),
					f.histogram.getValueAtPercentile(99), f.histogram.getMaxValue()));
			return md.toString();
		}

		private void row(StringBuilder md, String name, java.util.function.ToDoubleFunction<Round> value,
				String format) {
			md.append("| ").append(name).append(" | ");
			double[] values = this.rounds.stream().mapToDouble(value).toArray();
			for (double v : values) {
				md.append(String.format(Locale.ROOT, format, v)).append(" | ");
			}
			md.append(String.format(Locale.ROOT, format, median(values))).append(" |\n");
		}

		private void cpuRow(StringBuilder md, String name, java.util.function.Function<Round, Run> run) {
			md.append("| ").append(name).append(" | ");
			for (Round round : this.rounds) {
				Run r = run.apply(round);
				md.append(r.cpu().per100k(r.samples())).append(" | ");
			}
			md.append('\n');
		}

	}

	private static double median(double[] values) {
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		int n = sorted.length;
		return (n % 2 == 1) ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	}

	private static String memory() {
		try {
			Optional<String> total = Files.readAllLines(Path.of("/proc/meminfo"))
				.stream()
				.filter((line) -> line.startsWith("MemTotal:"))
				.findFirst();
			return total.map((line) -> Long.parseLong(line.replaceAll("\\D", "")) / 1024 / 1024 + " GiB RAM")
				.orElse("? RAM");
		}
		catch (IOException | UncheckedIOException ex) {
			return "? RAM";
		}
	}

	/** CPU time of this JVM's threads by name (digits folded), for finding hot spots. */
	static final class ThreadCpu {

		static Map<String, Long> snapshot() {
			java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
			Map<String, Long> byName = new HashMap<>();
			for (java.lang.management.ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
				if (info != null) {
					long nanos = threads.getThreadCpuTime(info.getThreadId());
					if (nanos > 0) {
						byName.merge(info.getThreadName().replaceAll("\\d+", "N"), nanos, Long::sum);
					}
				}
			}
			return byName;
		}

		static String since(Map<String, Long> before) {
			Map<String, Long> now = snapshot();
			StringBuilder out = new StringBuilder();
			now.entrySet()
				.stream()
				.map((e) -> Map.entry(e.getKey(), (e.getValue() - before.getOrDefault(e.getKey(), 0L)) / 1_000_000))
				.filter((e) -> e.getValue() >= 20)
				.sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
				.forEach((e) -> out.append(e.getKey()).append('=').append(e.getValue()).append(' '));
			return out.toString();
		}

	}

	/** CPU time of the three processes, from /proc (Linux). */
	record Processes(long elasticsearch, long kafka) {

		private static final double TICKS_PER_SECOND = 100.0;

		static Processes find() {
			long es = -1;
			long kafka = -1;
			for (ProcessHandle process : ProcessHandle.current().descendants().toList()) {
				String commandLine = commandLine(process.pid());
				if (commandLine.contains("org.elasticsearch.bootstrap.Elasticsearch")) {
					es = process.pid();
				}
				else if (commandLine.contains("kafka.Kafka")) {
					kafka = process.pid();
				}
			}
			return new Processes(es, kafka);
		}

		/** The whole command line: ProcessHandle.Info truncates long class paths. */
		private static String commandLine(long pid) {
			try {
				return new String(Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline")), StandardCharsets.UTF_8);
			}
			catch (IOException ex) {
				return "";
			}
		}

		Cpu cpu() {
			return new Cpu(ticks(this.elasticsearch), ticks(this.kafka), ticks(ProcessHandle.current().pid()));
		}

		private static long ticks(long pid) {
			if (pid < 0) {
				return 0;
			}
			try {
				String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
				String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
				// fields[11] = utime, fields[12] = stime (stat fields 14 and 15)
				return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
			}
			catch (IOException | RuntimeException ex) {
				return 0;
			}
		}

		record Cpu(long elasticsearch, long kafka, long jvm) {

			Cpu minus(Cpu other) {
				return new Cpu(this.elasticsearch - other.elasticsearch, this.kafka - other.kafka,
						this.jvm - other.jvm);
			}

			double perSample(long samples) {
				return (this.elasticsearch + this.kafka + this.jvm) / (double) samples;
			}

			String per100k(long samples) {
				double scale = 100_000.0 / samples / TICKS_PER_SECOND;
				return String.format(Locale.ROOT, "%.1f / %.1f / %.1f", this.elasticsearch * scale, this.kafka * scale,
						this.jvm * scale);
			}

			@Override
			public String toString() {
				return String.format(Locale.ROOT, "ES %.1f, Kafka %.1f, JVM %.1f",
						this.elasticsearch / TICKS_PER_SECOND, this.kafka / TICKS_PER_SECOND,
						this.jvm / TICKS_PER_SECOND);
			}

		}

	}

}
