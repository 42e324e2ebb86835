/*
 * A finished job's analysis from hand-checkable inputs: a flat 2000 s phase is steady from the
 * first window with consistency 1; SMART deltas give WAF; TRIM recovery from three sequential
 * phases; verdicts follow the criteria; a phase with rounds keeps each step's window latency as
 * the runner reported it, into the stored analysis the report reads.
 */
package io.drivequal.service.analysis;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.drivequal.analysis.Criterion;
import io.drivequal.analysis.Measure;
import io.drivequal.analysis.Outcome;
import io.drivequal.schemas.Contracts;
import io.drivequal.service.catalog.Catalog;
import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.catalog.PowerCycleSpec;
import io.drivequal.service.catalog.Profile;
import io.drivequal.service.ingest.SamplePoint;
import io.drivequal.service.qualification.CompletedJobs;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

class JobAnalyzerTest {

	private final Profile consistency = new Catalog().find("consistency-2000s").orElseThrow();

	private final PhaseSpec randwrite = this.consistency.phases().get(2);

	@Test
	void flatPhaseIsSteadyOnceOutOfItsFreshStateAndPerfectlyConsistent() {
		CompletedJobs.JobFacts job = job(List.of(Criterion.fromJson("consistencyRatio", "atLeast", 0.9, null, null),
				Criterion.fromJson("steadyStateIops", "atLeast", 20000.0, null, null)));
		JobAnalyzer.JobAnalysis analysis = JobAnalyzer.analyze(job, Optional.of(this.consistency),
				List.of(new JobAnalyzer.PhaseInput(this.randwrite, null, flat(2000, 10000), null)), List.of());
		JobAnalyzer.PhaseAnalysis phase = analysis.phases().get(0);
		assertThat(phase.iops().steadyState().reached()).isTrue();
		// Flat IOPS (no cliff) and no media counter: the written-bytes fallback decides.
		// 40.96 MB/s over a 16 GiB range with W = 1.5: round 11 is the first eligible one
		// (11 x 60 x 40.96 MB = 27.0 GB >= 1.5 x 17.2 GB), so the first window whose
		// ten-round horizon (rounds 11..20) holds is rounds 16..20, ending at 1260 s; W
		// comes
		// from the profile.
		assertThat(phase.iops().steadyState().eligibility().rangeWritesRequired()).isEqualTo(1.5);
		assertThat(phase.iops().steadyState().eligibility().testedRangeBytes()).hasValue(16L << 30);
		assertThat(phase.iops().steadyState().freshState().evidence())
			.isEqualTo(io.drivequal.analysis.FreshState.Evidence.WRITTEN_BYTES);
		assertThat(phase.iops().steadyState().window().orElseThrow().windowEndS()).isEqualTo(1260);
		assertThat(phase.iops().steadyState().end().holds()).isTrue();
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
		CompletedJobs.JobFacts job = job(List.of(Criterion.fromJson("waf", "atMost", 3.0, null, null)));
		JobAnalyzer.JobAnalysis analysis = JobAnalyzer.analyze(job, Optional.of(this.consistency), List
			.of(new JobAnalyzer.PhaseInput(this.randwrite, null, flat(2000, 10000), StoredDocuments.smart(smart))),
				List.of());
		assertThat(analysis.phases().get(0).waf().waf().value()).hasValue(2.5);
		assertThat(analysis.verdict().outcome()).isEqualTo(Outcome.PASS);

		Map<String, Map<String, Object>> noOcp = Map.of("before", Map.of("available", true, "dataUnitsWritten", 1L),
				"after", Map.of("available", true, "dataUnitsWritten", 2L));
		JobAnalyzer.JobAnalysis unknown = JobAnalyzer.analyze(job, Optional.of(this.consistency), List
			.of(new JobAnalyzer.PhaseInput(this.randwrite, null, flat(2000, 10000), StoredDocuments.smart(noOcp))),
				List.of());
		assertThat(unknown.phases().get(0).waf().waf().isKnown()).isFalse();
		assertThat(unknown.verdict().outcome()).isEqualTo(Outcome.INCONCLUSIVE);
	}

