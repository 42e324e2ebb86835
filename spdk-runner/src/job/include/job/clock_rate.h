/*
 * How fast a simulated drive's clock runs against the wall, measured by the runner as the samples
 * leave it (sample.schema.json wallMs, clockRateMilli): an unpaced simulator runs its clock as
 * fast as the CPU allows, so a phase's wall time is its simulated seconds divided by this rate,
 * which moves with the phase's work and the machine's load. The service's ETA rests on it
 * (docs/api.md, "Progress and ETA"). Pure: the caller passes the wall clock in.
 */
#ifndef DRIVEQUAL_CLOCK_RATE_H
#define DRIVEQUAL_CLOCK_RATE_H

#include <stdbool.h>
#include <stdint.h>

/* The rate is measured over the last DQ_CLOCK_RATE_WINDOW_NS of the phase at least... */
#define DQ_CLOCK_RATE_WINDOW_NS 1000000000ULL
/* ...from readings kept at most this often (so the window spans up to three seconds)... */
#define DQ_CLOCK_RATE_STEP_NS 50000000ULL
#define DQ_CLOCK_RATE_READINGS 64
/* ...and not before the phase has run this long on the wall. */
#define DQ_CLOCK_RATE_MIN_NS 100000000ULL

struct dq_clock_rate_reading {
	uint64_t clock_ns; /* the phase's clock */
	uint64_t wall_ns; /* monotonic */
};

struct dq_clock_rate {
	uint32_t phase_index;
	bool started;
	struct dq_clock_rate_reading first; /* the phase's first sample */
	struct dq_clock_rate_reading ring[DQ_CLOCK_RATE_READINGS];
	uint32_t head; /* the next slot */
	uint32_t count;
};

/* Forget every reading: the next sample starts a phase. */
void dq_clock_rate_reset(struct dq_clock_rate *rate);

/*
 * Take the sample of second clock_s of phase phase_index, emitted at wall_ns (monotonic); a new
 * phase index starts over. Returns true and sets *rate_milli (the phase clock's seconds per wall
 * second x 1000, at least 1) once the phase has run DQ_CLOCK_RATE_MIN_NS on the wall: over the
 * oldest kept reading at least DQ_CLOCK_RATE_WINDOW_NS back, else since the phase's first sample.
 */
bool dq_clock_rate_update(struct dq_clock_rate *rate, uint32_t phase_index, uint64_t clock_s,
			  uint64_t wall_ns, uint64_t *rate_milli);

#endif /* DRIVEQUAL_CLOCK_RATE_H */
