/*
 * The headline figures of one analysed phase as they go onto its phase-result document, where
 * Kibana's consistency, QoS and WAF tables read them (schemas/elasticsearch/index-templates/
 * drivequal-phase-results.json). The job's full analysis stays on the job; this is the flat,
 * aggregatable part of it.
 */
package io.drivequal.service.analysis;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

import io.drivequal.analysis.ConsistencyResult;
import io.drivequal.analysis.IopsPhaseAnalysis;
import io.drivequal.analysis.LatencyQos;
import io.drivequal.analysis.SteadyStateResult;
import io.drivequal.analysis.SteadyStateWindow;
import io.drivequal.analysis.WriteAmplification;
import io.drivequal.service.qualification.CompletedJobs;

final class PhaseFigures {

	private PhaseFigures() {
	}

	/**
	 * The fields to merge into the phase's result document; only those the analysis knows
	 * (an unknown WAF or a phase without IOPS analysis leaves its fields out, never
	 * zero).
	 */
	static Map<String, Object> of(CompletedJobs.JobFacts job, JobAnalyzer.PhaseAnalysis phase) {
		Map<String, Object> figures = new LinkedHashMap<>();
		putIfKnown(figures, "driveModel", job.driveModel());
		putIfKnown(figures, "firmware", job.firmware());
		putIfKnown(figures, "profile", job.profile());
		if (phase.iops() != null) {
			figures.put("steadyState", steadyState(phase.iops()));
			consistency(phase.iops()).ifPresent((consistency) -> figures.put("consistency", consistency));
		}
		Map<String, Object> qos = new LinkedHashMap<>();
		phase.writeLatency().ifPresent((latency) -> putPercentiles(qos, "write", latency));
		phase.readLatency().ifPresent((latency) -> putPercentiles(qos, "read", latency));
		if (!qos.isEmpty()) {
			figures.put("qos", qos);
		}
		if (phase.waf() != null) {
			Map<String, Object> waf = waf(phase.waf());
			if (!waf.isEmpty()) {
				figures.put("waf", waf);
			}
		}
		return figures;
	}

	/**
	 * Where steady state was reached, and the last five rounds ("steady at end") with
	 * their figures; averageIops (the steady-state IOPS) only when they hold. round is
	 * the 0-based index of the end window's last round, as the report shows it.
	 */
	private static Map<String, Object> steadyState(IopsPhaseAnalysis iops) {
		SteadyStateResult result = iops.steadyState();
		Map<String, Object> steadyState = new LinkedHashMap<>();
		steadyState.put("reached", result.reached());
		result.reachedAtRound().ifPresent((round) -> steadyState.put("reachedAtRound", round));
		result.firstEligibleRound().ifPresent((round) -> steadyState.put("firstEligibleRound", round));
		steadyState.put("rangeWritesRequired", result.eligibility().rangeWritesRequired());
		steadyState.put("steadyAtEnd", result.end().holds());
		result.end().window().ifPresent((SteadyStateWindow window) -> {
			steadyState.put("round", window.lastRoundIndex());
			steadyState.put("windowStartS", window.windowStartS());
			steadyState.put("windowEndS", window.windowEndS());
			steadyState.put("rangePercent", window.rangePercent());
			steadyState.put("slopeExcursionPercent", window.slopeExcursionPercent());
		});
		result.steadyStateIops().ifPresent((average) -> steadyState.put("averageIops", average));
		steadyState.put("freshStateEvidence", result.freshState().evidence().wireName());
		steadyState.put("answer", result.summary());
		result.trend().driftPercentPerRound().ifPresent((drift) -> steadyState.put("driftPercentPerRound", drift));
		result.trend().projection().ifPresent((projection) -> {
			steadyState.put("projectedIops", projection.levelIops());
			steadyState.put("projectionUncertaintyIops", projection.uncertaintyIops());
		});
		List<Double> waf = result.rounds()
			.stream()
			.filter((round) -> round.waf().isPresent())
			.map((round) -> round.waf().getAsDouble())
			.toList();
		if (!waf.isEmpty()) {
			steadyState.put("wafByRound", waf);
		}
		return steadyState;
	}

	/**
	 * The fixed window's consistency (t >= 1400 s of a 2000 s phase, what the seeds
	 * report) when the phase has one, else the steady-state window's.
	 */
	private static Optional<Map<String, Object>> consistency(IopsPhaseAnalysis iops) {
		return iops.fixedWindowConsistency().or(iops::steadyStateConsistency).map((ConsistencyResult result) -> {
			Map<String, Object> consistency = new LinkedHashMap<>();
			putIfPresent(consistency, "ratio", result.ratio());
			consistency.put("meanIops", result.meanIops());
			consistency.put("p0_1Iops", result.p0_1Iops());
			putIfPresent(consistency, "cv", result.cv());
			return consistency;
		});
	}

	private static void putPercentiles(Map<String, Object> qos, String direction, LatencyQos latency) {
		qos.put(direction + "P99Ns", latency.p99Ns());
		qos.put(direction + "P9999Ns", latency.p99_99Ns());
		qos.put(direction + "P99999Ns", latency.p99_999Ns());
		qos.put(direction + "P999999Ns", latency.p99_9999Ns());
	}

	private static Map<String, Object> waf(WriteAmplification.WafResult result) {
		Map<String, Object> waf = new LinkedHashMap<>();
		putIfPresent(waf, "ratio", result.waf().value());
		result.hostBytesWritten().ifPresent((bytes) -> waf.put("hostBytesWritten", bytes));
		result.mediaBytesWritten().ifPresent((bytes) -> waf.put("mediaBytesWritten", bytes));
		return waf;
	}

	private static void putIfKnown(Map<String, Object> map, String key, String value) {
		if (value != null) {
			map.put(key, value);
		}
	}

	private static void putIfPresent(Map<String, Object> map, String key, OptionalDouble value) {
		value.ifPresent((number) -> map.put(key, number));
	}

}
