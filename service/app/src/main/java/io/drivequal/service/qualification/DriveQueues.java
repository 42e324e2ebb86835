/*
 * Each drive's queue of QUEUED jobs, in the order the dispatcher takes them (priority, then queue
 * order, then submission): positions for the API, a submitter's or an admin's change of priority,
 * and an admin's move of a job to a position. A change is a compare-and-set on a job that is still
 * QUEUED; a job that has left the queue is a 409.
 */
package io.drivequal.service.qualification;

import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.drivequal.service.platform.ConflictException;
import io.drivequal.service.platform.ForbiddenException;
import io.drivequal.service.platform.NotFoundException;
import io.drivequal.service.security.Callers;
import io.drivequal.service.security.Role;

import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Component;

@Component
class DriveQueues {

	/** Longer than any real queue of one drive. */
	static final int MAX_QUEUE = 1000;

	/**
	 * Queue orders are submission times in microseconds, so a moved job fits between two
	 * neighbours many times over.
	 */
	static long queueOrderOf(Instant queuedAt) {
		return queuedAt.toEpochMilli() * 1000;
	}

	private final JobStore store;

	private final Clock clock;

	DriveQueues(JobStore store, Clock clock) {
		this.store = store;
		this.clock = clock;
	}

	/** The dispatcher's order: priority, then queue order, then submission. */
	static final Comparator<Job> DISPATCH_ORDER = Comparator.comparingInt(DriveQueues::rankOf)
		.reversed()
		.thenComparingLong(DriveQueues::orderOf)
		.thenComparing(Job::queuedAt, Comparator.nullsFirst(Comparator.naturalOrder()));

	/**
	 * 1-based positions (1 = next) of the QUEUED jobs among {@code jobs}, by job id: one
	 * more than the queued jobs of the same drive ahead of each. Counted against each job
	 * as given (read by id, so current) rather than by its place in the search, which
	 * shows a change only after Elasticsearch's refresh (about a second).
	 */
	Map<String, Integer> positions(Collection<Job> jobs) {
		Map<String, List<Job>> queues = new HashMap<>();
		Map<String, Integer> positions = new HashMap<>();
		for (Job job : jobs) {
			if (job.state() != JobState.QUEUED) {
				continue;
			}
			List<Job> queue = queues.computeIfAbsent(job.deviceSerial(),
					(serial) -> this.store.queuedInOrder(serial, MAX_QUEUE));
			long ahead = queue.stream()
				.filter((other) -> !other.jobId().equals(job.jobId()) && DISPATCH_ORDER.compare(other, job) < 0)
				.count();
			positions.put(job.jobId(), (int) ahead + 1);
		}
		return positions;
	}

	/**
	 * @throws ForbiddenException when the priority is above the caller's role, or the job
	 * is another submitter's (admins may change any)
	 */
	Job reprioritise(String jobId, JobPriority priority, Authentication caller) {
		Job job = find(jobId);
		checkAllowed(priority, caller);
		if (!Callers.has(caller, Role.ADMIN) && !caller.getName().equals(job.submitter())) {
			throw new ForbiddenException(
					"only " + job.submitter() + " or an admin may change the priority of " + jobId);
		}
		Instant now = this.clock.instant();
		return queued(jobId, (current) -> current.edit((draft) -> {
			draft.priority = priority.wireName();
			draft.priorityRank = priority.rank();
			draft.updatedAt = now;
		}));
	}

	/**
	 * Puts the job at {@code position} of its drive's queue (1 = next; past the end:
	 * last). It takes the priority of the job it is put before (or after, at the end), so
	 * it stays there until the priorities around it change.
	 */
	Job move(String jobId, int position) {
		Job job = find(jobId);
		List<Job> others = this.store.queuedInOrder(job.deviceSerial(), MAX_QUEUE)
			.stream()
			.filter((queued) -> !queued.jobId().equals(jobId))
			.toList();
		if (others.isEmpty()) {
			return queued(jobId, (current) -> current);
		}
		int index = Math.min(position, others.size() + 1) - 1;
		Job neighbour;
		long order;
		if (index < others.size()) {
			neighbour = others.get(index);
			Job before = (index > 0) ? others.get(index - 1) : null;
			long next = orderOf(neighbour);
			order = (before != null && rankOf(before) == rankOf(neighbour) && orderOf(before) < next - 1)
					? orderOf(before) + (next - orderOf(before)) / 2 : next - 1;
		}
		else {
			neighbour = others.get(others.size() - 1);
			order = orderOf(neighbour) + 1;
		}
		JobPriority priority = JobPriority.of(neighbour);
		Instant now = this.clock.instant();
		return queued(jobId, (current) -> current.edit((draft) -> {
			draft.priority = priority.wireName();
			draft.priorityRank = priority.rank();
			draft.queueOrder = order;
			draft.updatedAt = now;
		}));
	}

	static void checkAllowed(JobPriority priority, Authentication caller) {
		if (!priority.allowedFor(caller)) {
			throw new ForbiddenException(
					"priority " + priority.wireName() + " needs the admin role; submitters may ask for normal or high");
		}
	}

	private Job queued(String jobId, java.util.function.UnaryOperator<Job> change) {
		Optional<Job> changed = this.store.update(jobId, (current) -> (current.state() == JobState.QUEUED)
				? Optional.of(change.apply(current)) : Optional.empty());
		return changed.orElseThrow(() -> new ConflictException(
				"qualification " + jobId + " is " + find(jobId).state() + "; only queued jobs can be reordered"));
	}

	private Job find(String jobId) {
		return this.store.find(jobId).orElseThrow(() -> new NotFoundException("no qualification " + jobId));
	}

	private static long orderOf(Job job) {
		return (job.queueOrder() != null) ? job.queueOrder() : queueOrderOf(job.queuedAt());
	}

	private static int rankOf(Job job) {
		return JobPriority.of(job).rank();
	}

}
