/*
 * NVMe admin passthrough for the uring engine on kernel NVMe namespaces: identity, SMART and the OCP
 * logs exactly as the drive reports them (C0h and C3h decoded only under their own GUIDs), the
 * latency monitor's configuration, and the erase commands a purge phase asks for.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>

#include <linux/nvme_ioctl.h>

#include "device/nvme_admin.h"

#define NVME_ADMIN_GET_LOG_PAGE 0x02
#define NVME_ADMIN_IDENTIFY 0x06
#define NVME_ADMIN_GET_FEATURES 0x0a
#define NVME_FEATURE_VOLATILE_WRITE_CACHE 0x06
#define NVME_FEATURE_FDP 0x1d
#define NVME_ADMIN_SET_FEATURES 0x09
#define NVME_ADMIN_FORMAT_NVM 0x80
#define NVME_ADMIN_SANITIZE 0x84
#define NVME_NSID_ALL 0xffffffffu
#define FORMAT_TIMEOUT_MS (4u * 3600u * 1000u)
#define SANITIZE_MAX_WAIT_S (72u * 3600u)

/* The OCP Datacenter NVMe SSD spec's C0h log GUID, AFD514C97C6F4F9CA4F2BFEA2810AFC5h, LSB first. */
static const uint8_t g_ocp_c0_guid[16] = { 0xc5, 0xaf, 0x10, 0x28, 0xea, 0xbf, 0xf2, 0xa4,
					   0x9c, 0x4f, 0x6f, 0x7c, 0xc9, 0x14, 0xd5, 0xaf };

/* The Latency Monitor log's GUID, 85D45E58D4E643709C6C84D08CC07A92h, LSB first. */
static const uint8_t g_ocp_c3_guid[16] = { 0x92, 0x7a, 0xc0, 0x8c, 0xd0, 0x84, 0x6c, 0x9c,
					   0x70, 0x43, 0xe6, 0xd4, 0x58, 0x5e, 0xd4, 0x85 };

static uint64_t le_u64(const uint8_t *p, size_t bytes)
{
	uint64_t value = 0;
	size_t i;

	for (i = bytes; i > 0; i--) {
		value = value << 8 | p[i - 1];
	}
	return value;
}

/* A 128-bit little-endian counter, saturated at the contract's INT64_MAX. */
static uint64_t le_u128_sat(const uint8_t *p)
{
	uint64_t low = le_u64(p, 8), high = le_u64(p + 8, 8);

	return high != 0 || low > (uint64_t)INT64_MAX ? (uint64_t)INT64_MAX : low;
}

/* Copy an ASCII field, dropping trailing spaces and NULs. */
static void ascii_field(char *out, const uint8_t *field, size_t len)
{
	size_t i;

	memcpy(out, field, len);
	out[len] = '\0';
	for (i = len; i > 0 && (out[i - 1] == ' ' || out[i - 1] == '\0'); i--) {
		out[i - 1] = '\0';
	}
}

void dq_nvme_controller_parse(const uint8_t *data, struct dq_nvme_controller *controller)
{
	memset(controller, 0, sizeof(*controller));
	ascii_field(controller->serial, data + 4, 20);
	ascii_field(controller->model, data + 24, 40);
	ascii_field(controller->firmware, data + 64, 8);
	controller->oacs = (uint16_t)le_u64(data + 256, 2);
	controller->oncs = (uint16_t)le_u64(data + 520, 2);
	controller->lpa = data[261];
	controller->sanicap = (uint32_t)le_u64(data + 328, 4);
	controller->fna = data[524];
	controller->wctemp_k = (uint16_t)le_u64(data + 266, 2);
	controller->cctemp_k = (uint16_t)le_u64(data + 268, 2);
	controller->ctratt = (uint32_t)le_u64(data + 96, 4);
	controller->vwc = data[525];
}

