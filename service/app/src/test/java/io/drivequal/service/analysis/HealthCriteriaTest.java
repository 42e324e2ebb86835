/*
 * The health criteria as a finished job's analysis judges them, from health events decoded the way
 * the ingest decodes them (the contract's example vectors among them): a critical warning fails
 * criticalWarning, a hot reading fails maxTemperatureC, new media errors fail newMediaErrors, a
 * drive that throttles fails thermalThrottleSeconds, and a drive without a health log leaves every
 * one INCONCLUSIVE with the reason, never a PASS.
 */
package io.drivequal.service.analysis;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.drivequal.analysis.Criterion;
import io.drivequal.analysis.CriterionResult;
import io.drivequal.analysis.Metric;
import io.drivequal.analysis.Outcome;
import io.drivequal.schemas.Contracts;
import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.ingest.HealthReading;
import io.drivequal.service.ingest.SamplePoint;
import io.drivequal.service.qualification.CompletedJobs;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class HealthCriteriaTest {

	private static final List<Criterion> HEALTH_CRITERIA = List.of(
			Criterion.fromJson("maxTemperatureC", "atMost", 70.0, null, null),
			Criterion.fromJson("criticalWarning", "atMost", 0.0, null, null),
			Criterion.fromJson("newMediaErrors", "atMost", 0.0, null, null),
			Criterion.fromJson("thermalThrottleSeconds", "atMost", 10.0, null, null),
			Criterion.fromJson("ocpUncorrectableReadErrorsDelta", "atMost", 0.0, null, null),
			Criterion.fromJson("ocpIncompleteShutdownsDelta", "atMost", 0.0, null, null),
			Criterion.fromJson("ocpLatencyMonitorCommands", "atMost", 0.0, null, null));

	private final Contracts contracts = Contracts.load();

	private final PhaseSpec workload = new PhaseSpec(0, "randwrite", "workload", "randwrite", null, 4096, 32, 100.0,
			60L, null, null, null, null, null, null, null);

	@Test
	void theSharedVectorsDecodeIntoTheRecordTheIndexHolds() {
		HealthReading warning = HealthReading.of(vector("health-critical-warning"));
		assertThat(warning.eventId()).isEqualTo("job-0004:9");
		assertThat(warning.phaseIndex()).isEqualTo(3);
		assertThat(warning.elapsedMs()).isEqualTo(10004);
		assertThat(warning.criticalWarning()).isEqualTo(1);
		assertThat(warning.availableSparePercent()).isZero();
		assertThat(warning.warningTemperatureThresholdK()).isEqualTo(343);
		assertThat(warning.thermalManagementTemp1K()).isNull();
		assertThat(warning.thermalManagement().timeS()).isZero();
		HealthReading hot = HealthReading.of(vector("health-sim-throttling"));
		assertThat(hot.thermalManagementTemp1K()).isEqualTo(343);
		assertThat(hot.thermalManagement().temp1TimeS()).isEqualTo(9);
		HealthReading none = HealthReading.of(vector("health-unavailable"));
		assertThat(none.available()).isFalse();
		assertThat(none.reason()).contains("loop device");
		assertThat(none.temperatureK()).isNull();
	}

	@Test
	void aCriticalWarningDuringTheRunFailsThatCriterion() {
		List<HealthReading> readings = List.of(reading(0, 318, 0, 0), reading(30_000, 320, 4, 0),
				reading(60_000, 321, 4, 0));
		JobAnalyzer.JobAnalysis analysis = analyze(flat(60, 1000), readings);
		assertThat(outcome(analysis, Metric.CRITICAL_WARNING)).isEqualTo(Outcome.FAIL);
		assertThat(result(analysis, Metric.CRITICAL_WARNING).measured()).hasValue(4);
		assertThat(outcome(analysis, Metric.MAX_TEMPERATURE_C)).isEqualTo(Outcome.PASS);
		assertThat(result(analysis, Metric.MAX_TEMPERATURE_C).measured().getAsDouble()).isCloseTo(47.85, within(1e-9));
		assertThat(outcome(analysis, Metric.NEW_MEDIA_ERRORS)).isEqualTo(Outcome.PASS);
		assertThat(analysis.health().summary().firstCriticalWarning().orElseThrow().elapsedMs()).isEqualTo(30_000);
		assertThat(analysis.verdict().outcome()).isEqualTo(Outcome.FAIL);
	}

	@Test
	void aHotReadingNewMediaErrorsAndThrottlingFailTheirs() {
		// 1000 IOPS; from t = 31 at the 343 K limit and at half speed
		List<SamplePoint> samples = new ArrayList<>(flat(30, 1000));
		for (int t = 31; t <= 60; t++) {
			samples.add(point(t, 500));
		}
		List<HealthReading> readings = List.of(reading(0, 330, 0, 2), reading(30_000, 344, 0, 2),
				reading(60_000, 343, 0, 5));
		JobAnalyzer.JobAnalysis analysis = analyze(samples, readings);
		assertThat(outcome(analysis, Metric.MAX_TEMPERATURE_C)).isEqualTo(Outcome.FAIL);
		assertThat(outcome(analysis, Metric.NEW_MEDIA_ERRORS)).isEqualTo(Outcome.FAIL);
		assertThat(result(analysis, Metric.NEW_MEDIA_ERRORS).measured()).hasValue(3);
		assertThat(outcome(analysis, Metric.THERMAL_THROTTLE_SECONDS)).isEqualTo(Outcome.FAIL);
		assertThat(result(analysis, Metric.THERMAL_THROTTLE_SECONDS).measured()).hasValue(30);
		assertThat(analysis.health().phases().get(0).throttle().intervals())
			.containsExactly(new io.drivequal.analysis.health.ThermalThrottleDetector.Interval(31, 60));
	}

	@Test
	void aDriveWithoutAHealthLogLeavesEveryHealthCriterionInconclusive() {
		ObjectNode event = (ObjectNode) vector("health-unavailable");
		event.put("phaseIndex", 0);
		JobAnalyzer.JobAnalysis analysis = analyze(flat(60, 1000), List.of(HealthReading.of(event)));
		for (Metric metric : List.of(Metric.MAX_TEMPERATURE_C, Metric.CRITICAL_WARNING, Metric.NEW_MEDIA_ERRORS,
				Metric.THERMAL_THROTTLE_SECONDS)) {
			assertThat(outcome(analysis, metric)).as(metric.wireName()).isEqualTo(Outcome.INCONCLUSIVE);
		}
		assertThat(result(analysis, Metric.MAX_TEMPERATURE_C).explanation()).contains("loop device");
		JobAnalyzer.JobAnalysis nothing = analyze(flat(60, 1000), List.of());
		assertThat(result(nothing, Metric.CRITICAL_WARNING).explanation()).contains("no health reading arrived");
	}

	@Test
	void theOcpLogsDecodeFromTheSharedVectors() {
		HealthReading full = HealthReading.of(vector("health-ocp-latency-monitor"));
		assertThat(full.ocp()).hasSize(53)
			.containsEntry("logPageVersion", 5L)
			.containsEntry("incompleteShutdowns", 1L)
			.containsEntry("enduranceEstimate", 14014000000000000L);
		assertThat(full.ocp().keySet()).first().isEqualTo("logPageVersion");
		assertThat(full.latencyMonitor().activeThresholdsMs()).containsExactly(5, 10, 20, 50);
		assertThat(full.latencyMonitor().activeBuckets().write()).containsExactly(1288L, 97L, 12L, 1L);
		assertThat(full.latencyMonitorReason()).isNull();
		HealthReading other = HealthReading.of(vector("smart-snapshot-ocp-other-guid"));
		assertThat(other.ocp()).isNull();
		assertThat(other.ocpReason()).contains("not an OCP log");
		assertThat(other.latencyMonitorReason()).contains("0x4002");
		assertThat(other.fdp()).isNull();
	}

	@Test
	void theFdpStatisticsDecodeFromTheSharedVector() {
		HealthReading placed = HealthReading.of(vector("smart-snapshot-qemu-fdp"));
		assertThat(placed.fdp()).isEqualTo(new HealthReading.Fdp(41025536L, 41025536L, 0L, 0L, 0L));
		assertThat(placed.ocp()).isNull();
		assertThat(placed.fdpReason()).isNull();
	}

	@Test
	void newUncorrectableReadsAndLatencyMonitorCountsFailTheirs() {
		ObjectNode first = (ObjectNode) vector("health-ocp-latency-monitor");
		first.put("phaseIndex", 0);
		first.put("elapsedMs", 0);
		ObjectNode last = first.deepCopy();
		last.put("elapsedMs", 60_000);
		last.put("eventId", "job-0007:13");
		ObjectNode lastOcp = (ObjectNode) last.path("smart").path("ocp");
		lastOcp.put("uncorrectableReadErrors", 2);
		ObjectNode writes = (ObjectNode) last.path("smart").path("latencyMonitor").path("activeBuckets");
		writes.set("write", this.contracts.mapper().valueToTree(List.of(1290, 97, 12, 2)));
		JobAnalyzer.JobAnalysis analysis = analyze(flat(60, 1000),
				List.of(HealthReading.of(first), HealthReading.of(last)));
		assertThat(outcome(analysis, Metric.OCP_UNCORRECTABLE_READ_ERRORS_DELTA)).isEqualTo(Outcome.FAIL);
		assertThat(result(analysis, Metric.OCP_UNCORRECTABLE_READ_ERRORS_DELTA).measured()).hasValue(2);
		assertThat(outcome(analysis, Metric.OCP_INCOMPLETE_SHUTDOWNS_DELTA)).isEqualTo(Outcome.PASS);
		assertThat(outcome(analysis, Metric.OCP_LATENCY_MONITOR_COMMANDS)).isEqualTo(Outcome.FAIL);
		assertThat(result(analysis, Metric.OCP_LATENCY_MONITOR_COMMANDS).measured()).hasValue(3);
	}

	@Test
	void aDriveWithoutTheOcpLogsLeavesTheirCriteriaInconclusiveSayingWhy() {
		ObjectNode first = (ObjectNode) vector("smart-snapshot-ocp-other-guid");
		first.remove("when");
		first.put("type", "health");
		first.put("elapsedMs", 0);
		first.put("timeMs", 1795915800000L);
		ObjectNode last = first.deepCopy();
		last.put("elapsedMs", 60_000);
		JobAnalyzer.JobAnalysis analysis = analyze(flat(60, 1000),
				List.of(HealthReading.of(first), HealthReading.of(last)));
		assertThat(outcome(analysis, Metric.OCP_UNCORRECTABLE_READ_ERRORS_DELTA)).isEqualTo(Outcome.INCONCLUSIVE);
		assertThat(result(analysis, Metric.OCP_UNCORRECTABLE_READ_ERRORS_DELTA).explanation())
			.contains("not an OCP log");
		assertThat(outcome(analysis, Metric.OCP_LATENCY_MONITOR_COMMANDS)).isEqualTo(Outcome.INCONCLUSIVE);
		assertThat(result(analysis, Metric.OCP_LATENCY_MONITOR_COMMANDS).explanation()).contains("0x4002");
		// the criteria that need no OCP log are still judged
		assertThat(outcome(analysis, Metric.CRITICAL_WARNING)).isEqualTo(Outcome.PASS);
	}

	private JobAnalyzer.JobAnalysis analyze(List<SamplePoint> samples, List<HealthReading> readings) {
		CompletedJobs.JobFacts job = new CompletedJobs.JobFacts("q-h", null, "SIM-1", "DQSIM-T", "1.0", 8L << 30,
				List.of(this.workload), null, HEALTH_CRITERIA, Instant.parse("2026-11-22T21:00:00Z"), null);
		return JobAnalyzer.analyze(job, Optional.empty(),
				List.of(new JobAnalyzer.PhaseInput(this.workload, null, samples, null)), readings, List.of());
	}

	private static CriterionResult result(JobAnalyzer.JobAnalysis analysis, Metric metric) {
		return analysis.verdict()
			.criteria()
			.stream()
			.filter((c) -> c.criterion().metric() == metric)
			.findFirst()
			.orElseThrow();
	}

	private static Outcome outcome(JobAnalyzer.JobAnalysis analysis, Metric metric) {
		return result(analysis, metric).outcome();
	}

	private JsonNode vector(String name) {
		return this.contracts.mapper().readTree(Contracts.resource("examples/job-event/valid/" + name + ".json"));
	}

	private static HealthReading reading(long elapsedMs, int temperatureK, int criticalWarning, long mediaErrors) {
		return new HealthReading(elapsedMs, "q-h:" + elapsedMs, (int) (elapsedMs / 1000), "q-h", "r", 0, elapsedMs,
				true, "nvme-log-02h", null, temperatureK, criticalWarning, mediaErrors, 100, 10, 0, 1L, 1L, 1L, 0L, 0L,
				348, 358, 343, new HealthReading.ThermalManagement(0, 0, 0, 0), null, null, null, null, null, null,
				null);
	}

	private static List<SamplePoint> flat(int seconds, long iops) {
		List<SamplePoint> samples = new ArrayList<>();
		for (int t = 1; t <= seconds; t++) {
			samples.add(point(t, iops));
		}
		return samples;
	}

	private static SamplePoint point(int t, long iops) {
		return new SamplePoint(0, "randwrite", t, t * 1000L, 0, iops, 0, iops * 4096, 0, iops * 4096 / 1e6, null, null,
				null);
	}

}
