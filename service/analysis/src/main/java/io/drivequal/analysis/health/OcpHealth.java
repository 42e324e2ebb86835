// What the drive's OCP logs say over a job: the C0h members before and after, and its latency buckets.
package io.drivequal.analysis.health;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.drivequal.analysis.Measure;
import io.drivequal.analysis.Metric;

/**
 * The OCP SMART / Health Information Extended log (C0h) at the first and the last reading
 * that had it, and the Latency Monitor log (C3h) likewise. The C0h counters count over
 * the drive's life: what happened during the job is last minus first.
 *
 * @param readingsWithOcp readings that carried C0h
 * @param readingsWithMonitor readings that carried C3h
 * @param first the C0h members at the first of them (empty when none)
 * @param last at the last
 * @param firstMonitor the latency monitor at the first reading that had it
 * @param lastMonitor at the last
 * @param reason why a figure is unknown when no reading had C0h (the reading's own
 * reason, or a default)
 */
public record OcpHealth(int readingsWithOcp, int readingsWithMonitor, Map<String, Long> first, Map<String, Long> last,
		Optional<LatencyMonitorCounts> firstMonitor, Optional<LatencyMonitorCounts> lastMonitor, String reason) {

	/** The C0h member each delta criterion judges, in the order of the metrics. */
	public static final Map<Metric, String> DELTA_MEMBERS = deltaMembers();

	private static Map<Metric, String> deltaMembers() {
		Map<Metric, String> members = new EnumMap<>(Metric.class);
		members.put(Metric.OCP_UNCORRECTABLE_READ_ERRORS_DELTA, "uncorrectableReadErrors");
		members.put(Metric.OCP_INCOMPLETE_SHUTDOWNS_DELTA, "incompleteShutdowns");
		members.put(Metric.OCP_END_TO_END_DETECTED_ERRORS_DELTA, "endToEndDetectedErrors");
		members.put(Metric.OCP_BAD_USER_NAND_BLOCKS_DELTA, "badUserNandBlocks");
		members.put(Metric.OCP_BAD_SYSTEM_NAND_BLOCKS_DELTA, "badSystemNandBlocks");
		members.put(Metric.OCP_XOR_RECOVERY_COUNT_DELTA, "xorRecoveryCount");
		members.put(Metric.OCP_PCIE_CORRECTABLE_ERRORS_DELTA, "pcieCorrectableErrors");
		members.put(Metric.OCP_THERMAL_THROTTLING_EVENTS_DELTA, "thermalThrottlingEvents");
		return Map.copyOf(members);
	}

	/**
	 * The values the OCP criteria judge: each delta metric, and the latency monitor's
	 * commands.
	 * @param monitorReason why the drive had no C3h, as a reading said (null: unknown)
	 */
	public Map<Metric, Measure> measures(String monitorReason) {
		Map<Metric, Measure> measures = new EnumMap<>(Metric.class);
		DELTA_MEMBERS.forEach((metric, member) -> measures.put(metric, delta(member)));
		measures.put(Metric.OCP_LATENCY_MONITOR_COMMANDS, latencyMonitorCommands(monitorReason));
		return measures;
	}

	/**
	 * @param readings in the order they were taken
	 * @param ocpReason why the drive had no C0h, as a reading said (null: unknown)
	 */
	public static OcpHealth of(List<HealthReading> readings, String ocpReason) {
		List<HealthReading> withOcp = readings.stream()
			.filter((reading) -> reading.available() && !reading.ocp().isEmpty())
			.toList();
		List<LatencyMonitorCounts> monitors = readings.stream()
			.filter(HealthReading::available)
			.flatMap((reading) -> reading.latencyMonitor().stream())
			.toList();
		return new OcpHealth(withOcp.size(), monitors.size(), withOcp.isEmpty() ? Map.of() : withOcp.get(0).ocp(),
				withOcp.isEmpty() ? Map.of() : withOcp.get(withOcp.size() - 1).ocp(),
				monitors.isEmpty() ? Optional.empty() : Optional.of(monitors.get(0)),
				monitors.isEmpty() ? Optional.empty() : Optional.of(monitors.get(monitors.size() - 1)),
				(ocpReason != null) ? ocpReason : "no reading had the OCP C0h log");
	}

	/**
	 * A C0h counter's change between the first and the last reading with C0h: unknown
	 * without two such readings or when the drive does not report the member (its log
	 * page version does not define it, or a simulated drive does not model it).
	 */
	public Measure delta(String member) {
		if (this.readingsWithOcp == 0) {
			return Measure.unknown(this.reason);
		}
		if (!this.first.containsKey(member) || !this.last.containsKey(member)) {
			return Measure.unknown("the drive's C0h log does not report " + member);
		}
		if (this.readingsWithOcp < 2) {
			return Measure.unknown("one reading with C0h only: nothing to compare " + member + " with");
		}
		return Measure.known(this.last.get(member) - this.first.get(member));
	}

	/**
	 * Commands the drive's latency monitor counted in any bucket (at or above its lowest
	 * threshold, A), every direction, between the first and the last reading with C3h.
	 * @param monitorReason why the drive had no C3h, as a reading said (null: unknown)
	 */
	public Measure latencyMonitorCommands(String monitorReason) {
		if (this.firstMonitor.isEmpty()) {
			return Measure.unknown((monitorReason != null) ? monitorReason : "no reading had the OCP C3h log");
		}
		if (this.readingsWithMonitor < 2) {
			return Measure.unknown("one reading with C3h only: nothing to compare its buckets with");
		}
		long counted = 0;
		for (int direction = 0; direction < LatencyMonitorCounts.DIRECTIONS.size(); direction++) {
			for (int bucket = 0; bucket < LatencyMonitorCounts.BUCKETS; bucket++) {
				counted += this.firstMonitor.get().countedUntil(this.lastMonitor.get(), direction, bucket);
			}
		}
		return Measure.known(counted);
	}

}
