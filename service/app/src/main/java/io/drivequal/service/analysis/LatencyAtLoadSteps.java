/*
 * Finds the steps of a latency-at-load sweep in a job's phases (docs/methodology.md, "Latency at
 * load") and turns each into the analysis library's LatencyAtLoad.Step; the judged sweep goes into
 * the job's analysis for the report's knee chart.
 */
package io.drivequal.service.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

import io.drivequal.analysis.LatencyAtLoad;
import io.drivequal.analysis.LatencyQos;
import io.drivequal.analysis.LatencyQosAnalyzer;
import io.drivequal.analysis.PhaseLatencyHistogram;
import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.catalog.StreamSpec;
import io.drivequal.service.ingest.PhaseResult;

/**
 * A step is a multi-stream workload phase with at least one open-loop read stream
 * (randread or read at rateIops); the sweep is the job's steps in plan order, when there
 * are two or more and each offers a higher planned read rate than the one before. Offered
 * and achieved are the open-loop read streams' offered IOs and completed reads over the
 * phase's duration; the tail is the P99.99 of their merged read response-time histograms.
 * A step the runner skipped because its sweepGroup saturated at an earlier step is a step
 * saturated beyond that one, offering its planned rate: never missing data.
 */
final class LatencyAtLoadSteps {

	private LatencyAtLoadSteps() {
	}

	/**
	 * The sweep as the report shows it.
	 *
	 * @param steps each step's figures, in plan order
	 * @param kneePhase the knee's phase, null without a knee
	 * @param kneeBy "latency" or "saturation", null without a knee
	 * @param saturatedPhase the first saturated step's phase, null when none saturated
	 * @param holdsP9999Of2500UsUpToPhase the last step of the run from the first that
	 * holds read response P99.99 &lt;= 2,500 µs unsaturated, null when the first step
	 * misses
	 * @param kneeMultiple the knee's multiple of the low-load P99.99 (the lowest of the
	 * steps before)
	 * @param saturationMargin a step saturates below (1 - this) x its offer
	 */
	record View(List<StepView> steps, String kneePhase, String kneeBy, String saturatedPhase,
			String holdsP9999Of2500UsUpToPhase, double kneeMultiple, double saturationMargin) {

		static View of(LatencyAtLoad.Sweep sweep, List<Integer> phaseIndexes, List<String> skippedBy) {
			List<StepView> steps = new ArrayList<>();
			for (int i = 0; i < sweep.steps().size(); i++) {
				LatencyAtLoad.Step step = sweep.steps().get(i);
				steps.add(new StepView(phaseIndexes.get(i), step.phaseName(), step.offeredIops(), step.achievedIops(),
						step.skipped() ? null : LatencyQos.toUs(step.responseP9999Ns()), step.saturated(),
						(i < skippedBy.size()) ? skippedBy.get(i) : null));
			}
			return new View(steps, sweep.knee().map(LatencyAtLoad.Step::phaseName).orElse(null), sweep.kneeBy(),
					(sweep.saturatedStep() < 0) ? null : sweep.steps().get(sweep.saturatedStep()).phaseName(),
					sweep.holdsUpTo(LatencyAtLoad.FIOSYNTH_READ_P9999_BOUND_NS)
						.map(LatencyAtLoad.Step::phaseName)
						.orElse(null),
					LatencyAtLoad.KNEE_MULTIPLE, LatencyAtLoad.SATURATION_MARGIN);
		}

	}

	/**
	 * One step: rates per second over the phase's duration.
	 *
	 * @param readResponseP9999Us null for a skipped step (nothing measured)
	 * @param skipped why the runner skipped the step (its message, naming the saturated
	 * step), null when the step ran
	 */
	record StepView(int phaseIndex, String phaseName, double offeredIops, double achievedIops,
			Double readResponseP9999Us, boolean saturated, String skipped) {
	}

	/**
	 * A judged sweep, the phase index of each of its steps and, for the steps the runner
	 * skipped, its message (null for a step that ran).
	 */
	record Found(LatencyAtLoad.Sweep sweep, List<Integer> phaseIndexes, List<String> skippedBy) {

		View view() {
			return View.of(this.sweep, this.phaseIndexes, this.skippedBy);
		}

	}

