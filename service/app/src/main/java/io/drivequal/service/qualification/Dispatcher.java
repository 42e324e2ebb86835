/*
 * Moves queued jobs to their runners. Safe with any number of replicas: a job is dispatched only by
 * the replica that (1) holds its drive's lease and (2) wins the compare-and-set QUEUED ->
 * DISPATCHED; only that replica sends the start command. Jobs for one drive go by priority, then
 * in submission order (or the order an admin set), each not before its start window.
 */
package io.drivequal.service.qualification;

import java.time.Clock;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import io.drivequal.service.runners.Drive;
import io.drivequal.service.runners.RunnerRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

@Component
class Dispatcher {

	private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);

	private static final int BATCH = 1000;

	private final JobStore store;

	private final DriveLeases leases;

	private final RunnerRegistry registry;

	private final CommandPublisher commands;

	private final SchedulingSettings settings;

	private final Clock clock;

	Dispatcher(JobStore store, DriveLeases leases, RunnerRegistry registry, CommandPublisher commands,
			SchedulingSettings settings, Clock clock) {
		this.store = store;
		this.leases = leases;
		this.registry = registry;
		this.commands = commands;
		this.settings = settings;
		this.clock = clock;
	}

	@Scheduled(fixedDelayString = "${drivequal.scheduling.dispatch-interval:1s}")
	void run() {
		try {
			dispatchQueued();
			redispatchUnaccepted();
		}
		catch (RuntimeException ex) {
			// Elasticsearch or Kafka unavailable: the next run tries again; nothing is
			// lost.
			log.warn("dispatch round failed: {}", ex.toString());
		}
	}

	void dispatchQueued() {
		Set<String> drivesSeen = new HashSet<>();
		Instant now = this.clock.instant();
		for (Job job : this.store.queuedInOrder(null, BATCH)) {
			// A job waiting for its start window holds nobody up: the next one may go.
			if (job.notBefore() != null && job.notBefore().isAfter(now)) {
				continue;
			}
			// In dispatch order (priority, then queue order): only the head of each
			// drive's queue may go.
			if (drivesSeen.add(job.deviceSerial())) {
				tryDispatch(job);
			}
		}
	}

	void tryDispatch(Job job) {
		Optional<Drive> drive = this.registry.drive(job.deviceSerial());
		if (drive.isEmpty() || !this.registry.isAlive(drive.get().runnerId())) {
			return;
		}
		if (!this.leases.acquire(job.deviceSerial(), job.jobId())) {
			return;
		}
		Instant now = this.clock.instant();
		Optional<Job> dispatched = this.store.update(job.jobId(), (current) -> (current.state() != JobState.QUEUED)
				? Optional.empty() : Optional.of(current.edit((draft) -> {
					draft.state = JobState.DISPATCHED;
					draft.runnerId = drive.get().runnerId();
					draft.transportAddress = drive.get().transportAddress();
					draft.engine = drive.get().engine();
					draft.commandId = "start-" + current.jobId();
					draft.dispatchedAt = now;
					draft.updatedAt = now;
				})));
		if (dispatched.isEmpty()) {
			// Cancelled meanwhile (free the drive), or another replica won (keep its
			// lease).
			this.store.find(job.jobId())
				.filter((current) -> current.state().isFinal())
				.ifPresent((current) -> this.leases.release(current.deviceSerial(), current.jobId()));
			return;
		}
		try (MDC.MDCCloseable jobContext = MDC.putCloseable("jobId", job.jobId())) {
			this.commands.start(dispatched.get());
			log.info("dispatched job {} to runner {} for drive {}", job.jobId(), drive.get().runnerId(),
					job.deviceSerial());
		}
	}

	/**
	 * A start command can be lost between the CAS and the send (a crash); the runner
	 * ignores a repeated commandId, so sending again is safe.
	 */
	void redispatchUnaccepted() {
		Instant now = this.clock.instant();
		Instant staleBefore = now.minus(this.settings.redispatchAfter());
		for (Job job : this.store.inStates(List.of(JobState.DISPATCHED), BATCH)) {
			if (job.dispatchedAt() == null || !job.dispatchedAt().isBefore(staleBefore)
					|| !this.registry.isAlive(job.runnerId())) {
				continue;
			}
			this.store.update(job.jobId(),
					(current) -> (current.state() != JobState.DISPATCHED || current.dispatchedAt() == null
							|| !current.dispatchedAt().isBefore(staleBefore)) ? Optional.empty()
									: Optional.of(current.edit((draft) -> {
										draft.dispatchedAt = now;
										draft.updatedAt = now;
									})))
				.ifPresent((current) -> {
					log.info("runner {} has not accepted job {}; sending its start command again", current.runnerId(),
							current.jobId());
					this.commands.start(current);
				});
		}
	}

}
