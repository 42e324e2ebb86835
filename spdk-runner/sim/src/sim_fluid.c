/*
 * The fluid model (dq_sim.h): the FTL's drive integrated over intervals instead of placed IO by IO,
 * so a drive paced in real time costs microseconds per second of its life. Its state is a handful
 * of numbers: the erased units the host can still write into, the NAND units programmed since the
 * purge, the cumulative hazard overwrites and TRIMs put on stored data, and a coarse history of the
 * last two that tells how old, and so how valid, the next garbage-collection victim is.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim_internal.h"

/* State (free pool, victim validity) is re-evaluated at least this often inside an interval. */
#define FLUID_STEP_NS 100000000.0
/* A victim is never fuller than this (WAF <= 100): beyond it GC would find a better block. */
#define FLUID_MAX_VALID 0.99
/* TRIM of everything: the hazard that leaves no data valid. */
#define FLUID_HAZARD_ALL 50.0
/*
 * Lazy GC in bounded foreground steps (gc.foreground_step_pct > 0): after a full-speed run of the
 * free pool, the host writes this many times as many units again while GC, 1.25..3.25 invalid units
 * per unit written, refills it (the FTL's ramp integrated: ln 9 / 2).
 */
#define FLUID_FG_SLOW 1.0986
/* Normal completions are spread over this many points across the jitter band. */
#define FLUID_SPREAD 5u

static double fluid_uniform(struct dq_sim_fluid *f)
{
	return (double)(sim_rng_next(&f->rng) >> 11) * (1.0 / 9007199254740992.0);
}

/* The hazard data programmed at NAND position pos had seen when it was written. */
static double fluid_hazard_at(const struct dq_sim_fluid *f, double pos)
{
	uint32_t lo = 0, hi = f->mark_count;

	if (f->mark_count == 0 || pos < f->marks[f->mark_head].pos)
		return f->mark_count == 0 ? f->hazard : f->marks[f->mark_head].hazard;
	while (hi - lo > 1) {
		uint32_t mid = (lo + hi) / 2;

		if (f->marks[(f->mark_head + mid) % FLUID_MARKS].pos <= pos)
			lo = mid;
		else
			hi = mid;
	}
	return f->marks[(f->mark_head + lo) % FLUID_MARKS].hazard;
}

/*
 * The valid share of the oldest data, which garbage collection reclaims next. A sequential pass
 * under way overwrites the last whole pass in the order it was written, so that pass's first
 * seq_run_units (from cut_pos on) hold nothing valid any more.
 */
static double fluid_victim_valid(const struct dq_sim_fluid *f)
{
	double victim = f->nand_pos - (f->raw_units - f->free_units), valid;

	if (victim < 0 || victim < f->cut_pos + f->seq_run_units)
		return 0;
	valid = exp(-(f->hazard - fluid_hazard_at(f, victim)));
	return valid > FLUID_MAX_VALID ? FLUID_MAX_VALID : valid;
}

/* NAND programmed: advance the position and keep a mark every 1/1024 of a lap. */
static void fluid_program(struct dq_sim_fluid *f, double units)
{
	f->nand_pos += units;
	f->nand_write_units += units;
	while (f->nand_pos >= f->next_mark) {
		uint32_t slot = (f->mark_head + f->mark_count) % FLUID_MARKS;

		if (f->mark_count == FLUID_MARKS)
			f->mark_head = (f->mark_head + 1) % FLUID_MARKS;
		else
			f->mark_count++;
		f->marks[slot].pos = f->next_mark;
		f->marks[slot].hazard = f->hazard;
		f->next_mark += f->raw_units / FLUID_MARKS_PER_LAP;
	}
}

