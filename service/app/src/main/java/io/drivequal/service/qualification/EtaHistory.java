/*
 * The drive model's history that ETAs are measured from: its latest COMPLETED jobs with their phase
 * times (JobStore.completedOfModel), read once per model every few seconds, so that a page of jobs
 * costs one search per model shown rather than one per job.
 */
package io.drivequal.service.qualification;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.stereotype.Component;

@Component
class EtaHistory {

	/** Jobs of a model looked at: recent enough to be the lab's current conditions. */
	static final int JOBS = 20;

	/** How long a model's history is reused: a job completes far less often. */
	static final Duration TTL = Duration.ofSeconds(10);

	private record Read(Instant at, List<Job> jobs) {
	}

	private final JobStore store;

	private final Clock clock;

	private final Map<String, Read> byModel = new ConcurrentHashMap<>();

	EtaHistory(JobStore store, Clock clock) {
		this.store = store;
		this.clock = clock;
	}

	/** The model's latest COMPLETED jobs, newest first; none for an unknown model. */
	List<Job> of(String driveModel) {
		if (driveModel == null || driveModel.isBlank()) {
			return List.of();
		}
		Instant now = this.clock.instant();
		Read read = this.byModel.get(driveModel);
		if (read == null || read.at().plus(TTL).isBefore(now)) {
			read = new Read(now, this.store.completedOfModel(driveModel, JOBS));
			this.byModel.put(driveModel, read);
		}
		return read.jobs();
	}

}
