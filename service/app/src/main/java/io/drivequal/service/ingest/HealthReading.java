/*
 * One health reading of a drive during a job (job-event type health, schemas/messages): the
 * contract's smartSnapshot flattened beside where the reading belongs (phase, milliseconds into it),
 * which is also its document in drivequal-health (id = eventId). Fields the device did not report
 * stay null: nothing is estimated.
 */
package io.drivequal.service.ingest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import co.elastic.clients.elasticsearch.core.bulk.BulkOperation;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import tools.jackson.databind.JsonNode;

/**
 * @param timeMs the reading's instant, epoch ms on the phase clock (simulated for the sim
 * engine)
 * @param elapsedMs milliseconds since its phase started when the poll started
 * @param criticalWarning the NVMe critical warning bits (0 spare, 1 temperature, 2
 * reliability, 3 read-only, 4 volatile backup)
 * @param physicalMediaUnitsWrittenBytes the OCP C0h media-write counter, in bytes (null
 * when the drive has no C0h log): with dataUnitsWritten, each round's write amplification
 * @param ocp every OCP C0h member the drive reported, by the contract's names, in its
 * order (null when it has no C0h log)
 * @param ocpReason why there is no ocp, when the runner says
 * @param latencyMonitor the OCP latency monitor (C3h), when the drive has it
 * @param latencyMonitorReason why there is none, when the runner says
 * @param fdp the FDP statistics (log 22h) and event counts (23h), when FDP is enabled on
 * the drive: with the previous reading, the drive's own write amplification over the
 * interval
 * @param fdpReason why there are none on a drive with FDP enabled, when the runner says
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record HealthReading(@JsonProperty("@timestamp") long timeMs, String eventId, int seq, String jobId,
		String runnerId, int phaseIndex, long elapsedMs, boolean available, String source, String reason,
		Integer temperatureK, Integer criticalWarning, Long mediaErrors, Integer availableSparePercent,
		Integer availableSpareThresholdPercent, Integer percentageUsed, Long dataUnitsWritten, Long dataUnitsRead,
		Long powerOnHours, Long warningTemperatureTimeMin, Long criticalTemperatureTimeMin,
		Integer warningTemperatureThresholdK, Integer criticalTemperatureThresholdK, Integer thermalManagementTemp1K,
		ThermalManagement thermalManagement, Long physicalMediaUnitsWrittenBytes, Map<String, Long> ocp,
		String ocpReason, LatencyMonitor latencyMonitor, String latencyMonitorReason, Fdp fdp, String fdpReason) {

	public static final String INDEX = "drivequal-health";

	/** Log 02h's thermal management counters, over the drive's life. */
	public record ThermalManagement(long temp1Transitions, long temp2Transitions, long temp1TimeS, long temp2TimeS) {

		/** Seconds throttled at either level. */
		public long timeS() {
			return this.temp1TimeS + this.temp2TimeS;
		}

	}

	/**
	 * The OCP Latency Monitor log (C3h) as the contract carries it (smartSnapshot
	 * latencyMonitor).
	 */
	public record LatencyMonitor(int logPageVersion, int featureStatus, long activeBucketTimerMin,
			long activeBucketTimerThresholdMin, List<Integer> activeThresholdsMs, int activeLatencyConfig,
			int activeLatencyMinimumWindowMs, Buckets activeBuckets, Buckets staticBuckets) {

		static LatencyMonitor of(JsonNode monitor) {
			List<Integer> thresholds = new ArrayList<>();
			monitor.path("activeThresholdsMs").forEach((threshold) -> thresholds.add(threshold.asInt()));
			return new LatencyMonitor(monitor.path("logPageVersion").asInt(), monitor.path("featureStatus").asInt(),
					monitor.path("activeBucketTimerMin").asLong(),
					monitor.path("activeBucketTimerThresholdMin").asLong(), thresholds,
					monitor.path("activeLatencyConfig").asInt(), monitor.path("activeLatencyMinimumWindowMs").asInt(),
					Buckets.of(monitor.path("activeBuckets")), Buckets.of(monitor.path("staticBuckets")));
		}

	}

	/** Commands counted per latency bucket, per direction. */
	public record Buckets(List<Long> read, List<Long> write, List<Long> deallocate) {

		static Buckets of(JsonNode buckets) {
			return new Buckets(counts(buckets.path("read")), counts(buckets.path("write")),
					counts(buckets.path("deallocate")));
		}

		private static List<Long> counts(JsonNode array) {
			List<Long> counts = new ArrayList<>();
			array.forEach((count) -> counts.add(count.asLong()));
			return counts;
		}

	}

	/**
	 * Flexible Data Placement's counters as the contract carries them (smartSnapshot
	 * fdp): lifetime bytes, and the event counts when the drive answered.
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Fdp(long hostBytesWritten, long mediaBytesWritten, long mediaBytesErased, Long hostEvents,
			Long controllerEvents) {

		static Fdp of(JsonNode fdp) {
			return new Fdp(fdp.path("hostBytesWritten").asLong(), fdp.path("mediaBytesWritten").asLong(),
					fdp.path("mediaBytesErased").asLong(), optional(fdp, "hostEvents", JsonNode::asLong),
					optional(fdp, "controllerEvents", JsonNode::asLong));
		}

	}

	/** A health event, already validated against the contract. */
	public static HealthReading of(JsonNode event) {
		JsonNode smart = event.path("smart");
		JsonNode thermal = smart.get("thermalManagement");
		return new HealthReading(event.path("timeMs").asLong(), event.path("eventId").asString(),
				event.path("seq").asInt(), event.path("jobId").asString(), event.path("runnerId").asString(),
				event.path("phaseIndex").asInt(), event.path("elapsedMs").asLong(), smart.path("available").asBoolean(),
				smart.path("source").asString(), optional(smart, "reason", JsonNode::asString),
				optional(smart, "temperatureK", JsonNode::asInt), optional(smart, "criticalWarning", JsonNode::asInt),
				optional(smart, "mediaErrors", JsonNode::asLong),
				optional(smart, "availableSparePercent", JsonNode::asInt),
				optional(smart, "availableSpareThresholdPercent", JsonNode::asInt),
				optional(smart, "percentageUsed", JsonNode::asInt),
				optional(smart, "dataUnitsWritten", JsonNode::asLong),
				optional(smart, "dataUnitsRead", JsonNode::asLong), optional(smart, "powerOnHours", JsonNode::asLong),
				optional(smart, "warningTemperatureTimeMin", JsonNode::asLong),
				optional(smart, "criticalTemperatureTimeMin", JsonNode::asLong),
				optional(smart, "warningTemperatureThresholdK", JsonNode::asInt),
				optional(smart, "criticalTemperatureThresholdK", JsonNode::asInt),
				optional(smart, "thermalManagementTemp1K", JsonNode::asInt),
				(thermal != null) ? new ThermalManagement(thermal.path("temp1Transitions").asLong(),
						thermal.path("temp2Transitions").asLong(), thermal.path("temp1TimeS").asLong(),
						thermal.path("temp2TimeS").asLong()) : null,
				optional(smart.path("ocp"), "physicalMediaUnitsWrittenBytes", JsonNode::asLong), ocp(smart.get("ocp")),
				optional(smart, "ocpReason", JsonNode::asString),
				(smart.get("latencyMonitor") != null) ? LatencyMonitor.of(smart.get("latencyMonitor")) : null,
				optional(smart, "latencyMonitorReason", JsonNode::asString),
				(smart.get("fdp") != null) ? Fdp.of(smart.get("fdp")) : null,
				optional(smart, "fdpReason", JsonNode::asString));
	}

	private static Map<String, Long> ocp(JsonNode ocp) {
		if (ocp == null) {
			return null;
		}
		Map<String, Long> members = new LinkedHashMap<>();
		ocp.properties().forEach((member) -> members.put(member.getKey(), member.getValue().asLong()));
		return members;
	}

	/** Indexing this reading; its eventId makes a redelivery overwrite itself. */
	public BulkOperation indexOperation() {
		return BulkOperation.of((op) -> op.index((index) -> index.index(INDEX).id(this.eventId).document(this)));
	}

	private static <T> T optional(JsonNode node, String field, Function<JsonNode, T> value) {
		JsonNode member = node.get(field);
		return (member != null && !member.isNull()) ? value.apply(member) : null;
	}

}
