/*
 * NVMe admin passthrough for the uring engine on kernel NVMe namespaces: identity, SMART, reading
 * the OCP logs (decoded in nvme_ocp.c) and setting the latency monitor, and the erase commands a
 * purge phase asks for. What a drive can do is derived in nvme_capabilities.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>

#include <linux/nvme_ioctl.h>

#include "device/nvme_admin.h"
#include "nvme_bytes.h"

#define NVME_ADMIN_GET_LOG_PAGE 0x02
#define NVME_ADMIN_IDENTIFY 0x06
#define NVME_ADMIN_GET_FEATURES 0x0a
#define NVME_ADMIN_SET_FEATURES 0x09
#define NVME_ADMIN_FORMAT_NVM 0x80
#define NVME_ADMIN_SANITIZE 0x84
#define NVME_NSID_ALL 0xffffffffu
#define FORMAT_TIMEOUT_MS (4u * 3600u * 1000u)
#define SANITIZE_MAX_WAIT_S (72u * 3600u)

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

int dq_nvme_get_log_scoped(int fd, uint8_t log_id, uint8_t lsp, uint16_t lsi, uint32_t nsid,
			   void *buf, uint32_t len, char *err, size_t err_len)
{
	struct nvme_admin_cmd cmd = { 0 };
	uint32_t numd = len / 4 - 1; /* dwords, 0-based */
	char what[32];

	memset(buf, 0, len);
	cmd.opcode = NVME_ADMIN_GET_LOG_PAGE;
	cmd.nsid = nsid;
	cmd.addr = (uint64_t)(uintptr_t)buf;
	cmd.data_len = len;
	cmd.cdw10 = log_id | (uint32_t)(lsp & 0x7fu) << 8 | (numd & 0xffffu) << 16;
	cmd.cdw11 = numd >> 16 | (uint32_t)lsi << 16;
	snprintf(what, sizeof(what), "Get Log Page %02Xh", log_id);
	return admin(fd, &cmd, what, err, err_len);
}

int dq_nvme_get_log(int fd, uint8_t log_id, uint32_t nsid, void *buf, uint32_t len, char *err,
		    size_t err_len)
{
	return dq_nvme_get_log_scoped(fd, log_id, 0, 0, nsid, buf, len, err, err_len);
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