/* Host writes of units over a range: free pool or GC, hazard, mapping, sequential passes. */
static void fluid_host_write(struct dq_sim_fluid *f, double units, double range_units,
			     int sequential, double valid)
{
	double waf = 1.0 / (1.0 - valid);

	if (f->free_units > f->gc_start_units) {
		f->free_units -= units;
		fluid_program(f, units);
	} else {
		fluid_program(f, units * waf);
		f->nand_read_bytes += units * (waf - 1.0) * SIM_UNIT_BYTES;
		f->erases += units * waf / f->block_units;
	}
	if (sequential) {
		/* a pass overwrites in the order it wrote: it invalidates by the cut, not at random */
		if (f->seq_run_units == 0)
			f->seq_pass_start = f->nand_pos - units;
		f->seq_run_units += units;
		if (f->seq_run_units >= range_units) {
			f->cut_pos = f->seq_pass_start;
			f->seq_pass_start = f->nand_pos;
			f->seq_run_units -= range_units;
		}
		f->mapped_units += units;
		if (f->mapped_units > range_units && f->mapped_extent_units <= range_units)
			f->mapped_units = range_units;
	} else {
		/* each unit stored in the range is hit with probability 1 / range per unit written */
		f->hazard += units / range_units;
		/* an interrupted pass leaves the part of the last pass it overwrote invalid for good */
		f->cut_pos += f->seq_run_units;
		f->seq_run_units = 0;
		f->mapped_units += units * (1.0 - f->mapped_units / range_units);
	}
	if (range_units > f->mapped_extent_units)
		f->mapped_extent_units = range_units;
	if (f->mapped_units > f->shape.geo.user_units)
		f->mapped_units = (double)f->shape.geo.user_units;
}

/* Background GC while idle: moves the victims' valid data and erases them, up to idle_units. */
static void fluid_reclaim(struct dq_sim_fluid *f, double ns)
{
	double erase_unit_ns =
		f->host_unit_ns - (double)f->shape.tm.program_ns / f->shape.geo.units_per_prog;

	while (ns > 0 && f->free_units < f->idle_units && f->nand_pos > 0) {
		double step = ns < FLUID_STEP_NS ? ns : FLUID_STEP_NS;
		double valid = fluid_victim_valid(f), copies_per_unit, freed, limit;

		if (valid > SIM_IDLE_MAX_VALID_FRACTION)
			return;
		copies_per_unit = valid / (1.0 - valid);
		freed = step * f->shape.geo.dies /
			(copies_per_unit * f->copy_unit_ns +
			 erase_unit_ns * (1.0 + copies_per_unit));
		limit = f->idle_units - f->free_units;
		if (freed > limit)
			freed = limit;
		f->free_units += freed * (1.0 + copies_per_unit);
		fluid_program(f, freed * copies_per_unit);
		f->free_units -= freed * copies_per_unit;
		f->nand_read_bytes += freed * copies_per_unit * SIM_UNIT_BYTES;
		f->erases += freed * (1.0 + copies_per_unit) / f->block_units;
		ns -= step;
	}
}

void dq_sim_fluid_idle(struct dq_sim_fluid *f, uint64_t from_ns, uint64_t until_ns)
{
	uint64_t start = sim_max_u64(from_ns, f->last_busy_ns + f->shape.gc.idle_delay_ns);

	if (until_ns > start)
		fluid_reclaim(f, (double)(until_ns - start));
	if (until_ns > f->now_ns)
		f->now_ns = until_ns;
}

int dq_sim_fluid_deallocate(struct dq_sim_fluid *f, uint64_t lba, uint64_t lba_count,
			    uint64_t now_ns, uint64_t *complete_ns)
{
	const struct sim_geometry *g = &f->shape.geo;
	double first, last, overlap, share;

	if (lba_count == 0 || lba > g->lba_count || lba_count > g->lba_count - lba)
		return -EINVAL;
	/* only whole mapping units are unmapped */
	first = ceil((double)lba / g->lbas_per_unit);
	last = floor((double)(lba + lba_count) / g->lbas_per_unit);
	overlap = fmin(last, f->mapped_extent_units) - first;
	if (overlap > 0 && f->mapped_extent_units > 0 && f->mapped_units > 0) {
		share = overlap / f->mapped_extent_units;
		f->hazard += share >= 1.0 ? FLUID_HAZARD_ALL : -log(1.0 - share);
		f->mapped_units *= 1.0 - fmin(1.0, share);
	}
	now_ns = sim_max_u64(now_ns, f->now_ns);
	*complete_ns = now_ns + f->shape.tm.command_ns +
		       (uint64_t)fmax(0, last - first) * SIM_TRIM_NS_PER_UNIT;
	f->now_ns = *complete_ns;
	f->last_busy_ns = *complete_ns;
	return 0;
}