void dq_nvme_namespace_parse(const uint8_t *data, struct dq_nvme_namespace *ns)
{
	uint8_t flbas = data[26], dps = data[29], nlbaf = data[25];
	uint32_t index = (flbas & 0x0fu) | (nlbaf >= 16 ? ((flbas >> 5) & 0x03u) << 4 : 0);
	uint32_t lbaf = (uint32_t)le_u64(data + 128 + 4 * (index & 0x3fu), 4);
	uint8_t lbads = (uint8_t)(lbaf >> 16);

	memset(ns, 0, sizeof(*ns));
	ns->size_blocks = le_u64(data, 8);
	ns->endgid = (uint16_t)le_u64(data + 102, 2);
	ns->lba_size_bytes = lbads >= 9 && lbads < 32 ? 1u << lbads : 0;
	ns->metadata_bytes = lbaf & 0xffffu;
	/* LBAF (bits 3:0 and 13:12), MSET, PI and PIL as they are now */
	ns->format_cdw10 = (flbas & 0x0fu) | ((flbas >> 4) & 1u) << 4 | (dps & 0x07u) << 5 |
			   ((dps >> 3) & 1u) << 8 | ((flbas >> 5) & 0x03u) << 12;
}

void dq_nvme_smart_parse(const uint8_t *log, struct dq_smart_snapshot *smart)
{
	memset(smart, 0, sizeof(*smart));
	smart->available = true;
	smart->source = DQ_SMART_SOURCE_NVME_LOG_02H;
	smart->has_critical_warning = true;
	smart->critical_warning = log[0];
	smart->has_temperature_k = true;
	smart->temperature_k = (uint32_t)le_u64(log + 1, 2);
	smart->has_available_spare_percent = log[3] <= 100;
	smart->available_spare_percent = log[3];
	smart->has_available_spare_threshold_percent = log[4] <= 100;
	smart->available_spare_threshold_percent = log[4];
	smart->has_percentage_used = true;
	smart->percentage_used = log[5];
	smart->has_data_units_read = true;
	smart->data_units_read = le_u128_sat(log + 32);
	smart->has_data_units_written = true;
	smart->data_units_written = le_u128_sat(log + 48);
	smart->has_host_read_commands = true;
	smart->host_read_commands = le_u128_sat(log + 64);
	smart->has_host_write_commands = true;
	smart->host_write_commands = le_u128_sat(log + 80);
	smart->has_power_on_hours = true;
	smart->power_on_hours = le_u128_sat(log + 128);
	smart->has_media_errors = true;
	smart->media_errors = le_u128_sat(log + 160);
	smart->has_warning_temperature_time_min = true;
	smart->warning_temperature_time_min = le_u64(log + 192, 4);
	smart->has_critical_temperature_time_min = true;
	smart->critical_temperature_time_min = le_u64(log + 196, 4);
	smart->has_thermal_management = true;
	smart->thermal_management_temp1_transitions = le_u64(log + 216, 4);
	smart->thermal_management_temp2_transitions = le_u64(log + 220, 4);
	smart->thermal_management_temp1_time_s = le_u64(log + 224, 4);
	smart->thermal_management_temp2_time_s = le_u64(log + 228, 4);
}

void dq_nvme_smart_add_limits(const struct dq_nvme_controller *controller,
			      struct dq_smart_snapshot *smart)
{
	smart->has_warning_temperature_threshold_k = controller->wctemp_k != 0;
	smart->warning_temperature_threshold_k = controller->wctemp_k;
	smart->has_critical_temperature_threshold_k = controller->cctemp_k != 0;
	smart->critical_temperature_threshold_k = controller->cctemp_k;
}

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

uint32_t dq_nvme_purge_methods(const struct dq_nvme_controller *controller)
{
	uint32_t methods = 0;

	if (controller->oacs & (1u << 1)) {
		methods |= 1u << DQ_PURGE_METHOD_FORMAT_USER_DATA;
		if (controller->fna & (1u << 2)) {
			methods |= 1u << DQ_PURGE_METHOD_FORMAT_CRYPTO;
		}
	}
	if (controller->sanicap & (1u << 0)) {
		methods |= 1u << DQ_PURGE_METHOD_SANITIZE_CRYPTO;
	}
	if (controller->sanicap & (1u << 1)) {
		methods |= 1u << DQ_PURGE_METHOD_SANITIZE_BLOCK;
	}
	if (controller->sanicap & (1u << 2)) {
		methods |= 1u << DQ_PURGE_METHOD_SANITIZE_OVERWRITE;
	}
	return methods;
}

