/*
 * A tiny closed-loop load generator in virtual time, for tests and the benchmark: queue_depth IOs
 * stay outstanding, each completion (taken in time order) submits the next IO at
 * its completion time, and IOs are counted in the second they complete in, like fio's per-second
 * logs. The runner core drives the sim engine its own way; this exists so the model can be tested
 * and measured on its own.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim_internal.h"

#define SIM_LOOP_AHEAD 32u
#define SIM_LOOP_PREFETCH_BATCH 8u /* divides SIM_LOOP_AHEAD */

struct sim_slot {
	uint64_t complete_ns;
	uint64_t submit_ns;
	uint32_t bytes;
	bool read;
};

struct sim_loop {
	struct dq_sim_drive *drive;
	const struct dq_sim_workload *w;
	struct sim_slot *slots;
	uint32_t *ring; /* slot indices by completion time, see sim_loop_push() */
	uint32_t ring_mask;
	uint32_t ring_head;
	uint32_t ring_len;
	uint64_t rng;
	uint64_t ahead[SIM_LOOP_AHEAD]; /* random blocks drawn early so their mapping is prefetched */
	uint32_t ahead_pos;
	uint64_t range_blocks;
	uint32_t lbas_per_io;
	uint64_t seq_next;
	uint64_t start_ns;
	uint64_t end_ns; /* no submissions at or after this time */
	uint64_t bytes_submitted;
	struct dq_sim_second cur;
	uint32_t cur_index; /* 0-based second being accumulated */
	uint64_t cur_end_ns; /* its end: start_ns + (cur_index + 1) s */
	dq_sim_second_fn second_fn;
	void *arg;
	struct dq_sim_run_result *res;
};

/*
 * Outstanding IOs as a ring sorted by completion time. Closed-loop completions arrive nearly in
 * order (the write cache retires FIFO), so inserting from the back is O(1) in practice, and it
 * avoids a heap's unpredictable branches; equal times keep submission order (deterministic).
 */
static void sim_loop_push(struct sim_loop *l, uint32_t slot)
{
	uint32_t mask = l->ring_mask, i = l->ring_len++;
	uint64_t key = l->slots[slot].complete_ns;

	while (i > 0 && l->slots[l->ring[(l->ring_head + i - 1) & mask]].complete_ns > key) {
		l->ring[(l->ring_head + i) & mask] = l->ring[(l->ring_head + i - 1) & mask];
		i--;
	}
	l->ring[(l->ring_head + i) & mask] = slot;
}

static uint32_t sim_loop_pop(struct sim_loop *l)
{
	uint32_t slot = l->ring[l->ring_head];

	l->ring_head = (l->ring_head + 1) & l->ring_mask;
	l->ring_len--;
	return slot;
}

static uint64_t sim_loop_bounded(struct sim_loop *l, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)sim_rng_next(&l->rng) * n) >> 64);
}

/*
 * The next random block: drawn SIM_LOOP_AHEAD IOs ago, with its mapping entry prefetched since, so
 * the table lookup does not stall on memory (the same blocks in the same order as drawing on demand).
 * The prefetches go out SIM_LOOP_PREFETCH_BATCH at a time: each of them waits for its address
 * translation (a TLB miss, nearly always, on a table this size), and back to back those waits
 * overlap instead of each holding up the IO it is issued in.
 */
static uint64_t sim_loop_next_random(struct sim_loop *l)
{
	uint64_t block = l->ahead[l->ahead_pos];
	uint64_t next = sim_loop_bounded(l, l->range_blocks);

	l->ahead[l->ahead_pos] = next;
	l->ahead_pos = (l->ahead_pos + 1) % SIM_LOOP_AHEAD;
	if (l->ahead_pos % SIM_LOOP_PREFETCH_BATCH == 0) {
		uint32_t end = l->ahead_pos == 0 ? SIM_LOOP_AHEAD : l->ahead_pos;

		for (uint32_t i = end - SIM_LOOP_PREFETCH_BATCH; i < end; i++)
			sim_ftl_prefetch(l->drive, l->ahead[i] * l->lbas_per_io);
	}
	return block;
}

