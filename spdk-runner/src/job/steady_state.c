/*
 * The runner's home of the SNIA steady-state rule (v2, "judged by evidence"; adaptive rounds stop
 * on it), decided in exact integers so that a window on a bound, a round exactly at 0.8 x the
 * best, or random writes exactly at W x the range get the same verdict as the service's analysis
 * on every machine.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "job/steady_state.h"
#include "steady_state_exact.h"

#define MICROS_PER_UNIT 1000000u

double dq_steady_state_round_mean(const struct dq_ss_round *round)
{
	return round->seconds_present > 0 ? (double)round->sum / dq_ss_divisor_of(round) : 0;
}

const char *dq_ss_evidence_to_str(enum dq_ss_evidence evidence)
{
	static const char *const names[] = { "read-only", "no-reset", "iops-cliff",
					     "written-bytes" };

	return (unsigned)evidence < sizeof(names) / sizeof(names[0]) ? names[evidence] : "?";
}

static bool written_bytes_reached(const struct dq_ss_eligibility *e, uint64_t written)
{
	dq_u128 required;

	if (!e->has_tested_range) {
		return false;
	}
	/* W in millionths, so W = 1.0 or 0.75 compares exactly as the decimal it prints as. */
	required = (dq_u128)llround(e->range_writes_required * MICROS_PER_UNIT) *
		   e->tested_range_bytes;
	return (dq_u128)written * MICROS_PER_UNIT >= required;
}

static int figures(const struct dq_ss_round *rounds, uint32_t last, struct dq_ss_window *w)
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
	return dq_ss_exact_bounds(rounds, first, DQ_SS_WINDOW_ROUNDS, DQ_SS_EXCURSION_10_PERCENT,
				  &w->range_within_bound, &w->slope_within_bound);
}

/*
 * Has the record crossed the level of the horizon first..first+count-1: has a counted, eligible
 * round since the fresh state's end (fresh..first-1) been more than 5% above its average and
 * another more than 5% below? For ten rounds exactly: a mean S_r / n_r is compared with 21/20 and
 * 19/20 of sum(y) / 10 = (sum of y_i x D) / (10 D), i.e. with 21 T / (200 D) and 19 T / (200 D).
 * A longer horizon (extended by the written bytes) is compared in doubles, as the service does,
 * so that the common denominator of many rounds cannot overflow.
 */
static int crossed_level(const struct dq_ss_round *rounds, const struct dq_ss_round_verdict *v,
			 uint32_t fresh, uint32_t first, uint32_t count, bool *crossed)
{
	dq_u128 denominator, scaled, total = 0, above_level, below_level;
	bool above = false, below = false;
	double average = 0, mean;
	uint32_t i;
	int rc;

	if (count != DQ_SS_HORIZON_ROUNDS) {
		for (i = 0; i < count; i++) {
			average += dq_steady_state_round_mean(&rounds[first + i]);
		}
		average /= count;
		for (i = fresh; i < first; i++) {
			if (v[i].counted && v[i].eligible) {
				mean = dq_steady_state_round_mean(&rounds[i]);
				above = above || mean > 1.05 * average;
				below = below || mean < 0.95 * average;
			}
		}
		*crossed = above && below;
		return 0;
	}
	rc = dq_ss_common_denominator(rounds, first, DQ_SS_HORIZON_ROUNDS, &denominator);
	if (rc != 0) {
		return rc;
	}
	for (i = 0; i < DQ_SS_HORIZON_ROUNDS; i++) {
		if (__builtin_mul_overflow((dq_u128)rounds[first + i].sum,
					   denominator / dq_ss_divisor_of(&rounds[first + i]),
					   &scaled) ||
		    __builtin_add_overflow(total, scaled, &total)) {
			return -EOVERFLOW;
		}
	}
	if (__builtin_mul_overflow(denominator, (dq_u128)(20 * DQ_SS_HORIZON_ROUNDS),
				   &denominator) ||
	    __builtin_mul_overflow(total, (dq_u128)21, &above_level) ||
	    __builtin_mul_overflow(total, (dq_u128)19, &below_level)) {
		return -EOVERFLOW;
	}
	for (i = fresh; i < first && !(above && below); i++) {
		if (!v[i].counted || !v[i].eligible) {
			continue;
		}
		above = above ||
			dq_ss_compare_fractions(rounds[i].sum, dq_ss_divisor_of(&rounds[i]),
						above_level, denominator) > 0;
		below = below ||
			dq_ss_compare_fractions(rounds[i].sum, dq_ss_divisor_of(&rounds[i]),
						below_level, denominator) < 0;
	}
	*crossed = above && below;
	return 0;
}

