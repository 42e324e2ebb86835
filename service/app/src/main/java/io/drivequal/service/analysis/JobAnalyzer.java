/*
 * The analysis of one finished job, phase by phase and then as a whole, in the order the analysis
 * library prescribes (its package-info), and the verdict against the buyer's criteria. Pure: all
 * inputs are given, nothing is read or written here.
 */
package io.drivequal.service.analysis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

import io.drivequal.analysis.Criterion;
import io.drivequal.analysis.Eligibility;
import io.drivequal.analysis.Endurance;
import io.drivequal.analysis.EnduranceProjection;
import io.drivequal.analysis.EnduranceSpec;
import io.drivequal.analysis.IopsPhaseAnalysis;
import io.drivequal.analysis.IopsPhaseAnalyzer;
import io.drivequal.analysis.IopsPhaseOptions;
import io.drivequal.analysis.LatencyQos;
import io.drivequal.analysis.LatencyQosAnalyzer;
import io.drivequal.analysis.Measure;
import io.drivequal.analysis.MediaWrites;
import io.drivequal.analysis.Metric;
import io.drivequal.analysis.MetricValues;
import io.drivequal.analysis.PerSecondSeries;
import io.drivequal.analysis.PhaseLatencyHistogram;
import io.drivequal.analysis.ReadBack;
import io.drivequal.analysis.Recovery;
import io.drivequal.analysis.SmartCounters;
import io.drivequal.analysis.Throughput;
import io.drivequal.analysis.Verdict;
import io.drivequal.analysis.VerdictJudge;
import io.drivequal.analysis.WriteAmplification;
import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.catalog.Profile;
import io.drivequal.service.ingest.PhaseResult;
import io.drivequal.service.ingest.SamplePoint;
import io.drivequal.service.qualification.CompletedJobs;
import io.drivequal.service.qualification.DriveSpec;
import io.drivequal.service.qualification.SmartSnapshot;

final class JobAnalyzer {

	/**
	 * placementWafRatio's phases: the same streams with FDP placement handles, and
	 * without.
	 */
	static final String PLACED_PHASE = "placed";

	static final String NOT_PLACED_PHASE = "not-placed";

	/** The seeds' zoom starts at t = 1400 s, for 2000 s phases only. */
	private static final long SEEDS_PHASE_LENGTH_S = 2000;

	/** readIosAbove2500Us: FioSynth's read P99.99 target (4K_L2R6DWPD_wTRIM). */
	private static final long READ_COUNT_THRESHOLD_NS = 2_500_000;

	/** writeIosAbove8Ms: FioSynth's write P99.99 target (4K_L2R6DWPD_wTRIM). */
	private static final long WRITE_COUNT_THRESHOLD_NS = 8_000_000;

	private JobAnalyzer() {
	}

	/** What one phase left behind. */
	record PhaseInput(PhaseSpec spec, PhaseResult result, List<SamplePoint> samples, Map<String, SmartSnapshot> smart) {
	}

	/**
	 * Per-phase figures as stored in the job's analysis; purgeVerification and verify are
	 * the runner's read-backs as it sent them (null when the phase had none), rounds how
	 * a phase with adaptive rounds stopped, as the runner reported it (the report's SNIA
	 * pages plot its rounds), limitReached the limit that ended a workload phase
	 * (runtimeS or sizeBytes; null for other phases, and for runners or imports that do
	 * not say), skipped why the runner did not run the phase (reason,
	 * saturatedPhaseIndex, message; null when it ran).
	 */
	record PhaseAnalysis(int phaseIndex, String phaseName, String kind, int samples, Long expectedSamples,
			IopsPhaseAnalysis iops, Optional<Throughput.ThroughputResult> throughput, Optional<LatencyQos> writeLatency,
			Optional<LatencyQos> readLatency, WriteAmplification.WafResult waf, EnduranceProjection endurance,
			Optional<QueueDepth> queueDepth, PhaseResult.PurgeVerification purgeVerification,
			PhaseResult.VerifyResult verify, PhaseResult.RoundsResult rounds, String limitReached,
			PhaseResult.Skipped skipped) {
	}

	/**
	 * Little's law over a closed-loop phase: the effective queue depth the runner
	 * integrated, and mean latency x IOPS from the phase's exact means, which must agree.
	 */
	record QueueDepth(double effective, double meanLatencyTimesIops, double ratio) {

