/*
 * The OCP Datacenter NVMe SSD logs, decoded exactly as the drive reports them and only under their
 * own GUIDs: the SMART / Health Information Extended log (C0h), member by member as its log page
 * version defines them, and the Latency Monitor log (C3h) with the Set Features C5h data that
 * configures it. Pure decoders: reading the pages is nvme_admin.c's (or the spdk engine's).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "device/nvme_admin.h"
#include "nvme_bytes.h"

/* The OCP Datacenter NVMe SSD spec's C0h log GUID, AFD514C97C6F4F9CA4F2BFEA2810AFC5h, LSB first. */
static const uint8_t g_ocp_c0_guid[16] = { 0xc5, 0xaf, 0x10, 0x28, 0xea, 0xbf, 0xf2, 0xa4,
					   0x9c, 0x4f, 0x6f, 0x7c, 0xc9, 0x14, 0xd5, 0xaf };

/* The Latency Monitor log's GUID, 85D45E58D4E643709C6C84D08CC07A92h, LSB first. */
static const uint8_t g_ocp_c3_guid[16] = { 0x92, 0x7a, 0xc0, 0x8c, 0xd0, 0x84, 0x6c, 0x9c,
					   0x70, 0x43, 0xe6, 0xd4, 0x58, 0x5e, 0xd4, 0x85 };

/*
 * Where each C0h member sits, from the OCP Datacenter NVMe SSD spec's SMART / Health Information
 * Extended log (512 bytes, little-endian), and the first log page version that defines it (as
 * nvme-cli's ocp plugin gates them: the DSSD and NVMe errata versions, link retraining and power
 * state changes from 2; the command set errata and lowest permitted firmware from 4; media dies,
 * recorded temperature, average erases, command timeouts, system area and power from 5; form
 * factor and in-use dies' bad blocks from 6).
 */