/*
 * The figures of the n rounds first..last (in doubles, as the service computes them): range and
 * excursion in percent of their average, b = 6 sum((2i - (n - 1)) y_i) / (n (n^2 - 1)) the
 * least-squares slope; *avg and *change = |b| (n - 1) for the slowing check.
 */
static void line_figures(const struct dq_ss_round *rounds, uint32_t first, uint32_t last,
			 struct dq_ss_horizon *h, double *avg, double *change)
{
	uint32_t n = last - first + 1, i;
	double y, total = 0, weighted = 0, max = -INFINITY, min = INFINITY, slope;

	h->first_round = first;
	h->last_round = last;
	for (i = 0; i < n; i++) {
		y = dq_steady_state_round_mean(&rounds[first + i]);
		total += y;
		max = fmax(max, y);
		min = fmin(min, y);
		weighted += (2 * (double)i - (n - 1)) * y;
	}
	*avg = total / n;
	slope = 6 * weighted / (n * ((double)n * n - 1));
	*change = fabs(slope) * (n - 1);
	h->range_percent = *avg > 0 ? 100 * (max - min) / *avg : 0;
	h->slope_excursion_percent = *avg > 0 ? 100 * *change / *avg : 0;
}

/*
 * |b1| x (last counted - first counted) of the least-squares line (against the round index)
 * over the counted rounds first..last; 0 with fewer than two.
 */
static double earlier_change(const struct dq_ss_round *rounds, const struct dq_ss_round_verdict *v,
			     int64_t first, int64_t last)
{
	double mean_x = 0, mean_y = 0, sxy = 0, sxx = 0, y;
	int64_t round, lowest = -1, highest = -1;
	uint32_t count = 0;

	for (round = first; round <= last; round++) {
		if (v[round].counted) {
			mean_x += (double)round;
			mean_y += dq_steady_state_round_mean(&rounds[round]);
			lowest = lowest < 0 ? round : lowest;
			highest = round;
			count++;
		}
	}
	if (count < 2) {
		return 0;
	}
	mean_x /= count;
	mean_y /= count;
	for (round = first; round <= last; round++) {
		if (v[round].counted) {
			y = dq_steady_state_round_mean(&rounds[round]);
			sxy += ((double)round - mean_x) * (y - mean_y);
			sxx += ((double)round - mean_x) * ((double)round - mean_x);
		}
	}
	return fabs(sxy / sxx) * (double)(highest - lowest);
}

/* Every round of first..last counts and is eligible (first < 0: the phase is too short). */
static bool all_usable(const struct dq_ss_round_verdict *v, int64_t first, int64_t last)
{
	int64_t round;

	if (first < 0) {
		return false;
	}
	for (round = first; round <= last; round++) {
		if (!v[round].counted || !v[round].eligible) {
			return false;
		}
	}
	return true;
}

/*
 * How many rounds the horizon ending at last spans: ten, or with the tested range known, the
 * fewest from ten on whose random writes (counted or not) reach 1/20 of it, exactly
 * (20 x written >= range), back to round 0 at most. Garbage collection's state moves with the
 * share of the range written: ten rounds of a 30 TB drive write too little of it to see a climb.
 */
static uint32_t horizon_length(const struct dq_ss_round *rounds, const struct dq_ss_eligibility *e,
			       uint32_t last)
{
	int64_t first = (int64_t)last - (DQ_SS_HORIZON_ROUNDS - 1), round;
	dq_u128 written = 0, required;

	if (first <= 0 || !e->has_tested_range) {
		return DQ_SS_HORIZON_ROUNDS;
	}
	required = (dq_u128)e->tested_range_bytes * DQ_SS_HORIZON_RANGE_WRITES_NUMERATOR;
	for (round = first; round <= last; round++) {
		written += rounds[round].random_write_bytes;
	}
	while (first > 0 && written * DQ_SS_HORIZON_RANGE_WRITES_DENOMINATOR < required) {
		first--;
		written += rounds[first].random_write_bytes;
	}
	return (uint32_t)(last - first + 1);
}

