/*
 * How a runner's event moves a job (docs/architecture.md, "Job lifecycle"). Pure, so the state
 * machine is tested without infrastructure; idempotent, so a redelivered event changes nothing.
 */
package io.drivequal.service.qualification;

import java.time.Instant;
import java.util.Optional;

import tools.jackson.databind.JsonNode;

final class EventTransitions {

	private EventTransitions() {
	}

	/** The job after {@code event}, or empty when the event does not change it. */
	static Optional<Job> apply(Job job, JsonNode event, Instant now) {
		String type = event.path("type").asString();
		Instant time = Instant.parse(event.path("time").asString());
		if (job.state().isFinal()) {
			return Optional.empty();
		}
		return switch (type) {
			case "accepted" ->
				(job.state() != JobState.DISPATCHED) ? Optional.empty() : Optional.of(job.edit((draft) -> {
					JsonNode device = event.path("device");
					draft.state = JobState.RUNNING;
					draft.startedAt = time;
					draft.driveModel = device.path("model").asString();
					draft.firmware = device.path("firmware").asString();
					draft.capacityBytes = device.path("capacityBytes").asLong();
					draft.lbaSizeBytes = device.path("lbaSizeBytes").asInt();
					draft.updatedAt = now;
				}));
			case "phase-started" ->
				(job.state() != JobState.RUNNING) ? Optional.empty() : Optional.of(job.edit((draft) -> {
					draft.currentPhaseIndex = event.path("phaseIndex").asInt();
					draft.updatedAt = now;
				}));
			case "completed" -> end(job, JobState.COMPLETED, null, null, time, now);
			case "failed" ->
				end(job, JobState.FAILED, event.path("reason").asString(), event.path("message").asString(), time, now);
			case "refused" -> end(job, JobState.FAILED, "refused:" + event.path("reason").asString(),
					event.path("message").asString(), time, now);
			case "cancelled" -> end(job, JobState.CANCELLED, null,
					event.path("message").asString("cancelled by the runner"), time, now);
			default -> Optional.empty();
		};
	}

	private static Optional<Job> end(Job job, JobState state, String reason, String message, Instant time,
			Instant now) {
		if (!job.state().holdsDrive()) {
			return Optional.empty();
		}
		return Optional.of(job.edit((draft) -> {
			draft.state = state;
			draft.failureReason = reason;
			if (message != null) {
				draft.message = message;
			}
			draft.endedAt = time;
			draft.updatedAt = now;
		}));
	}

}