		static Optional<QueueDepth> of(PhaseResult result) {
			if (result == null || result.effectiveQueueDepth() == null || result.durationNs() == 0) {
				return Optional.empty();
			}
			double effective = result.effectiveQueueDepth();
			double latencySumNs = 0;
			for (PhaseResult.DirectionTotals totals : new PhaseResult.DirectionTotals[] { result.read(),
					result.write() }) {
				if (totals != null && totals.meanLatencyNs() != null) {
					latencySumNs += totals.meanLatencyNs().doubleValue() * totals.ios();
				}
			}
			double littles = latencySumNs / result.durationNs();
			return Optional.of(new QueueDepth(effective, littles, (effective > 0) ? littles / effective : 0));
		}

	}

	/**
	 * @param sniaConformance one line per test: where it departs from SNIA PTS (the purge
	 * that ran, WIPC, write cache, active range, rounds)
	 * @param metrics every known figure the verdict could judge: metric wire name to
	 * (phase name, or "" for the job) to value; what a campaign compares across samples
	 * @param latencyAtLoad the sweep of offered read rates, its saturation and knee; null
	 * when the job has none
	 */
	record JobAnalysis(List<PhaseAnalysis> phases, Measure trimRecovery, Measure idleRecovery, Verdict verdict,
			List<String> notes, HealthAnalysis health, List<SniaConformance.TestLine> sniaConformance,
			Map<String, Map<String, Double>> metrics, LatencyAtLoadSteps.View latencyAtLoad) {
	}

	static JobAnalysis analyze(CompletedJobs.JobFacts job, Optional<Profile> profile, List<PhaseInput> inputs,
			List<String> notes) {
		return analyze(job, profile, inputs, List.of(), notes);
	}

	/**
	 * @param health the job's health readings in the order they were taken
	 */
	static JobAnalysis analyze(CompletedJobs.JobFacts job, Optional<Profile> profile, List<PhaseInput> inputs,
			List<io.drivequal.service.ingest.HealthReading> health, List<String> notes) {
		MetricValues values = new MetricValues();
		List<PhaseAnalysis> phases = new ArrayList<>();
		Map<String, IopsPhaseAnalysis> iopsByName = new LinkedHashMap<>();
		Map<String, Throughput.ThroughputResult> throughputByName = new LinkedHashMap<>();
		Map<String, Measure> wafByName = new LinkedHashMap<>();
		for (int index = 0; index < inputs.size(); index++) {
			PhaseInput input = inputs.get(index);
			PhaseSpec spec = input.spec();
			IopsPhaseAnalysis iops = null;
			Optional<Throughput.ThroughputResult> throughput = Optional.empty();
			if (isRandomWorkload(spec)) {
				Eligibility eligibility = PhaseEligibility.of(inputs, index, rangeWritesRequired(job, profile),
						job.capacityBytes(), job.historyUnknown());
				iops = IopsPhaseAnalyzer.analyze(iopsSeries(input.samples()), writeBytesSeries(input.samples()),
						mediaWrites(health, spec.index()), eligibility, options(profile, spec));
				values.putIopsPhase(spec.name(), iops);
				iopsByName.put(spec.name(), iops);
			}
			else if (spec.isWorkload() || "precondition".equals(spec.kind())) {
				throughput = Throughput.meanMBps(bytesSeries(input.samples()));
				values.putThroughput(spec.name(), throughput);
				throughput.ifPresent((result) -> throughputByName.put(spec.name(), result));
			}
			Optional<PhaseLatencyHistogram> writes = histogram(
					(input.result() != null) ? input.result().write() : null);
			Optional<PhaseLatencyHistogram> reads = histogram((input.result() != null) ? input.result().read() : null);
			Optional<LatencyQos> writeLatency = writes.flatMap(LatencyQosAnalyzer::of);
			Optional<LatencyQos> readLatency = reads.flatMap(LatencyQosAnalyzer::of);
			values.putWriteLatency(spec.name(), writeLatency);
			values.putReadLatency(spec.name(), readLatency);
			values.putIosAbove(Metric.WRITE_IOS_ABOVE_8_MS, Metric.WRITE_IOS_ABOVE_8_MS_PER_MILLION, spec.name(),
					writes, WRITE_COUNT_THRESHOLD_NS);
			values.putIosAbove(Metric.READ_IOS_ABOVE_2500_US, Metric.READ_IOS_ABOVE_2500_US_PER_MILLION, spec.name(),
					reads, READ_COUNT_THRESHOLD_NS);
			putBandwidthPerTb(values, spec.name(), input.result(), job.capacityBytes());
			WriteAmplification.WafResult waf = null;
			EnduranceProjection endurance = null;
			if (input.smart() != null && input.smart().containsKey("before") && input.smart().containsKey("after")) {
				waf = WriteAmplification.between(counters(input.smart().get("before")),
						counters(input.smart().get("after")));
				values.putWaf(spec.name(), waf);
				wafByName.put(spec.name(), waf.waf());
				endurance = Endurance.project(enduranceSpec(job), waf.waf());
				values.putEndurance(spec.name(), endurance);
			}
			readBack(spec, input.result(), values);
			PhaseResult result = input.result();
			phases.add(new PhaseAnalysis(spec.index(), spec.name(), spec.kind(), input.samples().size(),
					(result != null) ? result.samples() : null, iops, throughput, writeLatency, readLatency, waf,
					endurance, QueueDepth.of(result), (result != null) ? result.purgeVerification() : null,
					(result != null) ? result.verify() : null, (result != null) ? result.rounds() : null,
					(result != null) ? result.limitReached() : null, (result != null) ? result.skipped() : null));
		}
		Measure trim = trimRecovery(throughputByName);
		Measure idle = idleRecovery(inputs, iopsByName);
		values.put(Metric.TRIM_RECOVERY, trim);
		values.put(Metric.IDLE_RECOVERY, idle);
		values.put(Metric.PLACEMENT_WAF_RATIO, placementWafRatio(wafByName));
		HealthAnalysis healthAnalysis = health(inputs, health);
		healthAnalysis.putInto(values);
		Optional<LatencyAtLoadSteps.Found> sweep = LatencyAtLoadSteps.of(inputs);
		sweep.ifPresent((found) -> values.putLatencyAtLoad(found.sweep(),
				(job.capacityBytes() != null) ? OptionalLong.of(job.capacityBytes()) : OptionalLong.empty()));
		Verdict verdict = VerdictJudge.judge(criteria(job, profile, values), values);
		Map<String, Map<String, Double>> metrics = new LinkedHashMap<>();
		values.known().forEach((metric, byPhase) -> metrics.put(metric.wireName(), byPhase));
		return new JobAnalysis(phases, trim, idle, verdict, notes, healthAnalysis,
				SniaConformance.of(inputs, job.driveCapabilities(), job.capacityBytes()), metrics,
				sweep.map(LatencyAtLoadSteps.Found::view).orElse(null));
	}

