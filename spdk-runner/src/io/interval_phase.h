/*
 * The io wing's second IO phase, for engines that model whole intervals (engine.h,
 * models_intervals): worker.c hands such a phase over to it.
 */
#ifndef DRIVEQUAL_INTERVAL_PHASE_H
#define DRIVEQUAL_INTERVAL_PHASE_H

#include "io/phase.h"

/* dq_io_phase_run()'s contract, one run_interval() per second. */
int dq_interval_phase_run(const struct dq_phase_env *env, const struct dq_io_phase_params *params,
			  struct dq_phase_stats *stats);

#endif /* DRIVEQUAL_INTERVAL_PHASE_H */
