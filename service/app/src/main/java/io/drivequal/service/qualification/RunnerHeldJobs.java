/*
 * The runners feature asks which jobs each runner still holds (to say draining or drained); the
 * job store answers.
 */
package io.drivequal.service.qualification;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

import io.drivequal.service.runners.HeldJobs;

import org.springframework.stereotype.Component;

@Component
class RunnerHeldJobs implements HeldJobs {

	/** More jobs holding drives at once than this is beyond this service's design. */
	private static final int MAX_HELD = 10_000;

	private final JobStore store;

	RunnerHeldJobs(JobStore store) {
		this.store = store;
	}

	@Override
	public Map<String, List<String>> byRunner() {
		return this.store.inStates(List.of(JobState.DISPATCHED, JobState.RUNNING), MAX_HELD)
			.stream()
			.filter((job) -> Objects.nonNull(job.runnerId()))
			.collect(Collectors.groupingBy(Job::runnerId, Collectors.mapping(Job::jobId, Collectors.toList())));
	}

}
