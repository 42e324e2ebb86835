/*
 * The fluid model's life outside its intervals (dq_sim.h): building one from a profile (the
 * FTL's geometry and timing turned into per-unit costs and GC thresholds), the purge that erases
 * what was used, and what it reports (identify, SMART) from its counters.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim_internal.h"

/* Back to a purged drive: every unit free, no data, no history (counters kept). */
void sim_fluid_reset(struct dq_sim_fluid *f)
{
	f->free_units = f->raw_units;
	f->nand_pos = 0;
	f->hazard = 0;
	f->cut_pos = 0;
	f->seq_pass_start = 0;
	f->seq_run_units = 0;
	f->mapped_units = 0;
	f->mapped_extent_units = 0;
	f->mark_head = 0;
	f->mark_count = 0;
	f->next_mark = 0;
	f->stalled = FLUID_RUN;
	f->phase_left = 0;
}

int dq_sim_fluid_create(const struct dq_sim_profile *profile, uint64_t seed,
			struct dq_sim_fluid **out)
{
	struct dq_sim_fluid *f;
	const struct sim_geometry *g;
	const struct sim_timing *tm;
	char err[160];
	double per_block_erase_ns;

	if (profile == NULL || out == NULL)
		return -EINVAL;
	*out = NULL;
	if (dq_sim_profile_validate(profile, err, sizeof(err)) != 0)
		return -EINVAL;
	f = calloc(1, sizeof(*f));
	if (f == NULL)
		return -ENOMEM;
	f->shape.profile = *profile;
	f->shape.seed = seed;
	sim_drive_derive(&f->shape);
	g = &f->shape.geo;
	tm = &f->shape.tm;
	f->rng = seed ^ 0xbb67ae8584caa73bull;
	f->raw_units = (double)g->blocks * g->units_per_block;
	f->block_units = g->units_per_block;
	per_block_erase_ns =
		(double)tm->erase_ns / ((double)profile->pages_per_block * g->units_per_prog);
	f->host_unit_ns = (double)tm->program_ns / g->units_per_prog + per_block_erase_ns;
	f->copy_unit_ns = (double)tm->read_ns / g->units_per_prog + f->host_unit_ns;
	f->gc_start_units = (double)(f->shape.gc.paced_start > SIM_MIN_FREE_BLOCKS + 1 ?
					     f->shape.gc.paced_start :
					     SIM_MIN_FREE_BLOCKS + 1) *
			    f->block_units;
	f->idle_units = (double)f->shape.gc.idle_target * f->block_units;
	f->burst_blocks = (double)f->shape.gc.burst_target - SIM_MIN_FREE_BLOCKS - 1;
	if (f->burst_blocks < 1)
		f->burst_blocks = 1;
	f->noise = profile->jitter_pct / 400.0;
	sim_fluid_reset(f);
	*out = f;
	return 0;
}

void dq_sim_fluid_destroy(struct dq_sim_fluid *f)
{
	free(f);
}

void dq_sim_fluid_identify(const struct dq_sim_fluid *f, struct dq_sim_identify *out)
{
	dq_sim_drive_identify(&f->shape, out);
}

void dq_sim_fluid_smart(const struct dq_sim_fluid *f, struct dq_sim_smart *out)
{
	double wear = f->erases / f->shape.geo.blocks, used;

	memset(out, 0, sizeof(*out));
	out->host_write_bytes = (uint64_t)f->host_bytes[1];
	out->host_read_bytes = (uint64_t)f->host_bytes[0];
	out->data_units_written = (out->host_write_bytes + 511999) / 512000;
	out->data_units_read = (out->host_read_bytes + 511999) / 512000;
	out->host_write_commands = (uint64_t)f->host_cmds[1];
	out->host_read_commands = (uint64_t)f->host_cmds[0];
	out->available_spare_percent = 100;
	out->available_spare_threshold_percent = 10;
	out->temperature_k = 313;
	out->power_on_hours = f->now_ns / (3600ull * DQ_SIM_NS_PER_S);
	out->physical_media_units_written_bytes = (uint64_t)f->nand_write_units * SIM_UNIT_BYTES;
	out->physical_media_units_read_bytes = (uint64_t)f->nand_read_bytes;
	out->nand_erase_count = (uint64_t)f->erases;
	out->erase_count_min = (uint32_t)wear;
	out->erase_count_max = (uint32_t)ceil(wear);
	out->erase_count_avg = wear;
	used = wear * 100.0 / f->shape.profile.rated_pe_cycles;
	out->percentage_used = used > 255.0 ? 255 : (uint32_t)used;
}

int dq_sim_fluid_purge(struct dq_sim_fluid *f, uint64_t now_ns, uint64_t *complete_ns)
{
	double used_blocks;

	if (f == NULL || complete_ns == NULL)
		return -EINVAL;
	now_ns = sim_max_u64(now_ns, f->now_ns);
	used_blocks = ceil((f->raw_units - f->free_units) / f->block_units);
	f->erases += used_blocks;
	sim_fluid_reset(f);
	*complete_ns =
		now_ns + (uint64_t)used_blocks * f->shape.tm.erase_ns + f->shape.tm.command_ns;
	f->now_ns = *complete_ns;
	f->last_busy_ns = *complete_ns;
	return 0;
}
