/*
 * Lifecycle and reporting of a simulated drive: derive geometry, timing and GC thresholds from a
 * profile, allocate every table once, purge back to fresh-out-of-box, and report Identify and
 * SMART / OCP C0h counters the way a real drive would.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MADV_HUGEPAGE */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "sim_internal.h"

/*
 * The mapping tables are hundreds of MB and accessed at random: anonymous mappings come back zeroed
 * (l2p's "unmapped") without touching memory, and huge pages spare a TLB miss on nearly every access.
 */
static uint32_t *sim_table_alloc(uint64_t entries)
{
	size_t bytes = entries * sizeof(uint32_t);
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
#ifdef MADV_HUGEPAGE
	(void)madvise(p, bytes, MADV_HUGEPAGE); /* a hint: failure only costs speed */
#endif
	return p;
}

static void sim_table_free(uint32_t *table, uint64_t entries)
{
	if (table != NULL)
		munmap(table, entries * sizeof(uint32_t));
}

static uint32_t sim_drive_clamp_blocks(double blocks, uint32_t lo, uint32_t hi)
{
	if (blocks < lo)
		return lo;
	if (blocks > hi)
		return hi;
	return (uint32_t)llround(blocks);
}

void sim_drive_derive(struct dq_sim_drive *d)
{
	const struct dq_sim_profile *p = &d->profile;
	struct sim_geometry *g = &d->geo;
	struct sim_timing *tm = &d->tm;
	uint32_t user_blocks, cap;
	uint64_t progs;
	double reserve;

	g->dies = p->channels * p->dies_per_channel;
	g->units_per_prog = p->planes * p->page_bytes / SIM_UNIT_BYTES;
	g->progs_per_block = g->dies * p->pages_per_block;
	g->units_per_block = g->progs_per_block * g->units_per_prog;
	g->blocks = (uint32_t)(p->raw_bytes / ((uint64_t)g->units_per_block * SIM_UNIT_BYTES));
	g->user_units = (p->user_bytes + SIM_UNIT_BYTES - 1) / SIM_UNIT_BYTES;
	user_blocks = (uint32_t)((g->user_units + g->units_per_block - 1) / g->units_per_block);
	g->spare_blocks = g->blocks - user_blocks;
	g->lbas_per_unit = SIM_UNIT_BYTES / p->lba_bytes;
	g->lba_unit_shift = g->lbas_per_unit == 8 ? 3 : 0;
	g->lba_count = p->user_bytes / p->lba_bytes;
	g->by_dies = sim_divisor_of(g->dies);
	g->by_units_per_prog = sim_divisor_of(g->units_per_prog);
	g->by_units_per_block = sim_divisor_of(g->units_per_block);

	tm->read_ns = (uint64_t)(p->read_us * 1000.0);
	tm->program_ns = (uint64_t)(p->program_us * 1000.0);
	tm->erase_ns = (uint64_t)(p->erase_us * 1000.0);
	tm->unit_xfer_ns = (uint64_t)(SIM_UNIT_BYTES * 1000.0 / p->channel_mbps);
	tm->command_ns = (uint64_t)(p->command_us * 1000.0);
	tm->host_cmd_ns = (uint64_t)(1e6 / p->host_max_kiops);
	tm->host_ns_per_byte = 1000.0 / p->host_max_mbps;
	tm->jitter_permille = (uint32_t)(p->jitter_pct * 10.0);

	/* thresholds in blocks; see sim_gc.c and docs/simulator.md "Garbage collection" */
	reserve = p->free_target_pct / 100.0 * g->spare_blocks;
	cap = g->spare_blocks - 4;
	d->gc.paced_start =
		p->eagerness > 0.0 ?
			sim_drive_clamp_blocks(SIM_MIN_FREE_BLOCKS + 1 + p->eagerness * reserve,
					       SIM_MIN_FREE_BLOCKS + 1, cap) :
			0;
	d->gc.burst_target =
		sim_drive_clamp_blocks(SIM_MIN_FREE_BLOCKS + 1 + (1.0 - p->eagerness) * reserve,
				       SIM_MIN_FREE_BLOCKS + 1, cap);
	/* one block above the reserve, so GC's first steps come before the host needs the floor */
	d->gc.fg_start = SIM_MIN_FREE_BLOCKS + 2 < d->gc.burst_target ? SIM_MIN_FREE_BLOCKS + 2 :
									d->gc.burst_target - 1;
	d->gc.fg_step_units = (uint32_t)ceil(p->foreground_step_pct / 100.0 * g->units_per_block);
	d->gc.idle_target = sim_drive_clamp_blocks(
		SIM_MIN_FREE_BLOCKS + p->idle_target_pct / 100.0 * g->spare_blocks,
		SIM_MIN_FREE_BLOCKS + 1, cap);
	if (d->gc.idle_target < d->gc.paced_start)
		d->gc.idle_target = d->gc.paced_start;
	if (d->gc.idle_target < d->gc.burst_target)
		d->gc.idle_target = d->gc.burst_target;
	d->gc.idle_delay_ns = (uint64_t)(p->idle_delay_ms * 1e6);
	d->gc.by_paced_start = sim_divisor_of(d->gc.paced_start > 0 ? d->gc.paced_start : 1);

	/* the cache holds whole program units; a power of two keeps the ring index a mask */
	progs = (uint64_t)p->write_buffer_kib * 1024u /
		((uint64_t)g->units_per_prog * SIM_UNIT_BYTES);
	d->buffer_progs = 2;
	while ((uint64_t)d->buffer_progs * 2 <= progs)
		d->buffer_progs *= 2;
}