	@Test
	void placementWafRatioIsThePlacedPhasesWafOverTheNotPlacedOnes() {
		// placed: 1.28 TB media for 512 GB host -> 2.5; not placed: 1.6 TB -> 3.125;
		// ratio 0.8
		PhaseSpec placed = PhaseSpec.ofStreams(1, "placed", 600, List.of());
		PhaseSpec notPlaced = PhaseSpec.ofStreams(2, "not-placed", 600, List.of());
		CompletedJobs.JobFacts job = job(List.of(Criterion.fromJson("placementWafRatio", "atMost", 0.9, null, null)));
		JobAnalyzer.JobAnalysis analysis = JobAnalyzer.analyze(job, Optional.empty(),
				List.of(new JobAnalyzer.PhaseInput(placed, null, List.of(),
						StoredDocuments.smart(media(1_280_000_000_000L))),
						new JobAnalyzer.PhaseInput(notPlaced, null, List.of(),
								StoredDocuments.smart(media(1_600_000_000_000L)))),
				List.of());
		assertThat(analysis.metrics().get("placementWafRatio").values().iterator().next()).isCloseTo(0.8,
				org.assertj.core.data.Offset.offset(1e-12));
		assertThat(analysis.verdict().outcome()).as(analysis.verdict().toString()).isEqualTo(Outcome.PASS);

		// the same with a ratio above the limit fails; without the not-placed phase it is
		// unknown
		JobAnalyzer.JobAnalysis worse = JobAnalyzer.analyze(job, Optional.empty(),
				List.of(new JobAnalyzer.PhaseInput(placed, null, List.of(),
						StoredDocuments.smart(media(1_550_000_000_000L))),
						new JobAnalyzer.PhaseInput(notPlaced, null, List.of(),
								StoredDocuments.smart(media(1_600_000_000_000L)))),
				List.of());
		assertThat(worse.verdict().outcome()).isEqualTo(Outcome.FAIL);
		assertThat(JobAnalyzer.placementWafRatio(java.util.Map.of("placed", Measure.known(2.5))))
			.isEqualTo(Measure.unknown("the job has no placed and not-placed phases with SMART snapshots"));
		assertThat(JobAnalyzer.placementWafRatio(java.util.Map.of("placed", Measure.known(2.5), "not-placed",
				Measure.unknown("the drive has no OCP C0h log"))))
			.isEqualTo(Measure.unknown("the WAF of phase not-placed is unknown: the drive has no OCP C0h log"));
	}

	private static Map<String, Map<String, Object>> media(long mediaBytes) {
		return Map.of("before",
				Map.of("available", true, "dataUnitsWritten", 1_000_000L, "ocp",
						Map.of("physicalMediaUnitsWrittenBytes", 0L)),
				"after", Map.of("available", true, "dataUnitsWritten", 2_000_000L, "ocp",
						Map.of("physicalMediaUnitsWrittenBytes", mediaBytes)));
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
				job(List.of(Criterion.fromJson("trimRecovery", "atLeast", 0.7, null, null))), Optional.of(trim), inputs,
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
		CompletedJobs.JobFacts job = job(List.of(Criterion.fromJson("purgeVerified", "atLeast", 1.0, null, null),
				Criterion.fromJson("verifyMismatches", "atMost", 0.0, null, null)));
		JobAnalyzer.JobAnalysis analysis = JobAnalyzer.analyze(job, Optional.of(this.consistency),
				List.of(new JobAnalyzer.PhaseInput(purge, StoredDocuments.result(silentPurge), List.of(), null),
						new JobAnalyzer.PhaseInput(verify, StoredDocuments.result(corrupted), List.of(), null)),
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
				job(List.of(Criterion.fromJson("purgeVerified", "atLeast", 1.0, null, null))),
				Optional.of(this.consistency),
				List.of(new JobAnalyzer.PhaseInput(purge, StoredDocuments.result(unverifiable), List.of(), null)),
				List.of());
		assertThat(proven.verdict().outcome()).isEqualTo(Outcome.INCONCLUSIVE);
		assertThat(proven.verdict().criteria().get(0).explanation()).contains("the null engine stores nothing");
	}

	@Test
	void aDriveThatLostFlushedWritesFailsThePowerLossCriteriaAndAnHonestOnePasses() {
		PhaseSpec cycles = PhaseSpec.ofPowerCycle(0, "power-cycles", 8, 1.0,
				new PowerCycleSpec("sim", 100, 2000, 128, null));
		List<Criterion> criteria = List.of(Criterion.fromJson("powerLossFailedCycles", "atMost", 0.0, null, null),
				Criterion.fromJson("powerLossLostDurableBlocks", "atMost", 0.0, null, null));
		Map<String, Object> liar = Map.of("samples", 0, "powerCycle",
				Map.of("cycles", 100, "cyclesFailed", 42, "lostDurable", 747, "lostAllowed", 2449, "verdict", "fail"));
		Map<String, Object> honest = Map.of("samples", 0, "powerCycle",
				Map.of("cycles", 100, "cyclesFailed", 0, "lostDurable", 0, "lostAllowed", 2458, "verdict", "pass"));
		JobAnalyzer.JobAnalysis lied = JobAnalyzer.analyze(job(criteria), Optional.empty(),
				List.of(new JobAnalyzer.PhaseInput(cycles, StoredDocuments.result(liar), List.of(), null)), List.of());
		assertThat(lied.verdict().criteria()).extracting((c) -> c.outcome())
			.containsExactly(Outcome.FAIL, Outcome.FAIL);
		assertThat(lied.verdict().criteria().get(0).explanation())
			.isEqualTo("powerLossFailedCycles measured 42 cycles in phase power-cycles, limit <= 0");
		JobAnalyzer.JobAnalysis kept = JobAnalyzer.analyze(job(criteria), Optional.empty(),
				List.of(new JobAnalyzer.PhaseInput(cycles, StoredDocuments.result(honest), List.of(), null)),
				List.of());
		assertThat(kept.verdict().outcome()).isEqualTo(Outcome.PASS);
	}

