// The metrics a buyer's criteria can name; the wire names are the REST API's criteria names and must never change.
package io.drivequal.analysis;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/** A measurable figure of a qualification, with its stable wire name and unit. */
public enum Metric {

	/**
	 * 1 when a window of eligible rounds met the SNIA criteria, else 0 (criterion:
	 * AT_LEAST 1).
	 */
	STEADY_STATE_REACHED("steadyStateReached", "boolean"),
	/**
	 * Average round IOPS of the last five rounds of the phase, when they are in steady
	 * state.
	 */
	STEADY_STATE_IOPS("steadyStateIops", "IOPS"),
	/** P0.1 / mean over the steady-state window (the last five rounds, when steady). */
	CONSISTENCY_RATIO("consistencyRatio", "ratio"),
	/** P0.1 / mean over the fixed window (t &gt;= 1400 for the 2000 s profiles). */
	CONSISTENCY_RATIO_FIXED_WINDOW("consistencyRatioFixedWindow", "ratio"),
	/** Write latency percentiles P99 to P99.9999 of the phase's merged histogram, µs. */
	WRITE_LATENCY_P99_US("writeLatencyP99Us", "us"), WRITE_LATENCY_P999_US("writeLatencyP999Us", "us"),
	WRITE_LATENCY_P9999_US("writeLatencyP9999Us", "us"), WRITE_LATENCY_P99999_US("writeLatencyP99999Us", "us"),
	WRITE_LATENCY_P999999_US("writeLatencyP999999Us", "us"),
	/** Read latency percentiles P99 to P99.9999 of the phase's merged histogram, µs. */
	READ_LATENCY_P99_US("readLatencyP99Us", "us"), READ_LATENCY_P999_US("readLatencyP999Us", "us"),
	READ_LATENCY_P9999_US("readLatencyP9999Us", "us"), READ_LATENCY_P99999_US("readLatencyP99999Us", "us"),
	READ_LATENCY_P999999_US("readLatencyP999999Us", "us"),
	/** Write amplification factor (media bytes / host bytes). */
	WAF("waf", "ratio"),
	/**
	 * The drive's write amplification over the steady-state window (the last five rounds,
	 * when steady): their media bytes over their host bytes, by the drive's own counters.
	 */
	STEADY_STATE_WAF("steadyStateWaf", "ratio"),
	/** Drive writes per day over the warranty. */
	DWPD("dwpd", "drive writes/day"),
	/** Terabytes written over the drive's life, in bytes. */
	TBW_BYTES("tbwBytes", "bytes"),
	/** (after - dirty) / (clean - dirty) sequential write MB/s. */
	TRIM_RECOVERY("trimRecovery", "ratio"),
	/** First 60 s IOPS after idle / steady-state IOPS before idle. */
	IDLE_RECOVERY("idleRecovery", "ratio"),
	/** Mean MB/s of a sequential phase. */
	THROUGHPUT_MBPS("throughputMBps", "MB/s"),
	/**
	 * 1 when a purge's read-back found no block written before it, else 0 (criterion:
	 * AT_LEAST 1).
	 */
	PURGE_VERIFIED("purgeVerified", "boolean"),
	/** Blocks a verify phase found not as written (criterion: AT_MOST 0). */
	VERIFY_MISMATCHES("verifyMismatches", "blocks"),
	/** The hottest health reading of the job, degrees Celsius. */
	MAX_TEMPERATURE_C("maxTemperatureC", "°C"),
	/** Every NVMe critical warning bit a health reading of the job had set (0: none). */
	CRITICAL_WARNING("criticalWarning", "bits"),
	/** Media and data integrity errors the drive counted during the job. */
	NEW_MEDIA_ERRORS("newMediaErrors", "errors"),
	/**
	 * Seconds of the job's IO phases (workload, precondition) found thermally throttled.
	 */
	THERMAL_THROTTLE_SECONDS("thermalThrottleSeconds", "s"),
	/**
	 * Reads the drive could not correct during the job (OCP C0h uncorrectable read error
	 * count, last reading minus first).
	 */
	OCP_UNCORRECTABLE_READ_ERRORS_DELTA("ocpUncorrectableReadErrorsDelta", "errors"),
	/** Shutdowns the drive did not complete during the job (C0h incomplete shutdowns). */
	OCP_INCOMPLETE_SHUTDOWNS_DELTA("ocpIncompleteShutdownsDelta", "shutdowns"),
	/** End-to-end data protection errors the drive detected during the job (C0h). */
	OCP_END_TO_END_DETECTED_ERRORS_DELTA("ocpEndToEndDetectedErrorsDelta", "errors"),
	/** User NAND blocks the drive retired during the job (C0h bad user NAND blocks). */
	OCP_BAD_USER_NAND_BLOCKS_DELTA("ocpBadUserNandBlocksDelta", "blocks"),
	/**
	 * System NAND blocks the drive retired during the job (C0h bad system NAND blocks).
	 */
	OCP_BAD_SYSTEM_NAND_BLOCKS_DELTA("ocpBadSystemNandBlocksDelta", "blocks"),
	/** Reads the drive recovered with XOR (parity) during the job (C0h). */
	OCP_XOR_RECOVERY_COUNT_DELTA("ocpXorRecoveryCountDelta", "reads"),
	/** PCIe correctable errors during the job (C0h). */
	OCP_PCIE_CORRECTABLE_ERRORS_DELTA("ocpPcieCorrectableErrorsDelta", "errors"),
	/** Thermal throttling events the drive counted during the job (C0h). */
	OCP_THERMAL_THROTTLING_EVENTS_DELTA("ocpThermalThrottlingEventsDelta", "events"),
	/**
	 * Commands the drive's own latency monitor (OCP C3h) counted at or above its lowest
	 * threshold (A) during the job, every bucket and direction.
	 */
	OCP_LATENCY_MONITOR_COMMANDS("ocpLatencyMonitorCommands", "commands"),
	/** The slowest write and read of the phase (the histogram's exact maximum), µs. */
	WRITE_LATENCY_MAX_US("writeLatencyMaxUs", "us"), READ_LATENCY_MAX_US("readLatencyMaxUs", "us"),
	/**
	 * A phase's read, write and trim bandwidth per TB (10^12 bytes) of the drive's user
	 * capacity: the direction's bytes over the phase's duration, in KiB/s (fio's bw
	 * unit), divided by the capacity in TB, as buyers' flash targets state them.
	 */
	READ_KIBPS_PER_TB("readKiBpsPerTb", "KiB/s per TB"), WRITE_KIBPS_PER_TB("writeKiBpsPerTb", "KiB/s per TB"),
	TRIM_KIBPS_PER_TB("trimKiBpsPerTb", "KiB/s per TB"),
	/**
	 * Latency at load: the offered read rate per TB of user capacity at the sweep's knee
	 * (the first step whose read response-time P99.99 exceeds three times the lowest of
	 * the steps before it, or that saturates), given for the knee's phase
	 * (LatencyAtLoad).
	 */
	KNEE_READ_IOPS_PER_TB("kneeReadIopsPerTb", "IOPS per TB"),
	/**
	 * Latency at load: the achieved read rate per TB of user capacity up to which the
	 * read response-time P99.99 stays at or below 2,500 µs (FioSynth's read P99.99
	 * target) in every step, none saturated; 0 when the first step misses it.
	 */
	READ_IOPS_PER_TB_WITHIN_P9999_2500_US("readIopsPerTbWithinP9999Of2500Us", "IOPS per TB"),
	/**
	 * A phase's reads slower than 2,500 µs (FioSynth's read P99.99 target), from its
	 * service-time histogram: the count, and per million reads.
	 */
	READ_IOS_ABOVE_2500_US("readIosAbove2500Us", "IOs"),
	READ_IOS_ABOVE_2500_US_PER_MILLION("readIosAbove2500UsPerMillion", "IOs per million"),
	/**
	 * A phase's writes slower than 8 ms (FioSynth's write P99.99 target), from its
	 * service-time histogram: the count, and per million writes.
	 */
	WRITE_IOS_ABOVE_8_MS("writeIosAbove8Ms", "IOs"),
	WRITE_IOS_ABOVE_8_MS_PER_MILLION("writeIosAbove8MsPerMillion", "IOs per million"),
	/**
	 * Power cycles of a power-cycle phase in which a block the drive had promised to keep
	 * was lost or a block was corrupt (criterion: AT_MOST 0).
	 */
	POWER_LOSS_FAILED_CYCLES("powerLossFailedCycles", "cycles"),
	/**
	 * Blocks a power-cycle phase found lost although the drive had promised them
	 * (acknowledged with protection, or flushed), summed over its cycles.
	 */
	POWER_LOSS_LOST_DURABLE_BLOCKS("powerLossLostDurableBlocks", "blocks"),
	/**
	 * Flexible Data Placement: the drive's write amplification with the workload's
	 * streams placed (phase "placed") over the same workload without placement (phase
	 * "not-placed").
	 */
	PLACEMENT_WAF_RATIO("placementWafRatio", "ratio");

	private final String wireName;

	private final String unit;

	Metric(String wireName, String unit) {
		this.wireName = wireName;
		this.unit = unit;
	}

	/**
	 * The stable name used in the REST API, stored jobs and reports.
	 * @return the wire name, e.g. "writeLatencyP99Us"
	 */
	public String wireName() {
		return this.wireName;
	}

	public String unit() {
		return this.unit;
	}

	/**
	 * The metric of a wire name.
	 * @param wireName e.g. "consistencyRatio" (exact, case-sensitive)
	 * @return the metric, if any has that name
	 */
	public static Optional<Metric> fromWireName(String wireName) {
		return Arrays.stream(values()).filter((metric) -> metric.wireName.equals(wireName)).findFirst();
	}

	/**
	 * Every wire name, for error messages ("expected one of ...").
	 * @return the wire names, comma separated
	 */
	public static String wireNames() {
		return Arrays.stream(values()).map(Metric::wireName).collect(Collectors.joining(", "));
	}

}