int dq_sim_drive_create(const struct dq_sim_profile *profile, uint64_t seed,
			struct dq_sim_drive **out)
{
	struct dq_sim_drive *d;
	uint64_t raw_units;
	char err[160];
	int rc = -ENOMEM;

	if (profile == NULL || out == NULL)
		return -EINVAL;
	*out = NULL;
	if (dq_sim_profile_validate(profile, err, sizeof(err)) != 0)
		return -EINVAL;
	d = calloc(1, sizeof(*d));
	if (d == NULL)
		return -ENOMEM;
	d->profile = *profile;
	d->seed = seed;
	d->rng = seed ^ 0x6a09e667f3bcc909ull;
	sim_drive_derive(d);

	raw_units = (uint64_t)d->geo.blocks * d->geo.units_per_block;
	/* a fresh l2p is all-unmapped; p2l is written before it is ever read */
	d->l2p = sim_table_alloc(d->geo.user_units);
	if (d->l2p == NULL)
		goto err_drive;
	d->p2l = sim_table_alloc(raw_units);
	if (d->p2l == NULL)
		goto err_l2p;
	d->valid = calloc(d->geo.blocks, sizeof(*d->valid));
	d->erase_count = calloc(d->geo.blocks, sizeof(*d->erase_count));
	d->close_seq = calloc(d->geo.blocks, sizeof(*d->close_seq));
	d->state = calloc(d->geo.blocks, sizeof(*d->state));
	d->touch_seq = calloc(d->geo.blocks, sizeof(*d->touch_seq));
	d->free_fifo = calloc(d->geo.blocks, sizeof(*d->free_fifo));
	d->block_handle = calloc(d->geo.blocks, sizeof(*d->block_handle));
	d->die_free = calloc(d->geo.dies, sizeof(*d->die_free));
	d->buffer_release = calloc(d->buffer_progs, sizeof(*d->buffer_release));
	if (d->valid == NULL || d->erase_count == NULL || d->close_seq == NULL ||
	    d->state == NULL || d->touch_seq == NULL || d->free_fifo == NULL ||
	    d->block_handle == NULL || d->die_free == NULL || d->buffer_release == NULL)
		goto err_tables;
	sim_ftl_reset(d);
	sim_thermal_init(d);
	*out = d;
	return 0;

err_tables:
	dq_sim_drive_destroy(d);
	return rc;
err_l2p:
	sim_table_free(d->l2p, d->geo.user_units);
err_drive:
	free(d);
	return rc;
}

void dq_sim_drive_destroy(struct dq_sim_drive *d)
{
	if (d == NULL)
		return;
	free(d->buffer_release);
	free(d->die_free);
	free(d->free_fifo);
	free(d->block_handle);
	free(d->touch_seq);
	free(d->state);
	free(d->close_seq);
	free(d->erase_count);
	free(d->valid);
	sim_table_free(d->p2l, (uint64_t)d->geo.blocks * d->geo.units_per_block);
	sim_table_free(d->l2p, d->geo.user_units);
	free(d);
}

int dq_sim_drive_purge(struct dq_sim_drive *d, uint64_t now_ns, uint64_t *complete_ns)
{
	uint32_t *l2p, erased = 0;
	uint64_t start, done;

	if (d == NULL || complete_ns == NULL)
		return -EINVAL;
	/* a fresh zeroed table instead of memset: the kernel hands back untouched pages */
	l2p = sim_table_alloc(d->geo.user_units);
	if (l2p == NULL)
		return -ENOMEM;
	sim_table_free(d->l2p, d->geo.user_units);
	d->l2p = l2p;

	now_ns = sim_max_u64(now_ns, d->last_now);
	d->last_now = now_ns;
	sim_thermal_advance(d, now_ns);
	for (uint32_t b = 0; b < d->geo.blocks; b++) {
		if (d->state[b] == SIM_BLOCK_FREE)
			continue;
		d->erase_count[b]++;
		erased++;
	}
	d->cnt.erases += erased;
	/* every die erases its share of the superblocks one after another */
	start = sim_max_u64(sim_max_u64(now_ns, d->ctrl_free), d->nand_busy_until);
	done = start + erased * d->tm.erase_ns;
	for (uint32_t die = 0; die < d->geo.dies; die++)
		d->die_free[die] = done;
	d->nand_busy_until = done;
	d->ctrl_free = done;
	sim_ftl_reset(d);
	*complete_ns = done + d->tm.command_ns;
	return 0;
}