	private static HealthAnalysis health(List<PhaseInput> inputs,
			List<io.drivequal.service.ingest.HealthReading> health) {
		Map<Integer, List<io.drivequal.analysis.health.HealthReading>> byPhase = HealthAnalysis.byPhase(health);
		List<HealthAnalysis.PhaseData> phases = inputs.stream()
			.map((input) -> new HealthAnalysis.PhaseData(input.spec(), iopsSeries(input.samples()),
					byPhase.getOrDefault(input.spec().index(), List.of())))
			.toList();
		return HealthAnalysis.of(phases, HealthAnalysis.readings(health), HealthAnalysis.unavailableReason(health),
				HealthAnalysis.ocpReason(health, false), HealthAnalysis.ocpReason(health, true));
	}

	/**
	 * purgeVerified of a purge phase, verifyMismatches of a verify phase, the power-loss
	 * counts of a power-cycle phase.
	 */
	private static void readBack(PhaseSpec spec, PhaseResult result, MetricValues values) {
		if (result == null) {
			return;
		}
		if (result.purgeVerification() != null) {
			PhaseResult.PurgeVerification purge = result.purgeVerification();
			values.put(Metric.PURGE_VERIFIED, spec.name(),
					ReadBack.purgeVerified(purge.status(), purge.blocksFound(), purge.reason()));
		}
		if (result.verify() != null) {
			values.put(Metric.VERIFY_MISMATCHES, spec.name(),
					ReadBack.verifyMismatches(result.verify().blocksChecked(), result.verify().mismatches()));
		}
		if (result.powerCycle() != null) {
			PhaseResult.PowerCycleResult power = result.powerCycle();
			values.put(Metric.POWER_LOSS_FAILED_CYCLES, spec.name(),
					ReadBack.powerLossFailedCycles(power.cycles(), power.cyclesFailed()));
			values.put(Metric.POWER_LOSS_LOST_DURABLE_BLOCKS, spec.name(),
					ReadBack.powerLossLostDurableBlocks(power.cycles(), power.lostDurable()));
		}
	}

	static boolean isRandomWorkload(PhaseSpec spec) {
		return spec.isWorkload() && spec.rw() != null && spec.rw().startsWith("rand");
	}

