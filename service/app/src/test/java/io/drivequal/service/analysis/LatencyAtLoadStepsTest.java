/*
 * The latency-at-load profile's steps found in a job's phase results as the runner reports them
 * (each open-loop read stream's offered IOs, its reads and their response-time histogram), judged
 * into knee, saturation and the per-TB metrics, with the verdict on a buyer's line and the sweep
 * stored for the report.
 */
package io.drivequal.service.analysis;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.drivequal.analysis.Criterion;
import io.drivequal.analysis.Outcome;
import io.drivequal.service.catalog.Catalog;
import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.catalog.Profile;
import io.drivequal.service.qualification.CompletedJobs;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

class LatencyAtLoadStepsTest {

	private static final long EIGHT_TB = 8_000_000_000_000L;

	private static final long STEP_NS = 60_000_000_000L;

	private final Profile profile = new Catalog().find("latency-at-load").orElseThrow();

	/**
	 * A step's phase result: achieved reads, of which one in 1,000 takes tailNs (so
	 * P99.99 is tailNs) and the rest 50 µs.
	 */
	private static Map<String, Object> result(PhaseSpec spec, long offered, long achieved, long tailUs) {
		// the contract's buckets: HdrHistogram's lowest equivalent values, 2 digits
		org.HdrHistogram.Histogram layout = new org.HdrHistogram.Histogram(2);
		long body = layout.lowestEquivalentValue(50_000);
		long tailNs = layout.lowestEquivalentValue(tailUs * 1000);
		long tail = achieved / 1000;
		Map<String, Object> histogram = Map.of("totalCount", achieved, "minNs", body, "maxNs", tailNs, "counts",
				List.of(List.of(body, achieved - tail), List.of(tailNs, tail)));
		Map<String, Object> read = Map.of("ios", achieved, "bytes", achieved * 4096, "latencyHistogram", histogram,
				"responseTime", Map.of("meanLatencyNs", 60_000L, "latencyHistogram", histogram));
		return Map.of("phaseIndex", spec.index(), "phaseName", spec.name(), "kind", "workload", "durationNs", STEP_NS,
				"samples", 60L, "read", read, "write", Map.of("ios", 0L, "bytes", 0L), "streams",
				List.of(Map.of("index", 0, "name", "reads", "offeredIos", offered, "read", read)));
	}

	/** The profile's steps with these achieved rates (IOPS) and response P99.99 (µs). */
	private List<JobAnalyzer.PhaseInput> inputs(long[] achievedIops, long[] p9999Us) {
		List<JobAnalyzer.PhaseInput> inputs = new ArrayList<>();
		inputs.add(new JobAnalyzer.PhaseInput(this.profile.phases().get(0), null, List.of(), null));
		for (int i = 0; i < achievedIops.length; i++) {
			PhaseSpec spec = this.profile.phases().get(2 + i);
			long offered = spec.streams().get(0).rateIops() * 60;
			inputs.add(new JobAnalyzer.PhaseInput(spec,
					StoredDocuments.result(result(spec, offered, achievedIops[i] * 60, p9999Us[i])), List.of(), null));
		}
		return inputs;
	}

	private CompletedJobs.JobFacts job(List<Criterion> criteria) {
		return new CompletedJobs.JobFacts("q-load", "latency-at-load", "SIM-1", "DQSIM-T", "1.0", EIGHT_TB,
				this.profile.phases(), null, criteria, Instant.parse("2026-11-29T06:00:00Z"), null);
	}

	@Test
	void theProfileIsASweepOfRisingOpenLoopReadRates() {
		List<Long> rates = this.profile.phases()
			.stream()
			.filter((phase) -> phase.streams() != null)
			.map((phase) -> phase.streams().get(0).rateIops())
			.toList();
		assertThat(rates).containsExactly(10_000L, 20_000L, 50_000L, 100_000L, 200_000L, 500_000L, 1_000_000L);
	}

	@Test
	@SuppressWarnings("unchecked")
	void theKneeTheSaturationAndTheBuyersLineFromTheStepsAsReported() {
		// 10k..100k kept up; the 100k step's tail is 4x the first's (the knee); 200k on
		// saturates (110k achieved)
		List<JobAnalyzer.PhaseInput> inputs = inputs(
				new long[] { 10_000, 20_000, 50_000, 100_000, 110_000, 110_000, 110_000 },
				new long[] { 100, 110, 150, 400, 30_000, 90_000, 120_000 });
		// "read P99.99 <= 2.5 ms up to 12,000 IOPS per TB": held to 100k / 8 TB = 12,500
		Criterion line = Criterion.fromJson("readIopsPerTbWithinP9999Of2500Us", "atLeast", 12_000.0, null, null);
		JobAnalyzer.JobAnalysis analysis = JobAnalyzer.analyze(job(List.of(line)), Optional.of(this.profile), inputs,
				List.of());
		assertThat(analysis.metrics().get("kneeReadIopsPerTb"))
			.containsExactly(Map.entry("randread-4k-100k", 12_500.0));
		assertThat(analysis.metrics().get("readIopsPerTbWithinP9999Of2500Us")).containsExactly(Map.entry("", 12_500.0));
		assertThat(analysis.verdict().outcome()).isEqualTo(Outcome.PASS);

		LatencyAtLoadSteps.View sweep = analysis.latencyAtLoad();
		assertThat(sweep.steps()).hasSize(7);
		assertThat(sweep.kneePhase()).isEqualTo("randread-4k-100k");
		assertThat(sweep.kneeBy()).isEqualTo("latency");
		assertThat(sweep.saturatedPhase()).isEqualTo("randread-4k-200k");
		assertThat(sweep.holdsP9999Of2500UsUpToPhase()).isEqualTo("randread-4k-100k");
		assertThat(sweep.steps().get(4).offeredIops()).isEqualTo(200_000.0);
		assertThat(sweep.steps().get(4).achievedIops()).isEqualTo(110_000.0);
		assertThat(sweep.steps().get(3).readResponseP9999Us()).isCloseTo(400.0,
				org.assertj.core.data.Percentage.withPercentage(1));
		// stored as the sweeper stores it, for the report
		Map<String, Object> stored = JsonMapper.builder().build().convertValue(analysis, Map.class);
		assertThat((Map<String, Object>) stored.get("latencyAtLoad")).containsEntry("kneePhase", "randread-4k-100k");
	}

