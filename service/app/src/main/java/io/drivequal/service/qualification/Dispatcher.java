/*
 * Moves queued jobs to their runners. Safe with any number of replicas: a job is dispatched only by
 * the replica that (1) holds its drive's lease and (2) wins the compare-and-set QUEUED ->
 * DISPATCHED; only that replica sends the start command. Jobs for one drive go by priority, then
 * in submission order (or the order an admin set), each not before its start window.
 *
 * A lab has many drives, and every dispatch waits on Elasticsearch and Kafka round trips. So a
 * round reads the queue once, looks up the leases, drives and runners of every queue head in three
 * multi-gets (a drive busy with another job is passed over without a write), and dispatches the heads of different drives concurrently (the lease and the
 * compare-and-set make that safe); each replica starts its walk at a random point of the heads,
 * so two replicas mostly dispatch different drives instead of racing for the same ones. A runner
 * an admin drained (RunnerDrains) gets nothing new: its drives' queues wait until the undrain.
 */
package io.drivequal.service.qualification;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import io.drivequal.service.qualification.JobStore.Versioned;
import io.drivequal.service.runners.Drive;
import io.drivequal.service.runners.Runner;
import io.drivequal.service.runners.RunnerDrains;
import io.drivequal.service.runners.RunnerRegistry;
import jakarta.annotation.PreDestroy;
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

	private final RunnerDrains drains;

	private final CommandPublisher commands;

	private final SchedulingSettings settings;

	private final Clock clock;

	private final ExecutorService workers;

	Dispatcher(JobStore store, DriveLeases leases, RunnerRegistry registry, RunnerDrains drains,
			CommandPublisher commands, SchedulingSettings settings, Clock clock) {
		this.store = store;
		this.leases = leases;
		this.registry = registry;
		this.drains = drains;
		this.commands = commands;
		this.settings = settings;
		this.clock = clock;
		this.workers = Executors.newFixedThreadPool(settings.dispatchConcurrency(), daemonThreads("dispatch-"));
	}

	@PreDestroy
	void stop() {
		this.workers.shutdownNow();
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

	/**
	 * @return how many jobs this round dispatched
	 */
	int dispatchQueued() {
		Instant now = this.clock.instant();
		// In dispatch order (priority, then queue order): only the head of each drive's
		// queue may go. A job waiting for its start window holds nobody up: the next one
		// may go.
		Map<String, Versioned> heads = new LinkedHashMap<>();
		for (Versioned queued : this.store.queuedInOrderVersioned(null, BATCH)) {
			Job job = queued.job();
			if (job.notBefore() == null || !job.notBefore().isAfter(now)) {
				heads.putIfAbsent(job.deviceSerial(), queued);
			}
		}
		if (heads.isEmpty()) {
			return 0;
		}
		// A drive busy with another job keeps its queue waiting: one multi-get of the
		// leases spares a failing create per busy drive and round.
		Map<String, DriveLeases.Lease> leased = this.leases.holders(heads.keySet());
		heads.values()
			.removeIf((head) -> leased.containsKey(head.job().deviceSerial())
					&& !leased.get(head.job().deviceSerial()).jobId().equals(head.job().jobId()));
		if (heads.isEmpty()) {
			return 0;
		}
		Map<String, Drive> drives = this.registry.drives(heads.keySet());
		Map<String, Runner> runners = this.registry.runners(
				drives.values().stream().map(Drive::runnerId).filter(Objects::nonNull).collect(Collectors.toSet()));
		Set<String> drained = runners.isEmpty() ? Set.of() : this.drains.all().keySet();
		List<Callable<Boolean>> dispatches = new ArrayList<>();
		for (Versioned head : heads.values()) {
			Drive drive = drives.get(head.job().deviceSerial());
			Runner runner = (drive != null) ? runners.get(drive.runnerId()) : null;
			if (runner != null && this.registry.isAlive(runner) && !drained.contains(runner.runnerId())) {
				dispatches.add(() -> tryDispatch(head, drive));
			}
		}
		Collections.rotate(dispatches, ThreadLocalRandom.current().nextInt(Math.max(1, dispatches.size())));
		return runAll(dispatches);
	}

	/**
	 * Dispatches the queued job if its drive is free and it is still QUEUED.
	 * @return whether this replica dispatched it
	 */
	private boolean tryDispatch(Versioned queued, Drive drive) {
		Job job = queued.job();
		if (!this.leases.acquire(job.deviceSerial(), job.jobId())) {
			return false;
		}
		Instant now = this.clock.instant();
		Optional<Job> dispatched = this.store.updateFrom(queued, (current) -> (current.state() != JobState.QUEUED)
				? Optional.empty() : Optional.of(current.edit((draft) -> {
					draft.state = JobState.DISPATCHED;
					draft.runnerId = drive.runnerId();
					draft.transportAddress = drive.transportAddress();
					draft.engine = drive.engine();
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
			return false;
		}
		try (MDC.MDCCloseable jobContext = MDC.putCloseable("jobId", job.jobId())) {
			this.commands.start(dispatched.get());
			log.info("dispatched job {} to runner {} for drive {}", job.jobId(), drive.runnerId(), job.deviceSerial());
		}
		return true;
	}

	/**
	 * A start command can be lost between the CAS and the send (a crash); the runner
	 * ignores a repeated commandId, so sending again is safe.
	 */
	void redispatchUnaccepted() {
		Instant now = this.clock.instant();
		Instant staleBefore = now.minus(this.settings.redispatchAfter());
		List<Job> stale = this.store.inStates(List.of(JobState.DISPATCHED), BATCH)
			.stream()
			.filter((job) -> job.dispatchedAt() != null && job.dispatchedAt().isBefore(staleBefore))
			.toList();
		if (stale.isEmpty()) {
			return;
		}
		Map<String, Runner> runners = this.registry
			.runners(stale.stream().map(Job::runnerId).filter(Objects::nonNull).collect(Collectors.toSet()));
		List<Callable<Boolean>> resends = new ArrayList<>();
		for (Job job : stale) {
			Runner runner = runners.get(job.runnerId());
			if (runner != null && this.registry.isAlive(runner)) {
				resends.add(() -> resend(job, staleBefore, now));
			}
		}
		runAll(resends);
	}

	private boolean resend(Job job, Instant staleBefore, Instant now) {
		Optional<Job> resent = this.store.update(job.jobId(),
				(current) -> (current.state() != JobState.DISPATCHED || current.dispatchedAt() == null
						|| !current.dispatchedAt().isBefore(staleBefore)) ? Optional.empty()
								: Optional.of(current.edit((draft) -> {
									draft.dispatchedAt = now;
									draft.updatedAt = now;
								})));
		resent.ifPresent((current) -> {
			log.info("runner {} has not accepted job {}; sending its start command again", current.runnerId(),
					current.jobId());
			this.commands.start(current);
		});
		return resent.isPresent();
	}

	/**
	 * Runs the tasks on the dispatch workers and waits for all of them. A task that fails
	 * (Elasticsearch or Kafka unavailable) is logged and leaves its job as it was for the
	 * next round; the others go on.
	 * @return how many tasks returned true
	 */
	private int runAll(List<Callable<Boolean>> tasks) {
		List<Future<Boolean>> running = new ArrayList<>(tasks.size());
		for (Callable<Boolean> task : tasks) {
			running.add(this.workers.submit(() -> callLogged(task)));
		}
		int done = 0;
		try {
			for (Future<Boolean> future : running) {
				done += future.get() ? 1 : 0;
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			running.forEach((future) -> future.cancel(true));
		}
		catch (ExecutionException ex) {
			// callLogged catches what a task throws; anything else is a bug.
			throw new IllegalStateException(ex.getCause());
		}
		return done;
	}

	private static boolean callLogged(Callable<Boolean> task) {
		try {
			return task.call();
		}
		catch (Exception ex) {
			log.warn("dispatch of one job failed; it stays as it was for the next round: {}", ex.toString());
			return false;
		}
	}

	private static ThreadFactory daemonThreads(String prefix) {
		AtomicInteger count = new AtomicInteger();
		return (task) -> {
			Thread thread = new Thread(task, prefix + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

}