static const struct ocp_c0_member {
	enum dq_ocp_field field;
	uint16_t offset;
	uint8_t bytes;
	uint8_t since_version;
} g_ocp_c0_layout[] = {
	{ DQ_OCP_PHYSICAL_MEDIA_UNITS_WRITTEN_BYTES, 0, 16, 0 },
	{ DQ_OCP_PHYSICAL_MEDIA_UNITS_READ_BYTES, 16, 16, 0 },
	{ DQ_OCP_BAD_USER_NAND_BLOCKS, 32, 6, 0 },
	{ DQ_OCP_BAD_USER_NAND_BLOCKS_NORMALIZED, 38, 2, 0 },
	{ DQ_OCP_BAD_SYSTEM_NAND_BLOCKS, 40, 6, 0 },
	{ DQ_OCP_BAD_SYSTEM_NAND_BLOCKS_NORMALIZED, 46, 2, 0 },
	{ DQ_OCP_XOR_RECOVERY_COUNT, 48, 8, 0 },
	{ DQ_OCP_UNCORRECTABLE_READ_ERRORS, 56, 8, 0 },
	{ DQ_OCP_SOFT_ECC_ERRORS, 64, 8, 0 },
	{ DQ_OCP_END_TO_END_DETECTED_ERRORS, 72, 4, 0 },
	{ DQ_OCP_END_TO_END_CORRECTED_ERRORS, 76, 4, 0 },
	{ DQ_OCP_SYSTEM_DATA_PERCENT_USED, 80, 1, 0 },
	{ DQ_OCP_REFRESH_COUNT, 81, 7, 0 },
	{ DQ_OCP_USER_DATA_ERASE_COUNT_MAX, 88, 4, 0 },
	{ DQ_OCP_USER_DATA_ERASE_COUNT_MIN, 92, 4, 0 },
	{ DQ_OCP_THERMAL_THROTTLING_EVENTS, 96, 1, 0 },
	{ DQ_OCP_THERMAL_THROTTLING_STATUS, 97, 1, 0 },
	{ DQ_OCP_DSSD_SPEC_VERSION_ERRATA, 98, 1, 2 },
	{ DQ_OCP_DSSD_SPEC_VERSION_POINT, 99, 2, 2 },
	{ DQ_OCP_DSSD_SPEC_VERSION_MINOR, 101, 2, 2 },
	{ DQ_OCP_DSSD_SPEC_VERSION_MAJOR, 103, 1, 2 },
	{ DQ_OCP_PCIE_CORRECTABLE_ERRORS, 104, 8, 0 },
	{ DQ_OCP_INCOMPLETE_SHUTDOWNS, 112, 4, 0 },
	{ DQ_OCP_PERCENT_FREE_BLOCKS, 120, 1, 0 },
	{ DQ_OCP_CAPACITOR_HEALTH, 128, 2, 0 },
	{ DQ_OCP_NVME_BASE_ERRATA_VERSION, 130, 1, 2 },
	{ DQ_OCP_NVME_COMMAND_SET_ERRATA_VERSION, 131, 1, 4 },
	{ DQ_OCP_NVME_OVER_PCIE_ERRATA_VERSION, 132, 1, 5 },
	{ DQ_OCP_NVME_MI_ERRATA_VERSION, 133, 1, 5 },
	{ DQ_OCP_UNALIGNED_IO, 136, 8, 0 },
	{ DQ_OCP_SECURITY_VERSION_NUMBER, 144, 8, 0 },
	{ DQ_OCP_TOTAL_NUSE, 152, 8, 0 },
	{ DQ_OCP_PLP_START_COUNT, 160, 16, 0 },
	{ DQ_OCP_ENDURANCE_ESTIMATE, 176, 16, 0 },
	{ DQ_OCP_PCIE_LINK_RETRAINING_COUNT, 192, 8, 2 },
	{ DQ_OCP_POWER_STATE_CHANGE_COUNT, 200, 8, 2 },
	{ DQ_OCP_LOWEST_PERMITTED_FIRMWARE_REVISION, 208, 8, 4 },
	{ DQ_OCP_TOTAL_MEDIA_DIES, 216, 2, 5 },
	{ DQ_OCP_TOTAL_DIE_FAILURE_TOLERANCE, 218, 2, 5 },
	{ DQ_OCP_MEDIA_DIES_OFFLINE, 220, 2, 5 },
	{ DQ_OCP_MAX_TEMPERATURE_RECORDED, 222, 1, 5 },
	{ DQ_OCP_FORM_FACTOR, 223, 1, 6 },
	{ DQ_OCP_NAND_AVERAGE_ERASE_COUNT, 224, 8, 5 },
	{ DQ_OCP_COMMAND_TIMEOUTS, 232, 4, 5 },
	{ DQ_OCP_SYSTEM_AREA_PROGRAM_FAILS, 236, 4, 5 },
	{ DQ_OCP_SYSTEM_AREA_PROGRAM_FAILS_NORMALIZED, 240, 1, 5 },
	{ DQ_OCP_SYSTEM_AREA_UNCORRECTABLE_READS, 244, 4, 5 },
	{ DQ_OCP_SYSTEM_AREA_UNCORRECTABLE_READS_NORMALIZED, 248, 1, 5 },
	{ DQ_OCP_SYSTEM_AREA_ERASE_FAILS, 252, 4, 5 },
	{ DQ_OCP_SYSTEM_AREA_ERASE_FAILS_NORMALIZED, 256, 1, 5 },
	{ DQ_OCP_MAX_PEAK_POWER_CAPABILITY, 260, 2, 5 },
	{ DQ_OCP_CURRENT_MAX_AVERAGE_POWER, 262, 2, 5 },
	{ DQ_OCP_LIFETIME_POWER_CONSUMED, 264, 6, 5 },
	{ DQ_OCP_DIE_IN_USE_BAD_NAND_BLOCKS, 358, 6, 6 },
	{ DQ_OCP_DIE_IN_USE_BAD_NAND_BLOCKS_NORMALIZED, 364, 2, 6 },
};

#define OCP_LOG_VERSION_OFFSET 494
#define OCP_LOG_GUID_OFFSET 496

/* A log's GUID as the spec writes it: most significant byte first. */
static void guid_text(const uint8_t *guid, char out[33])
{
	size_t i;

	for (i = 0; i < 16; i++) {
		snprintf(out + 2 * i, 3, "%02X", guid[15 - i]);
	}
}

