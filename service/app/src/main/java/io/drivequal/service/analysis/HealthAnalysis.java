/*
 * The drive's health over a finished job, as stored in its analysis and judged by the health
 * criteria: the job's readings summed up, and per workload phase whether (and when) the drive
 * throttled. docs/methodology.md "Drive health" defines every figure.
 */
package io.drivequal.service.analysis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.stream.Collectors;

import io.drivequal.analysis.Measure;
import io.drivequal.analysis.Metric;
import io.drivequal.analysis.MetricValues;
import io.drivequal.analysis.PerSecondSeries;
import io.drivequal.analysis.health.HealthReading;
import io.drivequal.analysis.health.HealthSummary;
import io.drivequal.analysis.health.LatencyMonitorCounts;
import io.drivequal.analysis.health.OcpHealth;
import io.drivequal.analysis.health.ThermalThrottleDetector;
import io.drivequal.service.catalog.PhaseSpec;

/**
 * @param summary the job's readings summed up
 * @param maxTemperatureC, criticalWarning, newMediaErrors, thermalThrottleSeconds the
 * values the health criteria judge (job-level)
 * @param phases per phase: its readings and, for an IO phase (workload or precondition),
 * the throttling detector's answer
 * @param ocp the OCP logs over the job; ocpMeasures the values the OCP criteria judge, by
 * metric wire name
 */
