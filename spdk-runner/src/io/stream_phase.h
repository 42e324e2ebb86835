/*
 * The multi-stream core's state, shared by its three parts: stream_phase.c runs the loop (issue
 * what is due, stamp, reap, seconds, the outstanding-IO integral), stream_setup.c checks a phase
 * against the engine and sets the loop up, and stream_choice.c decides what each stream does
 * next (arrival times, block sizes, directions, offsets).
 */
#ifndef DRIVEQUAL_IO_STREAM_PHASE_H
#define DRIVEQUAL_IO_STREAM_PHASE_H

#include <stdbool.h>
#include <stdint.h>

#include "io/histogram.h"
#include "io/phase.h"
#include "io/prng.h"

enum { STREAM_READ = 0, STREAM_WRITE = 1, STREAM_TRIM = 2, STREAM_DIRECTIONS = 3 };

/*
 * An open loop's arrival process: each arrival's intended issue time and length. Two copies run
 * the same sequence: one issues, one counts what was offered per second however far the issue
 * copy lags behind a stalled drive, so no arrival has to be stored.
 */
struct stream_arrivals {
	struct dq_rng rng;
	double since_start_ns; /* the next arrival, after the stream's start */
	uint64_t next_ns;
	uint32_t next_length;
	uint64_t count; /* arrivals before the next one */
};

/* One direction's second, or its running totals. */
struct stream_direction_acc {
	uint64_t ios;
	uint64_t bytes;
	struct dq_histogram service;
	struct dq_histogram response;
};

struct stream_tag {
	uint64_t offset;
	uint64_t intended_ns; /* open loop: when the IO was due; closed loop: its submission */
	uint64_t submit_ns;
	uint32_t length;
	uint8_t direction;
	bool in_flight;
};

struct stream {
	const struct dq_stream_spec *spec;
	uint32_t index;
	uint32_t queue_depth;
	uint32_t tag_base; /* its tags are tag_base .. tag_base + queue_depth - 1 */
	bool placed; /* its writes carry placement_handle (FDP) */
	uint16_t placement_handle;
	bool open_loop;
	bool issues[STREAM_DIRECTIONS];
	uint64_t range_start;
	uint64_t range_bytes;
	uint32_t align; /* random offsets: multiples of the smallest block size */
	uint32_t largest_rw; /* buffer size: the largest read or write */
	uint64_t start_ns; /* the phase's start plus startDelayMs */

	struct dq_rng rng; /* directions and offsets */
	struct dq_rng size_rng; /* closed loop: block sizes */
	uint64_t cursor; /* the next sequential offset */
	struct stream_arrivals issue;
	struct stream_arrivals offer;
	uint64_t offered_second;
	uint64_t offered_total;
	uint64_t max_backlog;

	/* closed loop think time: after think_blocks IOs, drain, then pause */
	uint64_t think_ns;
	uint32_t think_blocks;
	uint64_t issued_since_think;
	bool quiescing;
	uint64_t resume_ns;

	uint32_t inflight;
	uint32_t *free_tags;
	uint32_t free_count;
	struct stream_direction_acc second[STREAM_DIRECTIONS];
};

/* The loop's state: stream_phase.c runs it, stream_setup.c sets it up and tears it down. */
struct stream_loop {
	const struct dq_phase_env *env;
	const struct dq_phase_spec *spec;
	struct dq_phase_stats *stats;
	struct dq_io_engine *engine;
	bool virtual_clock;
	bool fill_data;
	bool has_trim;
	size_t count;
	struct stream streams[DQ_STREAMS_MAX];
	uint32_t tags;
	struct stream_tag *tag;
	struct dq_io_completion *events;
	uint32_t *batch;
	uint32_t batch_count;
	void *buffers;
	uint32_t *buffer_offset; /* per tag, in 4 KiB pages from buffers; UINT32_MAX: none */
	struct dq_datagen *datagen;

	uint32_t inflight;
	uint32_t outstanding; /* stamped as submitted and not completed */
	uint64_t start_ns;
	uint64_t end_ns;
	uint64_t last_ns;
	uint64_t progress_ns;
	uint64_t integrated_ns;
	uint64_t outstanding_second;
	uint64_t next_boundary_ns;
	uint32_t t;
	bool stopping;
	bool broken;
	int sink_rc;
	struct stream_direction_acc *phase_second; /* [3]: every stream's directions merged */
};

static inline void *stream_tag_buffer(const struct stream_loop *l, uint32_t tag)
{
	return (char *)l->buffers + (size_t)l->buffer_offset[tag] * 4096u;
}

/* stream_setup.c */
/* Set the loop up for the phase (l->start_ns set); 0, or an error with the reason in why. */
int stream_loop_init(struct stream_loop *l, const struct dq_phase_env *env,
		     const struct dq_phase_spec *spec, struct dq_phase_stats *stats, char *why,
		     size_t why_len);
/* Free what stream_loop_init allocated (the IO buffers only when the engine let go of them). */
void stream_loop_fini(struct stream_loop *l);

/* stream_choice.c */
/* Set up a stream's range, alignment, rngs and arrivals; 0 or -EINVAL with the reason in why. */
int stream_choice_init(struct stream *st, const struct dq_stream_spec *spec, uint32_t index,
		       const struct dq_device *device, uint64_t seed, uint64_t phase_start_ns,
		       char *why, size_t why_len);
/* Advance an arrival process past its next arrival. */
void stream_arrivals_step(const struct stream *st, struct stream_arrivals *a);
/* The next IO of a stream: its direction, length (length_hint for an open loop's arrival) and
 * offset. */
void stream_choose(struct stream *st, uint32_t length_hint, uint8_t *direction, uint32_t *length,
		   uint64_t *offset);
/* A closed loop's next block size. */
uint32_t stream_draw_length(const struct stream *st, struct dq_rng *rng);

#endif /* DRIVEQUAL_IO_STREAM_PHASE_H */
