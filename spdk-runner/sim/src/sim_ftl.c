/*
 * The page-mapped FTL: the logical-to-physical table at 4 KiB granularity, superblock bookkeeping
 * (valid counts kept in per-count lists so greedy GC finds its victim in O(1)), the free-block FIFO
 * and the two write frontiers (host data and GC copies). Timing is sim_sched.c's business; GC policy
 * is sim_gc.c's.
 */
#include <assert.h>

#include "sim_internal.h"

static void sim_ftl_bucket_insert(struct dq_sim_drive *d, uint32_t block)
{
	uint32_t v = d->valid[block];
	uint32_t head = d->bucket_head[v];

	d->bucket_prev[block] = SIM_NONE;
	d->bucket_next[block] = head;
	if (head != SIM_NONE)
		d->bucket_prev[head] = block;
	d->bucket_head[v] = block;
	if (v < d->bucket_min)
		d->bucket_min = v;
}

void sim_ftl_bucket_remove(struct dq_sim_drive *d, uint32_t block)
{
	uint32_t prev = d->bucket_prev[block];
	uint32_t next = d->bucket_next[block];

	if (prev != SIM_NONE)
		d->bucket_next[prev] = next;
	else
		d->bucket_head[d->valid[block]] = next;
	if (next != SIM_NONE)
		d->bucket_prev[next] = prev;
}

/* Shell sort of the free FIFO by erase count, then block number (no qsort: it has no context). */
static void sim_ftl_sort_free_by_wear(struct dq_sim_drive *d)
{
	uint32_t *a = d->free_fifo;
	const uint32_t *wear = d->erase_count;
	uint32_t n = d->geo.blocks, gap = 1;

	while (gap < n / 3)
		gap = gap * 3 + 1;
	for (; gap > 0; gap /= 3) {
		for (uint32_t i = gap; i < n; i++) {
			uint32_t x = a[i], j = i;

			while (j >= gap && (wear[a[j - gap]] > wear[x] ||
					    (wear[a[j - gap]] == wear[x] && a[j - gap] > x))) {
				a[j] = a[j - gap];
				j -= gap;
			}
			a[j] = x;
		}
	}
}

/*
 * Every block free and nothing mapped (the caller clears l2p). The free FIFO starts with the least
 * worn blocks so repeated purges do not wear the same blocks first.
 */
void sim_ftl_reset(struct dq_sim_drive *d)
{
	uint32_t blocks = d->geo.blocks;

	for (uint32_t b = 0; b < blocks; b++) {
		d->valid[b] = 0;
		d->state[b] = SIM_BLOCK_FREE;
		d->close_seq[b] = 0;
		d->bucket_prev[b] = SIM_NONE;
		d->bucket_next[b] = SIM_NONE;
		d->free_fifo[b] = b;
	}
	for (uint32_t v = 0; v <= d->geo.units_per_block; v++)
		d->bucket_head[v] = SIM_NONE;
	d->bucket_min = d->geo.units_per_block + 1;
	sim_ftl_sort_free_by_wear(d);
	d->free_head = 0;
	d->free_count = blocks;
	for (int s = 0; s < SIM_STREAM_COUNT; s++) {
		d->frontier[s].block = SIM_NONE;
		d->frontier[s].next = 0;
		d->frontier[s].prog_fill = 0;
		d->frontier[s].ready_ns = 0;
	}
	d->gc_victim = SIM_NONE;
	d->gc_cursor = 0;
	d->gc_read_prog = SIM_NONE;
	d->gc_read_done_ns = 0;
	d->gc_debt = 0;
	d->gc_fg_active = false;
	d->gc_fg_debt = 0;
}

void sim_ftl_invalidate(struct dq_sim_drive *d, uint32_t ppa)
{
	uint32_t block = sim_div(d->geo.by_units_per_block, ppa);

	if (d->state[block] == SIM_BLOCK_FULL) {
		sim_ftl_bucket_remove(d, block);
		d->valid[block]--;
		sim_ftl_bucket_insert(d, block);
	} else {
		d->valid[block]--;
	}
}