	/**
	 * The job's sweep.
	 * @param inputs the job's phases in plan order
	 * @return the sweep judged, empty when the job has fewer than two steps or their
	 * planned rates do not rise
	 */
	static Optional<Found> of(List<JobAnalyzer.PhaseInput> inputs) {
		List<LatencyAtLoad.Step> steps = new ArrayList<>();
		List<Integer> indexes = new ArrayList<>();
		List<String> skippedBy = new ArrayList<>();
		long previousRate = 0;
		for (JobAnalyzer.PhaseInput input : inputs) {
			List<Integer> reads = openLoopReads(input.spec());
			if (reads.isEmpty()) {
				continue;
			}
			long rate = reads.stream().mapToLong((i) -> input.spec().streams().get(i).rateIops()).sum();
			if (rate <= previousRate) {
				return Optional.empty();
			}
			previousRate = rate;
			Optional<String> skipped = skippedMessage(input.result());
			Optional<LatencyAtLoad.Step> step = skipped.isPresent()
					? Optional.of(LatencyAtLoad.Step.skippedAfterSaturation(input.spec().name(), rate))
					: step(input.spec().name(), reads, input.result());
			if (step.isEmpty()) {
				return Optional.empty();
			}
			steps.add(step.get());
			indexes.add(input.spec().index());
			skippedBy.add(skipped.orElse(null));
		}
		if (steps.size() < 2) {
			return Optional.empty();
		}
		return Optional.of(new Found(LatencyAtLoad.judge(steps), indexes, skippedBy));
	}

	/** The runner's message when it skipped the phase, empty when the phase ran. */
	static Optional<String> skippedMessage(PhaseResult result) {
		return Optional.ofNullable(result).map(PhaseResult::skipped).map(PhaseResult.Skipped::message);
	}

	/** The indexes of the phase's open-loop read streams at a rate in IOPS. */
	private static List<Integer> openLoopReads(PhaseSpec spec) {
		List<Integer> reads = new ArrayList<>();
		if (!spec.isWorkload() || spec.streams() == null) {
			return reads;
		}
		for (int i = 0; i < spec.streams().size(); i++) {
			StreamSpec stream = spec.streams().get(i);
			if (stream.rateIops() != null && ("randread".equals(stream.rw()) || "read".equals(stream.rw()))) {
				reads.add(i);
			}
		}
		return reads;
	}

	private static Optional<LatencyAtLoad.Step> step(String phaseName, List<Integer> reads, PhaseResult result) {
		if (result == null || result.durationNs() <= 0 || result.streams() == null) {
			return Optional.empty();
		}
		double seconds = result.durationNs() / 1e9;
		long offered = 0;
		long achieved = 0;
		List<PhaseResult.LatencyHistogram> histograms = new ArrayList<>();
		for (PhaseResult.StreamTotals stream : result.streams()) {
			if (!reads.contains(stream.index())) {
				continue;
			}
			offered += (stream.offeredIos() != null) ? stream.offeredIos() : 0;
			if (stream.read() != null) {
				achieved += stream.read().ios();
				if (stream.read().responseTime() != null && stream.read().responseTime().latencyHistogram() != null) {
					histograms.add(stream.read().responseTime().latencyHistogram());
				}
			}
		}
		Optional<LatencyQos> tail = merged(histograms);
		if (offered == 0 || tail.isEmpty()) {
			return Optional.empty();
		}
		return Optional
			.of(new LatencyAtLoad.Step(phaseName, offered / seconds, achieved / seconds, tail.get().p99_99Ns()));
	}

	/** The percentiles of several contract histograms (same bucket layout) merged. */
	static Optional<LatencyQos> merged(List<PhaseResult.LatencyHistogram> histograms) {
		if (histograms.isEmpty()) {
			return Optional.empty();
		}
		TreeMap<Long, Long> buckets = new TreeMap<>();
		long total = 0;
		long min = Long.MAX_VALUE;
		long max = 0;
		for (PhaseResult.LatencyHistogram histogram : histograms) {
			if (histogram.totalCount() == 0) {
				continue;
			}
			total += histogram.totalCount();
			min = Math.min(min, histogram.minNs());
			max = Math.max(max, histogram.maxNs());
			for (long[] pair : histogram.pairs()) {
				buckets.merge(pair[0], pair[1], Long::sum);
			}
		}
		if (total == 0) {
			return Optional.empty();
		}
		long[][] pairs = buckets.entrySet()
			.stream()
			.map((e) -> new long[] { e.getKey(), e.getValue() })
			.toArray(long[][]::new);
		return LatencyQosAnalyzer.of(PhaseLatencyHistogram.fromPairs(total, min, max, pairs));
	}

}