static bool sim_loop_may_submit(const struct sim_loop *l, uint64_t now_ns)
{
	if (l->w->duration_ns != 0 && now_ns >= l->end_ns)
		return false;
	return l->w->bytes_limit == 0 || l->bytes_submitted < l->w->bytes_limit;
}

static void sim_loop_submit(struct sim_loop *l, uint32_t slot, uint64_t now_ns)
{
	const struct dq_sim_workload *w = l->w;
	struct sim_slot *s = &l->slots[slot];
	uint64_t block;
	bool read;
	int rc;

	switch (w->pattern) {
	case DQ_SIM_PATTERN_SEQWRITE:
	case DQ_SIM_PATTERN_SEQREAD:
		block = l->seq_next;
		l->seq_next = (l->seq_next + 1) % l->range_blocks;
		read = w->pattern == DQ_SIM_PATTERN_SEQREAD;
		break;
	default:
		block = sim_loop_next_random(l);
		read = w->pattern == DQ_SIM_PATTERN_RANDREAD ||
		       (w->pattern == DQ_SIM_PATTERN_RANDRW &&
			sim_loop_bounded(l, 100) < w->read_pct);
		break;
	}
	rc = dq_sim_drive_submit(l->drive, read ? DQ_SIM_OP_READ : DQ_SIM_OP_WRITE,
				 block * l->lbas_per_io, l->lbas_per_io, now_ns, &s->complete_ns);
	(void)rc; /* the range was validated up front */
	s->submit_ns = now_ns;
	s->bytes = w->block_bytes;
	s->read = read;
	l->bytes_submitted += w->block_bytes;
	sim_loop_push(l, slot);
}

static int sim_loop_emit(struct sim_loop *l, uint64_t interval_ns)
{
	int rc = 0;

	l->cur.t = l->cur_index + 1;
	l->cur.interval_ns = interval_ns;
	if (l->second_fn != NULL)
		rc = l->second_fn(&l->cur, l->arg);
	l->res->seconds++;
	memset(&l->cur, 0, sizeof(l->cur));
	l->cur_index++;
	l->cur_end_ns += DQ_SIM_NS_PER_S;
	return rc < 0 ? rc : 0;
}

static int sim_loop_account(struct sim_loop *l, const struct sim_slot *s)
{
	uint64_t lat = s->complete_ns - s->submit_ns;
	int rc;

	if (s->read) {
		l->res->read_ios++;
		l->res->read_bytes += s->bytes;
	} else {
		l->res->write_ios++;
		l->res->write_bytes += s->bytes;
	}
	if (lat > l->res->latency_max_ns)
		l->res->latency_max_ns = lat;
	if (l->w->duration_ns != 0 && s->complete_ns >= l->end_ns)
		return 0; /* drained after the end: in the totals, in no second */
	/* the IO counts in the second it completes in (a compare per IO, not a division) */
	while (s->complete_ns >= l->cur_end_ns) {
		rc = sim_loop_emit(l, DQ_SIM_NS_PER_S);
		if (rc != 0)
			return rc;
	}
	if (s->read) {
		l->cur.read_ios++;
		l->cur.read_bytes += s->bytes;
	} else {
		l->cur.write_ios++;
		l->cur.write_bytes += s->bytes;
	}
	l->cur.latency_sum_ns += lat;
	if (lat > l->cur.latency_max_ns)
		l->cur.latency_max_ns = lat;
	return 0;
}

