/*
 * Progress and ETA from the plan and the latest second, checked by hand: consistency-2000s on a
 * 1 TB drive is purge 60 s + fill 500 s (1e12 B at 2 GB/s) + 2000 s = 2560 s.
 */
package io.drivequal.service.qualification;

import java.util.List;
import java.util.OptionalInt;

import io.drivequal.service.catalog.PhaseSpec;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ProgressTest {

	private static final List<PhaseSpec> PLAN = List.of(
			new PhaseSpec(0, "purge", "purge", null, null, null, null, null, null, null, null, null, null, "auto", null,
					null),
			new PhaseSpec(1, "precondition", "precondition", "write", null, 131072, 32, 100.0, null, null, 1, "random",
					null, null, null, null),
			new PhaseSpec(2, "randwrite-4k-qd32", "workload", "randwrite", null, 4096, 32, 100.0, 2000L, null, null,
					"random", null, null, true, null));

	private final Job running = new Job.Draft().build().edit((draft) -> {
		draft.jobId = "q-1";
		draft.state = JobState.RUNNING;
		draft.capacityBytes = 1_000_000_000_000L;
		draft.plan = PLAN;
	});

	@Test
	void halfWayThroughTheWorkloadPhase() {
		Job job = this.running.edit((draft) -> draft.currentPhaseIndex = 2);
		Progress progress = Progress.of(job, OptionalInt.of(1000));
		// done = 60 + 500 + 1000 = 1560 of 2560 -> 60.9 %, 1000 s left
		assertThat(progress.percent()).isEqualTo(60.9);
		assertThat(progress.etaS()).isEqualTo(1000);
	}

	@Test
	void neverHundredBeforeTheCompletionEvent() {
		Job job = this.running.edit((draft) -> draft.currentPhaseIndex = 2);
		assertThat(Progress.of(job, OptionalInt.of(2000)).percent()).isLessThan(100.0);
		assertThat(Progress.of(job.edit((draft) -> draft.state = JobState.COMPLETED), OptionalInt.empty()).percent())
			.isEqualTo(100.0);
	}

	@Test
	void queuedJobIsAtZeroWithTheWholePlanAhead() {
		Job queued = this.running.edit((draft) -> draft.state = JobState.QUEUED);
		Progress progress = Progress.of(queued, OptionalInt.empty());
		assertThat(progress.percent()).isZero();
		assertThat(progress.etaS()).isEqualTo(2560);
	}

}
