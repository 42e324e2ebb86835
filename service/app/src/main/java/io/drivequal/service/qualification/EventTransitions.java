/*
 * How a runner's event moves a job (docs/architecture.md, "Job lifecycle"). Pure, so the state
 * machine is tested without infrastructure; idempotent, so a redelivered event changes nothing.
 */
package io.drivequal.service.qualification;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
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
					int index = event.path("phaseIndex").asInt();
					draft.currentPhaseIndex = index;
					draft.phaseTimes = withPhaseTime(job, new Job.PhaseTime(index, time,
							"simulated".equals(event.path("clock").asString()), null, null));
					draft.updatedAt = now;
				}));
			case "phase-completed" -> phaseCompleted(job, event, time, now);
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

	/** The phase's end on both clocks; nothing when its start was never seen. */
	private static Optional<Job> phaseCompleted(Job job, JsonNode event, Instant time, Instant now) {
		Job.PhaseTime started = job.phaseTime(event.path("phaseIndex").asInt());
		if (job.state() != JobState.RUNNING || started == null || started.endedAt() != null) {
			return Optional.empty();
		}
		long clockMs = event.path("durationNs").asLong() / 1_000_000;
		return Optional.of(job.edit((draft) -> {
			draft.phaseTimes = withPhaseTime(job,
					new Job.PhaseTime(started.index(), started.startedAt(), started.simulatedClock(), time, clockMs));
			draft.updatedAt = now;
		}));
	}

	/**
	 * The job's phase times with {@code time} in place of any earlier one of its phase.
	 */
	private static List<Job.PhaseTime> withPhaseTime(Job job, Job.PhaseTime time) {
		List<Job.PhaseTime> times = new ArrayList<>();
		if (job.phaseTimes() != null) {
			job.phaseTimes().stream().filter((other) -> other.index() != time.index()).forEach(times::add);
		}
		times.add(time);
		times.sort(Comparator.comparingInt(Job.PhaseTime::index));
		return List.copyOf(times);
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
