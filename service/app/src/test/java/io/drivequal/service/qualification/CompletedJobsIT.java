/*
 * Two replicas may analyse the same finished job at the same moment, and both merge the same
 * figures into the job's phase results. On a real Elasticsearch node, many such updates of one
 * document at once must all succeed: the race is expected, and losing it is not an error.
 */
package io.drivequal.service.qualification;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.Refresh;
import io.drivequal.service.ingest.PhaseResult;
import io.drivequal.service.it.WithRealInfrastructure;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

@WithRealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class CompletedJobsIT {

	private static final int WRITERS = 8;

	private static final int ROUNDS = 25;

	@Autowired
	private CompletedJobs jobs;

	@Autowired
	private ElasticsearchClient client;

	@Test
	void figuresMergedIntoOnePhaseResultByManyWritersAtOnceAreAllStored() throws Exception {
		String jobId = "race-" + UUID.randomUUID();
		this.client.index((index) -> index.index(PhaseResult.INDEX)
			.id(jobId + "/0")
			.document(Map.of("jobId", jobId, "phaseIndex", 0, "phaseName", "randwrite-4k-qd32"))
			.refresh(Refresh.True));
		CyclicBarrier together = new CyclicBarrier(WRITERS);
		ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
		List<String> refusals = new ArrayList<>();
		try {
			List<Future<List<String>>> writers = new ArrayList<>();
			for (int w = 0; w < WRITERS; w++) {
				writers.add(pool.submit(() -> {
					List<String> refused = new ArrayList<>();
					for (int round = 0; round < ROUNDS; round++) {
						together.await();
						Optional<String> refusal = this.jobs.recordPhaseFigures(jobId,
								Map.of(0, Map.of("driveModel", "DQSIM Test Enterprise 8GB", "firmware", "SIM0100")));
						refusal.ifPresent(refused::add);
					}
					return refused;
				}));
			}
			for (Future<List<String>> writer : writers) {
				refusals.addAll(writer.get());
			}
		}
		finally {
			pool.shutdownNow();
		}
		assertThat(refusals).as("updates refused").isEmpty();
		@SuppressWarnings("unchecked")
		Map<String, Object> stored = this.client.get((get) -> get.index(PhaseResult.INDEX).id(jobId + "/0"), Map.class)
			.source();
		assertThat(stored).containsEntry("driveModel", "DQSIM Test Enterprise 8GB")
			.containsEntry("firmware", "SIM0100")
			.containsEntry("phaseName", "randwrite-4k-qd32");
	}

}
