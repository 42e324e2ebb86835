/*
 * The analysis reads a finished job's phase results and SMART snapshots through the modules that
 * own their indices (ingest's PhaseResultQueries, qualification's CompletedJobs). On a real
 * Elasticsearch node: written through their records and not refreshed by the writer, they are read
 * back typed after the owners' refreshes, only the asked job's, and of the events only the SMART
 * snapshots.
 */
package io.drivequal.service.qualification;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch.core.BulkResponse;
import co.elastic.clients.elasticsearch.core.bulk.BulkOperation;
import io.drivequal.service.ingest.PhaseResult;
import io.drivequal.service.ingest.PhaseResultQueries;
import io.drivequal.service.it.WithRealInfrastructure;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

@WithRealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class StoredDocumentQueriesIT {

	@Autowired
	private CompletedJobs jobs;

	@Autowired
	private PhaseResultQueries results;

	@Autowired
	private ElasticsearchClient client;

	@Test
	void phaseResultsAndSmartSnapshotsAreReadBackTypedForTheirJobOnly() throws Exception {
		String jobId = "stored-" + UUID.randomUUID();
		String otherJobId = "stored-other-" + UUID.randomUUID();
		BulkResponse written = this.client
			.bulk((bulk) -> bulk.operations(List.of(result(jobId, 0, "fill", 32_768).indexOperation(),
					result(jobId, 2, "randwrite", 4_096).indexOperation(),
					result(otherJobId, 1, "randwrite", 8_192).indexOperation(), smart(jobId, 1, 2, "before", 1_000L),
					smart(jobId, 2, 2, "after", 1_600L), smart(otherJobId, 1, 1, "before", 9_999L),
					event(jobId, 3, "phase-started", 2))));
		assertThat(written.errors()).as("bulk errors").isFalse();

		this.results.refresh();
		this.jobs.refreshEvents();

		Map<Integer, PhaseResult> byPhase = this.results.byPhase(jobId);
		assertThat(byPhase).containsOnlyKeys(0, 2);
		assertThat(byPhase.get(0).phaseName()).isEqualTo("fill");
		assertThat(byPhase.get(2).write().bytes()).isEqualTo(4_096L);
		assertThat(byPhase.get(2).jobId()).isEqualTo(jobId);

		Map<Integer, Map<String, SmartSnapshot>> smart = this.jobs.smartSnapshots(jobId);
		assertThat(smart).containsOnlyKeys(2);
		assertThat(smart.get(2)).containsOnlyKeys("before", "after");
		assertThat(smart.get(2).get("before").dataUnitsWritten()).isEqualTo(1_000L);
		assertThat(smart.get(2).get("after").dataUnitsWritten()).isEqualTo(1_600L);
		assertThat(smart.get(2).get("after").physicalMediaUnitsWrittenBytes()).isEqualTo(1_600L * 512_000 * 3);

		assertThat(this.results.byPhase("stored-none-" + UUID.randomUUID())).isEmpty();
		assertThat(this.jobs.smartSnapshots("stored-none-" + UUID.randomUUID())).isEmpty();
	}

	private static PhaseResult result(String jobId, int phaseIndex, String phaseName, long bytesWritten) {
		return new PhaseResult("2026-11-29T09:00:00Z", jobId, "runner-stored", null, phaseIndex, phaseName, "workload",
				60_000_000_000L, 60, new PhaseResult.DirectionTotals(0, 0),
				new PhaseResult.DirectionTotals(bytesWritten / 4096, bytesWritten), null, null, null, null, null, null,
				null, null, null, null);
	}

	private static BulkOperation smart(String jobId, long seq, int phaseIndex, String when, long dataUnitsWritten) {
		Map<String, Object> snapshot = Map.of("available", true, "source", "simulated", "dataUnitsWritten",
				dataUnitsWritten, "ocp", Map.of("physicalMediaUnitsWrittenBytes", dataUnitsWritten * 512_000 * 3));
		return event(jobId, seq, JobEventDocument.SMART_SNAPSHOT, phaseIndex, Map.of("type",
				JobEventDocument.SMART_SNAPSHOT, "phaseIndex", phaseIndex, "when", when, "smart", snapshot));
	}

	private static BulkOperation event(String jobId, long seq, String type, int phaseIndex) {
		return event(jobId, seq, type, phaseIndex, Map.of("type", type, "phaseIndex", phaseIndex));
	}

	private static BulkOperation event(String jobId, long seq, String type, int phaseIndex,
			Map<String, Object> payload) {
		return new JobEventDocument<>("2026-11-29T09:00:0" + seq + "Z", jobId + ":" + seq, type, jobId, "runner-stored",
				seq, phaseIndex, null, null, payload)
			.indexOperation();
	}

}
