/*
 * The jobs store's batch update on a real Elasticsearch node: a batch of events moves many jobs in
 * one read and one write, yet must behave as if every step had been written alone: each state
 * change announced in order, a job changed by someone else in between redone on its current
 * version (never overwritten), and a job that is not there reported, not invented.
 */
package io.drivequal.service.qualification;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import io.drivequal.service.it.WithRealInfrastructure;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.event.ApplicationEvents;
import org.springframework.test.context.event.RecordApplicationEvents;

import static org.assertj.core.api.Assertions.assertThat;

@WithRealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@RecordApplicationEvents
class JobStoreIT {

	@Autowired
	private JobStore store;

	@Autowired
	private ApplicationEvents events;

	@Test
	void aBatchMovesEachJobThroughEveryStepInOneWriteAndAnnouncesEachStep() {
		List<String> jobIds = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			Job job = dispatchedJob();
			assertThat(this.store.create(job)).isTrue();
			jobIds.add(job.jobId());
		}
		String unknown = Job.newId();
		Map<String, List<Function<Job, Optional<Job>>>> changes = new LinkedHashMap<>();
		for (String jobId : jobIds) {
			changes.put(jobId, List.of(to(JobState.RUNNING), (job) -> Optional.empty(), to(JobState.FAILED)));
		}
		changes.put(unknown, List.of(to(JobState.RUNNING)));
		this.events.clear();

		JobStore.Updates updates = this.store.updateAll(changes);

		assertThat(updates.missing()).containsExactly(unknown);
		assertThat(updates.written()).containsOnlyKeys(jobIds);
		for (String jobId : jobIds) {
			assertThat(updates.written().get(jobId).state()).isEqualTo(JobState.FAILED);
			assertThat(this.store.find(jobId).orElseThrow().state()).isEqualTo(JobState.FAILED);
			assertThat(announced(jobId)).containsExactly("DISPATCHED->RUNNING", "RUNNING->FAILED");
		}
	}

	@Test
	void aJobChangedByAnotherWriterInBetweenIsRedoneOnItsCurrentVersion() {
		Job job = dispatchedJob();
		assertThat(this.store.create(job)).isTrue();
		List<String> seen = new ArrayList<>();
		Function<Job, Optional<Job>> toFailed = (current) -> {
			seen.add(current.state() + "/" + current.message());
			if (seen.size() == 1) {
				// Another replica changes the job after the batch read it, before the
				// batch
				// writes: the batch's compare-and-set must lose and redo its step.
				this.store.update(current.jobId(),
						(other) -> Optional.of(other.edit((draft) -> draft.message = "changed meanwhile")));
			}
			return (current.state() == JobState.DISPATCHED)
					? Optional.of(current.edit((draft) -> draft.state = JobState.FAILED)) : Optional.empty();
		};
		this.events.clear();

		JobStore.Updates updates = this.store.updateAll(Map.of(job.jobId(), List.of(toFailed)));

		assertThat(seen).containsExactly("DISPATCHED/null", "DISPATCHED/changed meanwhile");
		Job stored = this.store.find(job.jobId()).orElseThrow();
		assertThat(stored.state()).isEqualTo(JobState.FAILED);
		assertThat(stored.message()).as("the other writer's change survives").isEqualTo("changed meanwhile");
		assertThat(updates.written().get(job.jobId())).isEqualTo(stored);
		assertThat(announced(job.jobId())).containsExactly("DISPATCHED->FAILED");
	}

	private List<String> announced(String jobId) {
		return this.events.stream(QualificationChanged.class)
			.filter((change) -> change.jobId().equals(jobId))
			.map((change) -> change.previousState() + "->" + change.state())
			.toList();
	}

	private static Function<Job, Optional<Job>> to(JobState state) {
		return (job) -> Optional.of(job.edit((draft) -> draft.state = state));
	}

	private static Job dispatchedJob() {
		Instant now = Instant.now();
		return new Job.Draft().build().edit((draft) -> {
			draft.jobId = Job.newId();
			draft.state = JobState.DISPATCHED;
			draft.submitter = "alice";
			draft.deviceSerial = "STORE-IT-" + draft.jobId;
			draft.queuedAt = now;
			draft.dispatchedAt = now;
			draft.updatedAt = now;
			draft.plan = List.of();
		});
	}

}