/* One closed-loop step's rates, from the load and the drive's state. */
struct fluid_rates {
	double iops; /* completions per ns while the host is served */
	double latency_ns; /* each IO's latency then (Little: queue_depth / iops) */
	double write_units_per_io; /* NAND units one write programs */
	double valid; /* the victim's valid share (0 while the free pool lasts) */
	double gc_per_unit; /* die ns of stalled GC owed per host unit written */
};

static void fluid_rates(struct dq_sim_fluid *f, const struct dq_sim_fluid_load *load,
			struct fluid_rates *r)
{
	const struct dq_sim_profile *p = &f->shape.profile;
	const struct sim_timing *tm = &f->shape.tm;
	double dies = f->shape.geo.dies, channels = p->channels, e = p->eagerness;
	double read_share = load->read_pct / 100.0, units = ceil(load->block_bytes / 4096.0);
	double page_units = p->page_bytes / 4096.0, waf, write_ns, read_ns, io_ns, base_ns, iops;

	r->valid = f->free_units > f->gc_start_units ? 0.0 : fluid_victim_valid(f);
	waf = 1.0 / (1.0 - r->valid);
	r->write_units_per_io = units;
	/* die and channel time per write: its programs, plus the GC share paced with it */
	write_ns = units * fmax((f->host_unit_ns + e * (waf - 1.0) * f->copy_unit_ns) / dies,
				tm->unit_xfer_ns * (1.0 + 2.0 * e * (waf - 1.0)) / channels);
	read_ns = fmax(ceil(units / page_units) * tm->read_ns / dies,
		       units * tm->unit_xfer_ns / channels);
	io_ns = read_share * read_ns + (1.0 - read_share) * write_ns;
	base_ns = tm->command_ns + load->block_bytes * tm->host_ns_per_byte +
		  read_share * (tm->read_ns + units * tm->unit_xfer_ns);
	iops = fmin(1.0 / io_ns, load->queue_depth / base_ns);
	iops = fmin(iops, p->host_max_kiops * 1e-6);
	iops = fmin(iops, p->host_max_mbps * 1e-3 / load->block_bytes);
	iops *= 1.0 + f->noise * (2.0 * fluid_uniform(f) - 1.0);
	r->iops = iops;
	r->latency_ns = load->queue_depth / iops;
	r->gc_per_unit = (1.0 - e) * (waf - 1.0) * f->copy_unit_ns / dies;
}

/* Completions of one interval, by direction, before they become points. */
struct fluid_tally {
	double ios[2];
	double normal_latency_ns[2]; /* IO-weighted sum, for the mean */
	uint32_t stalls;
	double stall_latency_ns[DQ_SIM_FLUID_POINTS - FLUID_SPREAD];
	double stall_ios[2][DQ_SIM_FLUID_POINTS - FLUID_SPREAD];
};

static void fluid_add_stall(struct fluid_tally *t, double latency_ns, double reads, double writes)
{
	uint32_t last = DQ_SIM_FLUID_POINTS - FLUID_SPREAD - 1,
		 i = t->stalls < last ? t->stalls : last;
	double before = t->stall_ios[0][i] + t->stall_ios[1][i];

	/* more stalls than points: the last point carries their IO-weighted mean */
	t->stall_latency_ns[i] = (t->stall_latency_ns[i] * before + latency_ns * (reads + writes)) /
				 (before + reads + writes);
	t->stall_ios[0][i] += reads;
	t->stall_ios[1][i] += writes;
	if (t->stalls <= last)
		t->stalls++;
}

/* Where a lazy-GC run ends: a stall (one burst) or a slow phase (bounded foreground steps). */
static void fluid_run_ended(struct dq_sim_fluid *f, const struct fluid_rates *r)
{
	if (f->shape.gc.fg_step_units > 0) {
		f->stalled = FLUID_SLOW;
		f->phase_left = FLUID_FG_SLOW * f->burst_blocks * f->block_units;
	} else {
		double run = f->burst_blocks * f->block_units * (1.0 - r->valid);

		f->stalled = FLUID_STALL;
		f->stall_ns = run * r->gc_per_unit;
		f->phase_left = f->stall_ns;
	}
}