	private static IopsPhaseOptions options(Optional<Profile> profile, PhaseSpec spec) {
		IopsPhaseOptions options = IopsPhaseOptions.defaults();
		if (profile.isPresent()) {
			Profile.AnalysisHints hints = profile.get().analysis();
			options = options.withRoundLengthS(hints.roundLengthS());
			if (hints.maxRounds() != null) {
				options = options.withMaxRounds(hints.maxRounds());
			}
			if (hints.fixedWindowFromS() != null && Long.valueOf(SEEDS_PHASE_LENGTH_S).equals(spec.runtimeS())) {
				options = options.withFixedWindowFirstT(hints.fixedWindowFromS());
			}
		}
		else if (Long.valueOf(SEEDS_PHASE_LENGTH_S).equals(spec.runtimeS())) {
			options = IopsPhaseOptions.consistency2000s();
		}
		return options;
	}

	private static PerSecondSeries iopsSeries(List<SamplePoint> samples) {
		PerSecondSeries.Builder series = PerSecondSeries.builder();
		samples.forEach((sample) -> series.add(sample.t(), sample.readIops() + sample.writeIops()));
		return series.build();
	}

	/**
	 * W: the submission's for this job, else the profile's, else 1.0 (explicit plans,
	 * imports without a profile).
	 */
	static double rangeWritesRequired(CompletedJobs.JobFacts job, Optional<Profile> profile) {
		if (job.rangeWritesRequired() != null) {
			return job.rangeWritesRequired();
		}
		return profile.map(Profile::analysis)
			.map(Profile.AnalysisHints::rangeWritesRequired)
			.orElse(Eligibility.DEFAULT_RANGE_WRITES_REQUIRED);
	}

	/**
	 * The drive's media and host write counters from the phase's health readings (those
	 * with an OCP C0h media-write counter); none when the drive reports no media writes.
	 */
	static MediaWrites mediaWrites(List<io.drivequal.service.ingest.HealthReading> health, int phaseIndex) {
		List<MediaWrites.Reading> readings = health.stream()
			.filter((reading) -> reading.phaseIndex() == phaseIndex && reading.available()
					&& reading.physicalMediaUnitsWrittenBytes() != null && reading.dataUnitsWritten() != null)
			.map((reading) -> new MediaWrites.Reading(reading.elapsedMs() / 1000.0,
					reading.physicalMediaUnitsWrittenBytes(),
					Math.multiplyExact(reading.dataUnitsWritten(),
							io.drivequal.analysis.SmartCounters.BYTES_PER_DATA_UNIT)))
			.toList();
		return readings.isEmpty() ? MediaWrites.none() : new MediaWrites(readings);
	}

	private static PerSecondSeries writeBytesSeries(List<SamplePoint> samples) {
		PerSecondSeries.Builder series = PerSecondSeries.builder();
		samples.forEach((sample) -> series.add(sample.t(), sample.writeBytes()));
		return series.build();
	}

	private static PerSecondSeries bytesSeries(List<SamplePoint> samples) {
		PerSecondSeries.Builder series = PerSecondSeries.builder();
		samples.forEach((sample) -> series.add(sample.t(), sample.readBytes() + sample.writeBytes()));
		return series.build();
	}

	private static Optional<PhaseLatencyHistogram> histogram(PhaseResult.DirectionTotals totals) {
		if (totals == null || totals.latencyHistogram() == null) {
			return Optional.empty();
		}
		PhaseResult.LatencyHistogram histogram = totals.latencyHistogram();
		return Optional.of(PhaseLatencyHistogram.fromPairs(histogram.totalCount(), histogram.minNs(), histogram.maxNs(),
				histogram.pairs()));
	}

	/**
	 * Each direction the phase did IO in, per TB of the drive's capacity (a direction
	 * without IOs gives no figure: buyers' floors name the directions their workload
	 * has).
	 */
	private static void putBandwidthPerTb(MetricValues values, String phaseName, PhaseResult result,
			Long capacityBytes) {
		if (result == null) {
			return;
		}
		Map<Metric, PhaseResult.DirectionTotals> directions = new LinkedHashMap<>();
		directions.put(Metric.READ_KIBPS_PER_TB, result.read());
		directions.put(Metric.WRITE_KIBPS_PER_TB, result.write());
		directions.put(Metric.TRIM_KIBPS_PER_TB, result.trim());
		directions.forEach((metric, totals) -> {
			if (totals != null && totals.ios() > 0) {
				values.putBandwidthPerTb(metric, phaseName, totals.bytes(), result.durationNs(),
						(capacityBytes != null) ? OptionalLong.of(capacityBytes) : OptionalLong.empty());
			}
		});
	}

	static SmartCounters counters(SmartSnapshot smart) {
		if (!smart.available()) {
			return SmartCounters.unavailable((smart.reason() != null) ? smart.reason() : "unavailable");
		}
		long dataUnitsWritten = smart.dataUnitsWritten();
		if (smart.ocp() != null) {
			return SmartCounters.withOcp(dataUnitsWritten, smart.physicalMediaUnitsWrittenBytes());
		}
		return SmartCounters.withoutOcp(dataUnitsWritten);
	}

