/*
 * The SMART snapshot of the contract (schemas/messages/common.schema.json#/$defs/smartSnapshot): the
 * SMART / Health log (02h), the OCP C0h extended SMART log and C3h latency monitor, and the FDP
 * statistics, as plain C structs. Part of contract/msg_common.h, which includes it (and which it
 * includes for the shared lengths and enums).
 */
#ifndef DRIVEQUAL_MSG_SMART_H
#define DRIVEQUAL_MSG_SMART_H

#include <stdbool.h>
#include <stdint.h>

#include "contract/msg_common.h"

/*
 * The OCP Datacenter NVMe SSD spec's SMART / Health Information Extended log (C0h) as the contract
 * carries it (#/$defs/smartSnapshot ocp), one enum value per member in the schema's order:
 * g_dq_ocp_field_names names them. Counters wider than 63 bits saturate at INT64_MAX. A member is
 * present when the log page version defines it (or, for the simulated drive, when it models it).
 */
enum dq_ocp_field {
	DQ_OCP_LOG_PAGE_VERSION = 0,
	DQ_OCP_PHYSICAL_MEDIA_UNITS_WRITTEN_BYTES,
	DQ_OCP_PHYSICAL_MEDIA_UNITS_READ_BYTES,
	DQ_OCP_BAD_USER_NAND_BLOCKS,
	DQ_OCP_BAD_USER_NAND_BLOCKS_NORMALIZED,
	DQ_OCP_BAD_SYSTEM_NAND_BLOCKS,
	DQ_OCP_BAD_SYSTEM_NAND_BLOCKS_NORMALIZED,
	DQ_OCP_XOR_RECOVERY_COUNT,
	DQ_OCP_UNCORRECTABLE_READ_ERRORS,
	DQ_OCP_SOFT_ECC_ERRORS,
	DQ_OCP_END_TO_END_DETECTED_ERRORS,
	DQ_OCP_END_TO_END_CORRECTED_ERRORS,
	DQ_OCP_SYSTEM_DATA_PERCENT_USED,
	DQ_OCP_REFRESH_COUNT,
	DQ_OCP_USER_DATA_ERASE_COUNT_MAX,
	DQ_OCP_USER_DATA_ERASE_COUNT_MIN,
	DQ_OCP_THERMAL_THROTTLING_EVENTS,
	DQ_OCP_THERMAL_THROTTLING_STATUS,
	DQ_OCP_DSSD_SPEC_VERSION_MAJOR,
	DQ_OCP_DSSD_SPEC_VERSION_MINOR,
	DQ_OCP_DSSD_SPEC_VERSION_POINT,
	DQ_OCP_DSSD_SPEC_VERSION_ERRATA,
	DQ_OCP_PCIE_CORRECTABLE_ERRORS,
	DQ_OCP_INCOMPLETE_SHUTDOWNS,
	DQ_OCP_PERCENT_FREE_BLOCKS,
	DQ_OCP_CAPACITOR_HEALTH,
	DQ_OCP_NVME_BASE_ERRATA_VERSION,
	DQ_OCP_NVME_COMMAND_SET_ERRATA_VERSION,
	DQ_OCP_NVME_OVER_PCIE_ERRATA_VERSION,
	DQ_OCP_NVME_MI_ERRATA_VERSION,
	DQ_OCP_UNALIGNED_IO,
	DQ_OCP_SECURITY_VERSION_NUMBER,
	DQ_OCP_TOTAL_NUSE,
	DQ_OCP_PLP_START_COUNT,
	DQ_OCP_ENDURANCE_ESTIMATE,
	DQ_OCP_PCIE_LINK_RETRAINING_COUNT,
	DQ_OCP_POWER_STATE_CHANGE_COUNT,
	DQ_OCP_LOWEST_PERMITTED_FIRMWARE_REVISION,
	DQ_OCP_TOTAL_MEDIA_DIES,
	DQ_OCP_TOTAL_DIE_FAILURE_TOLERANCE,
	DQ_OCP_MEDIA_DIES_OFFLINE,
	DQ_OCP_MAX_TEMPERATURE_RECORDED,
	DQ_OCP_FORM_FACTOR,
	DQ_OCP_NAND_AVERAGE_ERASE_COUNT,
	DQ_OCP_COMMAND_TIMEOUTS,
	DQ_OCP_SYSTEM_AREA_PROGRAM_FAILS,
	DQ_OCP_SYSTEM_AREA_PROGRAM_FAILS_NORMALIZED,
	DQ_OCP_SYSTEM_AREA_UNCORRECTABLE_READS,
	DQ_OCP_SYSTEM_AREA_UNCORRECTABLE_READS_NORMALIZED,
	DQ_OCP_SYSTEM_AREA_ERASE_FAILS,
	DQ_OCP_SYSTEM_AREA_ERASE_FAILS_NORMALIZED,
	DQ_OCP_MAX_PEAK_POWER_CAPABILITY,
	DQ_OCP_CURRENT_MAX_AVERAGE_POWER,
	DQ_OCP_LIFETIME_POWER_CONSUMED,
	DQ_OCP_DIE_IN_USE_BAD_NAND_BLOCKS,
	DQ_OCP_DIE_IN_USE_BAD_NAND_BLOCKS_NORMALIZED,
	DQ_OCP_NAND_ERASE_COUNT, /* the simulated drive's sum of block erases: no C0h offset */
	DQ_OCP_FIELD_COUNT
};