/* Served time in one step: IOs at the step's rate; lazy GC alternates runs and stalls. */
static double fluid_serve(struct dq_sim_fluid *f, const struct dq_sim_fluid_load *load,
			  const struct fluid_rates *r, double ns, double bytes_left,
			  struct fluid_tally *t)
{
	double range_units = floor(load->range_bytes / 4096.0),
	       write_share = 1.0 - load->read_pct / 100.0;
	double served = 0, left = ns;

	if (range_units < 1)
		range_units = 1;
	while (left > 0) {
		double span = left, ios, writes, units, iops = r->iops, latency_ns = r->latency_ns;

		if (f->stalled == FLUID_SLOW) {
			/* the whole cycle's GC work (run and slow phase) between the slow phase's IOs */
			double gc_ns = (1.0 + 1.0 / FLUID_FG_SLOW) * r->gc_per_unit;

			iops = 1.0 / (1.0 / r->iops + write_share * r->write_units_per_io * gc_ns);
			latency_ns = load->queue_depth / iops;
		}
		if (f->stalled == FLUID_STALL) {
			span = fmin(left, f->phase_left);
			f->phase_left -= span;
			left -= span;
			served += span;
			if (f->phase_left <= 0) {
				double held = load->queue_depth;

				fluid_add_stall(t, f->stall_ns + r->latency_ns,
						held * (1.0 - write_share), held * write_share);
				f->stalled = FLUID_RUN;
				f->phase_left = 0;
			}
			continue;
		}
		/* up to the end of the lazy-GC run, the free pool's floor or the byte limit */
		if (r->gc_per_unit > 0 && write_share > 0) {
			if (f->phase_left <= 0)
				f->phase_left =
					f->shape.gc.fg_step_units > 0 ?
						f->burst_blocks * f->block_units :
						f->burst_blocks * f->block_units * (1.0 - r->valid);
			span = fmin(span,
				    f->phase_left / (iops * write_share * r->write_units_per_io));
		}
		if (f->free_units > f->gc_start_units && write_share > 0)
			span = fmin(span,
				    (f->free_units - f->gc_start_units) /
						    (iops * write_share * r->write_units_per_io) +
					    1.0);
		if (bytes_left > 0)
			span = fmin(span, bytes_left / (iops * load->block_bytes));
		ios = iops * span;
		writes = ios * write_share;
		units = writes * r->write_units_per_io;
		t->ios[0] += ios - writes;
		t->ios[1] += writes;
		t->normal_latency_ns[0] += (ios - writes) * latency_ns;
		t->normal_latency_ns[1] += writes * latency_ns;
		if (units > 0)
			fluid_host_write(f, units, range_units, load->sequential, r->valid);
		f->nand_read_bytes += (ios - writes) * load->block_bytes;
		left -= span;
		served += span;
		if (bytes_left > 0) {
			bytes_left -= ios * load->block_bytes;
			if (bytes_left <= 1e-6)
				return served;
		}
		if (r->gc_per_unit > 0 && write_share > 0) {
			f->phase_left -= units;
			if (f->phase_left <= 1e-9 && f->stalled == FLUID_SLOW) {
				f->stalled = FLUID_RUN;
				f->phase_left = 0;
			} else if (f->phase_left <= 1e-9) {
				fluid_run_ended(f, r);
			}
		}
		if (f->free_units <= f->gc_start_units && r->valid == 0 && write_share > 0)
			return served; /* the free pool ran out: rates change */
	}
	return served;
}

