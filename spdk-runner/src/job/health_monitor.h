/*
 * Health polling during a job (job-event type health): the drive's SMART/health read at each
 * phase's start, every interval of it and once at the end, never on the IO path. On a real clock
 * with an engine whose smart() may run concurrently (DQ_ENGINE_SMART_CONCURRENT) the polls run on
 * the monitor's own thread; on the sim's virtual clock the job's thread polls at the phase clock's
 * second boundaries, after the second's sample (dq_phase_env.second_tick), which costs no
 * simulated time; any other engine is read only between phases. Internal to the job wing.
 */
#ifndef DRIVEQUAL_JOB_HEALTH_MONITOR_H
#define DRIVEQUAL_JOB_HEALTH_MONITOR_H

#include <stdbool.h>
#include <stdint.h>

#include "contract/msg_job_event.h"
#include "io/phase.h"

/* Delivers one health event (the job fills the envelope); 0 or the sink's -errno. Called from
 * the monitor's thread or the job's: it must be thread-safe. */
typedef int (*dq_health_emit_fn)(void *arg, struct dq_job_event *event);

struct dq_health_monitor;

/*
 * Start polling every interval_s seconds of env's phase clock (nothing is polled before the first
 * phase starts). env and its engine must outlive the monitor. Returns 0 with *out, or -errno.
 */
int dq_health_monitor_start(const struct dq_phase_env *env, uint32_t interval_s,
			    dq_health_emit_fn emit, void *emit_arg, struct dq_health_monitor **out);

/*
 * A phase starts at start_ns (phase clock): poll now and every interval from there. A phase that
 * must not be polled while it runs (a purge: Format or Sanitize owns the controller) passes
 * pollable=false; the call returns once no poll is in flight.
 */
void dq_health_monitor_phase(struct dq_health_monitor *monitor, uint32_t phase_index,
			     uint64_t start_ns, bool pollable);

/* The phase clock reached now_ns (polled-on-the-job-thread mode only; a no-op otherwise). */
void dq_health_monitor_tick(void *monitor, uint64_t now_ns);

/* Whether polls run on the job's thread, through dq_health_monitor_tick(). */
bool dq_health_monitor_on_job_thread(const struct dq_health_monitor *monitor);

/* Take the final reading (when final_poll) and stop; frees the monitor. NULL is a no-op. */
void dq_health_monitor_stop(struct dq_health_monitor *monitor, bool final_poll);

#endif /* DRIVEQUAL_JOB_HEALTH_MONITOR_H */
