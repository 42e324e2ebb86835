/*
 * The exact arithmetic of the steady-state rule: SNIA's range and slope bounds over rounds of
 * per-second IOPS sums, multiplied through by the common denominator of the rounds' second
 * counts so that a window exactly on a bound is decided the same on every machine, and an exact
 * comparison of two fractions.
 */
#include <errno.h>

#include "steady_state_exact.h"

static dq_u128 gcd_u128(dq_u128 a, dq_u128 b)
{
	dq_u128 t;

	while (b != 0) {
		t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* D = lcm(n_i) of the count rounds first..first+count-1: every y_i x D is an integer. */
int dq_ss_common_denominator(const struct dq_ss_round *rounds, uint32_t first, uint32_t count,
			     dq_u128 *denominator)
{
	dq_u128 n;
	uint32_t i;

	*denominator = 1;
	for (i = 0; i < count; i++) {
		n = dq_ss_divisor_of(&rounds[first + i]);
		if (__builtin_mul_overflow(*denominator / gcd_u128(*denominator, n), n,
					   denominator)) {
			return -EOVERFLOW;
		}
	}
	return 0;
}

/*
 * SNIA's two bounds over the count rounds first..first+count-1 (5: the window, 10: the horizon)
 * with y_i = S_i / n_i, multiplied through by D = lcm(n_i) so that they are decided exactly:
 * max - min <= 0.20 avg is 5 count (max - min) <= sum(y), and |b| (count - 1) <= 0.10 avg with b
 * the least-squares slope is 60 |sum((2i - count + 1) y_i)| <= (count + 1) sum(y) (for five
 * rounds 20 |sum((i - 2) y_i)| <= sum(y), for ten 60 |sum((2i - 9) y_i)| <= 11 sum(y)); the
 * horizon of a level approached for the first time is held to 0.05 avg: 120 in place of 60.
 * Returns 0, or -EOVERFLOW (see dq_steady_state_detect).
 */
int dq_ss_exact_bounds(const struct dq_ss_round *rounds, uint32_t first, uint32_t count,
		       enum dq_ss_excursion_bound excursion, bool *range_ok, bool *slope_ok)
{
	dq_u128 denominator, scaled, total = 0, max = 0, min = 0, spread, bound, n;
	dq_i128 weighted = 0, term;
	uint32_t i;
	int rc;

	rc = dq_ss_common_denominator(rounds, first, count, &denominator);
	if (rc != 0) {
		return rc;
	}
	for (i = 0; i < count; i++) {
		if (__builtin_mul_overflow((dq_u128)rounds[first + i].sum,
					   denominator / dq_ss_divisor_of(&rounds[first + i]),
					   &scaled) ||
		    __builtin_add_overflow(total, scaled, &total) || scaled > I128_MAX ||
		    __builtin_mul_overflow((dq_i128)scaled, (dq_i128)(2 * (int)i - (int)count + 1),
					   &term) ||
		    __builtin_add_overflow(weighted, term, &weighted)) {
			return -EOVERFLOW;
		}
		max = (i == 0 || scaled > max) ? scaled : max;
		min = (i == 0 || scaled < min) ? scaled : min;
	}
	if (__builtin_mul_overflow(max - min, (dq_u128)5 * count, &spread) ||
	    __builtin_mul_overflow((dq_u128)(weighted < 0 ? -weighted : weighted),
				   (dq_u128)excursion, &bound) ||
	    __builtin_mul_overflow(total, (dq_u128)count + 1, &n)) {
		return -EOVERFLOW;
	}
	*range_ok = spread <= total;
	*slope_ok = bound <= n;
	return 0;
}

/*
 * Compares a / b with c / d exactly (b, d > 0), without a product that could overflow: by their
 * continued fractions. Returns -1, 0 or 1.
 */
int dq_ss_compare_fractions(dq_u128 a, dq_u128 b, dq_u128 c, dq_u128 d)
{
	dq_u128 q, remainder_ab, remainder_cd;
	int sign = 1;

	for (;;) {
		q = a / b;
		if (q != c / d) {
			return q < c / d ? -sign : sign;
		}
		remainder_ab = a % b;
		remainder_cd = c % d;
		if (remainder_ab == remainder_cd && remainder_ab == 0) {
			return 0;
		}
		if (remainder_ab == 0 || remainder_cd == 0) {
			return remainder_ab == 0 ? -sign : sign;
		}
		/* remainder_ab / b < remainder_cd / d exactly when b / remainder_ab > d / remainder_cd. */
		a = b;
		b = remainder_ab;
		c = d;
		d = remainder_cd;
		sign = -sign;
	}
}
