/*
 * A simulated clock's rate against the wall over the last second or so of a phase (job/clock_rate.h):
 * a short ring of readings, one kept every DQ_CLOCK_RATE_STEP_NS, because an unpaced simulator emits
 * hundreds of samples per wall second and its rate changes within a phase (a fill gets slower as
 * the FTL fills, random writes faster after the cliff).
 */
#include "job/clock_rate.h"

#include <string.h>

#include "contract/msg_sample.h"

#define NS_PER_S 1000000000ULL

void dq_clock_rate_reset(struct dq_clock_rate *rate)
{
	memset(rate, 0, sizeof(*rate));
}

static const struct dq_clock_rate_reading *newest(const struct dq_clock_rate *rate)
{
	return &rate->ring[(rate->head + DQ_CLOCK_RATE_READINGS - 1) % DQ_CLOCK_RATE_READINGS];
}

static void keep(struct dq_clock_rate *rate, struct dq_clock_rate_reading reading)
{
	if (rate->count > 0 && reading.wall_ns - newest(rate)->wall_ns < DQ_CLOCK_RATE_STEP_NS) {
		return;
	}
	rate->ring[rate->head] = reading;
	rate->head = (rate->head + 1) % DQ_CLOCK_RATE_READINGS;
	if (rate->count < DQ_CLOCK_RATE_READINGS) {
		rate->count++;
	}
}

/* The newest kept reading at least a window before wall_ns, else the phase's first sample. */
static struct dq_clock_rate_reading base(const struct dq_clock_rate *rate, uint64_t wall_ns)
{
	for (uint32_t i = 1; i <= rate->count; i++) {
		const struct dq_clock_rate_reading *r =
			&rate->ring[(rate->head + DQ_CLOCK_RATE_READINGS - i) %
				    DQ_CLOCK_RATE_READINGS];

		if (wall_ns - r->wall_ns >= DQ_CLOCK_RATE_WINDOW_NS) {
			return *r;
		}
	}
	return rate->first;
}

bool dq_clock_rate_update(struct dq_clock_rate *rate, uint32_t phase_index, uint64_t clock_s,
			  uint64_t wall_ns, uint64_t *rate_milli)
{
	struct dq_clock_rate_reading now = { .clock_ns = clock_s * NS_PER_S, .wall_ns = wall_ns };
	struct dq_clock_rate_reading from;
	double milli;

	if (!rate->started || rate->phase_index != phase_index) {
		dq_clock_rate_reset(rate);
		rate->started = true;
		rate->phase_index = phase_index;
		/* From the first sample on: when the phase's first second began is not seen. */
		rate->first = now;
	}
	from = base(rate, wall_ns);
	keep(rate, now);
	if (wall_ns < rate->first.wall_ns + DQ_CLOCK_RATE_MIN_NS || wall_ns <= from.wall_ns ||
	    now.clock_ns <= from.clock_ns) {
		return false;
	}
	milli = 1000.0 * (double)(now.clock_ns - from.clock_ns) / (double)(wall_ns - from.wall_ns);
	if (milli < 1.0) {
		milli = 1.0;
	}
	if (milli > (double)DQ_CLOCK_RATE_MILLI_MAX) {
		milli = (double)DQ_CLOCK_RATE_MILLI_MAX;
	}
	*rate_milli = (uint64_t)(milli + 0.5);
	return true;
}
