/*
 * The closed-loop IO core's state, shared by its two halves: worker.c runs the loop (stamps,
 * completions, seconds, the outstanding-IO integral) and worker_prep.c prepares the next IOs
 * (offsets, buffers, headers and data) while the current ones are in flight.
 */
#ifndef DRIVEQUAL_IO_WORKER_H
#define DRIVEQUAL_IO_WORKER_H

#include <stdbool.h>
#include <stdint.h>

#include "io/histogram.h"
#include "io/phase.h"
#include "io/prng.h"

/* An IO in flight, by tag (0..queue depth - 1). */
struct io_slot {
	uint64_t offset;
	uint64_t submit_ns; /* the phase clock right before the submitting call */
	uint32_t length;
	uint32_t buffer;
	uint8_t op;
	bool in_flight;
};

/* An IO chosen and with its buffer ready, waiting for a free slot. */
struct prepared_io {
	uint64_t offset;
	uint32_t length;
	uint32_t buffer;
	uint8_t op;
	bool ambiguous; /* a tracked write sharing units with another write not yet completed */
};

/* One open second: what completed in [next_boundary_ns - 1 s, next_boundary_ns). */
struct second {
	uint64_t ios[2];
	uint64_t bytes[2];
	uint64_t outstanding_io_ns; /* IOs outstanding integrated over the second so far */
	struct dq_histogram histogram[2];
};

struct io_worker {
	const struct dq_phase_env *env;
	const struct dq_io_phase_params *params;
	struct dq_phase_stats *stats;
	struct dq_io_engine *engine;
	struct dq_block_ledger *ledger;
	bool fill_data; /* headers and random data in every write (the target keeps data) */
	bool track; /* the ledger keeps generations: tracked writes never overlap in flight */
	bool own_latency; /* the engine times IOs (DQ_ENGINE_OWN_LATENCY) */
	/* commit() submits, then getevents() reaps: with writes to fill (the next buffers fill while
	 * these IOs fly) and at queue depths above 1; else getevents() submits and reaps in one
	 * call (QD1 reads: nothing runs between the two) */
	bool submit_early;
	uint32_t queue_depth;

	struct io_slot *slots;
	struct dq_io_completion *events;
	uint32_t *batch; /* tags queued since the last commit */
	uint32_t batch_count;

	/* Buffers: twice the queue depth, so a full queue's worth is always ready to go. */
	void *buffers;
	uint32_t buffer_stride;
	uint32_t buffer_count;
	uint32_t *free_buffers;
	uint32_t free_count;
	uint8_t *buffer_dirty; /* holds something other than zeros */
	struct prepared_io *ready; /* a ring of up to queue_depth prepared IOs */
	uint32_t ready_head;
	uint32_t ready_count;
	uint8_t *generations; /* scratch: the units of one IO */

	struct dq_rng rng;
	struct dq_datagen *datagen;
	uint64_t range_blocks; /* random offsets: range_bytes / block_size */
	/* Random offsets of an all-read or all-write phase, drawn OFFSET_AHEAD IOs before their IO
	 * (the same draws in the same order as on demand) so the engine's prefetch() hides the
	 * memory stall of a simulated drive's mapping table; NULL: drawn on demand. */
	uint64_t *ahead;
	uint32_t ahead_pos;
	uint64_t cursor; /* sequential offset */
	uint64_t planned_bytes; /* bytes of the IOs prepared so far */
	uint32_t inflight; /* queued and not completed */
	uint32_t outstanding; /* stamped as submitted and not completed: what is integrated */
	bool stopping;
	bool time_up; /* a timed phase reached its end: it drains and closes on its time line */
	bool broken; /* the engine failed to submit or reap: IOs cannot be drained */
	int sink_rc; /* the first sink error: later samples are dropped, IOs still drained */

	uint64_t start_ns;
	uint64_t end_ns; /* timed: IOs completing at or after it are drained into its last second */
	uint64_t last_ns; /* latest completion counted */
	uint64_t progress_ns; /* latest completion of any kind, or the start */
	uint64_t integrated_ns; /* the outstanding-IO integral covers [start_ns, integrated_ns) */
	uint64_t next_boundary_ns;
	uint32_t t; /* the open second's t */
	struct second *second;
};

/* Random offsets are drawn this many IOs early, so the engine can warm what they touch. */
#define OFFSET_AHEAD 32u

/* worker_prep.c: buffers, the ready ring and the choice of each IO. */
int worker_prep_init(struct io_worker *w);
void worker_prep_fini(struct io_worker *w);
/* Whether more IOs may be planned (a sized phase stops at its total). */
bool worker_can_plan(const struct io_worker *w);
/* Fill the ready ring: choose offsets, fill buffers (headers + data) for the IOs to come. */
void worker_prepare(struct io_worker *w);
/* The next prepared IO (prepared on the spot if the ring ran dry); false when none may come. */
bool worker_take_prepared(struct io_worker *w, struct prepared_io *out);
void worker_release_buffer(struct io_worker *w, uint32_t buffer);

static inline void *worker_buffer(const struct io_worker *w, uint32_t buffer)
{
	return (char *)w->buffers + (size_t)buffer * w->buffer_stride;
}

#endif /* DRIVEQUAL_IO_WORKER_H */
