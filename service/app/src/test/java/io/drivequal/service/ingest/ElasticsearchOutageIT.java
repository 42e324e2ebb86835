/*
 * Elasticsearch goes away mid-job: ingest pauses (the batch is retried with backoff, its offsets
 * not committed) and catches up when the node is back; every sample is there exactly once. The
 * job keeps streaming one sample per 100 ms for the whole outage, which lasts 15 s in mvn verify
 * and the 60 s in the fault suite (drivequal.fault.esOutageS).
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
import io.drivequal.service.it.FaultFigures;
import io.drivequal.service.it.WithRealInfrastructure;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.kafka.core.KafkaTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@WithRealInfrastructure
@SpringBootTest
class ElasticsearchOutageIT {

	@Autowired
	private ElasticsearchClient elasticsearch;

	@Autowired
	private KafkaTemplate<String, byte[]> kafka;

	@Test
	void samplesProducedWhileElasticsearchIsDownAreAllIndexedOnceItIsBack() throws Exception {
		RealInfrastructure infrastructure = RealInfrastructure.shared();
		String jobId = "outage-" + UUID.randomUUID().toString().substring(0, 8);
		int outageS = Integer.getInteger("drivequal.fault.esOutageS", 15);
		produce(jobId, 1, 100);
		await().atMost(Duration.ofSeconds(60)).until(() -> count(jobId) == 100);

		infrastructure.elasticsearch().stop();
		long stoppedAt = System.nanoTime();
		int t = 100;
		try {
			// The job goes on: a sample every 100 ms while the node is away.
			while (System.nanoTime() - stoppedAt < TimeUnit.SECONDS.toNanos(outageS)) {
				t++;
				produce(jobId, t, t);
				Thread.sleep(100);
			}
		}
		finally {
			infrastructure.elasticsearch().start();
		}
		long outageMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stoppedAt);
		long backAt = System.nanoTime();
		int total = t + 100;
		produce(jobId, t + 1, total);

		try (Admin admin = Admin
			.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, infrastructure.kafkaBootstrapServers()))) {
			// Up to this job's last sample, not to the end of a topic others may go on
			// producing to.
			ConsumerGroups.awaitCommittedPast(admin, "drivequal-service-samples",
					ConsumerGroups.endOffsets(admin, "drivequal.samples"), Duration.ofSeconds(180));
		}
		long caughtUpMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - backAt);
		long indexed = count(jobId);
		FaultFigures figures = FaultFigures.item("2", "Elasticsearch stopped mid-job")
			.put("outageMs", outageMs)
			.put("samplesProduced", total)
			.put("samplesProducedDuringOutage", t - 100)
			.put("caughtUpAfterRestartMs", caughtUpMs)
			.put("samplesIndexed", indexed)
			.put("lost", total - indexed);
		assertThat(indexed).isEqualTo(total);
		figures.put("passed", true).write();
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
