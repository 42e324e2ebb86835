/*
 * The per-second sample (schemas/messages/sample.schema.json): the runner produces one per second of
 * a workload phase to drivequal.samples, and `drivequal-runner replay` re-delivers saved ones.
 */
#ifndef DRIVEQUAL_MSG_SAMPLE_H
#define DRIVEQUAL_MSG_SAMPLE_H

#include "contract/msg_common.h"

#define DQ_SAMPLE_T_MAX 2592000

/* One direction of one second; latency_ns is sent exactly when ios >= 1 (the schema's rule). */
struct dq_sample_direction {
	uint64_t ios;
	uint64_t bytes;
	struct dq_latency_percentiles latency_ns;
};

struct dq_sample {
	char job_id[DQ_ID_MAX_LEN + 1];
	char runner_id[DQ_ID_MAX_LEN + 1];
	char device_serial[DQ_SERIAL_MAX_LEN + 1];
	uint32_t phase_index;
	char phase_name[DQ_PHASE_NAME_MAX_LEN + 1];
	uint32_t t; /* end of the interval, whole seconds since the phase started */
	uint64_t time_ms;
	struct dq_sample_direction read;
	struct dq_sample_direction write;
	bool has_effective_queue_depth_milli;
	uint64_t effective_queue_depth_milli; /* IOs outstanding x 1000, time-averaged */
	bool has_round; /* phases with adaptive rounds: round and step of this second */
	uint32_t round;
	uint32_t step;
};

/*
 * Decode and validate len bytes of JSON (trailing whitespace allowed) against the schema.
 * Returns 0, or -EINVAL with a reason naming the field in err ("write.ios: must be ..."),
 * or -ENOMEM. err may be NULL when err_len is 0.
 */
int dq_sample_decode(const char *json, size_t len, struct dq_sample *sample, char *err,
		     size_t err_len);

/*
 * Encode the canonical compact JSON (schema key order, no whitespace) into a malloc'd,
 * NUL-terminated *json of *len bytes (free() it). The result is validated as a decode would:
 * returns 0, -EINVAL (err says why the struct is not a valid sample) or -ENOMEM.
 */
int dq_sample_encode(const struct dq_sample *sample, char **json, size_t *len, char *err,
		     size_t err_len);

#endif /* DRIVEQUAL_MSG_SAMPLE_H */