	@Test
	@SuppressWarnings("unchecked")
	void aPhaseWithRoundsKeepsEachStepsWindowLatencyInTheStoredAnalysis() {
		// pts-latency's rounds phase as the runner reported it: its phase result, read
		// back from the index, is the event's totals and rounds.
		Profile latency = new Catalog().find("pts-latency").orElseThrow();
		Contracts contracts = Contracts.load();
		Map<String, Object> result = contracts.mapper()
			.convertValue(
					contracts.mapper()
						.readTree(Contracts
							.resource("examples/job-event/valid/phase-completed-rounds-latency-window.json")),
					Map.class);
		// the event's envelope stays on the event (time becomes the document's
		// @timestamp)
		result.keySet().removeAll(java.util.Set.of("schemaVersion", "type", "eventId", "seq", "time"));
		CompletedJobs.JobFacts job = new CompletedJobs.JobFacts("q-2", "pts-latency", "SIM-1", "DQSIM-T", "1.0",
				8L << 30, latency.phases(), null, List.of(), Instant.parse("2026-11-25T16:00:00Z"), null);
		JobAnalyzer.JobAnalysis analysis = JobAnalyzer.analyze(job, Optional.of(latency), List
			.of(new JobAnalyzer.PhaseInput(latency.phases().get(3), StoredDocuments.result(result), List.of(), null)),
				List.of());
		// the rounds as JSON are the rounds the runner reported
		JsonMapper json = JsonMapper.builder().build();
		assertThat(json.readValue(json.writeValueAsString(analysis.phases().get(0).rounds()), Map.class))
			.isEqualTo(result.get("rounds"));
		// stored as the sweeper stores it (JSON in the jobs index), and served as the
		// report reads it
		Map<String, Object> stored = json.readValue(json.writeValueAsString(json.convertValue(analysis, Map.class)),
				Map.class);
		Map<String, Object> phase = ((List<Map<String, Object>>) stored.get("phases")).get(0);
		Map<String, Object> window = (Map<String, Object>) ((Map<String, Object>) phase.get("rounds"))
			.get("windowLatency");
		assertThat(window).containsEntry("firstRound", 7).containsEntry("lastRound", 11);
		List<Map<String, Object>> steps = (List<Map<String, Object>>) window.get("steps");
		assertThat(steps).hasSize(9);
		assertThat((Map<String, Object>) steps.get(7).get("total")).containsEntry("ios", 3745000)
			.containsEntry("meanNs", 12688)
			.containsEntry("maxNs", 1830440);
	}

	@Test
	void theSubmissionsWOverridesTheProfiles() {
		CompletedJobs.JobFacts job = new CompletedJobs.JobFacts("q-1", "consistency-2000s", "SIM-1", "DQSIM-T", "1.0",
				16L << 30, this.consistency.phases(), null, List.of(), Instant.parse("2026-11-22T21:00:00Z"), 0.0);
		JobAnalyzer.PhaseAnalysis phase = JobAnalyzer
			.analyze(job, Optional.of(this.consistency),
					List.of(new JobAnalyzer.PhaseInput(this.randwrite, null, flat(2000, 10000), null)), List.of())
			.phases()
			.get(0);
		// W = 0: with no cliff and no media counter every round is eligible, so the flat
		// phase is steady once its ten-round horizon holds: rounds 5..9, horizon 0..9.
		assertThat(phase.iops().steadyState().eligibility().rangeWritesRequired()).isZero();
		assertThat(phase.iops().steadyState().reachedAtRound()).hasValue(9);
	}

