/*
 * The job command (schemas/messages/job-command.schema.json) that the service sends a runner on
 * drivequal.runner-commands: start a qualification of one drive, or cancel one.
 */
#ifndef DRIVEQUAL_MSG_JOB_COMMAND_H
#define DRIVEQUAL_MSG_JOB_COMMAND_H

#include "contract/msg_common.h"

/* healthPollIntervalS: 0 polls nothing; the schema's maximum, and the runner's default when
 * neither the command nor the runner's configuration says. */
#define DQ_HEALTH_POLL_INTERVAL_MAX_S 3600
#define DQ_HEALTH_POLL_INTERVAL_DEFAULT_S 10

enum dq_job_command_type {
	DQ_JOB_COMMAND_NONE = 0,
	DQ_JOB_COMMAND_START,
	DQ_JOB_COMMAND_CANCEL,
};

struct dq_job_command_start {
	char device_serial[DQ_SERIAL_MAX_LEN + 1];
	bool has_transport_address;
	char transport_address[DQ_UTF8_BUF(DQ_TRANSPORT_MAX_CHARS)];
	enum dq_engine engine; /* DQ_ENGINE_NONE: not given, the runner picks */
	size_t phase_count;
	struct dq_phase_spec phases[DQ_MAX_PHASES];
	bool has_health_poll_interval_s; /* absent: the runner's own setting */
	uint32_t health_poll_interval_s;
	/* A lost job resumed: from this phase (the ones before completed), its samples after
	 * resume_from_s (0: the phase restarts), events numbered from resume_event_seq. */
	bool has_resume;
	uint32_t resume_phase_index;
	uint32_t resume_from_s;
	uint32_t resume_event_seq;
	bool has_latency_monitor; /* absent: the drive's latency monitor is left as it is */
	struct dq_latency_monitor_config latency_monitor;
};

struct dq_job_command_cancel {
	bool has_reason;
	char reason[DQ_UTF8_BUF(DQ_REASON_MAX_CHARS)];
};

struct dq_job_command {
	enum dq_job_command_type type;
	char command_id[DQ_ID_MAX_LEN + 1];
	char job_id[DQ_ID_MAX_LEN + 1];
	char runner_id[DQ_ID_MAX_LEN + 1];
	char issued_at[DQ_TIMESTAMP_LEN + 1];
	union {
		struct dq_job_command_start start;
		struct dq_job_command_cancel cancel;
	};
};

const char *dq_job_command_type_to_str(enum dq_job_command_type type);

/* As dq_sample_decode(): 0, -EINVAL with the reason in err, or -ENOMEM. */
int dq_job_command_decode(const char *json, size_t len, struct dq_job_command *command, char *err,
			  size_t err_len);

/* As dq_sample_encode(): canonical JSON in a malloc'd *json; 0, -EINVAL or -ENOMEM. */
int dq_job_command_encode(const struct dq_job_command *command, char **json, size_t *len, char *err,
			  size_t err_len);

#endif /* DRIVEQUAL_MSG_JOB_COMMAND_H */