uint32_t sim_ftl_alloc_block(struct dq_sim_drive *d)
{
	uint32_t block;

	assert(d->free_count > 0);
	block = d->free_fifo[d->free_head];
	d->free_head = (d->free_head + 1) % d->geo.blocks;
	d->free_count--;
	d->state[block] = SIM_BLOCK_OPEN;
	d->valid[block] = 0;
	return block;
}

void sim_ftl_block_full(struct dq_sim_drive *d, uint32_t block)
{
	d->state[block] = SIM_BLOCK_FULL;
	d->close_seq[block] = d->host_unit_seq;
	sim_ftl_bucket_insert(d, block);
}

/*
 * Places one unit at the frontier of `stream` and, when that completes a program unit, schedules
 * the program. Returns the program's completion time, or 0 if the program unit is still filling.
 */
static uint64_t sim_ftl_place(struct dq_sim_drive *d, enum sim_stream stream, uint32_t lunit,
			      uint64_t ready_ns)
{
	struct sim_frontier *f = &d->frontier[stream];
	uint64_t done = 0;
	uint32_t ppa;

	ppa = f->block * d->geo.units_per_block + f->next;
	d->l2p[lunit] = ppa + 1;
	d->p2l[ppa] = lunit;
	d->valid[f->block]++;
	d->cnt.nand_write_units++;
	f->ready_ns = sim_max_u64(f->ready_ns, ready_ns);
	f->next++;
	if (++f->prog_fill == d->geo.units_per_prog) {
		done = sim_sched_program(d, sim_div(d->geo.by_units_per_prog, f->next) - 1,
					 f->ready_ns);
		f->ready_ns = 0;
		f->prog_fill = 0;
	}
	if (f->next == d->geo.units_per_block) {
		sim_ftl_block_full(d, f->block);
		f->block = SIM_NONE;
		f->next = 0;
	}
	return done;
}

/*
 * A host unit whose data entered the write cache at ready_ns. A finished program unit retires from
 * the write cache in order (FIFO), which is what makes host writes wait when the NAND falls behind.
 */
uint64_t sim_ftl_host_write_unit(struct dq_sim_drive *d, uint64_t lunit, uint64_t ready_ns)
{
	struct sim_frontier *f = &d->frontier[SIM_STREAM_HOST];
	uint32_t old = d->l2p[lunit];
	uint64_t done, prev = 0;
	uint32_t slot;

	if (old != 0)
		sim_ftl_invalidate(d, old - 1);
	if (f->block == SIM_NONE) {
		if (d->free_count <= SIM_MIN_FREE_BLOCKS)
			sim_gc_burst(d, ready_ns);
		f->block = sim_ftl_alloc_block(d);
		/* lazy: nothing until the drive is nearly out of blocks, then steps up to the target */
		if (d->gc.fg_step_units > 0 && d->free_count <= d->gc.fg_start)
			d->gc_fg_active = true;
	}
	d->host_unit_seq++;
	done = sim_ftl_place(d, SIM_STREAM_HOST, (uint32_t)lunit, ready_ns);
	if (done == 0)
		return 0;
	slot = (uint32_t)(d->host_prog_seq & (d->buffer_progs - 1));
	if (d->host_prog_seq > 0)
		prev = d->buffer_release[(d->host_prog_seq - 1) & (d->buffer_progs - 1)];
	d->buffer_release[slot] = sim_max_u64(prev, done);
	d->host_prog_seq++;
	return done;
}

/* A unit GC copies; its data is in the controller once the source read is done (ready_ns). */
void sim_ftl_gc_write_unit(struct dq_sim_drive *d, uint32_t lunit, uint64_t ready_ns)
{
	struct sim_frontier *f = &d->frontier[SIM_STREAM_GC];

	if (f->block == SIM_NONE)
		f->block = sim_ftl_alloc_block(d);
	sim_ftl_place(d, SIM_STREAM_GC, lunit, ready_ns);
}

void sim_ftl_trim_unit(struct dq_sim_drive *d, uint64_t lunit)
{
	uint32_t old = d->l2p[lunit];

	if (old == 0)
		return;
	sim_ftl_invalidate(d, old - 1);
	d->l2p[lunit] = 0;
}