/*
 * The horizon of the window ending at last (rule v2, revision 3), fresh the first eligible
 * round. Its m = horizon_length rounds last-m+1..last must count and be eligible. Crossed: they
 * hold with range <= 20% and excursion <= 10% of their average (exact for m = 10, in doubles
 * above). A first approach: the later half of the record since fresh,
 * n = max(m, (last - fresh + 2) / 2) rounds s..last, all counted and eligible; its bounds (range
 * 20%, excursion 5%: exact for n = 10, in doubles above) and slowing: |b| (n - 1) <= max(half the
 * earlier change over the counted rounds fresh..s-1, 2.5% of avg), in doubles. *complete false:
 * not evaluated; h->first_round..last_round then holds the rounds that were needed (first_round 0
 * when the phase is too short).
 */
static int horizon_of(const struct dq_ss_round *rounds, const struct dq_ss_round_verdict *v,
		      const struct dq_ss_eligibility *e, uint32_t fresh, uint32_t last,
		      bool *complete, struct dq_ss_horizon *h)
{
	uint32_t length = horizon_length(rounds, e, last);
	int64_t first = (int64_t)last - (length - 1), start;
	uint32_t n;
	double avg, late, earlier;
	int rc;

	memset(h, 0, sizeof(*h));
	h->first_round = first < 0 ? 0 : (uint32_t)first;
	h->last_round = last;
	*complete = all_usable(v, first, last);
	if (!*complete) {
		return 0;
	}
	rc = crossed_level(rounds, v, fresh, (uint32_t)first, length, &h->crossed);
	if (rc != 0) {
		return rc;
	}
	if (h->crossed) {
		line_figures(rounds, (uint32_t)first, last, h, &avg, &late);
		h->slowing = true;
		if (length == DQ_SS_HORIZON_ROUNDS) {
			rc = dq_ss_exact_bounds(rounds, (uint32_t)first, DQ_SS_HORIZON_ROUNDS,
						DQ_SS_EXCURSION_10_PERCENT, &h->range_within_bound,
						&h->slope_within_bound);
		} else {
			h->range_within_bound = h->range_percent <= 20;
			h->slope_within_bound = h->slope_excursion_percent <= 10;
		}
		h->holds = h->range_within_bound && h->slope_within_bound;
		return rc;
	}
	n = (last - fresh + 2) / 2;
	n = n > length ? n : length;
	start = (int64_t)last - n + 1;
	h->first_round = (uint32_t)start;
	*complete = all_usable(v, start, last);
	if (!*complete) {
		return 0;
	}
	line_figures(rounds, (uint32_t)start, last, h, &avg, &late);
	if (n == DQ_SS_HORIZON_ROUNDS) {
		rc = dq_ss_exact_bounds(rounds, (uint32_t)start, DQ_SS_HORIZON_ROUNDS,
					DQ_SS_EXCURSION_5_PERCENT, &h->range_within_bound,
					&h->slope_within_bound);
		if (rc != 0) {
			return rc;
		}
	} else {
		h->range_within_bound = h->range_percent <= 20;
		h->slope_within_bound = h->slope_excursion_percent <= 5;
	}
	earlier = earlier_change(rounds, v, fresh, start - 1);
	h->earlier_change_percent = avg > 0 ? 100 * earlier / avg : 0;
	h->slowing = late <= fmax(0.5 * earlier, 0.025 * avg);
	h->holds = h->range_within_bound && h->slope_within_bound && h->slowing;
	return 0;
}

/* read-only and no-reset follow SNIA's published rules: no horizon. */
static bool horizon_required(enum dq_ss_evidence evidence)
{
	return evidence == DQ_SS_EVIDENCE_IOPS_CLIFF || evidence == DQ_SS_EVIDENCE_WRITTEN_BYTES;
}

