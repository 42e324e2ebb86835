/*
 * Where a job resumes after a runner loss: a timed workload phase at the last round boundary its
 * samples reached, every other phase (purge, fill, sized, adaptive) from its start.
 */
package io.drivequal.service.qualification;

import java.util.OptionalInt;

import io.drivequal.service.catalog.PhaseSpec;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JobResumerTest {

	private static PhaseSpec phase(String kind, Long runtimeS, Long sizeBytes) {
		return new PhaseSpec(1, "p", kind, "randwrite", null, 4096, 32, 100.0, runtimeS, sizeBytes, null, null, null,
				null, null, null);
	}

	@Test
	void aTimedWorkloadResumesAtTheLastRoundBoundaryItsSamplesReached() {
		assertThat(JobResumer.fromSecond(phase("workload", 2000L, null), OptionalInt.of(1199), 60)).isEqualTo(1140);
		assertThat(JobResumer.fromSecond(phase("workload", 2000L, null), OptionalInt.of(1200), 60)).isEqualTo(1200);
		assertThat(JobResumer.fromSecond(phase("workload", 2000L, null), OptionalInt.of(59), 60)).isZero();
		assertThat(JobResumer.fromSecond(phase("workload", 2000L, null), OptionalInt.empty(), 60)).isZero();
		// at its end: the phase restarts rather than resuming with nothing left
		assertThat(JobResumer.fromSecond(phase("workload", 120L, null), OptionalInt.of(120), 60)).isZero();
	}

	@Test
	void purgeFillAndSizedPhasesRestart() {
		assertThat(JobResumer.fromSecond(phase("purge", null, null), OptionalInt.of(300), 60)).isZero();
		assertThat(JobResumer.fromSecond(phase("precondition", null, null), OptionalInt.of(300), 60)).isZero();
		assertThat(JobResumer.fromSecond(phase("workload", 600L, 1L << 30), OptionalInt.of(300), 60)).isZero();
	}

}