void dq_nvme_capabilities_from_controller(const struct dq_nvme_controller *controller,
					  bool single_namespace, struct dq_capabilities *caps)
{
	static const struct {
		enum dq_capability capability;
		enum dq_purge_method method;
		const char *lacks;
	} purges[] = {
		{ DQ_CAPABILITY_FORMAT_USER_DATA, DQ_PURGE_METHOD_FORMAT_USER_DATA,
		  "Identify Controller: OACS bit 1 clear, no Format NVM" },
		{ DQ_CAPABILITY_FORMAT_CRYPTO, DQ_PURGE_METHOD_FORMAT_CRYPTO,
		  "Identify Controller: no cryptographic erase in Format NVM (OACS bit 1 or FNA bit 2 "
		  "clear)" },
		{ DQ_CAPABILITY_SANITIZE_BLOCK, DQ_PURGE_METHOD_SANITIZE_BLOCK,
		  "Identify Controller: SANICAP bit 1 clear, no block erase sanitize" },
		{ DQ_CAPABILITY_SANITIZE_CRYPTO, DQ_PURGE_METHOD_SANITIZE_CRYPTO,
		  "Identify Controller: SANICAP bit 0 clear, no crypto erase sanitize" },
		{ DQ_CAPABILITY_SANITIZE_OVERWRITE, DQ_PURGE_METHOD_SANITIZE_OVERWRITE,
		  "Identify Controller: SANICAP bit 2 clear, no overwrite sanitize" },
	};
	uint32_t methods = dq_nvme_purge_methods(controller);
	size_t i;

	if (controller->oacs & (1u << 1)) {
		dq_capability_have(caps, DQ_CAPABILITY_FORMAT, "Format NVM (OACS bit 1)");
	} else {
		dq_capability_lack(caps, DQ_CAPABILITY_FORMAT, DQ_CAPABILITY_MISSING_DEVICE, "%s",
				   purges[0].lacks);
	}
	for (i = 0; i < sizeof(purges) / sizeof(purges[0]); i++) {
		if (!(methods & (1u << purges[i].method))) {
			dq_capability_lack(caps, purges[i].capability, DQ_CAPABILITY_MISSING_DEVICE,
					   "%s", purges[i].lacks);
		} else if (!single_namespace) {
			dq_capability_lack(caps, purges[i].capability, DQ_CAPABILITY_MISSING_POLICY,
					   "the controller has more than one namespace: Format and "
					   "Sanitize erase all of them, so the runner offers them "
					   "only on a single-namespace controller");
		} else {
			dq_capability_have(caps, purges[i].capability, NULL);
		}
	}
	if (controller->wctemp_k != 0 || controller->cctemp_k != 0) {
		dq_capability_have(caps, DQ_CAPABILITY_TEMPERATURE_THRESHOLDS,
				   "WCTEMP %u K, CCTEMP %u K", controller->wctemp_k,
				   controller->cctemp_k);
	} else {
		dq_capability_lack(caps, DQ_CAPABILITY_TEMPERATURE_THRESHOLDS,
				   DQ_CAPABILITY_MISSING_DEVICE,
				   "Identify Controller: WCTEMP and CCTEMP are 0 (none declared)");
	}
	if (controller->vwc & 1u) {
		dq_capability_have(caps, DQ_CAPABILITY_VOLATILE_WRITE_CACHE,
				   "Identify Controller: VWC bit 0 set");
	} else {
		dq_capability_lack(caps, DQ_CAPABILITY_VOLATILE_WRITE_CACHE,
				   DQ_CAPABILITY_MISSING_DEVICE,
				   "Identify Controller: VWC bit 0 clear, no volatile write cache");
	}
	if (controller->ctratt & (1u << 19)) {
		dq_capability_have(caps, DQ_CAPABILITY_FDP,
				   "Identify Controller: CTRATT bit 19 set");
	} else {
		dq_capability_lack(caps, DQ_CAPABILITY_FDP, DQ_CAPABILITY_MISSING_DEVICE,
				   "Identify Controller: CTRATT bit 19 clear, no Flexible Data "
				   "Placement");
	}
}

