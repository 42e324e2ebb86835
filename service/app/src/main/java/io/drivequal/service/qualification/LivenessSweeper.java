/*
 * A runner that stops heartbeating loses its jobs: they become INTERRUPTED and their drives are
 * freed, so the drive can be qualified again and nobody waits for a dead host.
 */
package io.drivequal.service.qualification;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import io.drivequal.service.runners.Runner;
import io.drivequal.service.runners.RunnerRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

@Component
class LivenessSweeper {

	private static final Logger log = LoggerFactory.getLogger(LivenessSweeper.class);

	private final JobStore store;

	private final DriveLeases leases;

	private final RunnerRegistry registry;

	private final Clock clock;

	LivenessSweeper(JobStore store, DriveLeases leases, RunnerRegistry registry, Clock clock) {
		this.store = store;
		this.leases = leases;
		this.registry = registry;
		this.clock = clock;
	}

	@Scheduled(fixedDelayString = "${drivequal.scheduling.sweep-interval:2s}")
	void run() {
		try {
			sweep();
		}
		catch (RuntimeException ex) {
			log.warn("liveness sweep failed: {}", ex.toString());
		}
	}

	void sweep() {
		for (Job job : this.store.inStates(List.of(JobState.DISPATCHED, JobState.RUNNING), 1000)) {
			Optional<Runner> runner = this.registry.runner(job.runnerId());
			if (runner.isPresent() && this.registry.isAlive(runner.get())) {
				continue;
			}
			String lastSeen = runner.map((r) -> "since " + r.lastHeartbeatAt()).orElse("ever");
			Instant now = this.clock.instant();
			this.store
				.update(job.jobId(), (current) -> current.state().holdsDrive() ? Optional.of(current.edit((draft) -> {
					draft.state = JobState.INTERRUPTED;
					draft.failureReason = "runner-lost";
					draft.message = "runner " + current.runnerId() + " has sent no heartbeat " + lastSeen;
					draft.endedAt = now;
					draft.updatedAt = now;
				})) : Optional.empty())
				.ifPresent((interrupted) -> {
					this.leases.release(interrupted.deviceSerial(), interrupted.jobId());
					log.warn("job {} INTERRUPTED: {}", interrupted.jobId(), interrupted.message());
				});
		}
	}

}