/* The tally as whole IOs (fractions carried to the next interval) and weighted points. */
static void fluid_points(struct dq_sim_fluid *f, const struct dq_sim_fluid_load *load,
			 const struct fluid_tally *t, struct dq_sim_fluid_interval *out)
{
	double jitter = f->shape.profile.jitter_pct / 100.0;

	for (int op = 0; op < 2; op++) {
		double stalled = 0, total = t->ios[op] + f->carry[op], whole = floor(total), normal;
		uint32_t n = 0;

		f->carry[op] = total - whole;
		out->ios[op] = (uint64_t)whole;
		out->bytes[op] = out->ios[op] * load->block_bytes;
		for (uint32_t i = 0; i < t->stalls; i++) {
			uint64_t count = (uint64_t)llround(t->stall_ios[op][i]);

			if (count == 0 || stalled + count > whole)
				continue;
			out->points[op][n].ns = (uint64_t)t->stall_latency_ns[i];
			out->points[op][n].count = count;
			stalled += count;
			n++;
		}
		normal = whole - stalled;
		if (normal > 0) {
			double mean = t->normal_latency_ns[op] / fmax(t->ios[op], 1e-9);
			uint64_t each = (uint64_t)normal / FLUID_SPREAD, rest = (uint64_t)normal;

			for (uint32_t k = 0; k < FLUID_SPREAD; k++) {
				double offset = ((double)k - (FLUID_SPREAD - 1) / 2.0) /
						((FLUID_SPREAD - 1) / 2.0) * 0.8 * jitter;
				uint64_t count = k == FLUID_SPREAD / 2 ?
							 rest - each * (FLUID_SPREAD - 1) :
							 each;

				if (count == 0)
					continue;
				out->points[op][n].ns = (uint64_t)(mean * (1.0 + offset));
				out->points[op][n].count = count;
				n++;
			}
		}
		out->point_count[op] = n;
	}
}

int dq_sim_fluid_run(struct dq_sim_fluid *f, const struct dq_sim_fluid_load *load, uint64_t now_ns,
		     uint64_t interval_ns, uint64_t bytes_limit, struct dq_sim_fluid_interval *out)
{
	const struct dq_sim_profile *p = &f->shape.profile;
	struct fluid_tally tally;
	struct fluid_rates rates;
	double left = (double)interval_ns, served = 0, bytes_left = (double)bytes_limit;

	if (load == NULL || out == NULL || interval_ns == 0 || interval_ns > DQ_SIM_NS_PER_S ||
	    load->queue_depth == 0 || load->read_pct > 100 || load->block_bytes == 0 ||
	    load->block_bytes % p->lba_bytes != 0 || load->range_bytes < load->block_bytes ||
	    load->range_bytes > p->user_bytes)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	memset(&tally, 0, sizeof(tally));
	now_ns = sim_max_u64(now_ns, f->now_ns);
	if (now_ns > f->last_busy_ns)
		dq_sim_fluid_idle(f, f->last_busy_ns, now_ns);
	while (left > 0.5) {
		double step = fmin(left, FLUID_STEP_NS), got;

		fluid_rates(f, load, &rates);
		got = fluid_serve(f, load, &rates, step,
				  bytes_limit > 0 ? fmax(bytes_left, 1e-3) : 0, &tally);
		served += got;
		left -= got;
		if (bytes_limit > 0) {
			bytes_left = (double)bytes_limit -
				     (tally.ios[0] + tally.ios[1]) * load->block_bytes;
			if (bytes_left <= 1e-6)
				break;
		}
	}
	out->interval_ns = (uint64_t)llround(served);
	if (out->interval_ns == 0)
		out->interval_ns = 1;
	if (bytes_limit > 0 && bytes_left <= 1e-6) {
		/* the limit is exact: ceil(limit / block) IOs, the last one short (as the core's) */
		double total = ceil((double)bytes_limit / load->block_bytes);
		double reads = fmin(total, floor(tally.ios[0] + f->carry[0] + 0.5));

		tally.ios[0] = reads;
		tally.ios[1] = total - reads;
		f->carry[0] = f->carry[1] = 0;
	}
	fluid_points(f, load, &tally, out);
	if (bytes_limit > 0 && bytes_left <= 1e-6)
		out->bytes[out->ios[1] > 0 ? 1 : 0] =
			bytes_limit - out->bytes[out->ios[1] > 0 ? 0 : 1];
	f->host_bytes[0] += (double)out->bytes[0];
	f->host_bytes[1] += (double)out->bytes[1];
	f->host_cmds[0] += (double)out->ios[0];
	f->host_cmds[1] += (double)out->ios[1];
	f->now_ns = now_ns + out->interval_ns;
	f->last_busy_ns = f->now_ns;
	return 0;
}