/* true when the page carries guid; else the reason, naming what it carries, in reason. */
static bool guid_matches(const uint8_t *log, const uint8_t guid[16], uint8_t log_id,
			 const char *log_name, char *reason, size_t reason_len)
{
	char found[33], expected[33];

	if (memcmp(log + OCP_LOG_GUID_OFFSET, guid, 16) == 0) {
		return true;
	}
	guid_text(log + OCP_LOG_GUID_OFFSET, found);
	guid_text(guid, expected);
	snprintf(reason, reason_len,
		 "log %02Xh carries GUID %s, not %s of the OCP %s log: not an OCP log, not decoded",
		 log_id, found, expected, log_name);
	return false;
}

bool dq_nvme_ocp_parse(const uint8_t *log, struct dq_smart_snapshot *smart)
{
	uint32_t version;
	size_t i;

	smart->has_ocp = false;
	memset(&smart->ocp, 0, sizeof(smart->ocp));
	if (!guid_matches(log, g_ocp_c0_guid, DQ_NVME_LOG_OCP_SMART_EXTENDED,
			  "SMART / Health Information Extended", smart->ocp_reason,
			  sizeof(smart->ocp_reason))) {
		smart->has_ocp_reason = true;
		return false;
	}
	smart->has_ocp_reason = false;
	smart->has_ocp = true;
	version = (uint32_t)le_u64(log + OCP_LOG_VERSION_OFFSET, 2);
	dq_smart_ocp_set(&smart->ocp, DQ_OCP_LOG_PAGE_VERSION, version);
	for (i = 0; i < sizeof(g_ocp_c0_layout) / sizeof(g_ocp_c0_layout[0]); i++) {
		const struct ocp_c0_member *m = &g_ocp_c0_layout[i];
		const uint8_t *p = log + m->offset;
		uint64_t value;

		if (version < m->since_version) {
			continue;
		}
		if (m->bytes == 16) {
			value = le_u128_sat(p);
		} else {
			value = le_u64(p, m->bytes);
			value = value > (uint64_t)INT64_MAX ? (uint64_t)INT64_MAX : value;
		}
		dq_smart_ocp_set(&smart->ocp, m->field, value);
	}
	return true;
}

void dq_nvme_ocp_unavailable(struct dq_smart_snapshot *smart, uint8_t log_id, const char *err)
{
	char *reason = log_id == DQ_NVME_LOG_OCP_LATENCY_MONITOR ? smart->latency_monitor_reason :
								   smart->ocp_reason;
	size_t len = log_id == DQ_NVME_LOG_OCP_LATENCY_MONITOR ?
			     sizeof(smart->latency_monitor_reason) :
			     sizeof(smart->ocp_reason);

	snprintf(reason, len, "the drive has no OCP %s log: %s",
		 log_id == DQ_NVME_LOG_OCP_LATENCY_MONITOR ?
			 "Latency Monitor (C3h)" :
			 "SMART / Health Information Extended (C0h)",
		 err);
	if (log_id == DQ_NVME_LOG_OCP_LATENCY_MONITOR) {
		smart->has_latency_monitor = false;
		smart->has_latency_monitor_reason = true;
	} else {
		smart->has_ocp = false;
		smart->has_ocp_reason = true;
	}
}

void dq_nvme_read_ocp_logs(dq_nvme_get_log_fn get_log, void *ctx, uint8_t *log,
			   struct dq_smart_snapshot *smart)
{
	char err[256];

	/* C0h and C3h are vendor-specific space: only a page with the OCP GUID is read as OCP. */
	if (get_log(ctx, DQ_NVME_LOG_OCP_SMART_EXTENDED, log, DQ_NVME_LOG_PAGE_BYTES, err,
		    sizeof(err)) == 0) {
		dq_nvme_ocp_parse(log, smart);
	} else {
		dq_nvme_ocp_unavailable(smart, DQ_NVME_LOG_OCP_SMART_EXTENDED, err);
	}
	if (get_log(ctx, DQ_NVME_LOG_OCP_LATENCY_MONITOR, log, DQ_NVME_LOG_PAGE_BYTES, err,
		    sizeof(err)) == 0) {
		dq_nvme_latency_monitor_parse(log, smart);
	} else {
		dq_nvme_ocp_unavailable(smart, DQ_NVME_LOG_OCP_LATENCY_MONITOR, err);
	}
}

