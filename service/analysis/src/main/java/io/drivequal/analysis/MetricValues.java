// The measured values of a job, by metric and phase: the bridge between the analyses and the verdict.
package io.drivequal.analysis;

import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Values measured in a job: per phase (by phase name) or for the whole job (e.g. TRIM
 * recovery, which spans phases). Putting a value twice for the same metric and phase
 * replaces it. Not thread-safe; build it, then judge.
 */
public final class MetricValues {

	/**
	 * Key of job-level values; phase names match ^[a-z0-9][a-z0-9-]{0,63}$ so never
	 * collide.
	 */
	private static final String JOB = "";

	private final Map<Metric, Map<String, Measure>> values = new EnumMap<>(Metric.class);

	/**
	 * A job-level value.
	 * @param metric the metric
	 * @param value known or unknown
	 * @return this
	 */
	public MetricValues put(Metric metric, Measure value) {
		this.values.computeIfAbsent(metric, (key) -> new LinkedHashMap<>()).put(JOB, value);
		return this;
	}

	/**
	 * A value measured in one phase.
	 * @param metric the metric
	 * @param phaseName the phase
	 * @param value known or unknown
	 * @return this
	 */
	public MetricValues put(Metric metric, String phaseName, Measure value) {
		if (phaseName == null || phaseName.isBlank()) {
			throw new IllegalArgumentException("phaseName is blank; use put(metric, value) for job-level values");
		}
		this.values.computeIfAbsent(metric, (key) -> new LinkedHashMap<>()).put(phaseName, value);
		return this;
	}

	/**
	 * steadyStateReached (an eligible window held), steadyStateIops and consistencyRatio
	 * (over the last five rounds, when they hold) and, when computed,
	 * consistencyRatioFixedWindow of a random-IO phase.
	 * @param phaseName the phase
	 * @param analysis its analysis
	 * @return this
	 */
	public MetricValues putIopsPhase(String phaseName, IopsPhaseAnalysis analysis) {
		SteadyStateResult steadyState = analysis.steadyState();
		put(Metric.STEADY_STATE_REACHED, phaseName, Measure.known(steadyState.reached() ? 1 : 0));
		Optional<String> notSteady = steadyState.notSteadyReason();
		put(Metric.STEADY_STATE_IOPS, phaseName, notSteady.isEmpty()
				? Measure.known(steadyState.steadyStateIops().getAsDouble()) : Measure.unknown(notSteady.get()));
		put(Metric.CONSISTENCY_RATIO, phaseName,
				analysis.steadyStateConsistency()
					.map(MetricValues::ratio)
					.orElseGet(() -> Measure.unknown(notSteady.orElse("the steady-state window has no second")
							+ ", so there is no window for consistency")));
		analysis.fixedWindowConsistency()
			.ifPresent((fixed) -> put(Metric.CONSISTENCY_RATIO_FIXED_WINDOW, phaseName, ratio(fixed)));
		put(Metric.STEADY_STATE_WAF, phaseName, steadyStateWaf(steadyState, notSteady));
		return this;
	}

	/** Σ media / Σ host bytes of the end window's rounds, when steady and counted. */
	private static Measure steadyStateWaf(SteadyStateResult steadyState, Optional<String> notSteady) {
		if (notSteady.isPresent()) {
			return Measure.unknown(notSteady.get());
		}
		SteadyStateWindow window = steadyState.end().window().get();
		double media = 0;
		double host = 0;
		for (Round round : steadyState.rounds().subList(window.firstRoundIndex(), window.lastRoundIndex() + 1)) {
			if (round.waf().isEmpty()) {
				return Measure.unknown("the drive reports no media writes (no OCP C0h log) for round " + round.index());
			}
			media += round.waf().getAsDouble() * round.randomWriteBytes();
			host += round.randomWriteBytes();
		}
		return (host > 0) ? Measure.known(media / host) : Measure.unknown("the steady-state window wrote nothing");
	}

