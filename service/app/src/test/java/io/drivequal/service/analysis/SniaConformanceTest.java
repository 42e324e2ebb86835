/*
 * The conformance line of each test: the purge that ran, WIPC, write cache, active range and rounds,
 * each departure from SNIA PTS said plainly, and a conformant PTS test said to be one.
 */
package io.drivequal.service.analysis;

import java.util.List;
import java.util.Map;

import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.catalog.RoundSpec;
import io.drivequal.service.runners.Capability;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SniaConformanceTest {

	private static final long CAPACITY = 8_000_000_000L;

	private static final List<Capability> CACHE_ON = List
		.of(new Capability("volatile-write-cache", true, null, true, "Identify Controller: VWC bit 0 set"));

	@Test
	void aPtsTestAfterAFormatWithWipcAndSteadyRoundsConforms() {
		List<SniaConformance.TestLine> lines = SniaConformance.of(
				List.of(purge("format-user-data"), wipc(2, 100),
						rounds(Map.of("stoppedBecause", "steady", "reachedAtRound", 6, "roundsRun", 7))),
				CACHE_ON, CAPACITY);
		assertThat(lines).singleElement().satisfies((line) -> {
			assertThat(line.conformant()).isTrue();
			assertThat(line.line()).isEqualTo("SNIA PTS: conformant (purge format-user-data; WIPC 2 × the user "
					+ "capacity of 128KiB sequential writes; write cache enabled; active range 100 % of the LBAs; "
					+ "steady state reached at round 6 of at most 25)");
		});
	}

	@Test
	void aTrimInsteadOfAPurgeAndEveryOtherDepartureAreNamed() {
		List<SniaConformance.TestLine> lines = SniaConformance.of(
				List.of(purge("deallocate"), wipc(1, 75),
						rounds(Map.of("stoppedBecause", "max-rounds", "roundsRun", 25))),
				List.of(new Capability("volatile-write-cache", false, "runner-lacks-sys-admin", null, "EPERM")),
				CAPACITY);
		assertThat(lines).singleElement().satisfies((line) -> {
			assertThat(line.conformant()).isFalse();
			assertThat(line.purge()).isEqualTo("deallocate (TRIM)");
			assertThat(line.departures()).containsExactly("purge was deallocate (TRIM), PTS requires Format/Sanitize",
					"WIPC 0.75 × the user capacity of 128KiB sequential writes, PTS preconditions with 2 × the user "
							+ "capacity of 128KiB sequential writes",
					"write cache state not known (runner-lacks-sys-admin), PTS requires it reported",
					"steady state not reached in 25 rounds, PTS reports such a test as not steady");
			assertThat(line.line()).startsWith("SNIA PTS: not conformant: purge was deallocate (TRIM), PTS requires "
					+ "Format/Sanitize; WIPC 0.75");
		});
	}

	@Test
	void aWriteSaturationNeedsNoWipcAndAFixedRunIsNotPtsRounds() {
		JobAnalyzer.PhaseInput wsat = input(new PhaseSpec(1, "wsat", "workload", "randwrite", null, 4096, 32, 100.0,
				86_400L, 4 * CAPACITY, null, null, null, null, null, null), null);
		assertThat(SniaConformance.of(List.of(purge("sanitize-block"), wsat), CACHE_ON, CAPACITY)).singleElement()
			.satisfies((line) -> assertThat(line.line())
				.startsWith("SNIA PTS: conformant (purge sanitize-block; WIPC none"));
		JobAnalyzer.PhaseInput fixed = input(new PhaseSpec(1, "randwrite-4k-qd32", "workload", "randwrite", null, 4096,
				32, 75.0, 2000L, null, null, null, null, null, null, null), null);
		assertThat(SniaConformance.of(List.of(fixed), null, CAPACITY)).singleElement()
			.satisfies((line) -> assertThat(line.departures()).containsExactly(
					"no purge before the test, PTS starts every test from a purge (Format/Sanitize)",
					"write cache state not known (the runner did not probe it), PTS requires it reported",
					"active range 75 % of the LBAs, PTS measures over 100 %",
					"a fixed 2000 s run, not PTS rounds to steady state (nor a write saturation to 4 × the capacity "
							+ "or 24 h)"));
	}

	private static JobAnalyzer.PhaseInput purge(String ran) {
		return input(new PhaseSpec(0, "purge", "purge", null, null, null, null, null, null, null, null, null, null,
				"auto", null, null), Map.of("purgeVerification", Map.of("method", ran, "status", "verified")));
	}

	private static JobAnalyzer.PhaseInput wipc(int passes, double rangePercent) {
		return input(new PhaseSpec(1, "wipc", "precondition", "write", null, 131072, 32, rangePercent, null, null,
				passes, null, null, null, null, null), null);
	}

	private static JobAnalyzer.PhaseInput rounds(Map<String, Object> outcome) {
		RoundSpec spec = new RoundSpec(List.of(new RoundSpec.Step("randrw", 0, 4096, 32, null, null)), 60,
				new RoundSpec.Tracking(0, "iops"), 25, 1.0);
		PhaseSpec phase = new PhaseSpec(2, "iops", "workload", null, null, null, null, 100.0, null, null, null, null,
				null, null, null, null, spec);
		return input(phase, Map.of("rounds", outcome));
	}

	private static JobAnalyzer.PhaseInput input(PhaseSpec spec, Map<String, Object> result) {
		return new JobAnalyzer.PhaseInput(spec, StoredDocuments.result(result), List.of(), null);
	}

}
