/*
 * Garbage collection: which superblock to reclaim (greedy or cost-benefit) and when. GC walks its
 * victim one unit at a time (a cursor), so it can be interleaved with host writes at any grain:
 *   paced - eager drives: below paced_start free blocks, every host unit written obliges GC to pass
 *           at least one invalid unit of the victim (more the further below), so reclaim keeps pace
 *           with consumption and its die time is spread evenly between host programs;
 *   foreground - lazy drives: once the host opens a block with fg_start or fewer free, every host
 *           write obliges GC to pass more invalid units than it wrote (more the emptier the pool),
 *           in steps of at most fg_step_units victim units, until burst_target blocks are free:
 *           then nothing again while the host runs at full speed (a band of per-second IOPS);
 *   burst - the host needs a block and only the reserve is left: GC reclaims until the host can
 *           have one (up to burst_target, the host waiting behind all of it, if fg_step_units
 *           is 0: stall-prone firmware that alternates multi-second stalls with full speed);
 *   idle  - background GC while the host is away, up to idle_target, skipping nearly full victims.
 */
#include "sim_internal.h"

#define SIM_GC_PREFETCH_UNITS 32u
#define SIM_GC_PREFETCH_BATCH 8u
/* Foreground GC's debt is kept in 1/1024 invalid units: its rate is fractional. */
#define SIM_GC_FG_SCALE 1024

/* Cost-benefit scans all blocks: victims are rare (one per superblock reclaimed), blocks few. */
static uint32_t sim_gc_pick_cost_benefit(const struct dq_sim_drive *d)
{
	double upb = d->geo.units_per_block, best_score = -1.0;
	uint32_t best = SIM_NONE;

	for (uint32_t b = 0; b < d->geo.blocks; b++) {
		double u, age, score;

		if (d->state[b] != SIM_BLOCK_FULL || d->valid[b] >= d->geo.units_per_block)
			continue;
		u = d->valid[b] / upb;
		age = (double)(d->host_unit_seq - d->close_seq[b]) + 1.0;
		score = (1.0 - u) * age / (1.0 + u);
		if (score > best_score) {
			best_score = score;
			best = b;
		}
	}
	return best;
}

/* LRW: the full superblock that filled first (Desnoyers 2012's least-recently-written cleaning) */
static uint32_t sim_gc_pick_fifo(const struct dq_sim_drive *d)
{
	uint64_t oldest = UINT64_MAX;
	uint32_t best = SIM_NONE;

	for (uint32_t b = 0; b < d->geo.blocks; b++) {
		if (d->state[b] != SIM_BLOCK_FULL || d->valid[b] >= d->geo.units_per_block)
			continue;
		if (d->close_seq[b] < oldest) {
			oldest = d->close_seq[b];
			best = b;
		}
	}
	return best;
}

static bool sim_gc_start_victim(struct dq_sim_drive *d, uint32_t max_valid)
{
	uint32_t b;

	if (d->profile.victim == DQ_SIM_VICTIM_COST_BENEFIT)
		b = sim_gc_pick_cost_benefit(d);
	else if (d->profile.victim == DQ_SIM_VICTIM_FIFO)
		b = sim_gc_pick_fifo(d);
	else
		b = d->greedy_best;
	if (b == SIM_NONE || d->valid[b] > max_valid)
		return false;
	d->state[b] = SIM_BLOCK_VICTIM;
	if (b == d->greedy_best)
		sim_ftl_greedy_rescan(d);
	d->gc_victim = b;
	d->gc_cursor = 0;
	d->gc_read_prog = SIM_NONE;
	return true;
}

static void sim_gc_erase_victim(struct dq_sim_drive *d, uint64_t now_ns)
{
	uint32_t b = d->gc_victim;
	uint32_t tail = (d->free_head + d->free_count) % d->geo.blocks;

	sim_sched_erase(d, now_ns);
	d->erase_count[b]++;
	d->cnt.erases++;
	d->state[b] = SIM_BLOCK_FREE;
	d->valid[b] = 0;
	d->fdp.blocks[d->block_handle[b]]--;
	d->free_fifo[tail] = b;
	d->free_count++;
	d->gc_victim = SIM_NONE;
}

/* Moves a valid unit of the victim: read it (its page once, then transfers), program a copy. */
static void sim_gc_copy(struct dq_sim_drive *d, uint32_t lunit, uint32_t prog, uint64_t now_ns)
{
	if (prog != d->gc_read_prog) {
		d->gc_read_done_ns = sim_sched_read(d, prog, 1, now_ns, true);
		d->gc_read_prog = prog;
	} else {
		d->gc_read_done_ns = sim_sched_xfer_more(d, prog, d->gc_read_done_ns);
	}
	d->valid[d->gc_victim]--;
	sim_ftl_gc_write_unit(d, lunit, d->gc_read_done_ns);
}

/*
 * Walks the victim (taking one if there is none) one unit at a time, copying the units still valid,
 * until *invalid_left invalid units have been passed, *units_left units walked, or the victim is
 * done and erased; decrements both budgets by what it used. Returns -1 when no victim is worth
 * taking, else 0. Callers loop; stopping at an erase lets them re-check the free pool.
 */
