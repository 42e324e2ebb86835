/*
 * The runner's home of the SNIA steady-state rule (adaptive rounds stop on it), decided in exact
 * integers so that a window on a bound, or random writes exactly at W x the range, get the same
 * verdict as the service's analysis on every machine.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "job/steady_state.h"

typedef unsigned __int128 dq_u128;
typedef __int128 dq_i128;

#define MICROS_PER_UNIT 1000000u

static uint32_t divisor_of(const struct dq_ss_round *round)
{
	return round->divisor != 0 ? round->divisor : round->seconds_present;
}

double dq_steady_state_round_mean(const struct dq_ss_round *round)
{
	return round->seconds_present > 0 ? (double)round->sum / divisor_of(round) : 0;
}

static bool eligible_at(const struct dq_ss_eligibility *e, uint64_t written)
{
	dq_u128 required;

	if (!e->applies) {
		return true;
	}
	if (!e->has_tested_range) {
		return false;
	}
	/* W in millionths, so W = 1.0 or 0.75 compares exactly as the decimal it prints as. */
	required = (dq_u128)llround(e->range_writes_required * MICROS_PER_UNIT) *
		   e->tested_range_bytes;
	return (dq_u128)written * MICROS_PER_UNIT >= required;
}

/*
 * The two criteria over rounds first..first+4 with y_i = S_i / n_i (n_i the divisor: seconds
 * present, or a fixed scale such as 1000), multiplied through by D = n_0 ... n_4:
 * 25 (max - min) <= sum(y) and 20 |sum((i - 2) y_i)| <= sum(y).
 */
static void decide(const struct dq_ss_round *rounds, uint32_t first, bool *range_ok, bool *slope_ok)
{
	dq_u128 denominator = 1, scaled, total = 0, max = 0, min = 0;
	dq_i128 weighted = 0;
	uint32_t i;

	for (i = 0; i < DQ_SS_WINDOW_ROUNDS; i++) {
		denominator *= divisor_of(&rounds[first + i]);
	}
	for (i = 0; i < DQ_SS_WINDOW_ROUNDS; i++) {
		scaled = rounds[first + i].sum * (denominator / divisor_of(&rounds[first + i]));
		total += scaled;
		weighted += (dq_i128)scaled * ((int)i - 2);
		max = (i == 0 || scaled > max) ? scaled : max;
		min = (i == 0 || scaled < min) ? scaled : min;
	}
	*range_ok = (max - min) * 25 <= total;
	*slope_ok = (dq_u128)(weighted < 0 ? -weighted : weighted) * 20 <= total;
}

static void figures(const struct dq_ss_round *rounds, uint32_t last, struct dq_ss_window *w)
{
	uint32_t first = last - (DQ_SS_WINDOW_ROUNDS - 1), i;
	double y, total = 0, weighted = 0;

	memset(w, 0, sizeof(*w));
	w->first_round = first;
	w->last_round = last;
	w->max = -INFINITY;
	w->min = INFINITY;
	for (i = 0; i < DQ_SS_WINDOW_ROUNDS; i++) {
		y = dq_steady_state_round_mean(&rounds[first + i]);
		total += y;
		w->max = fmax(w->max, y);
		w->min = fmin(w->min, y);
		weighted += ((int)i - 2) * y;
	}
	w->avg = total / DQ_SS_WINDOW_ROUNDS;
	/* Least squares over 5 equally spaced indices: b = sum((i - 2) y_i) / 10. */
	w->slope_per_round = weighted / 10;
	w->range_percent = w->avg > 0 ? 100 * (w->max - w->min) / w->avg : 0;
	w->slope_excursion_percent = w->avg > 0 ? 100 * fabs(w->slope_per_round) * 4 / w->avg : 0;
	decide(rounds, first, &w->range_within_bound, &w->slope_within_bound);
}

