/*
 * The IOs to come, prepared while the current ones are in flight: each one's direction, offset
 * and length, and for a write its buffer filled with headers and fresh random data, so that a
 * completion is followed by the next submission at once and no IO's latency includes the cost
 * of making another IO's data.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "io/block_header.h"
#include "worker.h"

/* A tracked write that lands on units another unfinished write covers redraws its offset at most
 * this many times, then goes ahead as ambiguous (those units are not verified). */
#define OVERLAP_REDRAWS 8

bool worker_can_plan(const struct io_worker *w)
{
	return !w->stopping &&
	       (w->params->total_bytes == 0 || w->planned_bytes < w->params->total_bytes);
}

static uint64_t next_random_offset(struct io_worker *w)
{
	const struct dq_io_phase_params *p = w->params;
	uint64_t offset;

	if (w->ahead == NULL) {
		return dq_rng_below(&w->rng, w->range_blocks) * p->block_size;
	}
	offset = w->ahead[w->ahead_pos];
	w->ahead[w->ahead_pos] = dq_rng_below(&w->rng, w->range_blocks) * p->block_size;
	w->engine->ops->prefetch(w->engine->data, w->ahead[w->ahead_pos]);
	w->ahead_pos = (w->ahead_pos + 1) % OFFSET_AHEAD;
	return offset;
}

static bool spans_overlap(uint64_t a, uint32_t a_len, uint64_t b, uint32_t b_len, uint32_t unit)
{
	/* Units, not bytes: two writes into one unit make its final content unknowable. */
	uint64_t a_first = a / unit, a_end = (a + a_len - 1) / unit + 1;
	uint64_t b_first = b / unit, b_end = (b + b_len - 1) / unit + 1;

	return a_first < b_end && b_first < a_end;
}

/* Whether a write at [offset, offset + length) shares units with an unfinished write. */
static bool overlaps_pending_write(const struct io_worker *w, uint64_t offset, uint32_t length)
{
	uint32_t unit = w->ledger->unit_bytes, i;

	for (i = 0; i < w->queue_depth; i++) {
		const struct io_slot *s = &w->slots[i];

		if (s->in_flight && s->op == DQ_IO_WRITE &&
		    spans_overlap(s->offset, s->length, offset, length, unit)) {
			return true;
		}
	}
	for (i = 0; i < w->ready_count; i++) {
		const struct prepared_io *r = &w->ready[(w->ready_head + i) % w->queue_depth];

		if (r->op == DQ_IO_WRITE &&
		    spans_overlap(r->offset, r->length, offset, length, unit)) {
			return true;
		}
	}
	return false;
}

static void fill_write(struct io_worker *w, const struct prepared_io *io)
{
	void *buf = worker_buffer(w, io->buffer);
	struct dq_block_header header;

	if (!w->fill_data) {
		/* zeros: clear what a read or random data left, where a medium keeps it */
		if (w->buffer_dirty[io->buffer] && w->engine->target.keeps_data) {
			memset(buf, 0, w->buffer_stride);
			w->buffer_dirty[io->buffer] = 0;
		}
		return;
	}
	memset(&header, 0, sizeof(header));
	header.job_hash = w->ledger->job_hash;
	header.lba = io->offset / w->ledger->lba_bytes;
	header.sequence = w->ledger->next_sequence++;
	header.lba_bytes = w->ledger->lba_bytes;
	header.phase_index = (uint16_t)w->params->phase_index;
	if (w->track) {
		dq_block_ledger_peek(w->ledger, io->offset, io->length, io->ambiguous,
				     w->generations);
	}
	dq_block_fill(w->datagen, buf, io->length, w->ledger->unit_bytes, &header,
		      w->track ? w->generations : NULL);
	w->buffer_dirty[io->buffer] = 1;
}