	/**
	 * writeLatencyP99Us to writeLatencyP999999Us and writeLatencyMaxUs of a phase.
	 * @param phaseName the phase
	 * @param qos the phase's write QoS; empty when it wrote nothing
	 * @return this
	 */
	public MetricValues putWriteLatency(String phaseName, Optional<LatencyQos> qos) {
		putLatency(phaseName, qos, "writes", Metric.WRITE_LATENCY_P99_US, Metric.WRITE_LATENCY_P999_US,
				Metric.WRITE_LATENCY_P9999_US, Metric.WRITE_LATENCY_P99999_US, Metric.WRITE_LATENCY_P999999_US,
				Metric.WRITE_LATENCY_MAX_US);
		return this;
	}

	/**
	 * readLatencyP99Us to readLatencyP999999Us and readLatencyMaxUs of a phase.
	 * @param phaseName the phase
	 * @param qos the phase's read QoS; empty when it read nothing
	 * @return this
	 */
	public MetricValues putReadLatency(String phaseName, Optional<LatencyQos> qos) {
		putLatency(phaseName, qos, "reads", Metric.READ_LATENCY_P99_US, Metric.READ_LATENCY_P999_US,
				Metric.READ_LATENCY_P9999_US, Metric.READ_LATENCY_P99999_US, Metric.READ_LATENCY_P999999_US,
				Metric.READ_LATENCY_MAX_US);
		return this;
	}

	/**
	 * A count of IOs above a latency threshold and the same per million IOs of the
	 * phase's direction (e.g. writeIosAbove8Ms and writeIosAbove8MsPerMillion).
	 * @param count the count's metric
	 * @param perMillion the per-million metric
	 * @param phaseName the phase
	 * @param histogram the direction's service-time histogram; empty (or no IOs): nothing
	 * is put
	 * @param thresholdNs the threshold
	 * @return this
	 */
	public MetricValues putIosAbove(Metric count, Metric perMillion, String phaseName,
			Optional<PhaseLatencyHistogram> histogram, long thresholdNs) {
		if (histogram.isEmpty() || histogram.get().totalCount() == 0) {
			return this;
		}
		long above = histogram.get().countAbove(thresholdNs);
		put(count, phaseName, Measure.known(above));
		return put(perMillion, phaseName, Measure.known(above * 1e6 / histogram.get().totalCount()));
	}

	/**
	 * readKiBpsPerTb, writeKiBpsPerTb or trimKiBpsPerTb of a phase: bytes / 1024 over the
	 * phase's duration, per TB (10^12 bytes) of user capacity.
	 * @param metric one of the three
	 * @param phaseName the phase
	 * @param bytes the direction's bytes in the phase
	 * @param durationNs the phase's duration
	 * @param capacityBytes the drive's user capacity; empty when not known
	 * @return this
	 */
	public MetricValues putBandwidthPerTb(Metric metric, String phaseName, long bytes, long durationNs,
			OptionalLong capacityBytes) {
		if (capacityBytes.isEmpty() || capacityBytes.getAsLong() <= 0) {
			return put(metric, phaseName, Measure.unknown("the drive's user capacity is not known"));
		}
		if (durationNs <= 0) {
			return put(metric, phaseName, Measure.unknown("the phase has no duration"));
		}
		double kibPerS = bytes / 1024.0 / (durationNs / 1e9);
		return put(metric, phaseName, Measure.known(kibPerS / (capacityBytes.getAsLong() / 1e12)));
	}

	/**
	 * kneeReadIopsPerTb (for the knee's phase; without a knee, unknown for the job) and
	 * readIopsPerTbWithinP9999Of2500Us (for the job) of a latency-at-load sweep.
	 * @param sweep the sweep judged
	 * @param capacityBytes the drive's user capacity; empty when not known
	 * @return this
	 */
	public MetricValues putLatencyAtLoad(LatencyAtLoad.Sweep sweep, OptionalLong capacityBytes) {
		Optional<LatencyAtLoad.Step> knee = sweep.knee();
		if (knee.isPresent()) {
			put(Metric.KNEE_READ_IOPS_PER_TB, knee.get().phaseName(),
					LatencyAtLoad.perTb(knee.get().offeredIops(), capacityBytes));
		}
		else {
			LatencyAtLoad.Step last = sweep.steps().get(sweep.steps().size() - 1);
			put(Metric.KNEE_READ_IOPS_PER_TB,
					Measure.unknown(String.format(java.util.Locale.ROOT,
							"no knee within the sweep: the drive kept up to its last step (%.0f IOPS offered)",
							last.offeredIops())));
		}
		double held = sweep.holdsUpTo(LatencyAtLoad.FIOSYNTH_READ_P9999_BOUND_NS)
			.map(LatencyAtLoad.Step::achievedIops)
			.orElse(0.0);
		return put(Metric.READ_IOPS_PER_TB_WITHIN_P9999_2500_US, LatencyAtLoad.perTb(held, capacityBytes));
	}