/*
 * Round r's mean below 0.8 x round p's, exactly: 5 S_r / n_r < 4 S_p / n_p. The products of a
 * 64-bit sum, a 32-bit divisor and 5 fit in 128 bits.
 */
static bool below_four_fifths(const struct dq_ss_round *r, const struct dq_ss_round *p)
{
	return (dq_u128)r->sum * dq_ss_divisor_of(p) * 5 <
	       (dq_u128)p->sum * dq_ss_divisor_of(r) * 4;
}

static bool mean_above(const struct dq_ss_round *r, const struct dq_ss_round *p)
{
	return (dq_u128)r->sum * dq_ss_divisor_of(p) > (dq_u128)p->sum * dq_ss_divisor_of(r);
}

/*
 * Where the fresh state ends, in the spec's order of evidence: a phase that does not write, a
 * history without a reset, the IOPS cliff (the first counted round below 0.8 x the best earlier
 * counted one, within the limit), the written bytes (the first round starting with W x the range
 * written). *has_first false: no round is eligible.
 */
static enum dq_ss_evidence fresh_state_end(const struct dq_ss_round *rounds,
					   const struct dq_ss_round_verdict *v, size_t n,
					   uint32_t limit, const struct dq_ss_eligibility *e,
					   bool *has_first, uint32_t *first)
{
	int64_t best = -1;
	uint32_t r;

	*has_first = true;
	*first = 0;
	if (!e->applies) {
		return DQ_SS_EVIDENCE_READ_ONLY;
	}
	if (e->history == DQ_SS_HISTORY_UNKNOWN) {
		return DQ_SS_EVIDENCE_NO_RESET;
	}
	for (r = 0; r < limit && !e->lower_is_better; r++) {
		if (!v[r].counted) {
			continue;
		}
		if (best >= 0 && below_four_fifths(&rounds[r], &rounds[best])) {
			*first = r + 1;
			return DQ_SS_EVIDENCE_IOPS_CLIFF;
		}
		if (best < 0 || mean_above(&rounds[r], &rounds[best])) {
			best = r;
		}
	}
	for (r = 0; r < n; r++) {
		if (written_bytes_reached(e, v[r].random_write_bytes_at_start)) {
			*first = r;
			return DQ_SS_EVIDENCE_WRITTEN_BYTES;
		}
	}
	*has_first = false;
	return DQ_SS_EVIDENCE_WRITTEN_BYTES;
}

static int judge_end(const struct dq_ss_round *rounds, const struct dq_ss_round_verdict *v,
		     uint32_t limit, const struct dq_ss_eligibility *e, struct dq_ss_result *r)
{
	int32_t last = (int32_t)limit - 1, round;
	bool all_counted = true, all_eligible = true, complete;
	int rc;

	while (last >= 0 && !v[last].counted) {
		last--;
	}
	r->end_last_round = last;
	r->end_first_round = last - (DQ_SS_WINDOW_ROUNDS - 1);
	if (r->end_first_round < 0) {
		r->end_first_round = -1;
		r->end_failures = DQ_SS_FAIL_TOO_FEW_ROUNDS;
		return 0;
	}
	for (round = r->end_first_round; round <= last; round++) {
		all_counted = all_counted && v[round].counted;
		all_eligible = all_eligible && v[round].eligible;
	}
	if (!all_counted) {
		r->end_failures |= DQ_SS_FAIL_ROUNDS_NOT_COUNTED;
	}
	if (!all_eligible) {
		/* Unknown range only explains it when the written bytes were to decide. */
		r->end_failures |=
			(r->evidence == DQ_SS_EVIDENCE_WRITTEN_BYTES && !e->has_tested_range) ?
				DQ_SS_FAIL_TESTED_RANGE_UNKNOWN :
				DQ_SS_FAIL_ROUNDS_NOT_ELIGIBLE;
	}
	if (all_counted) {
		r->has_end_window = true;
		rc = figures(rounds, (uint32_t)last, &r->end_window);
		if (rc != 0) {
			return rc;
		}
		if (!r->end_window.range_within_bound) {
			r->end_failures |= DQ_SS_FAIL_RANGE_ABOVE_BOUND;
		}
		if (!r->end_window.slope_within_bound) {
			r->end_failures |= DQ_SS_FAIL_SLOPE_ABOVE_BOUND;
		}
	}
	if (horizon_required(r->evidence)) {
		rc = horizon_of(rounds, v, e, r->first_eligible_round, (uint32_t)last, &complete,
				&r->end_horizon);
		if (rc != 0) {
			return rc;
		}
		r->has_end_horizon = complete;
		if (!complete || !r->end_horizon.holds) {
			r->end_failures |= DQ_SS_FAIL_LEVEL_STILL_MOVING;
		}
	}
	r->end_holds = r->end_failures == 0;
	return 0;
}

