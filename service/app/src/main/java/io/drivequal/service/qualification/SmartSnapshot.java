/*
 * The contract's smartSnapshot (schemas/messages/common.schema.json): a drive's SMART / Health log
 * (02h) and, when it has them, its OCP C0h and C3h logs, as a smart-snapshot event carries them
 * before and after a phase. Fields the device did not report stay null: nothing is estimated.
 */
package io.drivequal.service.qualification;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.drivequal.service.ingest.HealthReading;

/**
 * @param source where the counters came from (the contract's enum)
 * @param reason why they are not available, when available is false
 * @param ocp every OCP C0h member the drive reported, by the contract's names (null when
 * it has no C0h log)
 * @param fdp the FDP statistics (log 22h) and event counts (23h), when FDP is enabled
 * @param fdpReason why there are none on a drive with FDP enabled
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SmartSnapshot(boolean available, String source, String reason, Long dataUnitsWritten, Long dataUnitsRead,
		Long hostWriteCommands, Long hostReadCommands, Integer percentageUsed, Integer availableSparePercent,
		Integer availableSpareThresholdPercent, Integer criticalWarning, Integer temperatureK, Long powerOnHours,
		Long mediaErrors, Long warningTemperatureTimeMin, Long criticalTemperatureTimeMin,
		Integer warningTemperatureThresholdK, Integer criticalTemperatureThresholdK, Integer thermalManagementTemp1K,
		HealthReading.ThermalManagement thermalManagement, Map<String, Long> ocp, String ocpReason,
		HealthReading.LatencyMonitor latencyMonitor, String latencyMonitorReason, HealthReading.Fdp fdp,
		String fdpReason) {

	/**
	 * The OCP C0h physical media units written, in bytes (required in the contract's
	 * ocp); null when the drive has no C0h log.
	 */
	public Long physicalMediaUnitsWrittenBytes() {
		return (this.ocp != null) ? this.ocp.get("physicalMediaUnitsWrittenBytes") : null;
	}

}
