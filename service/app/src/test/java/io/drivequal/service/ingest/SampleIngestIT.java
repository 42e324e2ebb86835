/*
 * The first thread through the system, on real processes: the C runner produces samples to a real
 * Kafka broker, the service indexes them into a real Elasticsearch node, and producing the same
 * samples twice leaves exactly one document per (job, phase, second). A simulated clock's stamps
 * (wallMs, clockRateMilli) are indexed and read back as the running phase's clock for its ETA.
 */
package io.drivequal.service.ingest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch.core.GetResponse;
import io.drivequal.harness.RealInfrastructure;
import io.drivequal.service.it.ConsumerGroups;
import io.drivequal.service.it.RunnerReplay;
import io.drivequal.service.it.WithRealInfrastructure;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.kafka.core.KafkaTemplate;

import static org.assertj.core.api.Assertions.assertThat;

@WithRealInfrastructure
@SpringBootTest
class SampleIngestIT {

	private static final String SAMPLES_TOPIC = "drivequal.samples";

	private static final String GROUP = "drivequal-service-samples";

	private static RealInfrastructure infrastructure;

	private static Admin admin;

	@Autowired
	private ElasticsearchClient elasticsearch;

	@Autowired
	private KafkaTemplate<String, byte[]> kafka;

	@Autowired
	private SampleQueries queries;

