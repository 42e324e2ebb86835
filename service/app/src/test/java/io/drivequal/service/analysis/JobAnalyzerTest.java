/*
 * A finished job's analysis from hand-checkable inputs: a flat 2000 s phase is steady from the
 * first window with consistency 1; SMART deltas give WAF; TRIM recovery from three sequential
 * phases; verdicts follow the criteria.
 */
package io.drivequal.service.analysis;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.drivequal.analysis.Outcome;
import io.drivequal.service.catalog.Catalog;
import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.catalog.Profile;
import io.drivequal.service.ingest.SamplePoint;
import io.drivequal.service.qualification.CompletedJobs;
import io.drivequal.service.qualification.Criterion;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JobAnalyzerTest {

	private final Profile consistency = new Catalog().find("consistency-2000s").orElseThrow();

	private final PhaseSpec randwrite = this.consistency.phases().get(2);

	@Test
	void flatPhaseIsSteadyAtTheFirstWindowAndPerfectlyConsistent() {
		CompletedJobs.JobFacts job = job(List.of(new Criterion("consistencyRatio", "atLeast", 0.9, null),
				new Criterion("steadyStateIops", "atLeast", 20000.0, null)));
		JobAnalyzer.JobAnalysis analysis = JobAnalyzer.analyze(job, Optional.of(this.consistency),
				List.of(new JobAnalyzer.PhaseInput(this.randwrite, null, flat(2000, 10000), null)), List.of());
		JobAnalyzer.PhaseAnalysis phase = analysis.phases().get(0);
		assertThat(phase.iops().steadyState().reached()).isTrue();
		// Rounds 0..4 hold t in (0, 300]: the first window ends at 300 s.
		assertThat(phase.iops().steadyState().window().orElseThrow().windowEndS()).isEqualTo(300);
		assertThat(phase.iops().steadyStateConsistency().orElseThrow().ratio()).hasValue(1.0);
		// Fixed window t >= 1400 of a 2000 s phase: 601 seconds.
		assertThat(phase.iops().fixedWindowConsistency().orElseThrow().sampleCount()).isEqualTo(601);
		assertThat(analysis.verdict().criteria()).extracting((c) -> c.outcome())
			.containsExactly(Outcome.PASS, Outcome.FAIL);
		assertThat(analysis.verdict().outcome()).isEqualTo(Outcome.FAIL);
	}

	@Test
	void wafComesFromTheDrivesOwnCountersAndIsUnknownWithoutOcp() {
		// Host: 1,000,000 data units x 512,000 B = 512 GB; media: 1.28 TB -> WAF 2.5.
		Map<String, Map<String, Object>> smart = Map.of("before",
				Map.of("available", true, "dataUnitsWritten", 1_000_000L, "ocp",
						Map.of("physicalMediaUnitsWrittenBytes", 0L)),
				"after", Map.of("available", true, "dataUnitsWritten", 2_000_000L, "ocp",
						Map.of("physicalMediaUnitsWrittenBytes", 1_280_000_000_000L)));
		CompletedJobs.JobFacts job = job(List.of(new Criterion("waf", "atMost", 3.0, null)));
		JobAnalyzer.JobAnalysis analysis = JobAnalyzer.analyze(job, Optional.of(this.consistency),
				List.of(new JobAnalyzer.PhaseInput(this.randwrite, null, flat(2000, 10000), smart)), List.of());
		assertThat(analysis.phases().get(0).waf().waf().value()).hasValue(2.5);
		assertThat(analysis.verdict().outcome()).isEqualTo(Outcome.PASS);

		Map<String, Map<String, Object>> noOcp = Map.of("before", Map.of("available", true, "dataUnitsWritten", 1L),
				"after", Map.of("available", true, "dataUnitsWritten", 2L));
		JobAnalyzer.JobAnalysis unknown = JobAnalyzer.analyze(job, Optional.of(this.consistency),
				List.of(new JobAnalyzer.PhaseInput(this.randwrite, null, flat(2000, 10000), noOcp)), List.of());
		assertThat(unknown.phases().get(0).waf().waf().isKnown()).isFalse();
		assertThat(unknown.verdict().outcome()).isEqualTo(Outcome.INCONCLUSIVE);
	}

	@Test
	void trimRecoveryFromTheThreeSequentialPhases() {
		Profile trim = new Catalog().find("trim-validation").orElseThrow();
		List<JobAnalyzer.PhaseInput> inputs = new ArrayList<>();
		for (PhaseSpec phase : trim.phases()) {
			long bytesPerSecond = switch (phase.name()) {
				case "seq-clean" -> 2_000_000_000L;
				case "seq-dirty" -> 400_000_000L;
				case "seq-after-trim" -> 1_600_000_000L;
				default -> 0;
			};
			inputs.add(new JobAnalyzer.PhaseInput(phase, null,
					(bytesPerSecond > 0) ? sequential(60, bytesPerSecond) : List.of(), null));
		}
		// A job-level metric is judged even though the profile has a primary phase.
		JobAnalyzer.JobAnalysis analysis = JobAnalyzer.analyze(
				job(List.of(new Criterion("trimRecovery", "atLeast", 0.7, null))), Optional.of(trim), inputs,
				List.of());
		// (1600 - 400) / (2000 - 400) = 0.75
		assertThat(analysis.trimRecovery().value()).hasValue(0.75);
		assertThat(analysis.idleRecovery().isKnown()).isFalse();
		assertThat(analysis.verdict().outcome()).as(analysis.verdict().toString()).isEqualTo(Outcome.PASS);
	}

	@Test
	void aPurgeThatLeftDataAndAVerifyThatFoundCorruptionFailTheirCriteria() {
		PhaseSpec purge = this.consistency.phases().get(0);
		PhaseSpec verify = new PhaseSpec(3, "verify", "verify", null, null, null, null, 100.0, null, null, null, null,
				null, null, null, null);
		Map<String, Object> silentPurge = Map.of("samples", 0, "purgeVerification",
				Map.of("status", "failed", "coverage", "all", "canaryBlocks", 16384, "blocksRead", 16384, "lbasRead",
						131072, "bytesRead", 67108864, "blocksFound", 16384));
		Map<String, Object> corrupted = Map.of("samples", 0, "verify", Map.of("blocksChecked", 16384, "unwrittenBlocks",
				0, "bytesRead", 67108864, "mismatches", 2, "firstMismatches", List.of()));
		CompletedJobs.JobFacts job = job(List.of(new Criterion("purgeVerified", "atLeast", 1.0, null),
				new Criterion("verifyMismatches", "atMost", 0.0, null)));
		JobAnalyzer.JobAnalysis analysis = JobAnalyzer.analyze(job, Optional.of(this.consistency),
				List.of(new JobAnalyzer.PhaseInput(purge, silentPurge, List.of(), null),
						new JobAnalyzer.PhaseInput(verify, corrupted, List.of(), null)),
				List.of());
		assertThat(analysis.verdict().criteria()).extracting((c) -> c.outcome())
			.containsExactly(Outcome.FAIL, Outcome.FAIL);
		assertThat(analysis.verdict().criteria().get(0).explanation())
			.isEqualTo("purgeVerified measured 0 boolean in phase purge, limit >= 1");
		assertThat(analysis.verdict().criteria().get(1).explanation())
			.isEqualTo("verifyMismatches measured 2 blocks in phase verify, limit <= 0");

		Map<String, Object> unverifiable = Map.of("samples", 0, "purgeVerification",
				Map.of("status", "unverifiable", "reason", "nothing can be read back: the null engine stores nothing",
						"coverage", "none", "canaryBlocks", 0, "blocksRead", 0, "lbasRead", 0, "bytesRead", 0,
						"blocksFound", 0));
		JobAnalyzer.JobAnalysis proven = JobAnalyzer.analyze(
				job(List.of(new Criterion("purgeVerified", "atLeast", 1.0, null))), Optional.of(this.consistency),
				List.of(new JobAnalyzer.PhaseInput(purge, unverifiable, List.of(), null)), List.of());
		assertThat(proven.verdict().outcome()).isEqualTo(Outcome.INCONCLUSIVE);
		assertThat(proven.verdict().criteria().get(0).explanation()).contains("the null engine stores nothing");
	}

	private CompletedJobs.JobFacts job(List<Criterion> criteria) {
		return new CompletedJobs.JobFacts("q-1", "consistency-2000s", "SIM-1", "DQSIM-T", "1.0", 16L << 30,
				this.consistency.phases(), null, criteria, Instant.parse("2026-11-22T21:00:00Z"));
	}

	private static List<SamplePoint> flat(int seconds, long iops) {
		List<SamplePoint> samples = new ArrayList<>();
		for (int t = 1; t <= seconds; t++) {
			samples.add(new SamplePoint(2, "randwrite-4k-qd32", t, t * 1000L, 0, iops, 0, iops * 4096, 0,
					iops * 4096 / 1e6, null, null, null));
		}
		return samples;
	}

	private static List<SamplePoint> sequential(int seconds, long bytesPerSecond) {
		List<SamplePoint> samples = new ArrayList<>();
		for (int t = 1; t <= seconds; t++) {
			samples.add(new SamplePoint(1, "seq", t, t * 1000L, 0, bytesPerSecond / 131072, 0, bytesPerSecond, 0,
					bytesPerSecond / 1e6, null, null, null));
		}
		return samples;
	}

}