void dq_nvme_capabilities_unreachable(struct dq_capabilities *caps, enum dq_capability_missing why,
				      const char *detail)
{
	dq_capability_lack_range(caps, DQ_CAPABILITY_FORMAT, DQ_CAPABILITY_SANITIZE_OVERWRITE, why,
				 detail);
	dq_capability_lack_range(caps, DQ_CAPABILITY_SMART, DQ_CAPABILITY_FDP, why, detail);
}

enum dq_capability_missing dq_nvme_missing_for(int rc)
{
	if (rc == -EPERM || rc == -EACCES) {
		return DQ_CAPABILITY_MISSING_PRIVILEGE;
	}
	return rc == -EIO ? DQ_CAPABILITY_MISSING_DEVICE : DQ_CAPABILITY_MISSING_PROBE_FAILED;
}

int dq_nvme_purge_check(const struct dq_nvme_controller *controller, enum dq_purge_method method,
			char *err, size_t err_len)
{
	enum dq_capability capability = dq_capability_of_purge(method);
	struct dq_capabilities caps;

	if (capability == DQ_CAPABILITY_NONE || capability == DQ_CAPABILITY_DEALLOCATE) {
		snprintf(err, err_len, "%s is not an NVMe admin purge",
			 dq_purge_method_to_str(method) ? dq_purge_method_to_str(method) :
							  "(none)");
		return -EINVAL;
	}
	/* The same reading of Identify as the inventory's, so a refusal and the inventory agree. */
	memset(&caps, 0, sizeof(caps));
	dq_nvme_capabilities_from_controller(controller, true, &caps);
	if (!caps.items[capability].available) {
		snprintf(err, err_len, "the controller does not support %s: %s",
			 dq_capability_to_str(capability), caps.items[capability].detail);
		return -EOPNOTSUPP;
	}
	return 0;
}

int dq_nvme_format_cdw10(const struct dq_nvme_namespace *ns, enum dq_purge_method method,
			 uint32_t *cdw10)
{
	if (method != DQ_PURGE_METHOD_FORMAT_USER_DATA && method != DQ_PURGE_METHOD_FORMAT_CRYPTO) {
		return -EINVAL;
	}
	*cdw10 = (ns->format_cdw10 & ~(7u << 9)) |
		 (method == DQ_PURGE_METHOD_FORMAT_CRYPTO ? 2u : 1u) << 9; /* SES */
	return 0;
}

int dq_nvme_sanitize_cdw10(enum dq_purge_method method, uint32_t *cdw10)
{
	switch (method) {
	case DQ_PURGE_METHOD_SANITIZE_BLOCK:
		*cdw10 = 2u | 1u << 3;
		return 0;
	case DQ_PURGE_METHOD_SANITIZE_OVERWRITE:
		*cdw10 = 3u | 1u << 4 | 1u << 3; /* OWPASS 1 */
		return 0;
	case DQ_PURGE_METHOD_SANITIZE_CRYPTO:
		*cdw10 = 4u | 1u << 3;
		return 0;
	default:
		return -EINVAL;
	}
}

enum dq_nvme_sanitize_state dq_nvme_sanitize_status(const uint8_t *log, uint32_t *progress)
{
	if (progress != NULL) {
		*progress = (uint32_t)le_u64(log, 2);
	}
	return (enum dq_nvme_sanitize_state)(le_u64(log + 2, 2) & 0x7u);
}

int dq_nvme_sanitize_outcome(enum dq_nvme_sanitize_state state, char *err, size_t err_len)
{
	switch (state) {
	case DQ_NVME_SANITIZE_DONE:
	case DQ_NVME_SANITIZE_DONE_NO_DEALLOCATE:
		return 0;
	case DQ_NVME_SANITIZE_IN_PROGRESS:
		return 1;
	case DQ_NVME_SANITIZE_FAILED:
		snprintf(err, err_len, "Sanitize failed (sanitize status log 81h)");
		return -EIO;
	case DQ_NVME_SANITIZE_NEVER:
		snprintf(err, err_len,
			 "the drive accepted Sanitize but its status log says no "
			 "sanitize ever ran");
		return -EPROTO;
	}
	snprintf(err, err_len, "sanitize status log 81h: reserved state %u", (unsigned)state);
	return -EPROTO;
}