static int check_input(const struct dq_ss_round *rounds, size_t n, uint32_t round_length_s,
		       uint32_t max_rounds, const struct dq_ss_eligibility *e)
{
	size_t i;

	if (round_length_s < 1 || (max_rounds != 0 && max_rounds < DQ_SS_WINDOW_ROUNDS) ||
	    !isfinite(e->range_writes_required) || e->range_writes_required < 0 ||
	    (e->has_tested_range && e->tested_range_bytes < 1) ||
	    (e->history != DQ_SS_HISTORY_RESET && e->history != DQ_SS_HISTORY_UNKNOWN)) {
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

/* Does the window ending at x hold, besides SNIA's bounds: its horizon, where one is required? */
static int window_holds(const struct dq_ss_round *rounds, const struct dq_ss_round_verdict *v,
			const struct dq_ss_eligibility *e, uint32_t x, struct dq_ss_result *result,
			bool *holds)
{
	bool complete;
	int rc;

	rc = figures(rounds, x, &result->window);
	if (rc != 0) {
		return rc;
	}
	*holds = result->window.range_within_bound && result->window.slope_within_bound;
	result->has_horizon = false;
	if (!horizon_required(result->evidence)) {
		return 0;
	}
	rc = horizon_of(rounds, v, e, result->first_eligible_round, x, &complete, &result->horizon);
	result->has_horizon = complete;
	*holds = *holds && complete && result->horizon.holds;
	return rc;
}

int dq_steady_state_detect(const struct dq_ss_round *rounds, size_t n, uint32_t round_length_s,
			   uint32_t max_rounds, const struct dq_ss_eligibility *eligibility,
			   struct dq_ss_round_verdict *verdicts, struct dq_ss_result *result)
{
	struct dq_ss_round_verdict *v = verdicts;
	uint64_t written = eligibility->random_write_bytes_before;
	uint32_t limit, x, first = 0, usable = 0;
	bool has_first, holds;
	int rc;

	memset(result, 0, sizeof(*result));
	rc = check_input(rounds, n, round_length_s, max_rounds, eligibility);
	if (rc != 0) {
		return rc;
	}
	limit = (max_rounds != 0 && max_rounds < n) ? max_rounds : (uint32_t)n;
	for (x = 0; x < n; x++) {
		/* >= 90% of L, in integers so that 54 of 60 counts exactly. */
		v[x].counted = 10ull * rounds[x].seconds_present >= 9ull * round_length_s;
		v[x].random_write_bytes_at_start = written;
		written += rounds[x].random_write_bytes;
	}
	result->evidence = fresh_state_end(rounds, v, n, limit, eligibility, &has_first, &first);
	for (x = 0; x < n; x++) {
		v[x].eligible = has_first && x >= first;
	}
	result->has_first_eligible = has_first && first < limit;
	result->first_eligible_round = result->has_first_eligible ? first : 0;
	for (x = 0; x < limit; x++) {
		usable = (v[x].counted && v[x].eligible) ? usable + 1 : 0;
		if (usable < DQ_SS_WINDOW_ROUNDS) {
			continue;
		}
		result->windows_evaluated++;
		result->has_window = true;
		rc = window_holds(rounds, v, eligibility, x, result, &holds);
		if (rc != 0) {
			return rc;
		}
		if (holds) {
			result->reached = true;
			result->reached_at_round = x;
			break;
		}
	}
	return judge_end(rounds, v, limit, eligibility, result);
}