static void judge_end(const struct dq_ss_round *rounds, const struct dq_ss_round_verdict *v,
		      uint32_t limit, const struct dq_ss_eligibility *e, struct dq_ss_result *r)
{
	int32_t last = (int32_t)limit - 1, round;
	bool all_counted = true, all_eligible = true;

	while (last >= 0 && !v[last].counted) {
		last--;
	}
	r->end_last_round = last;
	r->end_first_round = last - (DQ_SS_WINDOW_ROUNDS - 1);
	if (r->end_first_round < 0) {
		r->end_first_round = -1;
		r->end_failures = DQ_SS_FAIL_TOO_FEW_ROUNDS;
		return;
	}
	for (round = r->end_first_round; round <= last; round++) {
		all_counted = all_counted && v[round].counted;
		all_eligible = all_eligible && v[round].eligible;
	}
	if (!all_counted) {
		r->end_failures |= DQ_SS_FAIL_ROUNDS_NOT_COUNTED;
	}
	if (!all_eligible) {
		r->end_failures |= e->has_tested_range ? DQ_SS_FAIL_ROUNDS_NOT_ELIGIBLE :
							 DQ_SS_FAIL_TESTED_RANGE_UNKNOWN;
	}
	if (all_counted) {
		r->has_end_window = true;
		figures(rounds, (uint32_t)last, &r->end_window);
		if (!r->end_window.range_within_bound) {
			r->end_failures |= DQ_SS_FAIL_RANGE_ABOVE_BOUND;
		}
		if (!r->end_window.slope_within_bound) {
			r->end_failures |= DQ_SS_FAIL_SLOPE_ABOVE_BOUND;
		}
	}
	r->end_holds = r->end_failures == 0;
}

static int check_input(const struct dq_ss_round *rounds, size_t n, uint32_t round_length_s,
		       uint32_t max_rounds, const struct dq_ss_eligibility *e)
{
	size_t i;

	if (round_length_s < 1 || (max_rounds != 0 && max_rounds < DQ_SS_WINDOW_ROUNDS) ||
	    !isfinite(e->range_writes_required) || e->range_writes_required < 0 ||
	    (e->has_tested_range && e->tested_range_bytes < 1)) {
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		if (rounds[i].seconds_present > round_length_s ||
		    (rounds[i].seconds_present == 0 && rounds[i].sum != 0) ||
		    rounds[i].divisor > DQ_SS_DIVISOR_MAX) {
			return -EINVAL;
		}
	}
	return 0;
}

int dq_steady_state_detect(const struct dq_ss_round *rounds, size_t n, uint32_t round_length_s,
			   uint32_t max_rounds, const struct dq_ss_eligibility *eligibility,
			   struct dq_ss_round_verdict *verdicts, struct dq_ss_result *result)
{
	struct dq_ss_round_verdict *v = verdicts;
	uint64_t written = eligibility->random_write_bytes_before;
	uint32_t limit, x, usable = 0;
	int rc;

	memset(result, 0, sizeof(*result));
	rc = check_input(rounds, n, round_length_s, max_rounds, eligibility);
	if (rc != 0) {
		return rc;
	}
	for (x = 0; x < n; x++) {
		/* >= 90% of L, in integers so that 54 of 60 counts exactly. */
		v[x].counted = 10ull * rounds[x].seconds_present >= 9ull * round_length_s;
		v[x].random_write_bytes_at_start = written;
		v[x].eligible = eligible_at(eligibility, written);
		written += rounds[x].random_write_bytes;
	}
	limit = (max_rounds != 0 && max_rounds < n) ? max_rounds : (uint32_t)n;
	for (x = 0; x < limit; x++) {
		if (!result->has_first_eligible && v[x].eligible) {
			result->has_first_eligible = true;
			result->first_eligible_round = x;
		}
		usable = (v[x].counted && v[x].eligible) ? usable + 1 : 0;
		if (usable < DQ_SS_WINDOW_ROUNDS) {
			continue;
		}
		result->windows_evaluated++;
		result->has_window = true;
		figures(rounds, x, &result->window);
		if (result->window.range_within_bound && result->window.slope_within_bound) {
			result->reached = true;
			result->reached_at_round = x;
			break;
		}
	}
	judge_end(rounds, v, limit, eligibility, result);
	return 0;
}