uint32_t dq_nvme_dsm_ranges(uint64_t start_lba, uint64_t blocks, struct dq_nvme_dsm_range *ranges,
			    uint32_t max, uint64_t *covered_blocks)
{
	uint64_t covered = 0, step;
	uint32_t n = 0;

	while (covered < blocks && n < max) {
		step = blocks - covered;
		if (step > DQ_NVME_DSM_RANGE_BLOCKS) {
			step = DQ_NVME_DSM_RANGE_BLOCKS;
		}
		ranges[n].attributes = 0;
		ranges[n].length_blocks = (uint32_t)step;
		ranges[n].start_lba = start_lba + covered;
		covered += step;
		n++;
	}
	*covered_blocks = covered;
	return n;
}

static int admin(int fd, struct nvme_admin_cmd *cmd, const char *what, char *err, size_t err_len)
{
	int rc = ioctl(fd, NVME_IOCTL_ADMIN_CMD, cmd);

	if (rc < 0) {
		rc = -errno;
		snprintf(err, err_len, "%s: %s", what, strerror(-rc));
		return rc;
	}
	if (rc > 0) {
		snprintf(err, err_len, "%s: the drive answered NVMe status 0x%x", what,
			 (unsigned)rc);
		return -EIO;
	}
	return 0;
}

/*
 * Identify (opcode 06h) with the given CNS into a fresh 4 KiB-aligned buffer, which the caller
 * frees; NULL and the error when the command fails.
 */
static int identify(int fd, uint32_t nsid, uint32_t cns, const char *what, uint8_t **data,
		    char *err, size_t err_len)
{
	struct nvme_admin_cmd cmd = { 0 };
	int rc;

	*data = NULL;
	if (posix_memalign((void **)data, 4096, DQ_NVME_IDENTIFY_BYTES) != 0) {
		*data = NULL;
		return -ENOMEM;
	}
	memset(*data, 0, DQ_NVME_IDENTIFY_BYTES);
	cmd.opcode = NVME_ADMIN_IDENTIFY;
	cmd.nsid = nsid;
	cmd.addr = (uint64_t)(uintptr_t)*data;
	cmd.data_len = DQ_NVME_IDENTIFY_BYTES;
	cmd.cdw10 = cns;
	rc = admin(fd, &cmd, what, err, err_len);
	if (rc != 0) {
		free(*data);
		*data = NULL;
	}
	return rc;
}

int dq_nvme_identify_controller(int fd, struct dq_nvme_controller *controller, char *err,
				size_t err_len)
{
	uint8_t *data;
	int rc = identify(fd, 0, 1 /* CNS 01h */, "Identify Controller", &data, err, err_len);

	if (rc == 0) {
		dq_nvme_controller_parse(data, controller);
		free(data);
	}
	return rc;
}

int dq_nvme_get_log(int fd, uint8_t log_id, uint32_t nsid, void *buf, uint32_t len, char *err,
		    size_t err_len)
{
	struct nvme_admin_cmd cmd = { 0 };
	uint32_t numd = len / 4 - 1; /* dwords, 0-based */
	char what[32];

	memset(buf, 0, len);
	cmd.opcode = NVME_ADMIN_GET_LOG_PAGE;
	cmd.nsid = nsid;
	cmd.addr = (uint64_t)(uintptr_t)buf;
	cmd.data_len = len;
	cmd.cdw10 = log_id | (numd & 0xffffu) << 16;
	cmd.cdw11 = numd >> 16;
	snprintf(what, sizeof(what), "Get Log Page %02Xh", log_id);
	return admin(fd, &cmd, what, err, err_len);
}

int dq_nvme_set_latency_monitor(int fd, const struct dq_latency_monitor_config *config, char *err,
				size_t err_len)
{
	struct nvme_admin_cmd cmd = { 0 };
	uint8_t *data;
	int rc = dq_nvme_latency_monitor_check(config, err, err_len);

	if (rc != 0) {
		return rc;
	}
	if (posix_memalign((void **)&data, 4096, DQ_NVME_LATENCY_MONITOR_FEATURE_BYTES) != 0) {
		return -ENOMEM;
	}
	dq_nvme_latency_monitor_feature(config, data);
	cmd.opcode = NVME_ADMIN_SET_FEATURES;
	cmd.addr = (uint64_t)(uintptr_t)data;
	cmd.data_len = DQ_NVME_LATENCY_MONITOR_FEATURE_BYTES;
	cmd.cdw10 = DQ_NVME_FEATURE_OCP_LATENCY_MONITOR; /* SV 0: this power cycle only */
	rc = admin(fd, &cmd, "Set Features C5h (OCP Latency Monitor)", err, err_len);
	free(data);
	return rc;
}

