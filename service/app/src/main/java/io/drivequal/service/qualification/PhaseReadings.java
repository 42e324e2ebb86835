/*
 * The first reading this replica took of each running phase (its last indexed second, and when),
 * so that a simulated drive's clock rate is measured between two readings: over the same pipeline,
 * the delay from the runner to a searchable sample (a second or two) cancels out, where the time
 * since the phase started counts it in full and underestimates a fast clock early in the phase.
 * Only a refinement: without an earlier reading the estimator uses the time since the phase
 * started. In memory, one entry per running job; a job that is not running forgets its own.
 */
package io.drivequal.service.qualification;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.stereotype.Component;

@Component
class PhaseReadings {

	/** More running jobs than a lab has; past it the oldest readings go. */
	static final int MAX_JOBS = 10_000;

	/**
	 * @param phaseIndex, t the phase and its last indexed second at the reading
	 * @param at when the reading was taken
	 */
	record Reading(int phaseIndex, int t, Instant at) {
	}

	private final Map<String, Reading> firstByJob = new ConcurrentHashMap<>();

	/**
	 * The first reading of the job's running phase, taking this one as the first when
	 * there is none yet (or it was of an earlier phase).
	 */
	Reading first(String jobId, int phaseIndex, int t, Instant now) {
		Reading first = this.firstByJob.get(jobId);
		if (first == null || first.phaseIndex() != phaseIndex || t < first.t()) {
			if (this.firstByJob.size() >= MAX_JOBS) {
				this.firstByJob.entrySet()
					.stream()
					.min((a, b) -> a.getValue().at().compareTo(b.getValue().at()))
					.ifPresent((oldest) -> this.firstByJob.remove(oldest.getKey()));
			}
			first = new Reading(phaseIndex, t, now);
			this.firstByJob.put(jobId, first);
		}
		return first;
	}

	void forget(String jobId) {
		this.firstByJob.remove(jobId);
	}

}
