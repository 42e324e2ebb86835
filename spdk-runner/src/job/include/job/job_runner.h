/*
 * A qualification job on one device: open the engine, pass the interlocks, run the phases and
 * report every sample and event through a sink. The CLI plugs in a stdout sink and the agent a
 * Kafka one; the job never knows which.
 */
#ifndef DRIVEQUAL_JOB_H
#define DRIVEQUAL_JOB_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "contract/msg_job_event.h"
#include "contract/msg_sample.h"
#include "device/interlock.h"
#include "io/engine.h"
#include "io/sink.h"

struct dq_job_spec {
	char job_id[DQ_ID_MAX_LEN + 1];
	char runner_id[DQ_ID_MAX_LEN + 1];
	const char *engine_name; /* "uring", "io_uring", "null", ... */
	/* Use these ops instead of the registry's (tests, embedders); NULL: look up engine_name. */
	const struct dq_io_engine_ops *engine_ops;
	const char *target; /* the engine's target (--filename) */
	const void *engine_options; /* from dq_engine_options_new(); NULL for the defaults */
	bool direct; /* O_DIRECT for kernel engines */
	/* The serial the job names: a mismatch refuses the job. Agent jobs always name one;
	 * require_serial makes a missing one a refusal for destructive work. */
	const char *expected_serial;
	bool require_serial;
	uint64_t seed; /* 0: a fresh random seed (data and offsets differ on every run) */
	/* Seconds between health polls (job-event type health); 0: none. Engines without smart()
	 * are never polled. */
	uint32_t health_poll_interval_s;
	/* Configure the drive's OCP latency monitor (Set Features C5h) before the first phase, when
	 * the drive has its log (C3h); only on an allowlisted drive whose serial is the job's. */
	bool has_latency_monitor;
	struct dq_latency_monitor_config latency_monitor;
	size_t phase_count;
	const struct dq_phase_spec *phases;
	/* Why the job was cancelled, read once *cancel became non-zero (written before it was set);
	 * NULL or empty: no reason beyond the cancel itself (a cancel command, a shutdown). */
	const char *cancel_reason;
	/* A resumed job (a start command's resume): run from phase first_phase (the earlier ones
	 * completed before the runner was lost), that phase's samples after second first_phase_from_s
	 * (a timed workload phase only; 0 restarts the phase), events numbered from first_seq. */
	uint32_t first_phase;
	uint32_t first_phase_from_s;
	uint32_t first_seq;
};

/* How a job ended. */
struct dq_job_outcome {
	enum dq_job_event_type type; /* COMPLETED, FAILED, CANCELLED or REFUSED */
	enum dq_refuse_reason refuse_reason;
	enum dq_fail_reason fail_reason;
	char message[DQ_UTF8_BUF(DQ_MESSAGE_MAX_CHARS)];
	struct dq_device device; /* when the target was opened */
};

/*
 * Run the job to one final event (completed, failed, cancelled or refused), all through sink.
 * allowlist may be NULL (nothing is allowlisted). *cancel becoming non-zero cancels the job at
 * the next tick (<= 100 ms). Returns 0 when the final event was delivered (outcome says which), or
 * the sink's -errno.
 */
int dq_job_run(const struct dq_job_spec *spec, const struct dq_allowlist *allowlist,
	       const struct dq_sink *sink, atomic_int *cancel, struct dq_job_outcome *outcome);

#endif /* DRIVEQUAL_JOB_H */
