/*
 * The exact arithmetic of the steady-state rule (steady_state_exact.c), shared by the rule in
 * steady_state.c. Internal to the job library.
 */
#ifndef DQ_JOB_STEADY_STATE_EXACT_H
#define DQ_JOB_STEADY_STATE_EXACT_H

#include <stdbool.h>
#include <stdint.h>

#include "job/steady_state.h"

typedef unsigned __int128 dq_u128;
typedef __int128 dq_i128;

#define I128_MAX ((dq_u128)(~(dq_u128)0 >> 1))

/* The excursion |b| (count - 1) allowed: 10% of avg (SNIA's window; a crossed level), or 5%. */
enum dq_ss_excursion_bound {
	DQ_SS_EXCURSION_10_PERCENT = 60,
	DQ_SS_EXCURSION_5_PERCENT = 120,
};

/* A round's divisor: its declared one, else its seconds present. */
static inline uint32_t dq_ss_divisor_of(const struct dq_ss_round *round)
{
	return round->divisor != 0 ? round->divisor : round->seconds_present;
}

/* D = lcm(n_i) of the count rounds first..first+count-1: every y_i x D is an integer. */
int dq_ss_common_denominator(const struct dq_ss_round *rounds, uint32_t first, uint32_t count,
			     dq_u128 *denominator);

/* SNIA's range and slope bounds over count rounds, exactly; 0 or -EOVERFLOW. */
int dq_ss_exact_bounds(const struct dq_ss_round *rounds, uint32_t first, uint32_t count,
		       enum dq_ss_excursion_bound excursion, bool *range_ok, bool *slope_ok);

/* a / b against c / d (b, d > 0), exactly: -1, 0 or 1. */
int dq_ss_compare_fractions(dq_u128 a, dq_u128 b, dq_u128 c, dq_u128 d);

#endif
