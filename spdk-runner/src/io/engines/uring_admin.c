/*
 * The uring engine's admin side, mostly through NVMe admin passthrough on the namespace's block
 * device: purge (a deallocate of the whole capacity on any target; format or sanitize on an NVMe
 * namespace only), the SMART snapshot with the controller's limits, the OCP logs and, where FDP is
 * enabled, the FDP statistics, and the OCP
 * latency monitor's configuration (Set Features C5h, only on a drive whose C3h page is the OCP one).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include <linux/fs.h>

#include "device/nvme_admin.h"
#include "engines/uring_engine.h"

int uring_purge(void *data, enum dq_purge_method method, char *err, size_t err_len)
{
	struct uring_engine *engine = data;
	struct stat st;
	uint64_t capacity;

	if (method == DQ_PURGE_METHOD_DEALLOCATE) {
		if (fstat(engine->fd, &st) != 0) {
			return -errno;
		}
		if (S_ISREG(st.st_mode)) {
			capacity = (uint64_t)st.st_size;
		} else if (ioctl(engine->fd, BLKGETSIZE64, &capacity) != 0) {
			return -errno;
		}
		return uring_deallocate(data, 0, capacity, err, err_len);
	}
	if (engine->kdev.kind != DQ_KDEV_NVME || !engine->kdev.identified) {
		snprintf(err, err_len, "%s: only NVMe namespaces format or sanitize", engine->path);
		return -EOPNOTSUPP;
	}
	return dq_nvme_purge(engine->fd, engine->kdev.nsid, method, err, err_len);
}

static void smart_unavailable(struct dq_smart_snapshot *out, const char *path, const char *why)
{
	memset(out, 0, sizeof(*out));
	out->source = DQ_SMART_SOURCE_UNAVAILABLE;
	out->has_reason = true;
	snprintf(out->reason, sizeof(out->reason), "%.300s%s", path, why);
}

static int uring_get_log(void *data, uint8_t log_id, void *buf, uint32_t len, char *err,
			 size_t err_len)
{
	struct uring_engine *engine = data;

	return dq_nvme_get_log(engine->fd, log_id, 0xffffffffu, buf, len, err, err_len);
}

int uring_smart(void *data, struct dq_smart_snapshot *out)
{
	struct uring_engine *engine = data;
	uint8_t *log = NULL;
	char err[256];
	int rc;

	switch (engine->kdev.kind) {
	case DQ_KDEV_FILE:
		smart_unavailable(out, engine->path, " is a regular file: it has no SMART log");
		return 0;
	case DQ_KDEV_LOOP:
		smart_unavailable(out, engine->path, " is a loop device: it has no SMART log");
		return 0;
	case DQ_KDEV_BLOCK:
		smart_unavailable(out, engine->path,
				  " is not an NVMe namespace: the uring engine reads SMART only "
				  "through NVMe admin passthrough");
		return 0;
	case DQ_KDEV_NVME:
		break;
	}
	if (posix_memalign((void **)&log, 4096, DQ_NVME_LOG_PAGE_BYTES) != 0) {
		return -ENOMEM;
	}
	/* a power-cycle phase may be closing or replacing the descriptor on the IO thread */
	pthread_mutex_lock(&engine->device_lock);
	if (engine->fd < 0) {
		pthread_mutex_unlock(&engine->device_lock);
		smart_unavailable(
			out, engine->path,
			": the drive's power is cut (a power-cycle phase): no log to read");
		free(log);
		return 0;
	}
	rc = dq_nvme_get_log(engine->fd, DQ_NVME_LOG_SMART, 0xffffffffu, log,
			     DQ_NVME_LOG_PAGE_BYTES, err, sizeof(err));
	if (rc != 0) {
		pthread_mutex_unlock(&engine->device_lock);
		smart_unavailable(out, engine->path, ": ");
		strncat(out->reason, err, sizeof(out->reason) - strlen(out->reason) - 1);
		free(log);
		return 0;
	}
	dq_nvme_smart_parse(log, out);
	if (engine->kdev.identified) {
		dq_nvme_smart_add_limits(&engine->kdev.controller, out);
	}
	dq_nvme_read_ocp_logs(uring_get_log, engine, log, out);
	pthread_mutex_unlock(&engine->device_lock);
	free(log);
	if (engine->kdev.fdp.config.enabled) {
		dq_nvme_fdp_read(engine->fd, engine->kdev.fdp.endgid, out);
	}
	return 0;
}

int uring_configure_latency_monitor(void *data, const struct dq_latency_monitor_config *config,
				    char *err, size_t err_len)
{
	struct uring_engine *engine = data;
	struct dq_smart_snapshot probe = { 0 };
	uint8_t *log = NULL;
	int rc;

	if (engine->kdev.kind != DQ_KDEV_NVME) {
		snprintf(err, err_len, "%s is not an NVMe namespace: it has no latency monitor",
			 engine->path);
		return -EOPNOTSUPP;
	}
	if (posix_memalign((void **)&log, 4096, DQ_NVME_LOG_PAGE_BYTES) != 0) {
		return -ENOMEM;
	}
	/* only a drive whose C3h page is the OCP one is configured */
	rc = dq_nvme_get_log(engine->fd, DQ_NVME_LOG_OCP_LATENCY_MONITOR, 0xffffffffu, log,
			     DQ_NVME_LOG_PAGE_BYTES, err, err_len);
	if (rc == 0 && !dq_nvme_latency_monitor_parse(log, &probe)) {
		snprintf(err, err_len, "%s", probe.latency_monitor_reason);
	}
	free(log);
	if (rc != 0 || !probe.has_latency_monitor) {
		return -EOPNOTSUPP;
	}
	return dq_nvme_set_latency_monitor(engine->fd, config, err, err_len);
}
