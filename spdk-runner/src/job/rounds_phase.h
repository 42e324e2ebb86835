/*
 * A workload phase with adaptive rounds (phaseSpec rounds): its steps run in order, round after
 * round, until the tracking variable is in steady state over five eligible rounds or the phase has
 * run maxRounds rounds. Internal to the job wing; job_runner.c runs it like any IO phase.
 */
#ifndef DRIVEQUAL_JOB_ROUNDS_PHASE_H
#define DRIVEQUAL_JOB_ROUNDS_PHASE_H

#include <stdint.h>

#include "contract/msg_common.h"
#include "io/phase.h"
#include "job/steady_state.h"

/*
 * Whether a step of the phase cannot run on the opened device; 0 when every step fits, else
 * -EINVAL with the reason in why ("step 3: blockSizeBytes 512 is not a multiple of ...").
 */
int dq_rounds_phase_check_fit(const struct dq_phase_spec *spec, const struct dq_device *device,
			      uint32_t max_queue_depth, char *why, size_t why_len);

/*
 * The drive's history before the phase, the steady-state rule's eligibility input: whether a
 * purge, fill or deallocation precedes it, and the job's random writes since then.
 */
struct dq_rounds_history {
	enum dq_ss_history history;
	uint64_t random_write_bytes_since_reset;
};

/*
 * Run the phase: samples carry round and step, t counts on across steps; stats gets the totals
 * of every step (as one IO phase) and result how the phase stopped (with the evidence that decided
 * its first eligible round); *random_write_bytes gets the writes of the phase's random steps.
 * Returns 0 (also when stats says failed or cancelled) or the sink's -errno.
 */
int dq_rounds_phase_run(const struct dq_phase_env *env, const struct dq_phase_spec *spec,
			const struct dq_device *device, const struct dq_rounds_history *history,
			struct dq_phase_stats *stats, struct dq_rounds_result *result,
			uint64_t *random_write_bytes);

/* A step's (or a plain workload's) writes land at random: they count toward eligibility. */
bool dq_rw_is_random_write(enum dq_rw rw, uint32_t read_percent);

#endif /* DRIVEQUAL_JOB_ROUNDS_PHASE_H */