/* The members' names in the snapshot's ocp object, by enum dq_ocp_field. */
extern const char *const g_dq_ocp_field_names[DQ_OCP_FIELD_COUNT];

struct dq_smart_ocp {
	uint64_t present; /* bit (1 << field) per member present */
	uint64_t value[DQ_OCP_FIELD_COUNT];
};

static inline void dq_smart_ocp_set(struct dq_smart_ocp *ocp, enum dq_ocp_field field,
				    uint64_t value)
{
	ocp->present |= UINT64_C(1) << field;
	ocp->value[field] = value;
}

static inline bool dq_smart_ocp_has(const struct dq_smart_ocp *ocp, enum dq_ocp_field field)
{
	return (ocp->present >> field) & 1u;
}

/* The OCP Latency Monitor log (C3h): its configuration and its bucket counters. */
#define DQ_LATENCY_MONITOR_BUCKETS 4
enum dq_latency_direction {
	DQ_LATENCY_READ = 0,
	DQ_LATENCY_WRITE,
	DQ_LATENCY_DEALLOCATE,
	DQ_LATENCY_DIRECTIONS
};

struct dq_latency_monitor {
	uint32_t log_page_version;
	uint32_t feature_status; /* bit 0 enabled (per the log's Feature Status byte) */
	uint64_t active_bucket_timer_min;
	uint64_t active_bucket_timer_threshold_min;
	uint32_t active_thresholds_ms[DQ_LATENCY_MONITOR_BUCKETS]; /* A, B, C, D */
	uint32_t active_latency_config;
	uint32_t active_latency_minimum_window_ms;
	/* commands counted in each bucket (bucket i: threshold i <= latency < threshold i+1) */
	uint64_t active_buckets[DQ_LATENCY_DIRECTIONS][DQ_LATENCY_MONITOR_BUCKETS];
	uint64_t static_buckets[DQ_LATENCY_DIRECTIONS][DQ_LATENCY_MONITOR_BUCKETS];
};

/* What a job asks of the drive's latency monitor (Set Features C5h): its four thresholds. */
struct dq_latency_monitor_config {
	uint32_t thresholds_ms[DQ_LATENCY_MONITOR_BUCKETS]; /* multiples of 5, 5..1280, increasing */
};

/* The FDP Statistics log (22h) and the FDP Events log's counts (23h) (#/$defs/smartSnapshot fdp). */
struct dq_smart_fdp {
	uint64_t host_bytes_written;
	uint64_t media_bytes_written;
	uint64_t media_bytes_erased;
	bool has_host_events;
	uint64_t host_events;
	bool has_controller_events;
	uint64_t controller_events;
};

/* Endurance counters as the device reports them (#/$defs/smartSnapshot); nothing estimated. */
struct dq_smart_snapshot {
	bool available;
	enum dq_smart_source source;
	bool has_reason;
	char reason[DQ_UTF8_BUF(DQ_REASON_MAX_CHARS)];
	bool has_data_units_written;
	uint64_t data_units_written;
	bool has_data_units_read;
	uint64_t data_units_read;
	bool has_host_write_commands;
	uint64_t host_write_commands;
	bool has_host_read_commands;
	uint64_t host_read_commands;
	bool has_percentage_used;
	uint32_t percentage_used;
	bool has_available_spare_percent;
	uint32_t available_spare_percent;
	bool has_available_spare_threshold_percent;
	uint32_t available_spare_threshold_percent;
	bool has_critical_warning;
	uint32_t critical_warning;
	bool has_temperature_k;
	uint32_t temperature_k;
	bool has_power_on_hours;
	uint64_t power_on_hours;
	bool has_media_errors;
	uint64_t media_errors;
	/* Thermal history and limits (log 02h bytes 192..231, Identify WCTEMP/CCTEMP, HCTM TMT1). */
	bool has_warning_temperature_time_min;
	uint64_t warning_temperature_time_min;
	bool has_critical_temperature_time_min;
	uint64_t critical_temperature_time_min;
	bool has_warning_temperature_threshold_k;
	uint32_t warning_temperature_threshold_k;
	bool has_critical_temperature_threshold_k;
	uint32_t critical_temperature_threshold_k;
	bool has_thermal_management_temp1_k;
	uint32_t thermal_management_temp1_k;
	bool has_thermal_management;
	uint64_t thermal_management_temp1_transitions;
	uint64_t thermal_management_temp2_transitions;
	uint64_t thermal_management_temp1_time_s;
	uint64_t thermal_management_temp2_time_s;
	bool has_ocp;
	struct dq_smart_ocp ocp;
	bool has_ocp_reason; /* why there is no ocp (no C0h, or not the OCP GUID) */
	char ocp_reason[DQ_UTF8_BUF(DQ_REASON_MAX_CHARS)];
	bool has_latency_monitor;
	struct dq_latency_monitor latency_monitor;
	bool has_latency_monitor_reason; /* why there is no latencyMonitor */
	char latency_monitor_reason[DQ_UTF8_BUF(DQ_REASON_MAX_CHARS)];
	bool has_fdp; /* a drive with FDP enabled: its statistics */
	struct dq_smart_fdp fdp;
	bool has_fdp_reason; /* why there is no fdp where FDP is enabled */
	char fdp_reason[DQ_UTF8_BUF(DQ_REASON_MAX_CHARS)];
};

#endif /* DRIVEQUAL_MSG_SMART_H */
