/*
 * Elasticsearch goes away mid-job: ingest pauses (the batch is retried with backoff, its offsets
 * not committed) and catches up when the node is back; every sample is there exactly once.
 */
package io.drivequal.service.ingest;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import io.drivequal.harness.RealInfrastructure;
import io.drivequal.service.it.ConsumerGroups;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@SpringBootTest
class ElasticsearchOutageIT {

	@Autowired
	private ElasticsearchClient elasticsearch;

	@Autowired
	private KafkaTemplate<String, byte[]> kafka;

	@DynamicPropertySource
	static void infrastructure(DynamicPropertyRegistry registry) {
		registry.add("spring.kafka.bootstrap-servers", () -> RealInfrastructure.shared().kafkaBootstrapServers());
		registry.add("drivequal.elasticsearch.url", () -> RealInfrastructure.shared().elasticsearchUrl());
	}

	@Test
	void samplesProducedWhileElasticsearchIsDownAreAllIndexedOnceItIsBack() throws Exception {
		RealInfrastructure infrastructure = RealInfrastructure.shared();
		String jobId = "outage-" + UUID.randomUUID().toString().substring(0, 8);
		produce(jobId, 1, 100);
		await().atMost(Duration.ofSeconds(60)).until(() -> count(jobId) == 100);

		infrastructure.elasticsearch().stop();
		try {
			produce(jobId, 101, 300);
			// Long enough for several failed bulk attempts and backoff rounds.
			Thread.sleep(15_000);
		}
		finally {
			infrastructure.elasticsearch().start();
		}

		try (Admin admin = Admin
			.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, infrastructure.kafkaBootstrapServers()))) {
			ConsumerGroups.awaitCommittedToTheEnd(admin, "drivequal-service-samples", "drivequal.samples",
					Duration.ofSeconds(180));
		}
		assertThat(count(jobId)).isEqualTo(300);
	}

	private void produce(String jobId, int fromT, int toT) throws Exception {
		for (int t = fromT; t <= toT; t++) {
			String sample = "{\"schemaVersion\":1,\"jobId\":\"" + jobId
					+ "\",\"runnerId\":\"r\",\"deviceSerial\":\"SIM-O\","
					+ "\"phaseIndex\":2,\"phaseName\":\"randwrite-4k-qd32\",\"t\":" + t + ",\"timeMs\":"
					+ (1795381200000L + t * 1000L) + ",\"read\":{\"ios\":0,\"bytes\":0},\"write\":{\"ios\":1000,"
					+ "\"bytes\":4096000,\"latencyNs\":{\"p50\":1,\"p99\":2,\"p999\":3,\"max\":4}}}";
			this.kafka.send(new ProducerRecord<>("drivequal.samples", jobId, sample.getBytes(StandardCharsets.UTF_8)));
		}
		this.kafka.flush();
	}

	private long count(String jobId) throws Exception {
		this.elasticsearch.indices().refresh((refresh) -> refresh.index("drivequal-samples-*"));
		return this.elasticsearch
			.count((count) -> count.index("drivequal-samples-*")
				.query((q) -> q.term((term) -> term.field("jobId").value(jobId))))
			.count();
	}

}
