/*
 * The runner heartbeat with its device inventory (schemas/messages/runner-heartbeat.schema.json),
 * sent every intervalMs on the compacted drivequal.runner-heartbeats topic.
 */
#ifndef DRIVEQUAL_MSG_RUNNER_HEARTBEAT_H
#define DRIVEQUAL_MSG_RUNNER_HEARTBEAT_H

#include "contract/capabilities.h"
#include "contract/msg_common.h"

#define DQ_HEARTBEAT_INTERVAL_MS_MIN 100
#define DQ_HEARTBEAT_INTERVAL_MS_MAX 60000
#define DQ_HEARTBEAT_MAX_DEVICES 256
#define DQ_HEARTBEAT_MAX_ACTIVE_JOBS 256
#define DQ_RUNNER_VERSION_MAX_CHARS 64
#define DQ_HOSTNAME_MAX_CHARS 253

enum dq_device_state {
	DQ_DEVICE_STATE_NONE = 0,
	DQ_DEVICE_STATE_IDLE,
	DQ_DEVICE_STATE_BUSY,
	DQ_DEVICE_STATE_REFUSED,
};

enum dq_interlock {
	DQ_INTERLOCK_NONE = 0, /* absent: nothing would refuse destructive work today */
	DQ_INTERLOCK_NOT_ALLOWLISTED,
	DQ_INTERLOCK_MOUNTED,
	DQ_INTERLOCK_PARTITION_TABLE,
	DQ_INTERLOCK_SIGNATURE,
};

struct dq_heartbeat_device {
	struct dq_device device;
	bool allowlisted;
	enum dq_device_state state;
	enum dq_interlock interlock;
	struct dq_capabilities capabilities; /* probed: false omits them (older runners) */
};

struct dq_heartbeat_active_job {
	char job_id[DQ_ID_MAX_LEN + 1];
	char device_serial[DQ_SERIAL_MAX_LEN + 1];
	uint32_t phase_index;
};

/*
 * devices and active_jobs are arrays of device_count and active_job_count entries: allocated by a
 * decoder (dq_runner_heartbeat_fini() frees them), owned by the caller when encoding.
 */
struct dq_runner_heartbeat {
	char runner_id[DQ_ID_MAX_LEN + 1];
	char time[DQ_TIMESTAMP_LEN + 1];
	uint32_t interval_ms;
	char runner_version[DQ_UTF8_BUF(DQ_RUNNER_VERSION_MAX_CHARS)];
	bool has_hostname;
	char hostname[DQ_UTF8_BUF(DQ_HOSTNAME_MAX_CHARS)];
	size_t engine_count;
	enum dq_engine engines[DQ_ENGINE_COUNT - 1]; /* unique */
	size_t device_count;
	struct dq_heartbeat_device *devices;
	size_t active_job_count;
	struct dq_heartbeat_active_job *active_jobs;
};

const char *dq_device_state_to_str(enum dq_device_state state);

/*
 * As dq_sample_decode(): 0, -EINVAL with the reason in err, or -ENOMEM. Release the arrays with
 * dq_runner_heartbeat_fini() after any result.
 */
int dq_runner_heartbeat_decode(const char *json, size_t len, struct dq_runner_heartbeat *heartbeat,
			       char *err, size_t err_len);

/* Free what dq_runner_heartbeat_decode() allocated; only for decoded heartbeats. */
void dq_runner_heartbeat_fini(struct dq_runner_heartbeat *heartbeat);

/* As dq_sample_encode(): canonical JSON in a malloc'd *json; 0, -EINVAL or -ENOMEM. */
int dq_runner_heartbeat_encode(const struct dq_runner_heartbeat *heartbeat, char **json,
			       size_t *len, char *err, size_t err_len);

#endif /* DRIVEQUAL_MSG_RUNNER_HEARTBEAT_H */
