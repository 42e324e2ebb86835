/*
 * The runners feature asks which jobs each runner still holds (to say draining or drained). A
 * false "drained" would let an operator restart a runner under a job, so the answer does not rest
 * on a search alone (refreshed once a second, as is the runner's heartbeat): it adds the drive
 * leases of the runner's drives, read in real time, which a job takes at dispatch and gives back
 * only once it has ended.
 */
package io.drivequal.service.qualification;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.drivequal.service.runners.Drive;
import io.drivequal.service.runners.HeldJobs;
import io.drivequal.service.runners.RunnerRegistry;

import org.springframework.stereotype.Component;

@Component
class RunnerHeldJobs implements HeldJobs {

	/** More jobs holding drives at once than this is beyond this service's design. */
	private static final int MAX_HELD = 10_000;

	private final JobStore store;

	private final DriveLeases leases;

	private final RunnerRegistry registry;

	RunnerHeldJobs(JobStore store, DriveLeases leases, RunnerRegistry registry) {
		this.store = store;
		this.leases = leases;
		this.registry = registry;
	}

	@Override
	public Map<String, List<String>> byRunner() {
		Map<String, Set<String>> held = new HashMap<>();
		for (Job job : this.store.inStates(List.of(JobState.DISPATCHED, JobState.RUNNING), MAX_HELD)) {
			if (job.runnerId() != null) {
				held.computeIfAbsent(job.runnerId(), (runner) -> new LinkedHashSet<>()).add(job.jobId());
			}
		}
		Map<String, String> runnerOfDrive = new HashMap<>();
		for (Drive drive : this.registry.drives()) {
			runnerOfDrive.put(drive.serial(), drive.runnerId());
		}
		if (!runnerOfDrive.isEmpty()) {
			this.leases.holders(runnerOfDrive.keySet())
				.forEach(
						(serial, lease) -> held.computeIfAbsent(runnerOfDrive.get(serial), (r) -> new LinkedHashSet<>())
							.add(lease.jobId()));
		}
		Map<String, List<String>> byRunner = new HashMap<>();
		held.forEach((runner, jobs) -> byRunner.put(runner, List.copyOf(jobs)));
		return byRunner;
	}

}
