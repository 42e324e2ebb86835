/*
 * Kafka and Elasticsearch connection security on real processes: a Kafka 4.2 broker with a
 * SASL_SSL listener (SCRAM-SHA-512 user created at format time, certificate from a CA made with
 * openssl here) and an Elasticsearch 8.19 node with security on, HTTPS and a file-realm user. The
 * service, configured only through its environment-facing settings, consumes, produces and
 * indexes through them (SCRAM-SHA-512), and so does the C runner's agent with its secrets in a
 * kafkaPropertiesFile (SASL PLAIN over TLS, see RUNNER_USER); wrong credentials and an
 * untrusted certificate stop the start with a message saying what to fix. All credentials are
 * generated per run.
 *
 * Elasticsearch API keys cannot be created on this distribution (the .security index needs the
 * analysis-common module, absent from the integ-test-zip): the service authenticates with the
 * user, and a wrong API key is shown to be refused by the real node.
 */
package io.drivequal.service.platform;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import io.drivequal.harness.ElasticsearchNode;
import io.drivequal.harness.KafkaBroker;
import io.drivequal.harness.PemCertificates;
import io.drivequal.schemas.Contracts;
import io.drivequal.service.DrivequalApplication;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.core.KafkaTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class ConnectionSecurityIT {

	private static final String KAFKA_USER = "drivequal-service";

	private static final String ELASTICSEARCH_USER = "drivequal-es";

	private static final Path BASE = Path.of("target", "it-infra", "secured-" + shortId()).toAbsolutePath();

	private static final String KAFKA_PASSWORD = generatedPassword();

	/**
	 * The runner authenticates with PLAIN (over TLS): Debian 12's librdkafka 2.0.2
	 * computes a SCRAM proof Kafka 4 brokers refuse (fixed in librdkafka 2.6.1, #4895).
	 */
	private static final String RUNNER_USER = "drivequal-runner";

	private static final String RUNNER_PASSWORD = generatedPassword();

	private static final String ELASTICSEARCH_PASSWORD = generatedPassword();

	private static PemCertificates certificates;

	private static KafkaBroker kafka;

	private static ElasticsearchNode elasticsearch;

	private static Path secrets;

	private final List<Process> agents = new ArrayList<>();

	@BeforeAll
	static void startSecuredInfrastructure() throws IOException {
		certificates = PemCertificates.generate(BASE.resolve("tls"));
		kafka = KafkaBroker.builder(BASE.resolve("kafka"))
			.heapMb(256)
			.scram(KAFKA_USER, KAFKA_PASSWORD)
			.plain(RUNNER_USER, RUNNER_PASSWORD)
			.tls(certificates)
			.build();
		elasticsearch = ElasticsearchNode.builder(BASE.resolve("es"))
			.clusterName("drivequal-secured")
			.heapMb(384)
			.security(ELASTICSEARCH_USER, ELASTICSEARCH_PASSWORD, certificates)
			.build();
		CompletableFuture<KafkaBroker> kafkaStarted = CompletableFuture.supplyAsync(kafka::start);
		elasticsearch.start();
		kafkaStarted.join();
		secrets = Files.createDirectories(BASE.resolve("secrets"));
		Files.writeString(secrets.resolve("kafka-password"), KAFKA_PASSWORD + "\n");
		Files.writeString(secrets.resolve("elasticsearch-password"), ELASTICSEARCH_PASSWORD + "\n");
	}

	@AfterAll
	static void stopSecuredInfrastructure() {
		if (kafka != null) {
			kafka.stop();
		}
		if (elasticsearch != null) {
			elasticsearch.stop();
		}
	}

	@Test
	void theServiceConsumesProducesAndIndexesThroughSaslSslAndHttps() throws Exception {
		try (ConfigurableApplicationContext service = startService(Map.of())) {
			@SuppressWarnings("unchecked")
			KafkaTemplate<String, byte[]> producer = service.getBean(KafkaTemplate.class);
			ElasticsearchClient client = service.getBean(ElasticsearchClient.class);
			// A sample produced by the service's own producer, consumed by its ingest
			// consumer and indexed over HTTPS: the document id is jobId/phaseIndex/t.
			byte[] sample = Contracts.resource("examples/sample/valid/randwrite-second.json")
				.replace("job-0001", "job-secured")
				.getBytes(StandardCharsets.UTF_8);
			producer.send("drivequal.samples", "job-secured", sample).get(30, TimeUnit.SECONDS);
			await().atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(500))
				.ignoreExceptions()
				.until(() -> client
					.count((count) -> count.index("drivequal-samples-*")
						.query((query) -> query.term((term) -> term.field("jobId").value("job-secured"))))
					.count() == 1);
			// Poison goes to the dead-letter topic through the service's producer.
			producer.send("drivequal.samples", "job-poison", "not json".getBytes(StandardCharsets.UTF_8))
				.get(30, TimeUnit.SECONDS);
			assertThat(consumeKeys("drivequal.dead-letters", "job-poison")).contains("job-poison");
		}
	}

	@Test
	void theRunnerAgentHeartbeatsThroughSaslSslWithItsSecretsInAPropertiesFile() throws Exception {
		String runnerId = "secured-" + shortId();
		try (ConfigurableApplicationContext service = startService(Map.of())) {
			Path dir = startAgent(runnerId, RUNNER_PASSWORD);
			ElasticsearchClient client = service.getBean(ElasticsearchClient.class);
			await().atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(500))
				.until(() -> client.exists((exists) -> exists.index("drivequal-runners").id(runnerId)).value());
			assertThat(Files.readString(dir.resolve("agent.log"))).doesNotContain(RUNNER_PASSWORD);

			// The same agent with a wrong password says why it cannot connect.
			Path wrong = startAgent(runnerId + "-wrong", "not-" + RUNNER_PASSWORD);
			await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(500))
				.until(() -> Files.readString(wrong.resolve("agent.log")).contains("SASL authentication error"));
			assertThat(Files.readString(wrong.resolve("agent.log"))).contains("Authentication failed");
		}
		finally {
			for (Process agent : this.agents) {
				agent.destroy();
				agent.waitFor(30, TimeUnit.SECONDS);
			}
		}
	}

	@Test
	void aWrongKafkaPasswordStopsTheStart() throws IOException {
		Path wrong = Files.writeString(secrets.resolve("wrong-kafka-password"), "wrong-" + KAFKA_PASSWORD);
		assertThatThrownBy(() -> startService(Map.of("drivequal.kafka.sasl-password-file", wrong.toString())))
			.rootCause()
			.isInstanceOf(InvalidConnectionSettingsException.class)
			.hasMessageContaining("Kafka at " + kafka.securedBootstrapServers() + " refused the SASL credentials")
			.hasMessageContaining("check KAFKA_SASL_MECHANISM, KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD(_FILE)");
	}

	@Test
	void anUntrustedKafkaCertificateStopsTheStart() {
		assertThatThrownBy(() -> startService(Map.of("drivequal.kafka.ssl-ca-file", ""))).rootCause()
			.isInstanceOf(InvalidConnectionSettingsException.class)
			.hasMessageContaining("failed the TLS handshake");
	}

	@Test
	void aWrongElasticsearchApiKeyStopsTheStart() {
		String wrongKey = Base64.getEncoder()
			.encodeToString(("no-such-id:" + generatedPassword()).getBytes(StandardCharsets.UTF_8));
		assertThatThrownBy(() -> startService(Map.of("drivequal.elasticsearch.username", "",
				"drivequal.elasticsearch.password-file", "", "drivequal.elasticsearch.api-key", wrongKey)))
			.hasStackTraceContaining("Elasticsearch at " + elasticsearch.url() + " refused the credentials (HTTP 401")
			.hasStackTraceContaining("check ELASTICSEARCH_API_KEY(_FILE)");
	}

	@Test
	void anUntrustedElasticsearchCertificateStopsTheStart() {
		assertThatThrownBy(() -> startService(Map.of("drivequal.elasticsearch.ca-file", "")))
			.hasStackTraceContaining("could not be reached over TLS")
			.hasStackTraceContaining("check ELASTICSEARCH_URL and ELASTICSEARCH_CA_FILE");
	}

	/** The service as an operator would configure it, with {@code overrides} on top. */
	private static ConfigurableApplicationContext startService(Map<String, Object> overrides) {
		Map<String, Object> properties = new java.util.LinkedHashMap<>(
				Map.of("server.port", "0", "spring.kafka.bootstrap-servers", kafka.securedBootstrapServers(),
						"drivequal.kafka.security-protocol", "SASL_SSL", "drivequal.kafka.sasl-username", KAFKA_USER,
						"drivequal.kafka.sasl-password-file", secrets.resolve("kafka-password").toString(),
						"drivequal.kafka.ssl-ca-file", certificates.caPem().toString(), "drivequal.elasticsearch.url",
						elasticsearch.url(), "drivequal.elasticsearch.username", ELASTICSEARCH_USER,
						"drivequal.elasticsearch.password-file", secrets.resolve("elasticsearch-password").toString(),
						"drivequal.elasticsearch.ca-file", certificates.caPem().toString()));
		properties.put("drivequal.elasticsearch.startup-timeout", "30s");
		properties.putAll(overrides);
		// As command-line arguments: they win over application.yml, as the environment
		// does.
		String[] arguments = properties.entrySet()
			.stream()
			.map((entry) -> "--" + entry.getKey() + "=" + entry.getValue())
			.toArray(String[]::new);
		return new SpringApplicationBuilder(DrivequalApplication.class).run(arguments);
	}

	private Path startAgent(String runnerId, String password) throws IOException {
		Path dir = Files.createDirectories(BASE.resolve("agents").resolve(runnerId));
		Path properties = Files.writeString(dir.resolve("kafka.properties"),
				"# written by ConnectionSecurityIT\nsasl.username=" + RUNNER_USER + "\nsasl.password=" + password
						+ "\n");
		Path config = Files.writeString(dir.resolve("agent.json"), """
				{"runnerId":"%s","brokers":"%s","heartbeatIntervalMs":1000,
				 "kafka":{"security.protocol":"SASL_SSL","sasl.mechanism":"PLAIN","ssl.ca.location":"%s"},
				 "kafkaPropertiesFile":"%s","devices":[{"engine":"null","target":"null:1g"}]}
				""".formatted(runnerId, kafka.securedBootstrapServers(), certificates.caPem(), properties));
		Path runner = Path.of(System.getProperty("drivequal.runner.binary", "drivequal-runner"));
		assertThat(runner).as("the C runner must be built before the service's integration tests").isExecutable();
		this.agents
			.add(new ProcessBuilder(runner.toString(), "agent", "--config", config.toString()).redirectErrorStream(true)
				.redirectOutput(dir.resolve("agent.log").toFile())
				.start());
		return dir;
	}

	/**
	 * Keys of the records on {@code topic}, read over SASL_SSL until {@code expected}
	 * shows.
	 */
	private static List<String> consumeKeys(String topic, String expected) {
		Map<String, Object> properties = new java.util.HashMap<>(
				KafkaSecurity.clientProperties(new KafkaSecuritySettings("SASL_SSL", "SCRAM-SHA-512", KAFKA_USER,
						KAFKA_PASSWORD, null, certificates.caPem().toString())));
		properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.securedBootstrapServers());
		properties.put(ConsumerConfig.GROUP_ID_CONFIG, "connection-security-it-" + shortId());
		properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
		List<String> keys = new ArrayList<>();
		try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(properties, new StringDeserializer(),
				new ByteArrayDeserializer())) {
			consumer.subscribe(List.of(topic));
			long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
			while (!keys.contains(expected) && System.nanoTime() < deadline) {
				for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(500))) {
					keys.add(record.key());
				}
			}
		}
		return keys;
	}

	private static String generatedPassword() {
		return UUID.randomUUID().toString().replace("-", "");
	}

	private static String shortId() {
		return UUID.randomUUID().toString().substring(0, 8);
	}

}
