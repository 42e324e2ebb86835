/*
 * What the analysis feature needs from qualification: the finished jobs still waiting for their
 * analysis, and the place to record it. Recording is a compare-and-set that only fills an empty
 * verdict, so two replicas analysing the same job cannot overwrite each other.
 */
package io.drivequal.service.qualification;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.drivequal.service.catalog.PhaseSpec;

import org.springframework.stereotype.Component;

@Component
public class CompletedJobs {

	private final JobStore store;

	private final Clock clock;

	CompletedJobs(JobStore store, Clock clock) {
		this.store = store;
		this.clock = clock;
	}

	/** The facts of a finished job that its analysis reads. */
	public record JobFacts(String jobId, String profile, String deviceSerial, Long capacityBytes, List<PhaseSpec> plan,
			DriveSpec spec, List<Criterion> criteria, Instant endedAt) {
	}

	public List<JobFacts> awaitingAnalysis(int limit) {
		return this.store.completedWithoutVerdict(limit)
			.stream()
			.map((job) -> new JobFacts(job.jobId(), job.profile(), job.deviceSerial(), job.capacityBytes(), job.plan(),
					job.spec(), job.criteria(), job.endedAt()))
			.toList();
	}

	/**
	 * @return false when the job already has a verdict (another replica was first)
	 */
	public boolean recordAnalysis(String jobId, Map<String, Object> analysis, String verdict) {
		Instant now = this.clock.instant();
		return this.store
			.update(jobId, (job) -> (job.verdict() != null) ? Optional.empty() : Optional.of(job.edit((draft) -> {
				draft.analysis = analysis;
				draft.verdict = verdict;
				draft.updatedAt = now;
			})))
			.isPresent();
	}

}