/* Emits the seconds left once every IO is done: whole seconds up to the duration, or the tail. */
static int sim_loop_finish(struct sim_loop *l)
{
	uint64_t elapsed = l->res->end_ns - l->start_ns, tail;
	int rc = 0;

	if (l->w->duration_ns != 0) {
		uint64_t seconds = l->w->duration_ns / DQ_SIM_NS_PER_S;

		while (rc == 0 && l->cur_index < seconds)
			rc = sim_loop_emit(l, DQ_SIM_NS_PER_S);
		return rc;
	}
	while (rc == 0 && l->cur_index < elapsed / DQ_SIM_NS_PER_S)
		rc = sim_loop_emit(l, DQ_SIM_NS_PER_S);
	tail = elapsed - (uint64_t)l->cur_index * DQ_SIM_NS_PER_S;
	if (rc == 0 && tail > 0)
		rc = sim_loop_emit(l, tail);
	return rc;
}

static int sim_loop_check(const struct dq_sim_drive *d, const struct dq_sim_workload *w)
{
	uint32_t lba_bytes = d->profile.lba_bytes;

	if (w->block_bytes == 0 || w->block_bytes % lba_bytes != 0 || w->queue_depth == 0 ||
	    w->queue_depth > 65536 || w->read_pct > 100 || !(w->range_fraction > 0.0) ||
	    w->range_fraction > 1.0 || (w->duration_ns == 0 && w->bytes_limit == 0))
		return -EINVAL;
	if (w->pattern > DQ_SIM_PATTERN_RANDRW)
		return -EINVAL;
	if ((uint64_t)(w->range_fraction * d->geo.lba_count) / (w->block_bytes / lba_bytes) == 0)
		return -EINVAL;
	return 0;
}

int dq_sim_run_closed_loop(struct dq_sim_drive *d, const struct dq_sim_workload *w,
			   uint64_t start_ns, dq_sim_second_fn second_fn, void *arg,
			   struct dq_sim_run_result *res)
{
	struct sim_loop l;
	int rc;

	if (d == NULL || w == NULL || res == NULL || sim_loop_check(d, w) != 0)
		return -EINVAL;
	memset(res, 0, sizeof(*res));
	memset(&l, 0, sizeof(l));
	l.drive = d;
	l.w = w;
	l.rng = w->seed ^ 0xbb67ae8584caa73bull;
	l.lbas_per_io = w->block_bytes / d->profile.lba_bytes;
	l.range_blocks = (uint64_t)(w->range_fraction * d->geo.lba_count) / l.lbas_per_io;
	for (uint32_t i = 0; i < SIM_LOOP_AHEAD; i++)
		l.ahead[i] = sim_loop_bounded(&l, l.range_blocks);
	l.start_ns = sim_max_u64(start_ns, d->last_now);
	l.end_ns = l.start_ns + w->duration_ns;
	l.cur_end_ns = l.start_ns + DQ_SIM_NS_PER_S;
	l.second_fn = second_fn;
	l.arg = arg;
	l.res = res;
	res->start_ns = l.start_ns;
	res->end_ns = l.start_ns;
	l.ring_mask = 1;
	while (l.ring_mask < w->queue_depth)
		l.ring_mask <<= 1;
	l.slots = calloc(w->queue_depth, sizeof(*l.slots));
	l.ring = calloc(l.ring_mask, sizeof(*l.ring));
	l.ring_mask--;
	rc = -ENOMEM;
	if (l.slots == NULL || l.ring == NULL)
		goto out;

	for (uint32_t i = 0; i < w->queue_depth && sim_loop_may_submit(&l, l.start_ns); i++)
		sim_loop_submit(&l, i, l.start_ns);
	rc = 0;
	while (l.ring_len > 0) {
		uint32_t slot = sim_loop_pop(&l);
		uint64_t now = l.slots[slot].complete_ns;

		res->end_ns = sim_max_u64(res->end_ns, now);
		rc = sim_loop_account(&l, &l.slots[slot]);
		if (rc != 0)
			goto out;
		if (sim_loop_may_submit(&l, now))
			sim_loop_submit(&l, slot, now);
	}
	rc = sim_loop_finish(&l);
out:
	free(l.ring);
	free(l.slots);
	return rc;
}
