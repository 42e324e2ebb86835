/*
 * Flexible Data Placement (NVMe TP4146) as the simulated drive reports it: its configuration, the
 * statistics log's host and media bytes (so device WAF is a series), the LRW write-amplification
 * model for a pool of mixed hot and cold data, and the hot/cold workload the FDP checks run. The
 * placement itself lives where writes are placed: sim_ftl.c (a frontier pair per handle) and
 * sim_gc.c (copies stay with their handle).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "sim_internal.h"

void dq_sim_drive_fdp_config(const struct dq_sim_drive *d, struct dq_sim_fdp_config *out)
{
	memset(out, 0, sizeof(*out));
	out->enabled = d->profile.fdp_handles > 0;
	if (!out->enabled)
		return;
	/* a superblock stripes every die: one reclaim group, a reclaim unit is a superblock */
	out->reclaim_groups = 1;
	out->reclaim_unit_handles = d->profile.fdp_handles;
	out->reclaim_unit_bytes = (uint64_t)d->geo.units_per_block * SIM_UNIT_BYTES;
}

void dq_sim_drive_fdp_stats(const struct dq_sim_drive *d, struct dq_sim_fdp_stats *out)
{
	uint32_t handles = d->profile.fdp_handles > 0 ? d->profile.fdp_handles : 1;

	memset(out, 0, sizeof(*out));
	out->host_bytes_written = d->cnt.host_write_bytes;
	out->media_bytes_written = d->cnt.nand_write_units * SIM_UNIT_BYTES;
	out->media_bytes_erased = d->cnt.erases * (uint64_t)d->geo.units_per_block * SIM_UNIT_BYTES;
	out->handles = handles;
	for (uint32_t h = 0; h < handles; h++) {
		out->per_handle[h].host_bytes_written = d->fdp.host_units[h] * SIM_UNIT_BYTES;
		out->per_handle[h].media_bytes_written = d->fdp.media_units[h] * SIM_UNIT_BYTES;
		out->per_handle[h].reclaim_units = d->fdp.blocks[h];
	}
	for (uint32_t b = 0; b < d->geo.blocks; b++) {
		struct dq_sim_fdp_handle_stats *hs = &out->per_handle[d->block_handle[b]];

		if (d->state[b] == SIM_BLOCK_FREE)
			continue;
		hs->valid_bytes += (uint64_t)d->valid[b] * SIM_UNIT_BYTES;
		if (d->state[b] != SIM_BLOCK_OPEN)
			hs->programmed_bytes += (uint64_t)d->geo.units_per_block * SIM_UNIT_BYTES;
	}
	for (uint32_t fr = 0; fr < SIM_FRONTIERS; fr++) {
		const struct sim_frontier *f = &d->frontier[fr];

		if (f->block != SIM_NONE)
			out->per_handle[fr / SIM_STREAM_COUNT].programmed_bytes +=
				(uint64_t)f->next * SIM_UNIT_BYTES;
	}
}

/* The right side of the LRW fixed point minus WA: positive below the root, negative above. */
static double sim_lrw_excess(double wa, double a, const double *x, const double *f, size_t n)
{
	double sum = 0.0;

	for (size_t i = 0; i < n; i++) {
		/* data never rewritten is copied on every pass of the log: the limit f -> 0 */
		if (f[i] > 0.0)
			sum += f[i] / -expm1(-(f[i] / x[i]) * a / wa);
		else
			sum += x[i] * wa / a;
	}
	return sum - wa;
}

double dq_sim_waf_model_lrw(double spare_factor, const double *lba_fraction,
			    const double *write_fraction, size_t classes)
{
	double a = 1.0 + spare_factor, lo = 1.0, hi = 2.0, xs = 0.0, fs = 0.0;

	if (!(spare_factor > 0.0) || lba_fraction == NULL || write_fraction == NULL || classes == 0)
		return -1.0;
	for (size_t i = 0; i < classes; i++) {
		if (!(lba_fraction[i] > 0.0) || write_fraction[i] < 0.0)
			return -1.0;
		xs += lba_fraction[i];
		fs += write_fraction[i];
	}
	if (fabs(xs - 1.0) > 1e-9 || fabs(fs - 1.0) > 1e-9)
		return -1.0;
	/* WA = infinity is a trivial root (every page survives): bracket the finite one */
	while (sim_lrw_excess(hi, a, lba_fraction, write_fraction, classes) > 0.0 && hi < 1e6)
		hi *= 2.0;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = 0.5 * (lo + hi);

		if (sim_lrw_excess(mid, a, lba_fraction, write_fraction, classes) > 0.0)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

static int sim_hot_cold_write(struct dq_sim_drive *d, const struct dq_sim_hot_cold *w, uint64_t lba,
			      bool hot, uint64_t now, uint64_t *done)
{
	uint32_t lbas = SIM_UNIT_BYTES / d->profile.lba_bytes;

	if (!w->placed)
		return dq_sim_drive_submit(d, DQ_SIM_OP_WRITE, lba, lbas, now, done);
	return dq_sim_drive_write_placed(d, lba, lbas, hot ? w->hot_handle : w->cold_handle, now,
					 done);
}

int dq_sim_run_hot_cold(struct dq_sim_drive *d, const struct dq_sim_hot_cold *w, uint64_t start_ns,
			uint64_t *end_ns)
{
	uint64_t units, hot_units, rng, now = start_ns, threshold;
	uint32_t lbas;
	int rc;

	if (d == NULL || w == NULL || end_ns == NULL || !(w->hot_lba_fraction > 0.0) ||
	    !(w->hot_lba_fraction < 1.0) || !(w->hot_write_fraction >= 0.0) ||
	    !(w->hot_write_fraction <= 1.0))
		return -EINVAL;
	lbas = SIM_UNIT_BYTES / d->profile.lba_bytes;
	units = d->geo.lba_count / lbas;
	hot_units = (uint64_t)(w->hot_lba_fraction * (double)units);
	if (hot_units == 0 || hot_units >= units)
		return -EINVAL;
	if (w->fill) {
		for (uint64_t u = 0; u < units; u++) {
			rc = sim_hot_cold_write(d, w, u * lbas, u < hot_units, now, &now);
			if (rc != 0)
				return rc;
		}
	}
	rng = w->seed ^ 0x3c6ef372fe94f82bull;
	threshold = (uint64_t)(w->hot_write_fraction * 18446744073709551615.0);
	for (uint64_t i = 0; i < w->writes; i++) {
		bool hot = w->hot_write_fraction >= 1.0 || sim_rng_next(&rng) < threshold;
		uint64_t r = sim_rng_next(&rng), u;

		/* multiply-shift maps r onto a range without a division (Lemire 2019) */
		if (hot)
			u = (uint64_t)(((unsigned __int128)r * hot_units) >> 64);
		else
			u = hot_units +
			    (uint64_t)(((unsigned __int128)r * (units - hot_units)) >> 64);
		rc = sim_hot_cold_write(d, w, u * lbas, hot, now, &now);
		if (rc != 0)
			return rc;
	}
	*end_ns = now;
	return 0;
}
