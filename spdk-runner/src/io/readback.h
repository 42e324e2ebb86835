/*
 * A closed loop of reads (or canary writes) over a plan of extents, outside any timed phase: what
 * a data verify and a purge's proof read back. Internal to the io wing.
 */
#ifndef DRIVEQUAL_IO_READBACK_H
#define DRIVEQUAL_IO_READBACK_H

#include <stdbool.h>
#include <stdint.h>

#include "io/phase.h"
#include "io/prng.h"

/* Reads of contiguous ranges go in pieces of at most this many bytes. */
#define DQ_READBACK_IO_BYTES (1u << 20)

/* Which extents to touch: all of [0, end) in pieces, or one unit per stratum of it. */
struct dq_readback_plan {
	uint64_t end_bytes;
	uint32_t unit_bytes;
	uint64_t strata; /* 0: every unit; else one unit drawn in each of this many strata */
	uint64_t seed; /* the strata's draws: the same seed gives the same units */
	/* iteration */
	uint64_t next; /* byte offset (contiguous) or stratum index */
	struct dq_rng rng;
};

void dq_readback_plan_init(struct dq_readback_plan *plan, uint64_t end_bytes, uint32_t unit_bytes,
			   uint64_t strata, uint64_t seed);
/* Restart the plan: it yields the same extents again. */
void dq_readback_plan_rewind(struct dq_readback_plan *plan);
/* The next extent; false when the plan is done. */
bool dq_readback_plan_next(struct dq_readback_plan *plan, uint64_t *offset, uint32_t *length);

/* Called for each extent: fill a write's buffer before it is queued, or check what a read got. */
typedef void (*dq_readback_fn)(void *arg, uint64_t offset, uint32_t length, void *buf);

/*
 * Run the plan with op (DQ_IO_READ: each completed read goes to fn; DQ_IO_WRITE: fn fills each
 * buffer first). *bytes gets the bytes transferred. Returns 0, -ECANCELED (the job's cancel flag),
 * or -errno with a sentence in err (an IO error names the extent).
 */
int dq_readback_run(const struct dq_phase_env *env, struct dq_readback_plan *plan, uint8_t op,
		    dq_readback_fn fn, void *arg, uint64_t *bytes, char *err, size_t err_len);

#endif /* DRIVEQUAL_IO_READBACK_H */
