/*
 * The figures that go onto a phase-result document: what the analysis knows, under the names the
 * phase-results template maps, and nothing it does not know.
 */
package io.drivequal.service.analysis;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.drivequal.service.catalog.Catalog;
import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.catalog.Profile;
import io.drivequal.service.ingest.SamplePoint;
import io.drivequal.service.qualification.CompletedJobs;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.MAP;

class PhaseFiguresTest {

	private final Profile consistency = new Catalog().find("consistency-2000s").orElseThrow();

	private final PhaseSpec randwrite = this.consistency.phases().get(2);

	private final CompletedJobs.JobFacts job = new CompletedJobs.JobFacts("q-1", "consistency-2000s", "SIM-1",
			"DQSIM-T", "1.0", 16L << 30, this.consistency.phases(), null, List.of(),
			Instant.parse("2026-11-22T21:00:00Z"), null);

	@Test
	void aSteadyPhaseWithCountersGivesEveryFigure() {
		// Host 512 GB, media 1.28 TB: WAF 2.5.
		Map<String, Map<String, Object>> smart = Map.of("before",
				Map.of("available", true, "dataUnitsWritten", 1_000_000L, "ocp",
						Map.of("physicalMediaUnitsWrittenBytes", 0L)),
				"after", Map.of("available", true, "dataUnitsWritten", 2_000_000L, "ocp",
						Map.of("physicalMediaUnitsWrittenBytes", 1_280_000_000_000L)));
		Map<String, Object> figures = PhaseFigures.of(this.job, analyse(smart));
		assertThat(figures).containsEntry("driveModel", "DQSIM-T")
			.containsEntry("firmware", "1.0")
			.containsEntry("profile", "consistency-2000s");
		// 40.96 MB/s of random writes over a 16 GiB range, flat and without a media
		// counter: round 11 is the first to start past W = 1.5 ranges (11 x 60 x 40.96 MB
		// =
		// 27.0 GB), so steady state is reached at round 20 (horizon 11..20); the end
		// window
		// is rounds 28..32.
		assertThat(figures).extractingByKey("steadyState", MAP)
			.containsEntry("reached", true)
			.containsEntry("reachedAtRound", 20)
			.containsEntry("freshStateEvidence", "written-bytes")
			.containsEntry("firstEligibleRound", 11)
			.containsEntry("rangeWritesRequired", 1.5)
			.containsEntry("steadyAtEnd", true)
			.containsEntry("round", 32)
			.containsEntry("windowStartS", 1680L)
			.containsEntry("windowEndS", 1980L)
			.containsEntry("averageIops", 10000.0)
			.containsEntry("rangePercent", 0.0);
		// The fixed window t >= 1400 of a flat phase: ratio 1, no spread.
		assertThat(figures).extractingByKey("consistency", MAP)
			.containsEntry("ratio", 1.0)
			.containsEntry("meanIops", 10000.0)
			.containsEntry("p0_1Iops", 10000L)
			.containsEntry("cv", 0.0);
		assertThat(figures).extractingByKey("waf", MAP)
			.containsEntry("ratio", 2.5)
			.containsEntry("hostBytesWritten", 512_000_000_000L)
			.containsEntry("mediaBytesWritten", 1_280_000_000_000L);
		assertThat(figures).doesNotContainKey("qos");
	}

	@Test
	void aPhaseNotSteadyAtItsEndHasNoAverage() {
		// At 1,000 IOPS, 2000 s of 4 KiB random writes are 8.2 GB, 0.48 of the 16 GiB
		// range: no round is eligible, so the end window does not hold.
		List<SamplePoint> samples = new ArrayList<>();
		for (int t = 1; t <= 2000; t++) {
			samples.add(new SamplePoint(2, "randwrite-4k-qd32", t, t * 1000L, 0, 1000, 0, 1000 * 4096L, 0,
					1000 * 4096 / 1e6, null, null, null));
		}
		JobAnalyzer.PhaseAnalysis phase = JobAnalyzer
			.analyze(this.job, Optional.of(this.consistency),
					List.of(new JobAnalyzer.PhaseInput(this.randwrite, null, samples, null)), List.of())
			.phases()
			.get(0);
		Map<String, Object> figures = PhaseFigures.of(this.job, phase);
		assertThat(figures).extractingByKey("steadyState", MAP)
			.containsEntry("reached", false)
			.containsEntry("steadyAtEnd", false)
			.containsEntry("round", 32)
			.doesNotContainKeys("averageIops", "reachedAtRound", "firstEligibleRound");
	}

	@Test
	void anUnknownWafLeavesItsRatioOutRatherThanZero() {
		Map<String, Map<String, Object>> smart = Map.of("before",
				Map.of("available", true, "dataUnitsWritten", 1_000_000L), "after",
				Map.of("available", true, "dataUnitsWritten", 2_000_000L));
		// No OCP C0h log: WAF is unknown, and so are its deltas.
		Map<String, Object> figures = PhaseFigures.of(this.job, analyse(smart));
		assertThat(figures).doesNotContainKey("waf").containsKey("consistency");
	}

	private JobAnalyzer.PhaseAnalysis analyse(Map<String, Map<String, Object>> smart) {
		List<SamplePoint> samples = new ArrayList<>();
		for (int t = 1; t <= 2000; t++) {
			samples.add(new SamplePoint(2, "randwrite-4k-qd32", t, t * 1000L, 0, 10000, 0, 10000 * 4096L, 0,
					10000 * 4096 / 1e6, null, null, null));
		}
		return JobAnalyzer
			.analyze(this.job, Optional.of(this.consistency),
					List.of(new JobAnalyzer.PhaseInput(this.randwrite, null, samples, StoredDocuments.smart(smart))),
					List.of())
			.phases()
			.get(0);
	}

}