/* Choose the next IO and make its buffer ready. */
static void prepare_one(struct io_worker *w)
{
	const struct dq_io_phase_params *p = w->params;
	struct prepared_io *io = &w->ready[(w->ready_head + w->ready_count) % w->queue_depth];
	uint32_t length = p->block_size, redraws = 0;
	uint64_t offset;

	memset(io, 0, sizeof(*io));
	if (p->read_percent == 100) {
		io->op = DQ_IO_READ;
	} else if (p->read_percent == 0) {
		io->op = DQ_IO_WRITE;
	} else {
		io->op = dq_rng_below(&w->rng, 100) < p->read_percent ? DQ_IO_READ : DQ_IO_WRITE;
	}
	if (p->sequential) {
		offset = w->cursor;
		if (p->range_bytes - offset < length) {
			length = (uint32_t)(p->range_bytes -
					    offset); /* the pass's last, shorter IO */
		}
		w->cursor = offset + length == p->range_bytes ? 0 : offset + length;
	} else {
		offset = next_random_offset(w);
		while (w->track && io->op == DQ_IO_WRITE &&
		       overlaps_pending_write(w, offset, length) && redraws++ < OVERLAP_REDRAWS) {
			offset = next_random_offset(w);
		}
	}
	if (p->total_bytes > 0 && p->total_bytes - w->planned_bytes < length) {
		length = (uint32_t)(p->total_bytes - w->planned_bytes);
	}
	io->offset = offset;
	io->length = length;
	io->ambiguous = w->track && io->op == DQ_IO_WRITE &&
			overlaps_pending_write(w, offset, length);
	io->buffer = w->free_buffers[--w->free_count];
	if (io->op == DQ_IO_WRITE) {
		fill_write(w, io);
	} else {
		w->buffer_dirty[io->buffer] = 1; /* the read lands here */
	}
	w->planned_bytes += length;
	w->ready_count++;
}

void worker_prepare(struct io_worker *w)
{
	while (w->ready_count < w->queue_depth && w->free_count > 0 && worker_can_plan(w)) {
		prepare_one(w);
	}
}

bool worker_take_prepared(struct io_worker *w, struct prepared_io *out)
{
	if (w->ready_count == 0) {
		worker_prepare(w);
		if (w->ready_count == 0) {
			return false;
		}
	}
	*out = w->ready[w->ready_head];
	w->ready_head = (w->ready_head + 1) % w->queue_depth;
	w->ready_count--;
	return true;
}

void worker_release_buffer(struct io_worker *w, uint32_t buffer)
{
	w->free_buffers[w->free_count++] = buffer;
}

int worker_prep_init(struct io_worker *w)
{
	const struct dq_io_phase_params *params = w->params;
	uint32_t qd = w->queue_depth, align = w->engine->target.buffer_align, i;

	w->buffer_count = 2 * qd;
	w->buffer_stride = (params->block_size + 4095) & ~4095u;
	if (align < 64) {
		align = 64;
	}
	w->free_buffers = calloc(w->buffer_count, sizeof(*w->free_buffers));
	w->buffer_dirty = calloc(w->buffer_count, 1);
	w->ready = calloc(qd, sizeof(*w->ready));
	w->generations = calloc(params->block_size / w->ledger->unit_bytes + 1, 1);
	if (w->free_buffers == NULL || w->buffer_dirty == NULL || w->ready == NULL ||
	    w->generations == NULL ||
	    posix_memalign((void **)&w->datagen, 64, sizeof(*w->datagen)) != 0 ||
	    posix_memalign(&w->buffers, align, (size_t)w->buffer_stride * w->buffer_count) != 0) {
		return -ENOMEM;
	}
	memset(w->buffers, 0, (size_t)w->buffer_stride * w->buffer_count);
	for (i = 0; i < w->buffer_count; i++) {
		w->free_buffers[w->free_count++] = w->buffer_count - 1 - i;
	}
	dq_datagen_seed(w->datagen, dq_splitmix64(&w->rng.s[0]));
	/* Only where no op draw interleaves with the offset draws: the sequence must not change. */
	if (w->engine->ops->prefetch != NULL && !params->sequential &&
	    (params->read_percent == 0 || params->read_percent == 100)) {
		w->ahead = calloc(OFFSET_AHEAD, sizeof(*w->ahead));
		if (w->ahead == NULL) {
			return -ENOMEM;
		}
		for (i = 0; i < OFFSET_AHEAD; i++) {
			w->ahead[i] = dq_rng_below(&w->rng, w->range_blocks) * params->block_size;
			w->engine->ops->prefetch(w->engine->data, w->ahead[i]);
		}
	}
	return 0;
}

void worker_prep_fini(struct io_worker *w)
{
	free(w->ahead);
	free(w->datagen);
	if (!w->broken) {
		free(w->buffers); /* else the engine may still DMA into them: leak, never reuse */
	}
	free(w->generations);
	free(w->ready);
	free(w->buffer_dirty);
	free(w->free_buffers);
}
