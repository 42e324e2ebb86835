/*
 * The measurement window's latency per step (src/job/window_latency.c) on synthetic histograms:
 * - merging the window's rounds gives, for each step and direction and for both directions
 *   together, the IOs, mean, p99, p99.9, p99.999 and maximum of one histogram that recorded every
 *   IO of the window itself; the five nines depend on the slow IOs of several rounds together;
 * - the rounds before the window are not counted (their outliers would be the maximum), a step
 *   without IO in the window has no entry and a direction without IO none either;
 * - 1000 rounds keep no more than the last five: the earlier ones cannot be asked for.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"
#include "window_latency.h"

#define STEPS 3 /* 0: reads only, 1: reads and writes, 2: no IO (an idle step) */
#define ROUNDS 8
#define FIRST 3
#define LAST 7
#define IOS_PER_ROUND 40000

enum { R, W, BOTH };

static uint64_t g_state = 0x9e3779b97f4a7c15ull;

static uint64_t next_random(void)
{
	g_state ^= g_state << 13;
	g_state ^= g_state >> 7;
	g_state ^= g_state << 17;
	return g_state;
}

/*
 * One round of a step's direction: latencies of 9..30 us, and per round two slow IOs (0.4..2.4
 * ms), so that the window's five nines (the 3rd slowest of step 0's 200,010 reads) lies among the
 * slow IOs of different rounds; rounds before the window add a 50 ms stall.
 */
static void record_round(struct dq_histogram *h, uint32_t round, int direction)
{
	uint64_t i, ios = direction == W ? IOS_PER_ROUND / 2 : IOS_PER_ROUND;

	for (i = 0; i < ios; i++) {
		dq_histogram_record(h, 9000 + next_random() % 21000 + (uint64_t)direction * 1500);
	}
	dq_histogram_record(h, 400000 + next_random() % 2000000);
	dq_histogram_record(h, 400000 + next_random() % 2000000);
	if (round < FIRST) {
		dq_histogram_record(h, 50000000);
	}
}

static void check_figures(struct test_ctx *t, const char *what, uint32_t step,
			  const struct dq_latency_figures *got, const struct dq_histogram *want)
{
	CHECK(t, got->ios == want->total_count, "step %u %s: %llu IOs, want %llu", step, what,
	      (unsigned long long)got->ios, (unsigned long long)want->total_count);
	CHECK(t, got->mean_ns == dq_histogram_mean_ns(want), "step %u %s: mean %llu, want %llu",
	      step, what, (unsigned long long)got->mean_ns,
	      (unsigned long long)dq_histogram_mean_ns(want));
	CHECK(t, got->max_ns == dq_histogram_max(want), "step %u %s: max %llu, want %llu", step,
	      what, (unsigned long long)got->max_ns, (unsigned long long)dq_histogram_max(want));
	CHECK(t, got->p99_ns == dq_histogram_percentile_capped(want, 99.0), "step %u %s: p99", step,
	      what);
	CHECK(t, got->p999_ns == dq_histogram_percentile_capped(want, 99.9), "step %u %s: p99.9",
	      step, what);
	CHECK(t, got->p99999_ns == dq_histogram_percentile_capped(want, 99.999),
	      "step %u %s: p99.999 %llu, want %llu", step, what, (unsigned long long)got->p99999_ns,
	      (unsigned long long)dq_histogram_percentile_capped(want, 99.999));
	CHECK(t, got->mean_ns <= got->p99999_ns && got->p99999_ns <= got->max_ns,
	      "step %u %s: mean <= p99.999 <= max", step, what);
	CHECK(t, got->max_ns < 50000000, "step %u %s: the stalls before the window are not counted",
	      step, what);
}

