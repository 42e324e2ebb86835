// The Elasticsearch node and Kafka broker that integration tests and the local stack share.
package io.drivequal.harness;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A started ES + Kafka pair. {@link #shared()} gives one pair per JVM, started lazily by
 * the first caller (so once for all test classes in a Surefire/Failsafe fork) and stopped
 * by the harness's shutdown hook when the JVM exits. It deliberately outlives the JUnit
 * test plan: Spring's cached test contexts are closed at JVM exit too, and still talk to
 * the broker while they shut down.
 *
 * <p>
 * System properties: {@code drivequal.it.dir} (default {@code target/it-infra}, relative
 * to the working directory), {@code drivequal.it.esHeapMb} and
 * {@code drivequal.it.kafkaHeapMb} (default 512), {@code drivequal.it.startTimeoutS}
 * (default 120).
 */
public final class RealInfrastructure implements AutoCloseable {

	private static RealInfrastructure shared;

	private static RuntimeException sharedStartFailure;

	private final ElasticsearchNode elasticsearch;

	private final KafkaBroker kafka;

	private RealInfrastructure(ElasticsearchNode elasticsearch, KafkaBroker kafka) {
		this.elasticsearch = elasticsearch;
		this.kafka = kafka;
	}

	/**
	 * The per-JVM pair; a failed start is remembered so later test classes fail fast
	 * instead of waiting again.
	 */
	public static synchronized RealInfrastructure shared() {
		if (sharedStartFailure != null) {
			throw new IllegalStateException("Real infrastructure failed to start earlier in this JVM",
					sharedStartFailure);
		}
		if (shared == null) {
			try {
				shared = start(Path.of(System.getProperty("drivequal.it.dir", "target/it-infra")),
						Integer.getInteger("drivequal.it.esHeapMb", 512),
						Integer.getInteger("drivequal.it.kafkaHeapMb", 512),
						Long.getLong("drivequal.it.startTimeoutS", 120));
			}
			catch (RuntimeException ex) {
				sharedStartFailure = ex;
				throw ex;
			}
		}
		return shared;
	}

	/**
	 * Starts both in parallel on free ports, each in {@code baseDir/es-<port>} and
	 * {@code baseDir/kafka-<port>}; if either fails the other is stopped again.
	 */
	public static RealInfrastructure start(Path baseDir, int esHeapMb, int kafkaHeapMb, long startTimeoutS) {
		Path base = baseDir.toAbsolutePath();
		int esPort = Ports.freeLoopbackPort();
		int kafkaPort = Ports.freeLoopbackPort();
		ElasticsearchNode elasticsearch = ElasticsearchNode.builder(base.resolve("es-" + esPort))
			.httpPort(esPort)
			.heapMb(esHeapMb)
			.startTimeoutS(startTimeoutS)
			.build();
		KafkaBroker kafka = KafkaBroker.builder(base.resolve("kafka-" + kafkaPort))
			.port(kafkaPort)
			.heapMb(kafkaHeapMb)
			.startTimeoutS(startTimeoutS)
			.build();
		CompletableFuture<ElasticsearchNode> esStarted = CompletableFuture.supplyAsync(elasticsearch::start);
		CompletableFuture<KafkaBroker> kafkaStarted = CompletableFuture.supplyAsync(kafka::start);
		try {
			CompletableFuture.allOf(esStarted, kafkaStarted).join();
		}
		catch (CompletionException ex) {
			// allOf completes only when both are done, so neither is still starting here.
			elasticsearch.stop();
			kafka.stop();
			throw (ex.getCause() instanceof RuntimeException runtime) ? runtime : ex;
		}
		return new RealInfrastructure(elasticsearch, kafka);
	}

	public String elasticsearchUrl() {
		return this.elasticsearch.url();
	}

	public String kafkaBootstrapServers() {
		return this.kafka.bootstrapServers();
	}

	public ElasticsearchNode elasticsearch() {
		return this.elasticsearch;
	}

	/**
	 * For tests that restart the broker mid-job: {@code kafka().stop()} then
	 * {@code kafka().start()}.
	 */
	public KafkaBroker kafka() {
		return this.kafka;
	}

	@Override
	public void close() {
		CompletableFuture<Void> esStopped = CompletableFuture.runAsync(this.elasticsearch::stop);
		this.kafka.stop();
		esStopped.join();
	}

}