/* Identify Namespace: its current format (to format with the same one), its endurance group. */
int dq_nvme_identify_namespace(int fd, uint32_t nsid, struct dq_nvme_namespace *ns, char *err,
			       size_t err_len)
{
	uint8_t *data;
	int rc = identify(fd, nsid, 0 /* CNS 00h */, "Identify Namespace", &data, err, err_len);

	if (rc == 0) {
		dq_nvme_namespace_parse(data, ns);
		free(data);
	}
	return rc;
}

static int wait_for_sanitize(int fd, char *err, size_t err_len)
{
	uint8_t log[DQ_NVME_LOG_PAGE_BYTES];
	struct timespec second = { .tv_sec = 1 };
	unsigned waited;
	int rc;

	for (waited = 0; waited < SANITIZE_MAX_WAIT_S; waited++) {
		rc = dq_nvme_get_log(fd, DQ_NVME_LOG_SANITIZE_STATUS, 0, log, sizeof(log), err,
				     err_len);
		if (rc != 0) {
			return rc;
		}
		rc = dq_nvme_sanitize_outcome(dq_nvme_sanitize_status(log, NULL), err, err_len);
		if (rc <= 0) {
			return rc;
		}
		nanosleep(&second, NULL);
	}
	snprintf(err, err_len, "Sanitize still in progress after %u hours",
		 SANITIZE_MAX_WAIT_S / 3600);
	return -ETIMEDOUT;
}

int dq_nvme_purge(int fd, uint32_t nsid, enum dq_purge_method method, char *err, size_t err_len)
{
	struct nvme_admin_cmd cmd = { 0 };
	struct dq_nvme_namespace ns;
	int rc;

	switch (method) {
	case DQ_PURGE_METHOD_FORMAT_USER_DATA:
	case DQ_PURGE_METHOD_FORMAT_CRYPTO:
		rc = dq_nvme_identify_namespace(fd, nsid, &ns, err, err_len);
		if (rc != 0) {
			return rc;
		}
		cmd.opcode = NVME_ADMIN_FORMAT_NVM;
		cmd.nsid = nsid;
		dq_nvme_format_cdw10(&ns, method, &cmd.cdw10);
		cmd.timeout_ms = FORMAT_TIMEOUT_MS;
		return admin(fd, &cmd, "Format NVM", err, err_len);
	case DQ_PURGE_METHOD_SANITIZE_BLOCK:
	case DQ_PURGE_METHOD_SANITIZE_CRYPTO:
	case DQ_PURGE_METHOD_SANITIZE_OVERWRITE:
		cmd.opcode = NVME_ADMIN_SANITIZE;
		dq_nvme_sanitize_cdw10(method, &cmd.cdw10);
		rc = admin(fd, &cmd, "Sanitize", err, err_len);
		return rc != 0 ? rc : wait_for_sanitize(fd, err, err_len);
	default:
		snprintf(err, err_len, "%s is not an NVMe admin purge",
			 dq_purge_method_to_str(method));
		return -EINVAL;
	}
}

int dq_nvme_get_feature(int fd, uint8_t fid, uint32_t nsid, uint32_t cdw11, uint32_t *result,
			char *err, size_t err_len)
{
	struct nvme_admin_cmd cmd = { 0 };
	char what[32];
	int rc;

	cmd.opcode = NVME_ADMIN_GET_FEATURES;
	cmd.nsid = nsid;
	cmd.cdw10 = fid; /* SEL 0: current */
	cmd.cdw11 = cdw11;
	snprintf(what, sizeof(what), "Get Features %02Xh", fid);
	rc = admin(fd, &cmd, what, err, err_len);
	if (rc == 0) {
		*result = cmd.result;
	}
	return rc;
}