/* Eight rounds kept, window 3..7 merged, against one histogram of the window's IOs per step. */
static void test_window_equals_one_histogram(struct test_ctx *t, struct dq_histogram *h)
{
	struct dq_histogram *round_read = &h[0], *round_write = &h[1], *alone = &h[2];
	struct dq_histogram *whole = &h[3]; /* [step][R, W, BOTH] */
	struct dq_window_keeper *keeper = dq_window_keeper_new(STEPS);
	static struct dq_window_latency out;
	const struct dq_step_window_latency *e;
	uint32_t round, step;

	CHECK(t, keeper != NULL, "keeper");
	if (keeper == NULL) {
		return;
	}
	for (round = 0; round < ROUNDS; round++) {
		dq_window_begin_round(keeper, round);
		for (step = 0; step < STEPS; step++) {
			dq_histogram_reset(round_read);
			dq_histogram_reset(round_write);
			if (step < 2) {
				record_round(round_read, round, R);
			}
			if (step == 1) {
				record_round(round_write, round, W);
			}
			if (round >= FIRST && round <= LAST) {
				dq_histogram_merge(&whole[step * 3 + R], round_read);
				dq_histogram_merge(&whole[step * 3 + W], round_write);
				dq_histogram_merge(&whole[step * 3 + BOTH], round_read);
				dq_histogram_merge(&whole[step * 3 + BOTH], round_write);
			}
			CHECK(t, dq_window_keep(keeper, round, step, round_read, round_write) == 0,
			      "keep round %u step %u", round, step);
		}
	}
	CHECK(t, dq_window_latency(keeper, FIRST, LAST, &out) == 0, "window %u..%u", FIRST, LAST);
	CHECK(t, out.first_round == FIRST && out.last_round == LAST, "the window's rounds");
	CHECK(t, out.step_count == 2, "steps 0 and 1 have IOs, step 2 none: %zu entries",
	      out.step_count);
	for (size_t i = 0; i < out.step_count && i < 2; i++) {
		e = &out.steps[i];
		CHECK(t, e->step == i, "entry %zu is step %u", i, e->step);
		CHECK(t, e->has_read && e->has_write == (i == 1), "step %u's directions", e->step);
		check_figures(t, "read", e->step, &e->read, &whole[i * 3 + R]);
		if (e->has_write) {
			check_figures(t, "write", e->step, &e->write, &whole[i * 3 + W]);
		}
		check_figures(t, "total", e->step, &e->total, &whole[i * 3 + BOTH]);
		CHECK(t,
		      e->total.ios ==
			      5 * ((IOS_PER_ROUND + 2) + (i == 1 ? IOS_PER_ROUND / 2 + 2 : 0)),
		      "step %u: five rounds' IOs exactly", e->step);
	}
	/* The five nines are a window figure: one round alone gives another. */
	dq_histogram_reset(alone);
	dq_histogram_merge(alone, round_read);
	CHECK(t,
	      dq_histogram_percentile_capped(alone, 99.999) !=
		      dq_histogram_percentile_capped(&whole[0 + R], 99.999),
	      "the last round's own five nines differ from the window's");
	/* Rounds 0..2 were dropped to keep 3..7; a window is at most five rounds. */
	CHECK(t, dq_window_latency(keeper, 2, 6, &out) == -EINVAL, "round 2 is not kept");
	CHECK(t, dq_window_latency(keeper, 3, 8, &out) == -EINVAL, "round 8 has not begun");
	CHECK(t, dq_window_keep(keeper, 2, 0, round_read, round_write) == -EINVAL,
	      "round 2 was dropped");
	CHECK(t, dq_window_keep(keeper, 7, STEPS, round_read, round_write) == -EINVAL, "no step %u",
	      STEPS);
	dq_window_keeper_free(keeper);
}

/* A thousand rounds (the schema's maxRounds) keep five: the window is the last five's alone. */
static void test_thousand_rounds(struct test_ctx *t, struct dq_histogram *h)
{
	struct dq_window_keeper *keeper = dq_window_keeper_new(1);
	static struct dq_window_latency out;
	uint32_t round;

	CHECK(t, keeper != NULL, "keeper");
	if (keeper == NULL) {
		return;
	}
	for (round = 0; round < 1000; round++) {
		dq_window_begin_round(keeper, round);
		dq_histogram_reset(&h[0]);
		dq_histogram_reset(&h[1]);
		dq_histogram_record_n(&h[0], 1000 + round, 10);
		CHECK(t, dq_window_keep(keeper, round, 0, &h[0], &h[1]) == 0, "keep round %u",
		      round);
	}
	CHECK(t, dq_window_latency(keeper, 995, 999, &out) == 0, "window 995..999");
	CHECK(t,
	      out.step_count == 1 && out.steps[0].has_read && !out.steps[0].has_write &&
		      out.steps[0].total.ios == 50 && out.steps[0].total.mean_ns == 1997 &&
		      out.steps[0].total.max_ns == 1999 && out.steps[0].total.p99999_ns == 1999,
	      "rounds 995..999: 50 IOs of 1995..1999 ns (mean %llu)",
	      (unsigned long long)out.steps[0].total.mean_ns);
	CHECK(t, dq_window_latency(keeper, 990, 994, &out) == -EINVAL, "earlier rounds are gone");
	dq_window_keeper_free(keeper);
}

int main(void)
{
	struct test_ctx t = { 0 };
	struct dq_histogram *h = malloc((3 + 3 * STEPS) * sizeof(*h));
	size_t i;

	if (h == NULL) {
		return 1;
	}
	for (i = 0; i < 3 + 3 * STEPS; i++) {
		dq_histogram_init(&h[i]);
	}
	test_window_equals_one_histogram(&t, h);
	test_thousand_rounds(&t, h);
	free(h);
	return test_report(&t, "window-latency");
}
