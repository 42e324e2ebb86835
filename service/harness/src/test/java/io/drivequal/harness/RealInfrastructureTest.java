// Proves the harness starts a working Elasticsearch and Kafka, and that a broker restart keeps topic data.
package io.drivequal.harness;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(RealInfrastructureExtension.class)
class RealInfrastructureTest {

	private static final Duration CONSUME_TIMEOUT = Duration.ofSeconds(60);

	private final HttpClient http = HttpClient.newHttpClient();

	@Test
	void elasticsearchIndexesAndReturnsADocument(RealInfrastructure infrastructure) throws Exception {
		String document = "{\"drive\":\"nvme0n1\",\"iops\":812345}";
		HttpResponse<String> indexed = send(HttpRequest
			.newBuilder(URI.create(infrastructure.elasticsearchUrl() + "/harness-test/_doc/1?refresh=true"))
			.header("Content-Type", "application/json")
			.PUT(HttpRequest.BodyPublishers.ofString(document))
			.build());
		assertTrue(indexed.statusCode() == 200 || indexed.statusCode() == 201, indexed::body);

		HttpResponse<String> read = send(
				HttpRequest.newBuilder(URI.create(infrastructure.elasticsearchUrl() + "/harness-test/_doc/1"))
					.GET()
					.build());
		assertEquals(200, read.statusCode(), read::body);
		assertTrue(read.body().contains("\"found\":true"), read::body);
		assertTrue(read.body().contains(document), read::body);
	}

	@Test
	void kafkaKeepsTopicDataAcrossABrokerRestart(RealInfrastructure infrastructure) throws Exception {
		KafkaBroker kafka = infrastructure.kafka();
		String topic = "harness-restart-" + UUID.randomUUID();
		kafka.createTopics(Map.of(topic, 2));
		// Idempotent: a second call for an existing topic is not an error.
		kafka.createTopics(Map.of(topic, 2));

		produce(kafka.bootstrapServers(), topic, "before-restart");
		assertEquals(List.of("before-restart"), consumeAll(kafka.bootstrapServers(), topic, 1));

		String bootstrapServers = kafka.bootstrapServers();
		kafka.stop();
		assertFalse(kafka.isRunning());
		kafka.start();
		assertTrue(kafka.isRunning());
		assertEquals(bootstrapServers, kafka.bootstrapServers());

		produce(kafka.bootstrapServers(), topic, "after-restart");
		List<String> values = consumeAll(kafka.bootstrapServers(), topic, 2);
		assertEquals(2, values.size());
		assertTrue(values.containsAll(List.of("before-restart", "after-restart")), values::toString);
	}

	private HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	private static void produce(String bootstrapServers, String topic, String value) throws Exception {
		Properties properties = new Properties();
		properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
		properties.put(ProducerConfig.ACKS_CONFIG, "all");
		try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties, new StringSerializer(),
				new StringSerializer())) {
			producer.send(new ProducerRecord<>(topic, "drive-1", value)).get();
		}
	}

	/**
	 * A fresh consumer group from the earliest offset, polled until the expected count
	 * arrives.
	 */
	private static List<String> consumeAll(String bootstrapServers, String topic, int expectedCount) {
		Properties properties = new Properties();
		properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
		properties.put(ConsumerConfig.GROUP_ID_CONFIG, "harness-test-" + UUID.randomUUID());
		properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
		List<String> values = new ArrayList<>();
		try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(properties, new StringDeserializer(),
				new StringDeserializer())) {
			consumer.subscribe(List.of(topic));
			long deadlineNanos = System.nanoTime() + CONSUME_TIMEOUT.toNanos();
			while (values.size() < expectedCount && System.nanoTime() < deadlineNanos) {
				for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
					values.add(record.value());
				}
			}
		}
		return values;
	}

}
