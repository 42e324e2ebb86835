/*
 * The job state machine, event by event: who moves a job where, and that redelivered or late
 * events change nothing.
 */
package io.drivequal.service.qualification;

import java.time.Instant;

import io.drivequal.schemas.Contracts;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

class EventTransitionsTest {

	private static final Instant NOW = Instant.parse("2026-11-22T22:00:00Z");

	private final Contracts contracts = Contracts.load();

	private final Job dispatched = new Job.Draft().build().edit((draft) -> {
		draft.jobId = "job-0001";
		draft.state = JobState.DISPATCHED;
		draft.deviceSerial = "S6CKNE0T801234";
	});

	@Test
	void acceptedMakesADispatchedJobRunningWithTheDevicesIdentity() {
		Job running = EventTransitions.apply(this.dispatched, vector("accepted"), NOW).orElseThrow();
		assertThat(running.state()).isEqualTo(JobState.RUNNING);
		assertThat(running.driveModel()).isEqualTo("SAMSUNG MZQL23T8HCLS-00A07");
		assertThat(running.firmware()).isEqualTo("GDC5602Q");
		assertThat(running.startedAt()).isEqualTo(Instant.parse("2026-11-22T21:00:01.250Z"));
	}

	@Test
	void aRedeliveredAcceptedChangesNothing() {
		Job running = EventTransitions.apply(this.dispatched, vector("accepted"), NOW).orElseThrow();
		assertThat(EventTransitions.apply(running, vector("accepted"), NOW)).isEmpty();
	}

	@Test
	void phaseStartedTracksTheCurrentPhase() {
		Job running = this.dispatched.edit((draft) -> draft.state = JobState.RUNNING);
		assertThat(EventTransitions.apply(running, vector("phase-started"), NOW).orElseThrow().currentPhaseIndex())
			.isEqualTo(2);
	}

	@Test
	void endingEventsEndTheJobWithTheirReason() {
		Job running = this.dispatched.edit((draft) -> draft.state = JobState.RUNNING);
		assertThat(EventTransitions.apply(running, vector("completed"), NOW).orElseThrow().state())
			.isEqualTo(JobState.COMPLETED);
		Job failed = EventTransitions.apply(running, vector("failed"), NOW).orElseThrow();
		assertThat(failed.state()).isEqualTo(JobState.FAILED);
		assertThat(failed.failureReason()).isEqualTo("io-error");
		assertThat(failed.message()).contains("Input/output error");
		assertThat(EventTransitions.apply(running, vector("cancelled"), NOW).orElseThrow().state())
			.isEqualTo(JobState.CANCELLED);
	}

	@Test
	void aRefusalFailsTheJobAndSaysWhichInterlock() {
		Job refused = EventTransitions.apply(this.dispatched, vector("refused-mounted"), NOW).orElseThrow();
		assertThat(refused.state()).isEqualTo(JobState.FAILED);
		assertThat(refused.failureReason()).isEqualTo("refused:mounted");
		assertThat(refused.message()).contains("is mounted");
	}

	@Test
	void nothingMovesAFinalJob() {
		for (JobState state : JobState.values()) {
			if (!state.isFinal()) {
				continue;
			}
			Job ended = this.dispatched.edit((draft) -> draft.state = state);
			for (String event : new String[] { "accepted", "phase-started", "completed", "failed", "cancelled" }) {
				assertThat(EventTransitions.apply(ended, vector(event), NOW)).as(state + " + " + event).isEmpty();
			}
		}
	}

	@Test
	void measurementEventsDoNotChangeState() {
		Job running = this.dispatched.edit((draft) -> draft.state = JobState.RUNNING);
		assertThat(EventTransitions.apply(running, vector("phase-completed"), NOW)).isEmpty();
		assertThat(EventTransitions.apply(running, vector("smart-snapshot-ocp"), NOW)).isEmpty();
	}

	private JsonNode vector(String name) {
		return this.contracts.mapper().readTree(Contracts.resource("examples/job-event/valid/" + name + ".json"));
	}

}