record HealthAnalysis(HealthSummary summary, Measure maxTemperatureC, Measure criticalWarning, Measure newMediaErrors,
		Measure thermalThrottleSeconds, List<PhaseHealth> phases, OcpHealth ocp, Map<String, Measure> ocpMeasures) {

	/**
	 * @param throttle the detector's answer; null for a phase without IO
	 */
	record PhaseHealth(int phaseIndex, String phaseName, String kind, int readings, OptionalInt maxTemperatureK,
			ThermalThrottleDetector.Result throttle) {
	}

	/** One phase's inputs: its plan entry, per-second IOPS and readings. */
	record PhaseData(PhaseSpec spec, PerSecondSeries iops, List<HealthReading> readings) {
	}

	/**
	 * @param ocpReason why the drive had no OCP C0h log, as a reading said (null:
	 * unknown)
	 * @param monitorReason why it had no C3h, likewise
	 */
	static HealthAnalysis of(List<PhaseData> phases, List<HealthReading> all, String unavailableReason,
			String ocpReason, String monitorReason) {
		HealthSummary summary = HealthSummary.of(all, unavailableReason);
		OcpHealth ocp = OcpHealth.of(all, (unavailableReason != null) ? unavailableReason : ocpReason);
		Map<String, Measure> ocpMeasures = new LinkedHashMap<>();
		ocp.measures((unavailableReason != null) ? unavailableReason : monitorReason)
			.forEach((metric, measure) -> ocpMeasures.put(metric.wireName(), measure));
		List<PhaseHealth> perPhase = new ArrayList<>();
		long throttled = 0;
		String unknown = null;
		boolean anyWorkload = false;
		for (PhaseData phase : phases) {
			ThermalThrottleDetector.Result throttle = null;
			if ((phase.spec().isWorkload() || "precondition".equals(phase.spec().kind())) && !phase.iops().isEmpty()) {
				anyWorkload = true;
				throttle = ThermalThrottleDetector.detect(phase.iops(), phase.readings(),
						ThermalThrottleDetector.Options.defaults());
				if (throttle.known()) {
					throttled += throttle.throttledSeconds();
				}
				else if (unknown == null) {
					unknown = "phase " + phase.spec().name() + ": " + throttle.unknownReason().get();
				}
			}
			perPhase.add(new PhaseHealth(phase.spec().index(), phase.spec().name(), phase.spec().kind(),
					phase.readings().size(),
					HealthSummary.of(phase.readings(), null)
						.maxTemperature()
						.map((hottest) -> OptionalInt.of(hottest.value()))
						.orElse(OptionalInt.empty()),
					throttle));
		}
		Measure throttledSeconds = (unknown != null) ? Measure.unknown(unknown)
				: anyWorkload ? Measure.known(throttled) : Measure.unknown("the job ran no IO phase");
		return new HealthAnalysis(summary, summary.maxTemperatureC(), summary.criticalWarning(),
				summary.newMediaErrors(), throttledSeconds, perPhase, ocp, ocpMeasures);
	}

	/**
	 * The readings of the service's index as the analysis library takes them, by phase.
	 */
	static Map<Integer, List<HealthReading>> byPhase(List<io.drivequal.service.ingest.HealthReading> stored) {
		return stored.stream()
			.map(HealthAnalysis::reading)
			.collect(Collectors.groupingBy(HealthReading::phaseIndex, Collectors.toList()));
	}

	static List<HealthReading> readings(List<io.drivequal.service.ingest.HealthReading> stored) {
		return stored.stream().map(HealthAnalysis::reading).toList();
	}

	/** Why the drive had no health to read, as its first reading said. */
	static String unavailableReason(List<io.drivequal.service.ingest.HealthReading> stored) {
		return stored.stream()
			.filter((reading) -> !reading.available() && reading.reason() != null)
			.map(io.drivequal.service.ingest.HealthReading::reason)
			.findFirst()
			.orElse(null);
	}

	/** The job-level values the health criteria judge. */
	void putInto(MetricValues values) {
		values.put(Metric.MAX_TEMPERATURE_C, this.maxTemperatureC);
		values.put(Metric.CRITICAL_WARNING, this.criticalWarning);
		values.put(Metric.NEW_MEDIA_ERRORS, this.newMediaErrors);
		values.put(Metric.THERMAL_THROTTLE_SECONDS, this.thermalThrottleSeconds);
		this.ocpMeasures.forEach((metric, measure) -> values.put(Metric.fromWireName(metric).orElseThrow(), measure));
	}

	/**
	 * The first reason a reading gave for a missing OCP log (C0h, or C3h when monitor).
	 */
	static String ocpReason(List<io.drivequal.service.ingest.HealthReading> stored, boolean monitor) {
		return stored.stream()
			.map((reading) -> monitor ? reading.latencyMonitorReason() : reading.ocpReason())
			.filter((reason) -> reason != null)
			.findFirst()
			.orElse(null);
	}

	private static HealthReading reading(io.drivequal.service.ingest.HealthReading stored) {
		Long throttled = (stored.thermalManagement() != null) ? stored.thermalManagement().timeS() : null;
		return new HealthReading(stored.phaseIndex(), stored.elapsedMs(), stored.available(),
				optionalInt(stored.temperatureK()), optionalInt(stored.criticalWarning()),
				optionalLong(stored.mediaErrors()), optionalInt(stored.availableSparePercent()),
				optionalInt(stored.percentageUsed()), optionalInt(stored.warningTemperatureThresholdK()),
				optionalInt(stored.criticalTemperatureThresholdK()), optionalInt(stored.thermalManagementTemp1K()),
				optionalLong(throttled), (stored.ocp() != null) ? stored.ocp() : Map.of(),
				Optional.ofNullable(stored.latencyMonitor()).map(HealthAnalysis::counts));
	}

	private static LatencyMonitorCounts counts(io.drivequal.service.ingest.HealthReading.LatencyMonitor monitor) {
		return new LatencyMonitorCounts(monitor.activeThresholdsMs(),
				List.of(monitor.activeBuckets().read(), monitor.activeBuckets().write(),
						monitor.activeBuckets().deallocate()),
				List.of(monitor.staticBuckets().read(), monitor.staticBuckets().write(),
						monitor.staticBuckets().deallocate()));
	}

	private static OptionalInt optionalInt(Integer value) {
		return (value != null) ? OptionalInt.of(value) : OptionalInt.empty();
	}

	private static OptionalLong optionalLong(Long value) {
		return (value != null) ? OptionalLong.of(value) : OptionalLong.empty();
	}

}
