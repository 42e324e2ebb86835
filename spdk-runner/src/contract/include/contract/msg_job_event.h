/*
 * The job and phase events (schemas/messages/job-event.schema.json) a runner reports on
 * drivequal.job-events: they move the job's state in the service and carry phase totals, full
 * latency histograms and SMART snapshots.
 */
#ifndef DRIVEQUAL_MSG_JOB_EVENT_H
#define DRIVEQUAL_MSG_JOB_EVENT_H

#include "contract/msg_common.h"

#define DQ_JOB_EVENT_SEQ_MAX 999999999

enum dq_job_event_type {
	DQ_JOB_EVENT_NONE = 0,
	DQ_JOB_EVENT_ACCEPTED,
	DQ_JOB_EVENT_REFUSED,
	DQ_JOB_EVENT_PHASE_STARTED,
	DQ_JOB_EVENT_PHASE_COMPLETED,
	DQ_JOB_EVENT_SMART_SNAPSHOT,
	DQ_JOB_EVENT_COMPLETED,
	DQ_JOB_EVENT_FAILED,
	DQ_JOB_EVENT_CANCELLED,
	DQ_JOB_EVENT_HEALTH,
};

enum dq_refuse_reason {
	DQ_REFUSE_NONE = 0,
	DQ_REFUSE_NOT_ALLOWLISTED,
	DQ_REFUSE_SERIAL_MISMATCH,
	DQ_REFUSE_MOUNTED,
	DQ_REFUSE_PARTITION_TABLE,
	DQ_REFUSE_SIGNATURE,
	DQ_REFUSE_DEVICE_BUSY,
	DQ_REFUSE_DEVICE_NOT_FOUND,
	DQ_REFUSE_ENGINE_UNAVAILABLE,
	DQ_REFUSE_INVALID_COMMAND,
};

enum dq_fail_reason {
	DQ_FAIL_NONE = 0,
	DQ_FAIL_IO_ERROR,
	DQ_FAIL_DEVICE_LOST,
	DQ_FAIL_ENGINE_ERROR,
	DQ_FAIL_INTERNAL,
};

enum dq_clock {
	DQ_CLOCK_NONE = 0,
	DQ_CLOCK_REAL,
	DQ_CLOCK_SIMULATED,
};

enum dq_smart_when {
	DQ_SMART_WHEN_NONE = 0,
	DQ_SMART_WHEN_BEFORE,
	DQ_SMART_WHEN_AFTER,
};

struct dq_job_event_accepted {
	struct dq_device device;
	uint32_t phase_count;
};

struct dq_job_event_refused {
	enum dq_refuse_reason reason;
	char message[DQ_UTF8_BUF(DQ_MESSAGE_MAX_CHARS)];
	bool has_device_serial;
	char device_serial[DQ_SERIAL_MAX_LEN + 1];
};

struct dq_job_event_phase_started {
	uint32_t phase_index;
	char phase_name[DQ_PHASE_NAME_MAX_LEN + 1];
	enum dq_phase_kind kind;
	enum dq_clock clock;
	uint64_t start_time_ms;
};

/* Which limit ended a workload phase (runtimeS or sizeBytes): with both, the first reached. */
enum dq_phase_limit {
	DQ_PHASE_LIMIT_NONE = 0, /* cancelled, failed, or not a workload without rounds */
	DQ_PHASE_LIMIT_RUNTIME,
	DQ_PHASE_LIMIT_SIZE,
};

const char *dq_phase_limit_to_str(enum dq_phase_limit limit);

/* Why the runner skipped a phase (common.schema.json#/$defs/phaseSkipped). */
enum dq_skip_reason {
	DQ_SKIP_NONE = 0, /* the phase ran */
	DQ_SKIP_SWEEP_SATURATED, /* an earlier step of its sweepGroup saturated */
};

#define DQ_SKIP_MESSAGE_MAX_LEN 256

struct dq_phase_skipped {
	enum dq_skip_reason reason;
	uint32_t saturated_phase_index;
	char message[DQ_SKIP_MESSAGE_MAX_LEN + 1];
};

