/*
 * The page-mapped FTL: the logical-to-physical table at 4 KiB granularity, superblock bookkeeping
 * (valid counts, and greedy GC's next victim kept as they change), the free-block FIFO
 * and the write frontiers (host data and GC copies, a pair per FDP reclaim unit handle). Timing is sim_sched.c's business; GC policy
 * is sim_gc.c's.
 */
#include <assert.h>

#include "sim_internal.h"

/*
 * A full block's valid count just became what it is: it is greedy's best if it has the fewest valid
 * units, and among equals the one whose count changed last (the order GC has always taken them in:
 * the last block to reach a count is taken first).
 */
static void sim_ftl_greedy_touch(struct dq_sim_drive *d, uint32_t block)
{
	uint32_t v = d->valid[block];

	d->touch_seq[block] = ++d->touch_clock;
	if (v < d->geo.units_per_block &&
	    (d->greedy_best == SIM_NONE || v <= d->valid[d->greedy_best]))
		d->greedy_best = block;
}

/* Finds greedy's best among all full blocks: once per victim taken, not per write. */
void sim_ftl_greedy_rescan(struct dq_sim_drive *d)
{
	uint32_t best = SIM_NONE, best_valid = d->geo.units_per_block;
	uint64_t best_seq = 0;

	for (uint32_t b = 0; b < d->geo.blocks; b++) {
		uint32_t v = d->valid[b];

		if (d->state[b] != SIM_BLOCK_FULL || v >= d->geo.units_per_block)
			continue;
		if (v < best_valid || (v == best_valid && d->touch_seq[b] > best_seq)) {
			best = b;
			best_valid = v;
			best_seq = d->touch_seq[b];
		}
	}
	d->greedy_best = best;
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
		d->touch_seq[b] = 0;
		d->free_fifo[b] = b;
	}
	d->greedy_best = SIM_NONE;
	d->touch_clock = 0;
	sim_ftl_sort_free_by_wear(d);
	d->free_head = 0;
	d->free_count = blocks;
	for (uint32_t s = 0; s < SIM_FRONTIERS; s++) {
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
	for (uint32_t h = 0; h < DQ_SIM_FDP_MAX_HANDLES; h++)
		d->fdp.blocks[h] = 0;
}

void sim_ftl_invalidate(struct dq_sim_drive *d, uint32_t ppa)
{
	uint32_t block = sim_div(d->geo.by_units_per_block, ppa);

	d->valid[block]--;
	if (d->state[block] == SIM_BLOCK_FULL)
		sim_ftl_greedy_touch(d, block);
}

uint32_t sim_ftl_alloc_block(struct dq_sim_drive *d, uint32_t handle)
{
	uint32_t block;

	assert(d->free_count > 0);
	block = d->free_fifo[d->free_head];
	d->free_head = (d->free_head + 1) % d->geo.blocks;
	d->free_count--;
	d->state[block] = SIM_BLOCK_OPEN;
	d->valid[block] = 0;
	d->block_handle[block] = (uint8_t)handle;
	d->fdp.blocks[handle]++;
	return block;
}

void sim_ftl_block_full(struct dq_sim_drive *d, uint32_t block)
{
	d->state[block] = SIM_BLOCK_FULL;
	d->close_seq[block] = d->host_unit_seq;
	sim_ftl_greedy_touch(d, block);
}

/*
 * Places one unit at the frontier of `stream` and, when that completes a program unit, schedules
 * the program. Returns the program's completion time, or 0 if the program unit is still filling.
 */
static uint64_t sim_ftl_place(struct dq_sim_drive *d, uint32_t frontier, uint32_t lunit,
			      uint64_t ready_ns)
{
	struct sim_frontier *f = &d->frontier[frontier];
	uint64_t done = 0;
	uint32_t ppa;

	ppa = f->block * d->geo.units_per_block + f->next;
	d->l2p[lunit] = ppa + 1;
	d->p2l[ppa] = lunit;
	d->valid[f->block]++;
	d->cnt.nand_write_units++;
	d->fdp.media_units[frontier / SIM_STREAM_COUNT]++;
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
uint64_t sim_ftl_host_write_unit(struct dq_sim_drive *d, uint64_t lunit, uint32_t handle,
				 uint64_t ready_ns)
{
	uint32_t frontier = SIM_FRONTIER(handle, SIM_STREAM_HOST);
	struct sim_frontier *f = &d->frontier[frontier];
	uint32_t old = d->l2p[lunit];
	uint64_t done, prev = 0;
	uint32_t slot;

	if (old != 0)
		sim_ftl_invalidate(d, old - 1);
	if (f->block == SIM_NONE) {
		if (d->free_count <= SIM_MIN_FREE_BLOCKS)
			sim_gc_burst(d, ready_ns);
		f->block = sim_ftl_alloc_block(d, handle);
		/* lazy: nothing until the drive is nearly out of blocks, then steps up to the target */
		if (d->gc.fg_step_units > 0 && d->free_count <= d->gc.fg_start)
			d->gc_fg_active = true;
	}
	d->host_unit_seq++;
	d->fdp.host_units[handle]++;
	done = sim_ftl_place(d, frontier, (uint32_t)lunit, ready_ns);
	if (done == 0)
		return 0;
	slot = (uint32_t)(d->host_prog_seq & (d->buffer_progs - 1));
	if (d->host_prog_seq > 0)
		prev = d->buffer_release[(d->host_prog_seq - 1) & (d->buffer_progs - 1)];
	d->buffer_release[slot] = sim_max_u64(prev, done);
	d->host_prog_seq++;
	return done;
}

/*
 * A unit GC copies; its data is in the controller once the source read is done (ready_ns). It stays
 * with its reclaim unit handle (persistently isolated, in TP4146's terms): GC copies of a handle's
 * data go to that handle's own GC frontier, so segregated data never mixes again.
 */
void sim_ftl_gc_write_unit(struct dq_sim_drive *d, uint32_t lunit, uint64_t ready_ns)
{
	uint32_t handle = d->block_handle[d->gc_victim];
	uint32_t frontier = SIM_FRONTIER(handle, SIM_STREAM_GC);
	struct sim_frontier *f = &d->frontier[frontier];

	if (f->block == SIM_NONE)
		f->block = sim_ftl_alloc_block(d, handle);
	sim_ftl_place(d, frontier, lunit, ready_ns);
}

void sim_ftl_trim_unit(struct dq_sim_drive *d, uint64_t lunit)
{
	uint32_t old = d->l2p[lunit];

	if (old == 0)
		return;
	sim_ftl_invalidate(d, old - 1);
	d->l2p[lunit] = 0;
}