	@BeforeAll
	static void startInfrastructure() {
		infrastructure = RealInfrastructure.shared();
		admin = Admin
			.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, infrastructure.kafkaBootstrapServers()));
	}

	@AfterAll
	static void closeAdmin() {
		admin.close();
	}

	@Test
	void samplesFromTheCRunnerAreIndexedOnceEvenWhenProducedTwice(@TempDir Path dir) throws Exception {
		String jobId = "it-" + UUID.randomUUID().toString().substring(0, 8);
		int seconds = 5;
		Path file = dir.resolve("samples.jsonl");
		Files.write(file, sampleLines(jobId, seconds), StandardCharsets.UTF_8);

		assertThat(RunnerReplay.replay(file)).contains("\"delivered\":" + seconds);
		assertThat(RunnerReplay.replay(file)).contains("\"delivered\":" + seconds);

		awaitConsumedAndCommitted(ConsumerGroups.endOffsets(admin, SAMPLES_TOPIC));
		assertThat(countSamples(jobId)).isEqualTo(seconds);

		GetResponse<Map> third = this.elasticsearch
			.get((get) -> get.index("drivequal-samples-2026.11").id(jobId + "/2/3"), Map.class);
		assertThat(third.found()).isTrue();
		Map<?, ?> write = (Map<?, ?>) third.source().get("write");
		assertThat(((Number) write.get("iops")).longValue()).isEqualTo(300003);
		assertThat(((Number) third.source().get("t")).intValue()).isEqualTo(3);
	}

	@Test
	void aSimulatedClocksLastStampIsWhatThePhaseMeasures(@TempDir Path dir) throws Exception {
		String jobId = "it-" + UUID.randomUUID().toString().substring(0, 8);
		List<String> lines = new ArrayList<>();
		for (String line : sampleLines(jobId, 5)) {
			int t = lines.size() + 1;
			// the clock speeds up: 100 x, 200 x, ... 500 x; second t left at wall second
			// t
			lines.add(line.substring(0, line.length() - 1) + ",\"wallMs\":" + (1795300000000L + t * 1000L)
					+ ",\"clockRateMilli\":" + (t * 100_000) + "}");
		}
		Path file = dir.resolve("samples.jsonl");
		Files.write(file, lines, StandardCharsets.UTF_8);
		assertThat(RunnerReplay.replay(file)).contains("\"delivered\":5");

		awaitConsumedAndCommitted(ConsumerGroups.endOffsets(admin, SAMPLES_TOPIC));
		assertThat(countSamples(jobId)).isEqualTo(5);
		PhaseMeasurement measured = this.queries.measure(Map.of(jobId, 2)).get(jobId);
		assertThat(measured.latestT()).isEqualTo(5);
		assertThat(measured.clock()).isEqualTo(new PhaseMeasurement.SimulatedClock(1795300005000L, 500.0));
		// the spread of its seconds' rates, 100 x to 500 x, by the index's percentiles
		assertThat(measured.clockSpread().p5()).isBetween(100.0, 200.0);
		assertThat(measured.clockSpread().p95()).isBetween(400.0, 500.0);

		// A wall clock's samples carry no stamp: no simulated clock.
		String realJob = "it-" + UUID.randomUUID().toString().substring(0, 8);
		Path real = dir.resolve("real.jsonl");
		Files.write(real, sampleLines(realJob, 2), StandardCharsets.UTF_8);
		assertThat(RunnerReplay.replay(real)).contains("\"delivered\":2");
		awaitConsumedAndCommitted(ConsumerGroups.endOffsets(admin, SAMPLES_TOPIC));
		assertThat(countSamples(realJob)).isEqualTo(2);
		assertThat(this.queries.measure(Map.of(realJob, 2)).get(realJob).clock()).isNull();
		assertThat(this.queries.measure(Map.of(realJob, 2)).get(realJob).clockSpread()).isNull();
	}

	@Test
	void poisonGoesToDeadLettersWithItsReasonAndIngestGoesOn() throws Exception {
		String jobId = "it-" + UUID.randomUUID().toString().substring(0, 8);
		byte[] garbage = "\u0000not json at all".getBytes(StandardCharsets.UTF_8);
		byte[] wrongSchema = "{\"schemaVersion\":1,\"jobId\":\"x\"}".getBytes(StandardCharsets.UTF_8);
		byte[] good = sampleLines(jobId, 1).get(0).getBytes(StandardCharsets.UTF_8);
		this.kafka.send(new ProducerRecord<>(SAMPLES_TOPIC, jobId, garbage)).get(30, TimeUnit.SECONDS);
		this.kafka.send(new ProducerRecord<>(SAMPLES_TOPIC, jobId, wrongSchema)).get(30, TimeUnit.SECONDS);
		this.kafka.send(new ProducerRecord<>(SAMPLES_TOPIC, jobId, good)).get(30, TimeUnit.SECONDS);

		awaitConsumedAndCommitted(ConsumerGroups.endOffsets(admin, SAMPLES_TOPIC));
		assertThat(countSamples(jobId)).isEqualTo(1);

		List<ConsumerRecord<String, byte[]>> dead = deadLettersFor(jobId, 2);
		assertThat(dead).hasSize(2);
		assertThat(header(dead.get(0), "kafka_dlt-exception-message")).contains("not JSON");
		assertThat(header(dead.get(1), "kafka_dlt-exception-message")).contains("violates schema");
		assertThat(dead.get(0).value()).isEqualTo(garbage);
	}

	/** Lines in the canonical form of schemas/examples/sample/valid, one per second. */
	private static List<String> sampleLines(String jobId, int seconds) {
		List<String> lines = new ArrayList<>();
		for (int t = 1; t <= seconds; t++) {
			long ios = 300000 + t;
			lines.add("{\"schemaVersion\":1,\"jobId\":\"" + jobId + "\",\"runnerId\":\"it-runner\","
					+ "\"deviceSerial\":\"SIM-IT-0001\",\"phaseIndex\":2,\"phaseName\":\"randwrite-4k-qd32\",\"t\":" + t
					+ ",\"timeMs\":" + (1795381200000L + t * 1000L) + ",\"read\":{\"ios\":0,\"bytes\":0},"
					+ "\"write\":{\"ios\":" + ios + ",\"bytes\":" + ios * 4096
					+ ",\"latencyNs\":{\"p50\":72191,\"p99\":158719,\"p999\":342015,\"max\":1201151}}}");
		}
		return lines;
	}

	/**
	 * Everything on the topic at {@code ends} (this test's records and any before them)
	 * was consumed, indexed and committed; records other tests produce later are not
	 * waited for.
	 */
	private static void awaitConsumedAndCommitted(Map<TopicPartition, Long> ends) {
		ConsumerGroups.awaitCommittedPast(admin, GROUP, ends, Duration.ofSeconds(120));
	}

	private long countSamples(String jobId) throws IOException {
		this.elasticsearch.indices().refresh((refresh) -> refresh.index("drivequal-samples-*"));
		return this.elasticsearch
			.count((count) -> count.index("drivequal-samples-*")
				.query((q) -> q.term((t) -> t.field("jobId").value(jobId))))
			.count();
	}

	private static List<ConsumerRecord<String, byte[]>> deadLettersFor(String jobId, int expected) {
		Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
				infrastructure.kafkaBootstrapServers(), ConsumerConfig.GROUP_ID_CONFIG, "it-" + UUID.randomUUID(),
				ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
		List<ConsumerRecord<String, byte[]>> found = new ArrayList<>();
		try (Consumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
				new ByteArrayDeserializer())) {
			consumer.subscribe(List.of("drivequal.dead-letters"));
			long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
			while (found.size() < expected && System.nanoTime() < deadline) {
				for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(500))) {
					if (jobId.equals(record.key())) {
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

}
