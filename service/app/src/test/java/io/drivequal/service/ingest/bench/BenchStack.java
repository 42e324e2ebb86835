/*
 * What the ingest benchmark runs against: its own real Elasticsearch and Kafka from the harness,
 * the service in-process with its sample listener stopped, the official clients, and the few
 * operations every measurement needs (a fresh index, a document count, the consumer group's
 * committed offsets).
 */
package io.drivequal.service.ingest.bench;

import java.io.IOException;
import java.io.StringReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.HealthStatus;
import io.drivequal.harness.RealInfrastructure;
import io.drivequal.schemas.Contracts;
import io.drivequal.service.DrivequalApplication;
import io.drivequal.service.platform.ElasticsearchConfiguration;
import org.apache.http.HttpHost;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.elasticsearch.client.RestClient;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

final class BenchStack implements AutoCloseable {

	static final String SAMPLES_TOPIC = "drivequal.samples";

	private static final String GROUP = "drivequal-service-samples";

	private static final String LISTENER_ID = "drivequal-samples";

	final RealInfrastructure infrastructure;

	final RestClient rest;

	final ElasticsearchClient client;

	final ConfigurableApplicationContext service;

	final Admin admin;

	final KafkaProducer<String, byte[]> producer;

	final Processes processes;

	private BenchStack(RealInfrastructure infrastructure, RestClient rest, ConfigurableApplicationContext service,
			Admin admin, KafkaProducer<String, byte[]> producer) {
		this.infrastructure = infrastructure;
		this.rest = rest;
		this.client = elasticsearchClient(rest);
		this.service = service;
		this.admin = admin;
		this.producer = producer;
		this.processes = Processes.find();
	}