	@Test
	void randomWritesOfEarlierPhasesSinceTheLastFillCount() {
		// idle-recovery: purge, fill, 2000 s of random writes, idle, 60 s of random
		// writes,
		// 60 s sequential. The phase after idle counts the 2000 s phase's writes (from
		// its
		// phase-completed total), the fill resets the count.
		Profile idle = new Catalog().find("idle-recovery").orElseThrow();
		List<JobAnalyzer.PhaseInput> inputs = new ArrayList<>();
		for (PhaseSpec phase : idle.phases()) {
			Map<String, Object> result = "randwrite-4k-qd32".equals(phase.name())
					? Map.of("samples", 2000, "write", Map.of("ios", 1L, "bytes", 20_000_000_000L)) : null;
			inputs.add(new JobAnalyzer.PhaseInput(phase, StoredDocuments.result(result), List.of(), null));
		}
		io.drivequal.analysis.Eligibility afterIdle = PhaseEligibility.of(inputs, 4, 1.0, 16L << 30, false);
		assertThat(afterIdle.randomWriteBytesBefore()).isEqualTo(20_000_000_000L);
		assertThat(afterIdle.basis()).isEqualTo("since the fill in phase 1 (precondition), including "
				+ "20,000,000,000 bytes written at random by phase 2 (randwrite-4k-qd32)");
		io.drivequal.analysis.Eligibility first = PhaseEligibility.of(inputs, 2, 1.0, 16L << 30, false);
		assertThat(first.randomWriteBytesBefore()).isZero();
		assertThat(first.basis()).isEqualTo("since the fill in phase 1 (precondition)");
		// The sequential phase after idle does not write at random, but it does write:
		// its
		// rounds are not analysed as IOPS; a read phase has every round eligible.
		PhaseSpec read = new PhaseSpec(0, "rr", "workload", "randread", null, 4096, 32, 100.0, 60L, null, null, null,
				null, null, null, null);
		assertThat(PhaseEligibility
			.of(List.of(new JobAnalyzer.PhaseInput(read, null, List.of(), null)), 0, 1.0, null, false)
			.applies()).isFalse();
		// Without a capacity the range is unknown; without a purge or fill before it the
		// drive is taken as fresh at the start of the job.
		PhaseSpec write = new PhaseSpec(0, "rw", "workload", "randwrite", null, 4096, 32, 50.0, 60L, null, null, null,
				null, null, null, null);
		List<JobAnalyzer.PhaseInput> alone = List.of(new JobAnalyzer.PhaseInput(write, null, List.of(), null));
		assertThat(PhaseEligibility.of(alone, 0, 1.0, null, false).testedRangeBytes()).isEmpty();
		io.drivequal.analysis.Eligibility half = PhaseEligibility.of(alone, 0, 2.0, 1_000_000_001L, false);
		assertThat(half.testedRangeBytes()).hasValue(500_000_000L);
		assertThat(half.rangeWritesRequired()).isEqualTo(2.0);
		assertThat(half.basis()).startsWith("no purge or fill precedes it");
	}

	@Test
	void writesAboveEightMillisecondsAreCountedFromThePhasesHistogramAndJudged() {
		// 999,000 writes at 100 µs and 1,000 at 9.0 ms (lowest equivalent values of the
		// contract's layout): 1,000 above 8 ms of 1,000,000, 1,000 per million
		org.HdrHistogram.Histogram layout = new org.HdrHistogram.Histogram(2);
		long fast = layout.lowestEquivalentValue(100_000);
		long slow = layout.lowestEquivalentValue(9_000_000);
		Map<String, Object> result = Map.of("durationNs", 2_000_000_000_000L, "samples", 2000L, "write",
				Map.of("ios", 1_000_000L, "bytes", 4_096_000_000L, "latencyHistogram",
						Map.of("totalCount", 1_000_000L, "minNs", fast, "maxNs", slow, "counts",
								List.of(List.of(fast, 999_000L), List.of(slow, 1_000L)))),
				"read", Map.of("ios", 0L, "bytes", 0L));
		CompletedJobs.JobFacts job = job(
				List.of(Criterion.fromJson("writeIosAbove8MsPerMillion", "atMost", 500.0, null, null)));
		JobAnalyzer.JobAnalysis analysis = JobAnalyzer.analyze(job, Optional.of(this.consistency), List
			.of(new JobAnalyzer.PhaseInput(this.randwrite, StoredDocuments.result(result), flat(2000, 10000), null)),
				List.of());
		assertThat(analysis.metrics().get("writeIosAbove8Ms")).containsExactly(Map.entry("randwrite-4k-qd32", 1000.0));
		assertThat(analysis.metrics().get("writeIosAbove8MsPerMillion"))
			.containsExactly(Map.entry("randwrite-4k-qd32", 1000.0));
		// no reads: no read count
		assertThat(analysis.metrics()).doesNotContainKey("readIosAbove2500Us");
		assertThat(analysis.verdict().outcome()).isEqualTo(Outcome.FAIL);
	}

	private CompletedJobs.JobFacts job(List<Criterion> criteria) {
		return new CompletedJobs.JobFacts("q-1", "consistency-2000s", "SIM-1", "DQSIM-T", "1.0", 16L << 30,
				this.consistency.phases(), null, criteria, Instant.parse("2026-11-22T21:00:00Z"), null);
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
