/*
 * A latency-at-load sweep stops at saturation: once a step of a sweepGroup achieves less than
 * DQ_SWEEP_SATURATED_PERCENT of the IOs its open-loop streams offered, the group's later steps are
 * skipped, each reported as such (docs/methodology.md, "Latency at load"). Internal to the job wing.
 */
#ifndef DRIVEQUAL_SWEEP_STOP_H
#define DRIVEQUAL_SWEEP_STOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "contract/msg_common.h"
#include "contract/msg_job_event.h"
#include "io/phase.h"

/* A step saturates below this share of its offer (the analysis's 2 % margin, LatencyAtLoad). */
#define DQ_SWEEP_SATURATED_PERCENT 98
#define DQ_SWEEP_STOPS_MAX 64

/* The groups that saturated in this job, each with the step that did. */
struct dq_sweep_stops {
	size_t count;
	struct dq_sweep_stop {
		char group[DQ_PHASE_NAME_MAX_LEN + 1];
		uint32_t phase_index;
		char phase_name[DQ_PHASE_NAME_MAX_LEN + 1];
		uint64_t offered_ios;
		uint64_t achieved_ios;
	} stops[DQ_SWEEP_STOPS_MAX];
};

/*
 * Whether a finished step saturated: its open-loop streams' completed IOs (every direction) below
 * DQ_SWEEP_SATURATED_PERCENT of their offered IOs. False without an open-loop stream.
 */
bool dq_sweep_step_saturated(const struct dq_phase_stats *stats, uint64_t *offered_ios,
			     uint64_t *achieved_ios);

/* After a step of a group ran to its end: remember the group when the step saturated. */
void dq_sweep_stops_note(struct dq_sweep_stops *stops, const struct dq_phase_spec *spec,
			 const struct dq_phase_stats *stats);

/* Whether spec is to be skipped: its group saturated at an earlier step; fills skipped when so. */
bool dq_sweep_stops_skip(const struct dq_sweep_stops *stops, const struct dq_phase_spec *spec,
			 struct dq_phase_skipped *skipped);

#endif /* DRIVEQUAL_SWEEP_STOP_H */
