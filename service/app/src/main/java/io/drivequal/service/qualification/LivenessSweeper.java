/*
 * A runner that stops heartbeating loses its jobs: they become INTERRUPTED and their drives are
 * freed, so the drive can be qualified again and nobody waits for a dead host. A heartbeat's age
 * only means something once the heartbeats in transit have been read: not while the broker is
 * away, Elasticsearch was unreadable, or a dead replica still holds heartbeat partitions. A RUNNING
 * job waits for its runner the resume grace (drivequal.runners.resume-grace) instead, holding its
 * drive; a runner back within it resumes the job (JobResumer).
 */
package io.drivequal.service.qualification;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

import io.drivequal.service.platform.BrokerHealth;
import io.drivequal.service.runners.Runner;
import io.drivequal.service.runners.RunnerRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

@Component
class LivenessSweeper {

	private static final Logger log = LoggerFactory.getLogger(LivenessSweeper.class);

	private final JobStore store;

	private final DriveLeases leases;

	private final RunnerRegistry registry;

	private final Clock clock;

	private final BrokerHealth broker;

	private final Duration timeout;

	private final Duration resumeGrace;

	private final JobResumer resumer;

	/**
	 * How long the heartbeat consumer may take to retry once storage is back: its longest
	 * backoff interval (drivequal.kafka.retry.max-interval).
	 */
	private final Duration consumerRetryMax;

	/** When the broker was last seen coming back; null while it is away. */
	private Instant brokerBackSince;

	/** A sweep failed (Elasticsearch unreadable) and none has succeeded since. */
	private boolean storageWasDown;

	/**
	 * After Elasticsearch came back: the heartbeats of the outage are still on their way
	 * into the index, so nobody is judged before this instant.
	 */
	private Instant storageGraceUntil;

	/** Since when the heartbeat consumers have been behind; null when they keep up. */
	private Instant heartbeatsBehindSince;

	private boolean warnedBehind;

	LivenessSweeper(JobStore store, DriveLeases leases, RunnerRegistry registry, Clock clock, BrokerHealth broker,
			JobResumer resumer, @Value("${drivequal.kafka.retry.max-interval:30s}") Duration consumerRetryMax) {
		this.store = store;
		this.leases = leases;
		this.registry = registry;
		this.clock = clock;
		this.broker = broker;
		this.timeout = registry.timeouts().heartbeatTimeout();
		this.resumeGrace = registry.timeouts().resumeGrace();
		this.resumer = resumer;
		this.consumerRetryMax = consumerRetryMax;
	}

	@Scheduled(fixedDelayString = "${drivequal.scheduling.sweep-interval:2s}")
	void run() {
		try {
			sweep();
		}
		catch (RuntimeException ex) {
			// Elasticsearch unreadable: heartbeats wait in Kafka meanwhile.
			this.storageWasDown = true;
			log.warn("liveness sweep failed: {}", ex.toString());
		}
	}