void dq_sim_drive_prefetch(const struct dq_sim_drive *d, uint64_t lba)
{
	if (lba < d->geo.lba_count)
		sim_ftl_prefetch(d, lba);
}

uint64_t dq_sim_drive_busy_until(const struct dq_sim_drive *d)
{
	return sim_sched_busy_until(d);
}

void dq_sim_drive_identify(const struct dq_sim_drive *d, struct dq_sim_identify *out)
{
	uint64_t h = d->seed;

	memset(out, 0, sizeof(*out));
	/* serial: stable per (profile, seed), like two samples of one model */
	for (const char *c = d->profile.name; *c != '\0'; c++)
		h = (h ^ (uint8_t)*c) * 0x100000001b3ull;
	snprintf(out->serial, sizeof(out->serial), "SIM%016llX",
		 (unsigned long long)sim_rng_next(&h));
	snprintf(out->model, sizeof(out->model), "%s", d->profile.model);
	snprintf(out->firmware, sizeof(out->firmware), "%s", d->profile.firmware);
	out->user_bytes = d->profile.user_bytes;
	out->raw_bytes = (uint64_t)d->geo.blocks * d->geo.units_per_block * SIM_UNIT_BYTES;
	out->lba_count = d->geo.lba_count;
	out->lba_bytes = d->profile.lba_bytes;
}

void dq_sim_drive_smart(const struct dq_sim_drive *d, struct dq_sim_smart *out)
{
	uint64_t wear_sum = 0;
	double used;

	memset(out, 0, sizeof(*out));
	/* NVMe: thousands of 512-byte units, rounded up */
	out->data_units_written = (d->cnt.host_write_bytes + 511999) / 512000;
	out->data_units_read = (d->cnt.host_read_bytes + 511999) / 512000;
	out->host_write_commands = d->cnt.host_write_cmds;
	out->host_read_commands = d->cnt.host_read_cmds;
	out->available_spare_percent = 100; /* no bad blocks are simulated */
	out->available_spare_threshold_percent = 10;
	sim_thermal_smart(d, out);
	out->power_on_hours = d->last_now / (3600ull * DQ_SIM_NS_PER_S);
	out->physical_media_units_written_bytes = d->cnt.nand_write_units * SIM_UNIT_BYTES;
	out->physical_media_units_read_bytes = d->cnt.nand_read_bytes;
	out->nand_erase_count = d->cnt.erases;
	out->host_write_bytes = d->cnt.host_write_bytes;
	out->host_read_bytes = d->cnt.host_read_bytes;
	out->erase_count_min = UINT32_MAX;
	for (uint32_t b = 0; b < d->geo.blocks; b++) {
		uint32_t e = d->erase_count[b];

		wear_sum += e;
		if (e < out->erase_count_min)
			out->erase_count_min = e;
		if (e > out->erase_count_max)
			out->erase_count_max = e;
	}
	out->erase_count_avg = (double)wear_sum / d->geo.blocks;
	used = out->erase_count_avg * 100.0 / d->profile.rated_pe_cycles;
	out->percentage_used = used > 255.0 ? 255 : (uint32_t)used;
}

size_t dq_sim_drive_erase_counts(const struct dq_sim_drive *d, uint32_t *counts, size_t n)
{
	for (size_t b = 0; b < n && b < d->geo.blocks; b++)
		counts[b] = d->erase_count[b];
	return d->geo.blocks;
}

/* Principal branch of Lambert W on [-1/e, 0) by Halley's iteration from the branch-point series. */
static double sim_lambert_w0(double x)
{
	double p = sqrt(fmax(0.0, 2.0 * (exp(1.0) * x + 1.0)));
	double w = x > -0.25 ? x : -1.0 + p - p * p / 3.0 + 11.0 / 72.0 * p * p * p;

	for (int i = 0; i < 100; i++) {
		double e = exp(w), f = w * e - x;
		double step = f / (e * (w + 1.0) - (w + 2.0) * f / (2.0 * w + 2.0));

		w -= step;
		if (fabs(step) < 1e-15 * (1.0 + fabs(w)))
			break;
	}
	return w;
}

double dq_sim_waf_model_greedy(double spare_factor)
{
	double a = 1.0 + spare_factor;

	if (!(spare_factor > 0.0))
		return -1.0;
	return a / (a + sim_lambert_w0(-a * exp(-a)));
}
