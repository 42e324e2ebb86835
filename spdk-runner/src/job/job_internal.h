/*
 * What the job runner's files share: the job in flight, and the refusal that ends it before any
 * phase runs. Internal to the job wing.
 */
#ifndef DRIVEQUAL_JOB_INTERNAL_H
#define DRIVEQUAL_JOB_INTERNAL_H

#include <pthread.h>
#include <stdint.h>

#include "contract/msg_job_event.h"
#include "device/interlock.h"
#include "io/block_ledger.h"
#include "io/engine.h"
#include "io/phase.h"
#include "io/sink.h"
#include "job/clock_rate.h"
#include "job/job_runner.h"
#include "sweep_stop.h"

struct dq_health_monitor;

struct job {
	const struct dq_job_spec *spec;
	const struct dq_sink *sink;
	struct dq_sink locked_sink; /* what the phases write samples to */
	struct dq_job_outcome *outcome;
	struct dq_io_engine engine;
	struct dq_block_ledger ledger;
	struct dq_phase_env env;
	struct dq_health_monitor *health;
	pthread_mutex_t sink_lock; /* seq, sink_rc and every sink call */
	/* Random writes since the last purge, fill or deallocation: rounds' eligibility input. */
	uint64_t random_write_bytes_since_reset;
	struct dq_rounds_result rounds; /* the last phase with rounds */
	uint64_t rounds_random_write_bytes; /* and its random steps' writes */
	struct dq_sweep_stops sweep_stops; /* the sweep groups that saturated */
	uint32_t seq;
	int sink_rc;
	struct dq_clock_rate clock_rate; /* a simulated clock's rate, stamped on the samples */
	/* The drive's allowlist entry's power settings (power drivers); pointers into power_entry. */
	struct dq_allowlist_entry power_entry;
	struct dq_power_site power_site;
};

/* Emit refused (reason, message) and record it in the outcome; returns 0 or the sink's -errno. */
int job_refuse(struct job *job, enum dq_refuse_reason reason, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * What the opened device must offer the job's phases (block sizes, queue depths, ranges, purge
 * methods, something to verify): 1 when all fit, else the refusal's return (job_fit.c).
 */
int job_check_phases_fit(struct job *job);

/*
 * Open, identify and check the job's device (job_admit.c): 1 when the job may start, 0 when it was
 * refused (the refused event is emitted), or the sink's -errno.
 */
int job_admit(struct job *job, const struct dq_allowlist *allowlist);

#endif /* DRIVEQUAL_JOB_INTERNAL_H */