	void sweep() {
		// Heartbeats come through Kafka: judge nobody while the broker is away,
		// nor until one heartbeat timeout after it is back (runners reconnect
		// with a backoff, then catch up).
		Instant now = this.clock.instant();
		if (!this.broker.reachable()) {
			this.brokerBackSince = null;
			return;
		}
		if (this.brokerBackSince == null) {
			// Also right after this service started: its consumer is catching up.
			this.brokerBackSince = now;
		}
		if (now.isBefore(this.brokerBackSince.plus(this.timeout))) {
			return;
		}
		if (!this.registry.heartbeatsConsumed()) {
			// Heartbeats wait on partitions nobody reads yet (a replica died and its
			// session has not timed out), or the consumer is behind: their runners'
			// last heartbeats in the index are stale, not their runners.
			if (this.heartbeatsBehindSince == null) {
				this.heartbeatsBehindSince = now;
			}
			else if (!this.warnedBehind && now.isAfter(this.heartbeatsBehindSince.plus(this.timeout.multipliedBy(3)))) {
				this.warnedBehind = true;
				log.warn("runner liveness not judged since {}: the heartbeat consumers have not caught up",
						this.heartbeatsBehindSince);
			}
			return;
		}
		this.heartbeatsBehindSince = null;
		this.warnedBehind = false;
		List<Job> active = this.store.inStates(List.of(JobState.DISPATCHED, JobState.RUNNING), 1000);
		if (this.storageWasDown) {
			// Elasticsearch is back: give the heartbeat consumer its next retry and one
			// heartbeat timeout to index what waited, or a live runner would be judged on
			// a stale heartbeat.
			this.storageWasDown = false;
			this.storageGraceUntil = now.plus(this.consumerRetryMax).plus(this.timeout);
		}
		if (this.storageGraceUntil != null && now.isBefore(this.storageGraceUntil)) {
			return;
		}
		Map<String, Runner> runners = this.registry
			.runners(active.stream().map(Job::runnerId).filter(Objects::nonNull).collect(Collectors.toSet()));
		for (Job job : active) {
			Optional<Runner> runner = Optional.ofNullable(runners.get(job.runnerId()));
			if (runner.isPresent() && this.registry.isAlive(runner.get())) {
				if (job.runnerLostAt() != null && !now.isBefore(job.runnerLostAt().plus(this.timeout))) {
					this.resumer.runnerBack(job, runner.get());
				}
				else if (job.runnerLostAt() == null && forgotten(job, runner.get()) && JobResumer.mayResume(job)
						&& !this.resumeGrace.isZero()) {
					// Restarted faster than the heartbeat timeout: alive, but without the
					// job. Confirmed one timeout later (a job that just ended leaves the
					// list before its final event is indexed), then resumed.
					waitForRunner(job, runner.get(), now, now);
				}
				continue;
			}
			if (runner.isPresent() && JobResumer.mayResume(job)
					&& runner.get().lastHeartbeatAt().plus(this.resumeGrace).isAfter(now)) {
				if (job.runnerLostAt() == null) {
					waitForRunner(job, runner.get(), runner.get().lastHeartbeatAt(), now);
				}
				continue;
			}
			String lastSeen = runner.map((r) -> "since " + r.lastHeartbeatAt()).orElse("ever");
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

	/**
	 * The runner is silent, or alive without the job: the job keeps its drive and waits
	 * for it, lost since lostAt (its last heartbeat, or now).
	 */
	private void waitForRunner(Job job, Runner runner, Instant lostAt, Instant now) {
		boolean forgotten = lostAt.equals(now);
		String why = forgotten ? "runner " + job.runnerId() + " no longer lists the job (restarted?)"
				: "runner " + job.runnerId() + " has sent no heartbeat since " + lostAt;
		// Judged again on the stored job: the sweep's list comes from a search, which may
		// not
		// show a resume of a second ago yet.
		this.store.update(job.jobId(),
				(current) -> (current.state() != JobState.RUNNING || current.runnerLostAt() != null
						|| (forgotten && !forgotten(current, runner))) ? Optional.empty()
								: Optional.of(current.edit((draft) -> {
									draft.runnerLostAt = lostAt;
									draft.message = why + "; the job resumes if it is back within "
											+ this.resumeGrace.toSeconds() + " s";
									draft.updatedAt = now;
								})))
			.ifPresent((waiting) -> log.warn("job {}: {}", waiting.jobId(), waiting.message()));
	}

	/**
	 * An alive runner whose heartbeat, sent one heartbeat timeout or more after the job's
	 * (re)start command, does not list the job: it restarted and lost it.
	 */
	private boolean forgotten(Job job, Runner runner) {
		Instant commandAt = (job.dispatchedAt() != null) ? job.dispatchedAt() : job.startedAt();
		return commandAt != null && !runner.activeJobIds().contains(job.jobId())
				&& runner.lastHeartbeatAt().isAfter(commandAt.plus(this.timeout));
	}

}
