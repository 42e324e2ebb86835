/*
 * Poison on every consumed topic, on the real broker: garbage, a message that breaks its schema
 * and an oversized one. The service's three consumers dead-letter each with its reason (an
 * oversized value cut to its first 64 KB) and keep consuming; a 10 MB message never gets that far,
 * because the broker refuses it at produce time (topics accept 4 MB). The runner, the consumer of
 * the command topic, answers a broken command with a refused event and still runs the next job.
 */
package io.drivequal.service.platform;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import io.drivequal.harness.RealInfrastructure;
import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.FaultFigures;
import io.drivequal.service.it.RunnerAgents;
import io.drivequal.service.it.RunnerStandIn;
import io.drivequal.service.it.WithRealInfrastructure;
import io.drivequal.service.qualification.JobEventDocument;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

@WithRealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class PoisonMessagesIT {

	/**
	 * Over every consumer's size limit, under the topics' 4 MB: reaches the consumers.
	 */
	private static final int OVERSIZED_BYTES = 3_500_000;

	/** The 10 MB: over the topics' max.message.bytes. */
	private static final int TEN_MB = 10 * 1024 * 1024;

	private static KafkaProducer<String, byte[]> producer;

	@LocalServerPort
	private int port;

	@Autowired
	private ElasticsearchClient elasticsearch;

	@BeforeAll
	static void producer() {
		// The client's own limit is raised so that the broker, not the client, judges
		// size.
		producer = new KafkaProducer<>(
				Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, RealInfrastructure.shared().kafkaBootstrapServers(),
						ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 16 * 1024 * 1024,
						ProducerConfig.BUFFER_MEMORY_CONFIG, 64L * 1024 * 1024, ProducerConfig.RETRIES_CONFIG, 0),
				new StringSerializer(), new ByteArraySerializer());
	}

	@AfterAll
	static void close() {
		producer.close(Duration.ofSeconds(5));
	}

	@Test
	void everyServiceConsumerDeadLettersEachKindOfPoisonWithItsReasonAndKeepsGoing() throws Exception {
		String id = "poison-" + UUID.randomUUID().toString().substring(0, 8);
		Map<String, Object> results = new LinkedHashMap<>();
		List<String> topics = List.of("drivequal.samples", "drivequal.job-events", "drivequal.runner-heartbeats");
		for (String topic : topics) {
			String key = id + "-" + topic.substring("drivequal.".length());
			send(topic, key, "\u0000garbage, not JSON".getBytes(StandardCharsets.UTF_8));
			send(topic, key, ("{\"schemaVersion\":1,\"jobId\":\"" + key + "\",\"runnerId\":\"" + key + "\"}")
				.getBytes(StandardCharsets.UTF_8));
			byte[] oversized = new byte[OVERSIZED_BYTES];
			Arrays.fill(oversized, (byte) ' ');
			oversized[0] = '{';
			oversized[oversized.length - 1] = '}';
			send(topic, key, oversized);
			assertThatThrownBy(() -> send(topic, key, new byte[TEN_MB])).as("the broker refuses 10 MB on " + topic)
				.isInstanceOf(ExecutionException.class)
				.hasCauseInstanceOf(RecordTooLargeException.class);
		}

		// Good messages behind the poison: each consumer must get to them.
		String serial = id + "-drive";
		String eventsKey = id + "-job-events";
		String samplesKey = id + "-samples";
		try (RunnerStandIn runner = new RunnerStandIn(RealInfrastructure.shared().kafkaBootstrapServers(),
				id + "-runner-heartbeats")) {
			runner.heartbeat(List.of(serial));
			runner.accepted(eventsKey, serial, 1);
			runner.samples(samplesKey, serial, 0, "randwrite", 3);
		}
		await().atMost(Duration.ofSeconds(60))
			.until(() -> api().get("viewer", "/api/v1/drives/" + serial).status() == 200);
		await().atMost(Duration.ofSeconds(60))
			.until(() -> this.elasticsearch.exists((e) -> e.index(JobEventDocument.INDEX).id(eventsKey + ":0"))
				.value());
		await().atMost(Duration.ofSeconds(60)).until(() -> countSamples(samplesKey) == 3);

		for (String topic : topics) {
			String key = id + "-" + topic.substring("drivequal.".length());
			List<ConsumerRecord<String, byte[]>> letters = records("drivequal.dead-letters", key, 3);
			assertThat(letters).as("dead letters of " + topic).hasSize(3);
			for (ConsumerRecord<String, byte[]> letter : letters) {
				assertThat(header(letter, "kafka_dlt-original-topic")).isEqualTo(topic);
			}
			String garbage = header(letters.get(0), "kafka_dlt-exception-message");
			String schema = header(letters.get(1), "kafka_dlt-exception-message");
			String oversized = header(letters.get(2), "kafka_dlt-exception-message");
			assertThat(garbage).contains("not JSON");
			assertThat(schema).contains("violates schema");
			assertThat(oversized).contains("3500000 bytes exceeds");
			assertThat(letters.get(2).value()).hasSize(KafkaErrorHandlingConfiguration.MAX_DEAD_LETTER_VALUE_BYTES);
			assertThat(header(letters.get(2), KafkaErrorHandlingConfiguration.ORIGINAL_SIZE_HEADER))
				.isEqualTo("3500000");
			Map<String, Object> row = new LinkedHashMap<>();
			row.put("garbage", "dead-lettered: " + shorten(garbage));
			row.put("wrongSchema", "dead-lettered: " + shorten(schema));
			row.put("oversized3.5MB", "dead-lettered (value cut to 64 KB): " + shorten(oversized));
			row.put("tenMB", "refused by the broker at produce time (RecordTooLargeException)");
			row.put("consumerKeptGoing", true);
			results.put(topic, row);
		}
		FaultFigures figures = FaultFigures.item("5", "Poison messages").put("topics", results);
		figures.put("passed", true).write();
	}

	@Test
	void theRunnerRefusesBrokenCommandsWithAReasonAndRunsTheNextJob() throws Exception {
		String runnerId = "poison-agent-" + UUID.randomUUID().toString().substring(0, 8);
		String brokers = RealInfrastructure.shared().kafkaBootstrapServers();
		Process agent = RunnerAgents.start(runnerId, brokers, List.of("null:1g"));
		try {
			String serial = api().awaitDriveSerial(runnerId);
			String badJob = runnerId + "-bad";
			send("drivequal.runner-commands", runnerId, "\u0000garbage".getBytes(StandardCharsets.UTF_8));
			send("drivequal.runner-commands", runnerId,
					("{\"schemaVersion\":1,\"type\":\"start\",\"jobId\":\"" + badJob + "\"}")
						.getBytes(StandardCharsets.UTF_8));
			assertThatThrownBy(() -> send("drivequal.runner-commands", runnerId, new byte[TEN_MB]))
				.isInstanceOf(ExecutionException.class)
				.hasCauseInstanceOf(RecordTooLargeException.class);

			List<ConsumerRecord<String, byte[]>> refused = records("drivequal.job-events", badJob, 1);
			assertThat(refused).hasSize(1);
			String event = new String(refused.get(0).value(), StandardCharsets.UTF_8);
			assertThat(event).contains("\"type\":\"refused\"").contains("\"reason\":\"invalid-command\"");

			ApiClient.Response submitted = api().post("alice", "/api/v1/qualifications", """
					{"drive":{"serial":"%s","runnerId":"%s"},
					 "plan":{"phases":[{"name":"randwrite","kind":"workload","rw":"randwrite","blockSizeBytes":4096,
					                    "queueDepth":8,"rangePercent":100,"runtimeS":2}]}}
					""".formatted(serial, runnerId));
			assertThat(submitted.status()).as(String.valueOf(submitted.body())).isEqualTo(201);
			String jobId = submitted.body().get("id").asString();
			await().atMost(Duration.ofSeconds(90))
				.pollInterval(Duration.ofMillis(500))
				.until(() -> "COMPLETED"
					.equals(api().get("viewer", "/api/v1/qualifications/" + jobId).body().path("state").asString()));
			FaultFigures.item("5b", "Poison commands at the runner")
				.put("topic", "drivequal.runner-commands")
				.put("garbage", "skipped with a log line (no jobId to answer)")
				.put("wrongSchema", "refused event: " + shorten(event))
				.put("tenMB", "refused by the broker at produce time (RecordTooLargeException)")
				.put("nextJob", "COMPLETED")
				.put("passed", true)
				.write();
		}
		finally {
			agent.destroy();
			agent.waitFor(30, TimeUnit.SECONDS);
		}
	}

	private static void send(String topic, String key, byte[] value) throws Exception {
		producer.send(new ProducerRecord<>(topic, key, value)).get(30, TimeUnit.SECONDS);
	}

	private long countSamples(String jobId) throws Exception {
		this.elasticsearch.indices().refresh((refresh) -> refresh.index("drivequal-samples-*"));
		return this.elasticsearch
			.count((count) -> count.index("drivequal-samples-*")
				.query((q) -> q.term((t) -> t.field("jobId").value(jobId))))
			.count();
	}

	/**
	 * Records of {@code topic} with {@code key}, in order, waiting up to 60 s for them.
	 */
	private static List<ConsumerRecord<String, byte[]>> records(String topic, String key, int expected) {
		Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
				RealInfrastructure.shared().kafkaBootstrapServers(), ConsumerConfig.GROUP_ID_CONFIG,
				"poison-it-" + UUID.randomUUID(), ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
		List<ConsumerRecord<String, byte[]>> found = new ArrayList<>();
		try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
				new ByteArrayDeserializer())) {
			consumer.subscribe(List.of(topic));
			long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
			while (found.size() < expected && System.nanoTime() < deadline) {
				for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(500))) {
					if (key.equals(record.key())) {
						found.add(record);
					}
				}
			}
		}
		return found;
	}

	private static String header(ConsumerRecord<String, byte[]> record, String name) {
		Header header = record.headers().lastHeader(name);
		return (header != null) ? new String(header.value(), StandardCharsets.UTF_8) : "";
	}

	/** The end of a reason: the wrapping listener exception puts the cause last. */
	private static String shorten(String text) {
		return (text.length() > 160) ? "..." + text.substring(text.length() - 160) : text;
	}

	private ApiClient api() {
		return new ApiClient("http://127.0.0.1:" + this.port);
	}

}