/* C3h's bucket counters: [bucket][type], 4 bytes each, type 3 read, 2 write, 1 deallocate. */
static void latency_buckets(const uint8_t *counters,
			    uint64_t out[DQ_LATENCY_DIRECTIONS][DQ_LATENCY_MONITOR_BUCKETS])
{
	static const unsigned type_of[DQ_LATENCY_DIRECTIONS] = {
		[DQ_LATENCY_READ] = 3, [DQ_LATENCY_WRITE] = 2, [DQ_LATENCY_DEALLOCATE] = 1
	};
	size_t d, bucket;

	for (d = 0; d < DQ_LATENCY_DIRECTIONS; d++) {
		for (bucket = 0; bucket < DQ_LATENCY_MONITOR_BUCKETS; bucket++) {
			out[d][bucket] = le_u64(counters + (bucket * 4 + type_of[d]) * 4, 4);
		}
	}
}

bool dq_nvme_latency_monitor_parse(const uint8_t *log, struct dq_smart_snapshot *smart)
{
	struct dq_latency_monitor *m = &smart->latency_monitor;
	size_t i;

	smart->has_latency_monitor = false;
	memset(m, 0, sizeof(*m));
	if (!guid_matches(log, g_ocp_c3_guid, DQ_NVME_LOG_OCP_LATENCY_MONITOR, "Latency Monitor",
			  smart->latency_monitor_reason, sizeof(smart->latency_monitor_reason))) {
		smart->has_latency_monitor_reason = true;
		return false;
	}
	smart->has_latency_monitor_reason = false;
	smart->has_latency_monitor = true;
	m->feature_status = log[0];
	m->active_bucket_timer_min = 5 * le_u64(log + 2, 2);
	m->active_bucket_timer_threshold_min = 5 * le_u64(log + 4, 2);
	for (i = 0; i < DQ_LATENCY_MONITOR_BUCKETS; i++) {
		m->active_thresholds_ms[i] = 5 * ((uint32_t)log[6 + i] + 1);
	}
	m->active_latency_config = (uint32_t)le_u64(log + 10, 2);
	m->active_latency_minimum_window_ms = 100 * (uint32_t)log[12];
	latency_buckets(log + 0x20, m->active_buckets);
	latency_buckets(log + 0xf0, m->static_buckets);
	m->log_page_version = (uint32_t)le_u64(log + 0x1ee, 2);
	return true;
}

int dq_nvme_latency_monitor_check(const struct dq_latency_monitor_config *config, char *err,
				  size_t err_len)
{
	size_t i;

	for (i = 0; i < DQ_LATENCY_MONITOR_BUCKETS; i++) {
		uint32_t ms = config->thresholds_ms[i];

		if (ms < 5 || ms > 1280 || ms % 5 != 0) {
			snprintf(
				err, err_len,
				"latency monitor threshold %c = %u ms: the drive counts in 5 ms steps "
				"from 5 to 1280 ms",
				(char)('A' + i), ms);
			return -EINVAL;
		}
		if (i > 0 && ms <= config->thresholds_ms[i - 1]) {
			snprintf(err, err_len,
				 "latency monitor threshold %c = %u ms is not above threshold %c = "
				 "%u ms",
				 (char)('A' + i), ms, (char)('A' + i - 1),
				 config->thresholds_ms[i - 1]);
			return -EINVAL;
		}
	}
	return 0;
}

void dq_nvme_latency_monitor_feature(const struct dq_latency_monitor_config *config, uint8_t *data)
{
	size_t i;

	memset(data, 0, DQ_NVME_LATENCY_MONITOR_FEATURE_BYTES);
	/* the longest active bucket timer (65535 x 5 min): no rollover inside a job */
	data[0] = 0xff;
	data[1] = 0xff;
	for (i = 0; i < DQ_LATENCY_MONITOR_BUCKETS; i++) {
		data[2 + i] = (uint8_t)(config->thresholds_ms[i] / 5 - 1);
	}
	data[6] = 0xff; /* active latency configuration 0FFFh */
	data[7] = 0x0f;
	data[8] = 10; /* minimum window 10 x 100 ms */
	/* 9..10 debug log trigger enable: 0; 11 discard debug log: 0 */
	data[12] = 1; /* latency monitor feature enable */
}