	/**
	 * Starts Elasticsearch and Kafka, installs the index templates from the schemas jar,
	 * then starts the service; whatever started is stopped again if a later step fails.
	 */
	static BenchStack start(BenchSettings settings, Contracts contracts) throws IOException {
		IngestBenchmark.log("starting Elasticsearch and Kafka under %s", settings.dir().toAbsolutePath());
		RealInfrastructure infrastructure = RealInfrastructure.start(settings.dir(), settings.esHeapMb(),
				settings.kafkaHeapMb(), 180);
		RestClient rest = null;
		ConfigurableApplicationContext service = null;
		Admin admin = null;
		try {
			rest = RestClient.builder(HttpHost.create(infrastructure.elasticsearchUrl())).build();
			installTemplates(elasticsearchClient(rest), contracts);
			service = startService(infrastructure, settings.serviceArgs());
			admin = Admin
				.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, infrastructure.kafkaBootstrapServers()));
			return new BenchStack(infrastructure, rest, service, admin, producer(infrastructure));
		}
		catch (IOException | RuntimeException ex) {
			IngestBenchmark.closeQuietly(admin);
			IngestBenchmark.closeQuietly(service);
			IngestBenchmark.closeQuietly(rest);
			infrastructure.close();
			throw ex;
		}
	}

	/**
	 * The service's sample listener. The first measurement starts it; between
	 * measurements it is paused, not stopped, so its consumers stay in the group as a
	 * running service's do: stopping and starting it made six new consumers and a
	 * rebalance every round, whose start-up code the JIT compiled inside the timed
	 * window.
	 */
	MessageListenerContainer sampleListener() {
		return this.service.getBean(KafkaListenerEndpointRegistry.class).getListenerContainer(LISTENER_ID);
	}

	/** Starts the sample listener, or resumes it where a measurement before paused it. */
	void consumeSamples() {
		MessageListenerContainer container = sampleListener();
		if (container.isRunning()) {
			container.resume();
		}
		else {
			// Paused, each consumer polls only once a second (Spring's default: every
			// 100 ms), so the paused listener takes next to nothing from the ceiling's
			// runs.
			container.getContainerProperties().setPollTimeoutWhilePaused(Duration.ofSeconds(1));
			container.start();
		}
	}

	/** Pauses the sample listener and returns once every consumer has paused. */
	void pauseSamples() throws InterruptedException {
		MessageListenerContainer container = sampleListener();
		container.pause();
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
		while (!container.isContainerPaused()) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("the sample listener did not pause within 60 s");
			}
			Thread.sleep(20);
		}
	}

	/**
	 * Deletes and re-creates the index (from the template), so every run starts empty.
	 */
	void freshIndex(String index) throws IOException {
		if (this.client.indices().exists((exists) -> exists.index(index)).value()) {
			this.client.indices().delete((delete) -> delete.index(index));
		}
		this.client.indices().create((create) -> create.index(index));
		this.client.cluster()
			.health((health) -> health.index(index)
				.waitForStatus(HealthStatus.Yellow)
				.timeout((timeout) -> timeout.time("30s")));
	}

	void expectDocuments(String index, long expected) throws IOException {
		this.client.indices().refresh((refresh) -> refresh.index(index));
		long count = this.client.count((c) -> c.index(index)).count();
		if (count != expected) {
			throw new IllegalStateException(index + " holds " + count + " documents, expected " + expected);
		}
	}

	/** The service's committed offsets on the samples topic, summed over partitions. */
	long committed() throws Exception {
		Map<TopicPartition, OffsetAndMetadata> offsets = this.admin.listConsumerGroupOffsets(GROUP)
			.partitionsToOffsetAndMetadata()
			.get();
		return offsets.entrySet()
			.stream()
			.filter((entry) -> entry.getKey().topic().equals(SAMPLES_TOPIC) && entry.getValue() != null)
			.mapToLong((entry) -> entry.getValue().offset())
			.sum();
	}

	long endOffsets() throws Exception {
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

	@Override
	public void close() {
		IngestBenchmark.closeQuietly(this.producer);
		IngestBenchmark.closeQuietly(this.admin);
		IngestBenchmark.closeQuietly(this.service);
		IngestBenchmark.closeQuietly(this.rest);
		this.infrastructure.close();
	}

	/** The service's own client, transport and mapper (ElasticsearchConfiguration). */
	private static ElasticsearchClient elasticsearchClient(RestClient restClient) {
		return ElasticsearchConfiguration.client(restClient);
	}

	private static void installTemplates(ElasticsearchClient client, Contracts contracts) throws IOException {
		for (String name : Contracts.INDEX_TEMPLATE_NAMES) {
			String body = contracts.indexTemplate(name);
			client.indices().putIndexTemplate((template) -> template.name(name).withJson(new StringReader(body)));
		}
	}

	private static ConfigurableApplicationContext startService(RealInfrastructure infrastructure, String extraArgs) {
		IngestBenchmark.log("starting the service (sample listener stopped until each run starts it)");
		List<String> args = new ArrayList<>(
				List.of("--spring.kafka.bootstrap-servers=" + infrastructure.kafkaBootstrapServers(),
						"--drivequal.elasticsearch.url=" + infrastructure.elasticsearchUrl(), "--server.port=0",
						"--drivequal.security.mode=local", "--spring.kafka.listener.auto-startup=false",
						// production schedules, not the test config's fast ones
						"--drivequal.scheduling.dispatch-interval=1s", "--drivequal.scheduling.sweep-interval=2s",
						"--drivequal.analysis.sweep-interval=2s", "--logging.level.root=WARN"));
		// Extra service arguments for tuning experiments, separated by spaces.
		if (!extraArgs.isEmpty()) {
			args.addAll(List.of(extraArgs.split("\\s+")));
		}
		IngestBenchmark.log("service arguments: %s", args);
		return new SpringApplicationBuilder(DrivequalApplication.class).run(args.toArray(String[]::new));
	}

	/** Like the C runner's producer: idempotent, acks=all, lz4, linger 5 ms. */
	private static KafkaProducer<String, byte[]> producer(RealInfrastructure infrastructure) {
		Map<String, Object> config = new HashMap<>();
		config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, infrastructure.kafkaBootstrapServers());
		config.put(ProducerConfig.ACKS_CONFIG, "all");
		config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
		config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
		config.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
		config.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
		return new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
	}

}
