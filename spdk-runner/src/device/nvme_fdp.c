/*
 * Flexible Data Placement on a kernel NVMe namespace (NVMe 2.0, TP4146): decoding the FDP
 * Configurations (20h), Statistics (22h) and Events (23h) logs and Get Features 1Dh, and probing
 * them through the admin passthrough ioctl, so the inventory says what the drive offers and a
 * placed write is refused before any IO where the drive cannot take it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/nvme_admin.h"
#include "device/nvme_fdp.h"
#include "nvme_bytes.h"

#define CONFIGS_HEADER_BYTES 16u
#define CONFIG_DESCRIPTOR_BYTES 64u /* before its reclaim unit handle descriptors */
#define FDPA_VALID (1u << 7)
#define FDPA_VOLATILE_WRITE_CACHE (1u << 4)
#define FDP_EVENTS_HOST 0u /* LSP bit 0 clear: host events; set: controller events */
#define FDP_EVENTS_CONTROLLER 1u

int dq_nvme_fdp_configs_parse(const uint8_t *log, size_t len, uint8_t index,
			      struct dq_nvme_fdp_config *out, char *err, size_t err_len)
{
	uint32_t configurations, size, offset = CONFIGS_HEADER_BYTES, dsze = 0, i;
	const uint8_t *d;

	if (len < CONFIGS_HEADER_BYTES) {
		snprintf(err, err_len, "FDP Configurations log: %zu bytes, shorter than its header",
			 len);
		return -EPROTO;
	}
	configurations = (uint32_t)le_u64(log, 2) + 1u;
	size = (uint32_t)le_u64(log + 4, 4);
	if (size == 0 || size > len) {
		size = (uint32_t)len; /* what was read is what can be walked */
	}
	out->configurations = (uint16_t)configurations;
	if (index >= configurations) {
		snprintf(err, err_len,
			 "FDP Configurations log: configuration %u in force but the log lists %u",
			 index, configurations);
		return -EPROTO;
	}
	for (i = 0; i <= index; i++) {
		offset += dsze;
		if (offset + CONFIG_DESCRIPTOR_BYTES > size) {
			snprintf(err, err_len,
				 "FDP Configurations log: descriptor %u at byte %u runs past the "
				 "page's %u bytes",
				 i, offset, size);
			return -EPROTO;
		}
		dsze = (uint32_t)le_u64(log + offset, 2);
		if (dsze < CONFIG_DESCRIPTOR_BYTES) {
			snprintf(
				err, err_len,
				"FDP Configurations log: descriptor %u declares %u bytes (at least "
				"64)",
				i, dsze);
			return -EPROTO;
		}
	}
	d = log + offset;
	if (!(d[2] & FDPA_VALID)) {
		snprintf(
			err, err_len,
			"FDP Configurations log: configuration %u is marked not valid (FDPA bit 7)",
			index);
		return -EPROTO;
	}
	out->index = index;
	out->rgif = d[2] & 0x0fu;
	out->volatile_write_cache = (d[2] & FDPA_VOLATILE_WRITE_CACHE) != 0;
	out->reclaim_groups = (uint32_t)le_u64(d + 4, 4);
	out->reclaim_unit_handles = (uint16_t)le_u64(d + 8, 2);
	out->max_placement_ids = (uint32_t)le_u64(d + 10, 2) + 1u;
	out->reclaim_unit_bytes = le_u64(d + 16, 8);
	return 0;
}

void dq_nvme_fdp_stats_parse(const uint8_t *log, struct dq_nvme_fdp_stats *out)
{
	out->host_bytes_written = le_u128_sat(log);
	out->media_bytes_written = le_u128_sat(log + 16);
	out->media_bytes_erased = le_u128_sat(log + 32);
}

uint32_t dq_nvme_fdp_events_count(const uint8_t *log)
{
	return (uint32_t)le_u64(log, 4);
}

void dq_nvme_fdp_feature_parse(uint32_t dword0, struct dq_nvme_fdp_config *out)
{
	out->enabled = (dword0 & 1u) != 0;
	out->index = (uint8_t)(dword0 >> 8);
}

uint16_t dq_nvme_fdp_placement_id(const struct dq_nvme_fdp_config *config, uint32_t rg,
				  uint16_t handle)
{
	if (config->rgif == 0 || config->rgif >= 16) {
		return handle;
	}
	return (uint16_t)(rg << (16u - config->rgif) | handle);
}