	private static EnduranceSpec enduranceSpec(CompletedJobs.JobFacts job) {
		DriveSpec spec = job.spec();
		if (spec == null) {
			return new EnduranceSpec(OptionalLong.empty(), OptionalLong.empty(), optional(job.capacityBytes()),
					OptionalDouble.empty(), OptionalLong.empty());
		}
		return new EnduranceSpec(optional(spec.ratedPeCycles()), optional(spec.rawNandBytes()),
				optional(job.capacityBytes()),
				(spec.warrantyYears() != null) ? OptionalDouble.of(spec.warrantyYears()) : OptionalDouble.empty(),
				optional(spec.ratedTbwBytes()));
	}

	/** trim-validation's three sequential phases, by name. */
	/**
	 * The WAF of the phase named placed over that of the phase named not-placed (the same
	 * hot/cold streams with and without FDP placement handles), each from the drive's own
	 * counters (docs/methodology.md, "placementWafRatio").
	 */
	static Measure placementWafRatio(Map<String, Measure> waf) {
		Measure placed = waf.get(PLACED_PHASE);
		Measure notPlaced = waf.get(NOT_PLACED_PHASE);
		if (placed == null || notPlaced == null) {
			return Measure.unknown(
					"the job has no " + PLACED_PHASE + " and " + NOT_PLACED_PHASE + " phases with SMART snapshots");
		}
		if (!placed.isKnown() || !notPlaced.isKnown()) {
			return Measure.unknown("the WAF of phase " + (placed.isKnown() ? NOT_PLACED_PHASE : PLACED_PHASE)
					+ " is unknown: " + ((Measure.Unknown) (placed.isKnown() ? notPlaced : placed)).reason());
		}
		return Measure.known(placed.value().getAsDouble() / notPlaced.value().getAsDouble());
	}

	private static Measure trimRecovery(Map<String, Throughput.ThroughputResult> throughput) {
		if (!throughput.containsKey("seq-clean") || !throughput.containsKey("seq-dirty")
				|| !throughput.containsKey("seq-after-trim")) {
			return Measure.unknown("the job has no seq-clean, seq-dirty and seq-after-trim phases");
		}
		return Recovery.trimRecovery(throughput.get("seq-clean").meanMBps(), throughput.get("seq-dirty").meanMBps(),
				throughput.get("seq-after-trim").meanMBps());
	}

	/**
	 * The random-write phase before the first idle phase against the first random phase
	 * after it (idle-recovery's randwrite-4k-qd32 and randwrite-after-idle).
	 */
	private static Measure idleRecovery(List<PhaseInput> inputs, Map<String, IopsPhaseAnalysis> iops) {
		for (int i = 0; i < inputs.size(); i++) {
			if (!"idle".equals(inputs.get(i).spec().kind())) {
				continue;
			}
			Optional<PhaseInput> before = inputs.subList(0, i)
				.stream()
				.filter((input) -> isRandomWorkload(input.spec()))
				.reduce((first, second) -> second);
			Optional<PhaseInput> after = inputs.subList(i + 1, inputs.size())
				.stream()
				.filter((input) -> isRandomWorkload(input.spec()))
				.findFirst();
			if (before.isPresent() && after.isPresent()) {
				return Recovery.idleRecovery(iopsSeries(after.get().samples()),
						iops.get(before.get().spec().name()).steadyState());
			}
		}
		return Measure.unknown("the job has no random phase before and after an idle phase");
	}

	/**
	 * A criterion without a phase applies to the profile's primary phase when the metric
	 * was measured there; otherwise (job-level metrics such as trimRecovery, a read
	 * metric on a write-primary profile, explicit plans) to everywhere it was measured,
	 * worst value first.
	 */
	private static List<Criterion> criteria(CompletedJobs.JobFacts job, Optional<Profile> profile,
			MetricValues values) {
		List<Criterion> criteria = new ArrayList<>();
		if (job.criteria() == null) {
			return criteria;
		}
		for (Criterion given : job.criteria()) {
			Optional<String> phase = given.phaseName()
				.or(() -> profile.map(Profile::primaryPhase)
					.filter((primary) -> values.of(given.metric()).containsKey(primary)));
			criteria.add(new Criterion(given.metric(), given.comparison(), given.limit(), phase));
		}
		return criteria;
	}

	private static OptionalLong optional(Long value) {
		return (value != null) ? OptionalLong.of(value) : OptionalLong.empty();
	}

}
