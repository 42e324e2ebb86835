/*
 * Progress and ETA of a running job from its plan's expected phase durations and the latest
 * indexed second of the current phase. An estimate: untimed phases use nominal speeds
 * (catalog.Durations), and a simulated drive runs faster than its plan's real time.
 */
package io.drivequal.service.qualification;

import java.util.List;
import java.util.OptionalInt;

import io.drivequal.service.catalog.Durations;
import io.drivequal.service.catalog.PhaseSpec;

record Progress(double percent, long etaS) {

	static Progress of(Job job, OptionalInt latestTOfCurrentPhase) {
		List<PhaseSpec> plan = job.plan();
		long capacity = (job.capacityBytes() != null) ? job.capacityBytes() : 0;
		long totalS = Math.max(1, Durations.expectedS(plan, capacity));
		if (job.state() == JobState.COMPLETED) {
			return new Progress(100.0, 0);
		}
		if (job.state() != JobState.RUNNING || job.currentPhaseIndex() == null) {
			return new Progress(0.0, (job.state().isFinal()) ? 0 : totalS);
		}
		int current = job.currentPhaseIndex();
		long doneS = 0;
		for (PhaseSpec phase : plan) {
			if (phase.index() < current) {
				doneS += Durations.expectedS(phase, capacity);
			}
		}
		PhaseSpec phase = plan.stream().filter((p) -> p.index() == current).findFirst().orElse(null);
		if (phase != null && latestTOfCurrentPhase.isPresent()) {
			long phaseS = Durations.expectedS(phase, capacity);
			// Never claim a phase is done before its completion event says so.
			doneS += Math.min(latestTOfCurrentPhase.getAsInt(), Math.max(0, phaseS - 1));
		}
		double percent = Math.min(99.9, 100.0 * doneS / totalS);
		return new Progress(Math.round(percent * 10) / 10.0, Math.max(0, totalS - doneS));
	}

}