	@Test
	void aTailOverTheBoundAtTheFirstStepFailsTheLineAndAFlatSweepHasNoKnee() {
		List<JobAnalyzer.PhaseInput> inputs = inputs(new long[] { 10_000, 20_000 }, new long[] { 3_000, 3_100 });
		Criterion line = Criterion.fromJson("readIopsPerTbWithinP9999Of2500Us", "atLeast", 1.0, null, null);
		JobAnalyzer.JobAnalysis analysis = JobAnalyzer.analyze(job(List.of(line)), Optional.of(this.profile), inputs,
				List.of());
		assertThat(analysis.metrics().get("readIopsPerTbWithinP9999Of2500Us")).containsExactly(Map.entry("", 0.0));
		assertThat(analysis.metrics()).doesNotContainKey("kneeReadIopsPerTb");
		assertThat(analysis.latencyAtLoad().kneePhase()).isNull();
		assertThat(analysis.verdict().outcome()).isEqualTo(Outcome.FAIL);
	}

	/** A step the runner skipped, as its phase-completed is stored: no IO, and why. */
	private static Map<String, Object> skippedResult(PhaseSpec spec, int saturatedPhaseIndex) {
		return Map.of("phaseIndex", spec.index(), "phaseName", spec.name(), "kind", "workload", "durationNs", 0L,
				"samples", 0L, "read", Map.of("ios", 0L, "bytes", 0L), "write", Map.of("ios", 0L, "bytes", 0L),
				"skipped", Map.of("reason", "sweep-saturated", "saturatedPhaseIndex", saturatedPhaseIndex, "message",
						"skipped: sweep randread-4k saturated at phase " + saturatedPhaseIndex));
	}

	@Test
	void stepsTheRunnerSkippedAfterSaturationAreSaturatedStepsNotMissingOnes() {
		// 200k saturates (110k achieved); the runner skipped 500k and 1M
		List<JobAnalyzer.PhaseInput> inputs = new ArrayList<>(inputs(
				new long[] { 10_000, 20_000, 50_000, 100_000, 110_000 }, new long[] { 100, 110, 150, 400, 30_000 }));
		for (int i = 7; i <= 8; i++) {
			PhaseSpec spec = this.profile.phases().get(i);
			assertThat(spec.sweepGroup()).isEqualTo("randread-4k");
			inputs
				.add(new JobAnalyzer.PhaseInput(spec, StoredDocuments.result(skippedResult(spec, 6)), List.of(), null));
		}
		JobAnalyzer.JobAnalysis analysis = JobAnalyzer.analyze(job(List.of()), Optional.of(this.profile), inputs,
				List.of());
		LatencyAtLoadSteps.View sweep = analysis.latencyAtLoad();
		// without them the sweep would still be found, but shorter: they are in it,
		// saturated
		assertThat(sweep.steps()).hasSize(7);
		assertThat(sweep.saturatedPhase()).isEqualTo("randread-4k-200k");
		assertThat(sweep.kneePhase()).isEqualTo("randread-4k-100k");
		assertThat(sweep.holdsP9999Of2500UsUpToPhase()).isEqualTo("randread-4k-100k");
		LatencyAtLoadSteps.StepView skipped = sweep.steps().get(5);
		assertThat(skipped.phaseName()).isEqualTo("randread-4k-500k");
		assertThat(skipped.saturated()).isTrue();
		assertThat(skipped.offeredIops()).isEqualTo(500_000.0);
		assertThat(skipped.achievedIops()).isZero();
		assertThat(skipped.readResponseP9999Us()).isNull();
		assertThat(skipped.skipped()).isEqualTo("skipped: sweep randread-4k saturated at phase 6");
		assertThat(sweep.steps().get(4).skipped()).isNull();
		assertThat(analysis.metrics().get("kneeReadIopsPerTb"))
			.containsExactly(Map.entry("randread-4k-100k", 12_500.0));
		JobAnalyzer.PhaseAnalysis phase = analysis.phases().get(analysis.phases().size() - 1);
		assertThat(phase.skipped().saturatedPhaseIndex()).isEqualTo(6);
	}

	@Test
	void phasesWhoseRatesDoNotRiseAreNoSweep() {
		PhaseSpec first = this.profile.phases().get(2);
		JobAnalyzer.PhaseInput a = new JobAnalyzer.PhaseInput(first,
				StoredDocuments.result(result(first, 600_000, 600_000, 100)), List.of(), null);
		assertThat(LatencyAtLoadSteps.of(List.of(a, a))).isEmpty();
		assertThat(LatencyAtLoadSteps.of(List.of(a))).isEmpty();
	}

}
