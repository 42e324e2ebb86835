/*
 * The warnings a submission gets: said where, and only where, the runner's interlocks will refuse
 * a phase, so a read-only plan on a drive that is not allowlisted runs without a false alarm.
 */
package io.drivequal.service.qualification;

import java.time.Instant;
import java.util.List;

import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.runners.Drive;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SubmissionWarningsTest {

	private static final PhaseSpec READ_ONLY_MIX = workload("randrw", 100);

	private static final PhaseSpec WRITING_MIX = workload("randrw", 99);

	private static final PhaseSpec SMART = new PhaseSpec(1, "smart", "smart", null, null, null, null, null, null, null,
			null, null, null, null, null, null);

	@Test
	void aReadOnlyPlanOnADriveTheRunnerProtectsIsNotWarnedAbout() {
		assertThat(QualificationService.warnings(drive(false, "mounted"), List.of(READ_ONLY_MIX, SMART))).isEmpty();
	}

	@Test
	void aWritingPhaseOnADriveNotAllowlistedIsWarnedAbout() {
		assertThat(QualificationService.warnings(drive(false, null), List.of(READ_ONLY_MIX, WRITING_MIX)))
			.containsExactly("runner r1 does not allowlist drive SIM-1: it will refuse the destructive phases");
	}

	@Test
	void aWritingPhaseOnADriveWithAnInterlockIsWarnedAbout() {
		assertThat(QualificationService.warnings(drive(true, "mounted"), List.of(WRITING_MIX))).containsExactly(
				"runner r1 reports interlock 'mounted' on drive SIM-1: it will refuse the destructive phases");
	}

	@Test
	void anAllowlistedFreeDriveGetsNoWarning() {
		assertThat(QualificationService.warnings(drive(true, null), List.of(WRITING_MIX))).isEmpty();
	}

	private static PhaseSpec workload(String rw, int readPercent) {
		return new PhaseSpec(0, "mix", "workload", rw, readPercent, 4096, 32, 100.0, 60L, null, null, null, null, null,
				null, null);
	}

	private static Drive drive(boolean allowlisted, String interlock) {
		return new Drive("SIM-1", "DQSIM Enterprise 256GB", "SIM0100", 256_000_000_000L, 4096, "sim",
				"sim:enterprise-eager", "r1", allowlisted, (interlock != null) ? "refused" : "idle", interlock,
				Instant.parse("2026-11-22T21:00:00Z"));
	}

}
