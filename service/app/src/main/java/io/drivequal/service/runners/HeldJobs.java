/*
 * The jobs a runner still holds (dispatched to it, or running there), as the scheduler's job store
 * knows them: what decides whether a draining runner is drained. An interface here, implemented by
 * the qualification feature, so the runners feature need not reach into jobs.
 */
package io.drivequal.service.runners;

import java.util.List;
import java.util.Map;

public interface HeldJobs {

	/**
	 * The ids of the jobs that hold a drive (DISPATCHED or RUNNING), by the runner they
	 * were given to: one query for the whole fleet.
	 */
	Map<String, List<String>> byRunner();

}
