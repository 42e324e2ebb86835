/*
 * The latency of each step of a phase with rounds over its measurement window (SNIA's Latency test
 * reports every element's average, maximum and five-nines response time there). The window is
 * always among the last five rounds run, so only those rounds' step histograms are kept, whatever
 * maxRounds is. Internal to the job wing; rounds_phase.c keeps each step's histograms as it ends
 * and asks for the window once the phase stopped.
 */
#ifndef DRIVEQUAL_JOB_WINDOW_LATENCY_H
#define DRIVEQUAL_JOB_WINDOW_LATENCY_H

#include <stddef.h>
#include <stdint.h>

#include "contract/msg_common.h"
#include "io/histogram.h"

/* Rounds kept: one steady-state window. */
#define DQ_WINDOW_ROUNDS 5

struct dq_window_keeper;

/* A keeper for rounds of step_count steps (at most DQ_ROUND_STEPS_MAX); NULL when out of memory. */
struct dq_window_keeper *dq_window_keeper_new(size_t step_count);
void dq_window_keeper_free(struct dq_window_keeper *keeper);

/* Round starts: round - DQ_WINDOW_ROUNDS's histograms are dropped to make room for it. */
void dq_window_begin_round(struct dq_window_keeper *keeper, uint32_t round);

/*
 * Keep step's read and write histograms of round (what it completed in that round). Returns 0,
 * -EINVAL for a step out of range or a round not begun or already dropped, or -ENOMEM.
 */
int dq_window_keep(struct dq_window_keeper *keeper, uint32_t round, uint32_t step,
		   const struct dq_histogram *read, const struct dq_histogram *write);

/*
 * The window first..last (at most DQ_WINDOW_ROUNDS rounds, every one kept, none dropped): per
 * step with IOs in it, each direction's and both directions' IOs, exact mean and maximum, and
 * p99/p99.9/p99.999 of the merged histograms (capped at the maximum). Returns 0, -EINVAL when a
 * round of the window is not kept, or -ENOMEM.
 */
int dq_window_latency(const struct dq_window_keeper *keeper, uint32_t first, uint32_t last,
		      struct dq_window_latency *out);

#endif /* DRIVEQUAL_JOB_WINDOW_LATENCY_H */
