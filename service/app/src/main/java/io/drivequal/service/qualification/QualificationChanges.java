/*
 * The jobs changed since a given time, as the QualificationChanged facts of their current state
 * and verdict: what a listener that missed an event (its replica crashed between the job's write
 * and the notification) needs to catch up.
 */
package io.drivequal.service.qualification;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.springframework.stereotype.Component;

@Component
public class QualificationChanges {

	private final JobStore store;

	QualificationChanges(JobStore store) {
		this.store = store;
	}

	/**
	 * The current state of each job updated at or after {@code since} (previousState
	 * unknown), plus its verdict when it has one; oldest update first.
	 */
	public List<QualificationChanged> since(Instant since, int limit) {
		List<QualificationChanged> changes = new ArrayList<>();
		for (Job job : this.store.updatedSince(since, limit)) {
			changes.add(QualificationChanged.of(job, null, false));
			if (job.verdict() != null) {
				changes.add(QualificationChanged.of(job, null, true));
			}
		}
		return changes;
	}

}
