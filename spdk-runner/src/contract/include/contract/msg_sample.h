/*
 * The per-second sample (schemas/messages/sample.schema.json): the runner produces one per second of
 * a workload phase to drivequal.samples, and `drivequal-runner replay` re-delivers saved ones.
 */
#ifndef DRIVEQUAL_MSG_SAMPLE_H
#define DRIVEQUAL_MSG_SAMPLE_H

#include "contract/msg_common.h"

#define DQ_SAMPLE_T_MAX 2592000
/* A simulated clock's rate x 1000 (sample.schema.json clockRateMilli): 1e9 x real time. */
#define DQ_CLOCK_RATE_MILLI_MAX 1000000000000ULL

/* One direction of one second; latency_ns is sent exactly when ios >= 1 (the schema's rule). */
struct dq_sample_direction {
	uint64_t ios;
	uint64_t bytes;
	struct dq_latency_percentiles latency_ns;
};

/* One direction of one stream's second: service time always, response time for an open loop. */
struct dq_sample_stream_direction {
	uint64_t ios;
	uint64_t bytes;
	struct dq_latency_percentiles latency_ns;
	bool has_response_latency_ns;
	struct dq_latency_percentiles response_latency_ns;
};

/* One stream's second (#/$defs/streamSecond): read, write, trim. */
struct dq_sample_stream {
	uint32_t index;
	bool has_offered_ios;
	uint64_t offered_ios;
	struct dq_sample_stream_direction direction[3];
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
	bool has_trim; /* multi-stream phases with trims */
	struct dq_sample_direction trim;
	bool has_effective_queue_depth_milli;
	uint64_t effective_queue_depth_milli; /* IOs outstanding x 1000, time-averaged */
	/* Simulated clocks only: when the runner emitted the sample (wall epoch ms) and, with it
	 * once measurable, the phase clock's seconds per wall second x 1000 (job/clock_rate.c). */
	bool has_wall_ms;
	uint64_t wall_ms;
	bool has_clock_rate_milli;
	uint64_t clock_rate_milli;
	bool has_round; /* phases with adaptive rounds: round and step of this second */
	uint32_t round;
	uint32_t step;
	size_t stream_count; /* multi-stream phases: each stream's second */
	struct dq_sample_stream streams[DQ_STREAMS_MAX];
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