struct dq_job_event_phase_completed {
	uint32_t phase_index;
	char phase_name[DQ_PHASE_NAME_MAX_LEN + 1];
	enum dq_phase_kind kind;
	uint64_t duration_ns;
	uint64_t samples;
	struct dq_direction_totals read;
	struct dq_direction_totals write;
	bool has_trim; /* multi-stream phases with trims */
	struct dq_direction_totals trim;
	bool has_deallocated_bytes;
	uint64_t deallocated_bytes;
	bool has_effective_queue_depth_milli; /* IO phases */
	uint64_t effective_queue_depth_milli;
	bool has_purge_verification; /* purge phases */
	struct dq_purge_verification purge_verification;
	bool has_verify; /* verify phases */
	struct dq_verify_result verify;
	bool has_power_cycle; /* power-cycle phases */
	struct dq_power_cycle_report power_cycle;
	bool has_rounds; /* phases with adaptive rounds */
	struct dq_rounds_result rounds;
	enum dq_phase_limit limit_reached; /* workload phases without rounds that ran to a limit */
	size_t stream_count; /* multi-stream phases */
	struct dq_stream_totals streams[DQ_STREAMS_MAX];
	struct dq_phase_skipped skipped; /* reason NONE: the phase ran */
};

struct dq_job_event_smart_snapshot {
	uint32_t phase_index;
	enum dq_smart_when when;
	struct dq_smart_snapshot smart;
};

/* The drive's health polled during a phase (the reading is the same snapshot as smart-snapshot). */
struct dq_job_event_health {
	uint32_t phase_index;
	uint64_t elapsed_ms; /* since the phase started, phase clock */
	uint64_t time_ms; /* epoch ms on the phase clock */
	struct dq_smart_snapshot smart;
};

struct dq_job_event_completed {
	uint64_t duration_ns;
};

struct dq_job_event_failed {
	bool has_phase_index;
	uint32_t phase_index;
	enum dq_fail_reason reason;
	char message[DQ_UTF8_BUF(DQ_MESSAGE_MAX_CHARS)];
};

struct dq_job_event_cancelled {
	bool has_phase_index;
	uint32_t phase_index;
	bool has_message;
	char message[DQ_UTF8_BUF(DQ_MESSAGE_MAX_CHARS)];
};

struct dq_job_event {
	enum dq_job_event_type type;
	char event_id[DQ_EVENT_ID_MAX_LEN + 1]; /* jobId ":" seq */
	char job_id[DQ_ID_MAX_LEN + 1];
	char runner_id[DQ_ID_MAX_LEN + 1];
	uint32_t seq;
	char time[DQ_TIMESTAMP_LEN + 1];
	union {
		struct dq_job_event_accepted accepted;
		struct dq_job_event_refused refused;
		struct dq_job_event_phase_started phase_started;
		struct dq_job_event_phase_completed phase_completed;
		struct dq_job_event_smart_snapshot smart_snapshot;
		struct dq_job_event_completed completed;
		struct dq_job_event_failed failed;
		struct dq_job_event_cancelled cancelled;
		struct dq_job_event_health health;
	};
};

const char *dq_job_event_type_to_str(enum dq_job_event_type type);
const char *dq_refuse_reason_to_str(enum dq_refuse_reason reason);
const char *dq_fail_reason_to_str(enum dq_fail_reason reason);

/*
 * As dq_sample_decode(): 0, -EINVAL with the reason in err, or -ENOMEM. A decoded phase-completed
 * event owns its histogram buckets: release them with dq_job_event_fini() (after any result).
 */
int dq_job_event_decode(const char *json, size_t len, struct dq_job_event *event, char *err,
			size_t err_len);

/* Free what dq_job_event_decode() allocated; only for decoded events. Safe to call twice. */
void dq_job_event_fini(struct dq_job_event *event);

/* As dq_sample_encode(): canonical JSON in a malloc'd *json; 0, -EINVAL or -ENOMEM. */
int dq_job_event_encode(const struct dq_job_event *event, char **json, size_t *len, char *err,
			size_t err_len);

#endif /* DRIVEQUAL_MSG_JOB_EVENT_H */