void dq_nvme_fdp_describe(const struct dq_nvme_fdp_config *config, char *out, size_t out_len)
{
	snprintf(out, out_len,
		 "%u reclaim group%s, %u reclaim unit handles, reclaim unit %llu bytes "
		 "(configuration %u of %u)",
		 config->reclaim_groups, config->reclaim_groups == 1 ? "" : "s",
		 config->reclaim_unit_handles, (unsigned long long)config->reclaim_unit_bytes,
		 config->index, config->configurations);
}

uint32_t dq_nvme_fdp_probe(int fd, uint16_t endgid, struct dq_capabilities *caps,
			   struct dq_nvme_fdp_config *out)
{
	struct dq_capability_state *state = &caps->items[DQ_CAPABILITY_FDP];
	char err[200], described[DQ_CAPABILITY_DETAIL_MAX_CHARS + 1];
	uint32_t dword0 = 0;
	uint8_t *log;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = dq_nvme_get_feature(fd, DQ_NVME_FEATURE_FDP, 0, endgid, &dword0, err, sizeof(err));
	if (rc != 0) {
		dq_capability_have(caps, DQ_CAPABILITY_FDP,
				   "CTRATT bit 19 set; its setting is unknown: %s", err);
		return 0;
	}
	dq_nvme_fdp_feature_parse(dword0, out);
	/* kept by dq_capability_have below */
	state->has_enabled = true;
	state->enabled = out->enabled;
	if (!out->enabled) {
		dq_capability_have(
			caps, DQ_CAPABILITY_FDP,
			"supported (CTRATT bit 19) but not enabled on endurance group %u "
			"(Get Features 1Dh)",
			endgid);
		return 0;
	}
	if (posix_memalign((void **)&log, 4096, DQ_NVME_FDP_CONFIGS_BYTES) != 0) {
		return 0;
	}
	rc = dq_nvme_get_log_scoped(fd, DQ_NVME_LOG_FDP_CONFIGURATIONS, 0, endgid, 0, log,
				    DQ_NVME_FDP_CONFIGS_BYTES, err, sizeof(err));
	if (rc == 0) {
		rc = dq_nvme_fdp_configs_parse(log, DQ_NVME_FDP_CONFIGS_BYTES, out->index, out, err,
					       sizeof(err));
	}
	free(log);
	if (rc != 0) {
		dq_capability_have(caps, DQ_CAPABILITY_FDP, "enabled; its configuration unread: %s",
				   err);
		return 0;
	}
	dq_nvme_fdp_describe(out, described, sizeof(described));
	dq_capability_have(caps, DQ_CAPABILITY_FDP, "%s", described);
	return out->reclaim_unit_handles;
}

void dq_nvme_fdp_read(int fd, uint16_t endgid, struct dq_smart_snapshot *smart)
{
	struct dq_nvme_fdp_stats stats;
	char err[200];
	uint8_t *log;
	int rc;

	if (posix_memalign((void **)&log, 4096, 4096) != 0) {
		return;
	}
	rc = dq_nvme_get_log_scoped(fd, DQ_NVME_LOG_FDP_STATISTICS, 0, endgid, 0, log,
				    DQ_NVME_FDP_STATS_BYTES, err, sizeof(err));
	if (rc != 0) {
		smart->has_fdp_reason = true;
		snprintf(smart->fdp_reason, sizeof(smart->fdp_reason),
			 "FDP is enabled but its statistics are unread: %s", err);
		free(log);
		return;
	}
	dq_nvme_fdp_stats_parse(log, &stats);
	smart->has_fdp = true;
	smart->fdp.host_bytes_written = stats.host_bytes_written;
	smart->fdp.media_bytes_written = stats.media_bytes_written;
	smart->fdp.media_bytes_erased = stats.media_bytes_erased;
	/* the events' counts where the drive answers; a drive that keeps none says so by an error */
	if (dq_nvme_get_log_scoped(fd, DQ_NVME_LOG_FDP_EVENTS, FDP_EVENTS_HOST, endgid, 0, log,
				   DQ_NVME_FDP_EVENTS_HEADER_BYTES, err, sizeof(err)) == 0) {
		smart->fdp.has_host_events = true;
		smart->fdp.host_events = dq_nvme_fdp_events_count(log);
	}
	if (dq_nvme_get_log_scoped(fd, DQ_NVME_LOG_FDP_EVENTS, FDP_EVENTS_CONTROLLER, endgid, 0,
				   log, DQ_NVME_FDP_EVENTS_HEADER_BYTES, err, sizeof(err)) == 0) {
		smart->fdp.has_controller_events = true;
		smart->fdp.controller_events = dq_nvme_fdp_events_count(log);
	}
	free(log);
}