	/**
	 * waf of a phase.
	 * @param phaseName the phase with SMART snapshots before and after
	 * @param waf its WAF
	 * @return this
	 */
	public MetricValues putWaf(String phaseName, WriteAmplification.WafResult waf) {
		return put(Metric.WAF, phaseName, waf.waf());
	}

	/**
	 * tbwBytes and dwpd of a phase's projection: only figures about the measured drive,
	 * so a vendor's rated TBW leaves them unknown with the reason.
	 * @param phaseName the phase whose WAF the projection uses
	 * @param projection the projection
	 * @return this
	 */
	public MetricValues putEndurance(String phaseName, EnduranceProjection projection) {
		put(Metric.TBW_BYTES, phaseName, projection.measuredTbwBytes());
		return put(Metric.DWPD, phaseName, projection.measuredDwpd());
	}

	/**
	 * throughputMBps of a sequential phase.
	 * @param phaseName the phase
	 * @param throughput its mean throughput; empty when it has no second
	 * @return this
	 */
	public MetricValues putThroughput(String phaseName, Optional<Throughput.ThroughputResult> throughput) {
		return put(Metric.THROUGHPUT_MBPS, phaseName, throughput.map((result) -> Measure.known(result.meanMBps()))
			.orElse(Measure.unknown("the phase has no per-second sample")));
	}

	/**
	 * The values of a metric: key "" is the job-level value, other keys are phase names.
	 * @param metric the metric
	 * @return phase name to value, in insertion order
	 */
	public Map<String, Measure> of(Metric metric) {
		return Collections.unmodifiableMap(this.values.getOrDefault(metric, Map.of()));
	}

	/**
	 * Every known value, for what reads the figures after the verdict (a campaign's
	 * sample-to-sample spread): metric to (phase name, or "" for the job) to value.
	 * @return the known values, metrics in declaration order, phases in insertion order
	 */
	public Map<Metric, Map<String, Double>> known() {
		Map<Metric, Map<String, Double>> known = new EnumMap<>(Metric.class);
		this.values.forEach((metric, byPhase) -> byPhase.forEach((phase, measure) -> measure.value()
			.ifPresent((value) -> known.computeIfAbsent(metric, (key) -> new LinkedHashMap<>()).put(phase, value))));
		return known;
	}

	static boolean isJobLevel(String key) {
		return JOB.equals(key);
	}

	/**
	 * @param metrics P99, P99.9, P99.99, P99.999, P99.9999 and max, in that order
	 */
	private void putLatency(String phaseName, Optional<LatencyQos> qos, String what, Metric... metrics) {
		if (qos.isEmpty()) {
			Measure none = Measure.unknown("the phase recorded no " + what);
			for (Metric metric : metrics) {
				put(metric, phaseName, none);
			}
			return;
		}
		LatencyQos latency = qos.get();
		double[] us = { latency.p99Us(), latency.p99_9Us(), latency.p99_99Us(), latency.p99_999Us(),
				latency.p99_9999Us(), latency.maxNs() / 1000.0 };
		for (int i = 0; i < metrics.length; i++) {
			put(metrics[i], phaseName, Measure.known(us[i]));
		}
	}

	private static Measure ratio(ConsistencyResult consistency) {
		return consistency.ratio().isPresent() ? Measure.known(consistency.ratio().getAsDouble())
				: Measure.unknown("mean IOPS is 0 in the window");
	}

}