static int sim_gc_walk(struct dq_sim_drive *d, uint64_t now_ns, uint32_t max_valid,
		       uint64_t *invalid_left, uint64_t *units_left)
{
	uint32_t upb = d->geo.units_per_block, upp = d->geo.units_per_prog;
	uint32_t base, off, prog, in_prog;
	uint64_t invalid = *invalid_left, units = *units_left;

	if (d->gc_victim == SIM_NONE && !sim_gc_start_victim(d, max_valid))
		return -1;
	base = d->gc_victim * upb;
	off = d->gc_cursor;
	prog = sim_div(d->geo.by_units_per_prog, off);
	in_prog = off - prog * upp;
	while (off < upb && invalid > 0 && units > 0) {
		uint32_t ppa = base + off, lunit = d->p2l[ppa];

		/*
		 * The mapping table is far bigger than the caches: fetch units ahead, a batch at a
		 * time so their address translations overlap (sim_workload.c does the same), without
		 * temporal locality (see sim_ftl_prefetch).
		 */
		if (off % SIM_GC_PREFETCH_BATCH == 0) {
			uint32_t from = off + SIM_GC_PREFETCH_UNITS;
			for (uint32_t u = from; u < from + SIM_GC_PREFETCH_BATCH && u < upb; u++)
				__builtin_prefetch(&d->l2p[d->p2l[base + u]], 0, 0);
		}
		if (d->l2p[lunit] == ppa + 1)
			sim_gc_copy(d, lunit, prog, now_ns);
		else
			invalid--;
		off++;
		units--;
		if (++in_prog == upp) {
			in_prog = 0;
			prog++;
		}
	}
	d->gc_cursor = off;
	*invalid_left = invalid;
	*units_left = units;
	if (off == upb)
		sim_gc_erase_victim(d, now_ns);
	return 0;
}

void sim_gc_paced(struct dq_sim_drive *d, uint32_t host_units, uint64_t now_ns)
{
	uint32_t start = d->gc.paced_start;
	uint64_t deficit, boost;

	if (d->free_count >= start) {
		d->gc_debt = 0;
		return;
	}
	/* proportional boost: twice the host rate when the pool is empty */
	deficit = start - d->free_count;
	boost = (uint64_t)host_units * 2 * deficit;
	boost = boost <= UINT32_MAX ? sim_div(d->gc.by_paced_start, (uint32_t)boost) :
				      boost / start;
	d->gc_debt += host_units + (int64_t)boost;
	while (d->gc_debt > 0) {
		uint64_t invalid = (uint64_t)d->gc_debt, units = UINT64_MAX;

		if (sim_gc_walk(d, now_ns, d->geo.units_per_block - 1, &invalid, &units) < 0) {
			d->gc_debt = 0;
			break;
		}
		d->gc_debt = (int64_t)invalid;
	}
}

/*
 * Lazy foreground GC: per host unit written, 1.25 invalid units at the target and 3.25 with the
 * pool empty (deficit measured in units, so the rate ramps smoothly): the host always gets some
 * of the die time, and GC always gains on it. Debt a step leaves unpaid carries to the next write.
 */
void sim_gc_foreground(struct dq_sim_drive *d, uint32_t host_units, uint64_t now_ns)
{
	const struct sim_frontier *host = &d->frontier[SIM_STREAM_HOST];
	uint64_t upb = d->geo.units_per_block;
	uint64_t target = (uint64_t)d->gc.burst_target * upb;
	uint64_t span = (uint64_t)(d->gc.burst_target - d->gc.fg_start + 1) * upb;
	uint64_t free_units = (uint64_t)d->free_count * upb, deficit;
	uint64_t units = d->gc.fg_step_units;

	if (host->block != SIM_NONE)
		free_units += upb - host->next;
	if (free_units >= target) {
		d->gc_fg_active = false;
		d->gc_fg_debt = 0;
		return;
	}
	deficit = target - free_units;
	d->gc_fg_debt += (int64_t)host_units * (SIM_GC_FG_SCALE + SIM_GC_FG_SCALE / 4) +
			 (int64_t)(host_units * 2 * SIM_GC_FG_SCALE * deficit / span);
	/* each invalid unit passed pays SIM_GC_FG_SCALE of the debt; the step bounds the units walked */
	while (d->gc_fg_debt > 0 && units > 0) {
		uint64_t owed = ((uint64_t)d->gc_fg_debt + SIM_GC_FG_SCALE - 1) / SIM_GC_FG_SCALE;
		uint64_t invalid = owed;

		if (sim_gc_walk(d, now_ns, d->geo.units_per_block - 1, &invalid, &units) < 0) {
			d->gc_fg_debt = 0;
			break;
		}
		d->gc_fg_debt -= (int64_t)(owed - invalid) * SIM_GC_FG_SCALE;
	}
}

void sim_gc_burst(struct dq_sim_drive *d, uint64_t now_ns)
{
	uint32_t target = d->gc.fg_step_units > 0 ? SIM_MIN_FREE_BLOCKS + 1 : d->gc.burst_target;

	while (d->free_count < target) {
		uint64_t invalid = UINT64_MAX, units = UINT64_MAX;

		if (sim_gc_walk(d, now_ns, d->geo.units_per_block - 1, &invalid, &units) < 0)
			break;
	}
}

void sim_gc_idle(struct dq_sim_drive *d, uint64_t from_ns, uint64_t until_ns)
{
	uint32_t max_valid = (uint32_t)(SIM_IDLE_MAX_VALID_FRACTION * d->geo.units_per_block);
	uint32_t upp = d->geo.units_per_prog;
	uint64_t steps = 0;

	while (d->free_count < d->gc.idle_target) {
		uint64_t invalid = UINT64_MAX, units = upp - steps % upp;

		/* checking every program unit's worth of units bounds the overrun to ~one program */
		if (steps % upp == 0 && d->nand_busy_until >= until_ns)
			break;
		if (sim_gc_walk(d, from_ns, max_valid, &invalid, &units) < 0)
			break;
		steps += upp - steps % upp - units;
	}
}
