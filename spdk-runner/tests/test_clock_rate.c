/*
 * The simulated clock's rate as the runner stamps it on samples (job/clock_rate.c), on made-up
 * wall times: nothing before a tenth of a wall second, since the phase's start until a window has
 * passed, then over the last window only (so a phase whose clock speeds up is seen at its new
 * pace), and a new phase starting over.
 */
#include <stdio.h>

#include "job/clock_rate.h"

#define MS 1000000ULL

static int g_failures;

static void expect(bool ok, const char *what)
{
	if (!ok) {
		printf("FAIL %s\n", what);
		g_failures++;
	}
}

/* Feed clock seconds first..last of a phase evenly over [from_ms, to_ms) of wall time. */
static bool feed(struct dq_clock_rate *rate, uint32_t phase, uint64_t first, uint64_t last,
		 uint64_t from_ms, uint64_t to_ms, uint64_t *milli)
{
	bool has = false;

	for (uint64_t s = first; s <= last; s++) {
		uint64_t wall =
			from_ms * MS + (to_ms - from_ms) * MS * (s - first) / (last - first + 1);

		has = dq_clock_rate_update(rate, phase, s, wall, milli);
	}
	return has;
}

int main(void)
{
	struct dq_clock_rate rate;
	uint64_t milli = 0;

	dq_clock_rate_reset(&rate);
	/* 100 clock seconds per wall second: 5 samples in 50 ms is too early to say. */
	expect(!feed(&rate, 1, 1, 5, 0, 50, &milli), "no rate before 100 ms of wall time");
	/* On to 1.5 s of wall time at the same pace: 100 x. */
	expect(feed(&rate, 1, 6, 150, 50, 1500, &milli), "a rate after 1.5 s");
	expect(milli >= 99000 && milli <= 101000, "100 x real time");
	/* The clock speeds up to 400 x for 2 s: the last window sees 400 x, not the average. */
	expect(feed(&rate, 1, 151, 950, 1500, 3500, &milli), "a rate after the change");
	printf("after the change: %llu\n", (unsigned long long)milli);
	expect(milli >= 380000 && milli <= 420000, "the last window's 400 x");
	/* A new phase starts over: nothing in its first 100 ms, then its own pace (10 x). */
	expect(!dq_clock_rate_update(&rate, 2, 1, 3600 * MS, &milli), "a new phase starts over");
	expect(feed(&rate, 2, 2, 10, 3700, 4600, &milli), "the new phase's rate");
	printf("new phase: %llu\n", (unsigned long long)milli);
	expect(milli >= 9000 && milli <= 11500, "the new phase's 10 x");
	/* A clock that does not move in the window has no rate to give. */
	dq_clock_rate_reset(&rate);
	expect(!dq_clock_rate_update(&rate, 0, 1, 0, &milli), "one sample");
	expect(!dq_clock_rate_update(&rate, 0, 1, 500 * MS, &milli), "a clock that stood still");
	printf("%d failed\n", g_failures);
	return g_failures == 0 ? 0 : 1;
}