/* SMART 02h and, when it answers, the OCP C0h log (GUID-checked). */
static void probe_logs(int fd, struct dq_capabilities *caps)
{
	struct dq_smart_snapshot smart;
	char err[200];
	uint8_t *log;
	int rc;

	if (posix_memalign((void **)&log, 4096, DQ_NVME_LOG_PAGE_BYTES) != 0) {
		dq_capability_lack_range(caps, DQ_CAPABILITY_SMART, DQ_CAPABILITY_OCP_SMART_C0H,
					 DQ_CAPABILITY_MISSING_PROBE_FAILED, "out of memory");
		return;
	}
	rc = dq_nvme_get_log(fd, DQ_NVME_LOG_SMART, 0xffffffffu, log, DQ_NVME_LOG_PAGE_BYTES, err,
			     sizeof(err));
	if (rc != 0) {
		dq_capability_lack_range(caps, DQ_CAPABILITY_SMART, DQ_CAPABILITY_OCP_SMART_C0H,
					 dq_nvme_missing_for(rc), err);
		free(log);
		return;
	}
	dq_capability_have(caps, DQ_CAPABILITY_SMART, "Get Log Page 02h answered");
	rc = dq_nvme_get_log(fd, DQ_NVME_LOG_OCP_SMART_EXTENDED, 0xffffffffu, log,
			     DQ_NVME_LOG_PAGE_BYTES, err, sizeof(err));
	memset(&smart, 0, sizeof(smart));
	if (rc != 0) {
		dq_capability_lack(caps, DQ_CAPABILITY_OCP_SMART_C0H, dq_nvme_missing_for(rc), "%s",
				   err);
	} else if (!dq_nvme_ocp_parse(log, &smart)) {
		dq_capability_lack(caps, DQ_CAPABILITY_OCP_SMART_C0H, DQ_CAPABILITY_MISSING_DEVICE,
				   "log C0h answered without the OCP GUID: a vendor page, not the "
				   "OCP extended SMART log");
	} else {
		dq_capability_have(caps, DQ_CAPABILITY_OCP_SMART_C0H,
				   "OCP extended SMART log (GUID checked)");
	}
	free(log);
}

/* An available capability's setting, read with Get Features; unknown (no enabled) if refused. */
static void probe_setting(int fd, struct dq_capabilities *caps, enum dq_capability capability,
			  uint8_t fid, uint32_t nsid, uint32_t cdw11)
{
	struct dq_capability_state *state = &caps->items[capability];
	uint32_t result = 0;
	char err[200];
	size_t used;

	if (!state->available) {
		return;
	}
	if (dq_nvme_get_feature(fd, fid, nsid, cdw11, &result, err, sizeof(err)) == 0) {
		state->has_enabled = true;
		state->enabled = (result & 1u) != 0;
		return;
	}
	used = strlen(state->detail);
	snprintf(state->detail + used, sizeof(state->detail) - used, "; its setting is unknown: %s",
		 err);
}

void dq_nvme_probe_capabilities(int fd, uint32_t nsid, const struct dq_nvme_controller *controller,
				int identify_rc, const char *identify_err, bool single_namespace,
				struct dq_capabilities *caps)
{
	struct dq_nvme_namespace ns = { 0 };
	char err[200];

	if (controller == NULL) {
		char detail[DQ_CAPABILITY_DETAIL_MAX_CHARS + 1];

		snprintf(detail, sizeof(detail), "%s%s", identify_err,
			 dq_nvme_missing_for(identify_rc) == DQ_CAPABILITY_MISSING_PRIVILEGE ?
				 " (NVMe admin passthrough needs CAP_SYS_ADMIN)" :
				 "");
		dq_nvme_capabilities_unreachable(caps, dq_nvme_missing_for(identify_rc), detail);
		return;
	}
	dq_nvme_capabilities_from_controller(controller, single_namespace, caps);
	probe_logs(fd, caps);
	probe_setting(fd, caps, DQ_CAPABILITY_VOLATILE_WRITE_CACHE,
		      NVME_FEATURE_VOLATILE_WRITE_CACHE, 0, 0);
	if (caps->items[DQ_CAPABILITY_FDP].available) {
		if (dq_nvme_identify_namespace(fd, nsid, &ns, err, sizeof(err)) == 0) {
			probe_setting(fd, caps, DQ_CAPABILITY_FDP, NVME_FEATURE_FDP, 0, ns.endgid);
		}
	}
}
