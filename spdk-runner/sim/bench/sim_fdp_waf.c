/*
 * sim_fdp_waf: write amplification of the hot/cold workload with Flexible Data Placement and
 * without, on the simulated drive, against the analytic expectations (docs/methodology.md, "Write
 * amplification with placement"). For each spare level it runs, on one drive model with two
 * reclaim unit handles:
 *   on     hot writes on handle 1, cold on handle 0, greedy GC: two isolated pools, each under
 *          uniform random writes, so each follows the greedy model (Xiang & Kurkoski 2012) at the
 *          spare factor the device actually gave it (the written part of its reclaim units
 *          over its live data, averaged over the measurement's samples); expected = sum of write
 *          share x pool WAF. Greedy takes the emptiest victim of either pool, which evens their
 *          victims' valid share and so their spare factors: the total is then the uniform
 *          model's (Desnoyers 2012: separation removes the loss non-uniform traffic causes),
 *          checked too;
 *   off    every write plain (one pool of mixed data), greedy GC: compared with the LRW model
 *          for hot/cold traffic (Desnoyers, SYSTOR 2012), which greedy should not exceed, and
 *          the uniform greedy model, which mixing can only make worse;
 *   lrw    the same without placement and with LRW (FIFO) victims: the LRW model is exact there.
 * WAF = delta media bytes / delta host bytes of the FDP statistics, over --measure drive writes
 * after --warmup drive writes (a placed pool of cold data reaches its steady state slowly).
 *
 *   sim_fdp_waf [--user-bytes B] [--spare-pct P]... [--hot-lba F] [--hot-writes F]
 *               [--warmup W] [--measure W] [--samples N] [--seed S]
 *               [--check-pct T]   fail (exit 1) if on or lrw miss their model by more than T %,
 *                                 off is outside (uniform, LRW x (1 + T %)], on >= off, or on
 *               [--uniform-pct U] misses the uniform model by more than U % (default 5: the
 *                                 pools' spare split drifts around the even one, at 50 % spare
 *                                 over ~8 drive writes, which a 4-drive-write window only
 *                                 half averages)
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dq_sim.h"

#define MAX_SPARES 8

struct fdp_opts {
	uint64_t user_bytes;
	double spare_pct[MAX_SPARES];
	int spares;
	double hot_lba;
	double hot_writes;
	double warmup;
	double measure;
	int samples;
	uint64_t seed;
	double check_pct; /* < 0: report only */
	double uniform_pct; /* placed WAF against the uniform model */
};

struct fdp_result {
	double waf;
	double pool_a[2]; /* time-averaged physical / live per handle (cold 0, hot 1) */
	double expected;
	double series[64];
};

static int fdp_parse(int argc, char **argv, struct fdp_opts *o)
{
	*o = (struct fdp_opts){ .user_bytes = 2000000000ull,
				.hot_lba = 0.1,
				.hot_writes = 0.9,
				.warmup = 8.0,
				.measure = 4.0,
				.samples = 16,
				.seed = 1,
				.check_pct = -1.0,
				.uniform_pct = 5.0 };
	for (int i = 1; i + 1 < argc; i += 2) {
		const char *k = argv[i], *v = argv[i + 1];

		if (strcmp(k, "--user-bytes") == 0)
			o->user_bytes = strtoull(v, NULL, 10);
		else if (strcmp(k, "--spare-pct") == 0 && o->spares < MAX_SPARES)
			o->spare_pct[o->spares++] = atof(v);
		else if (strcmp(k, "--hot-lba") == 0)
			o->hot_lba = atof(v);
		else if (strcmp(k, "--hot-writes") == 0)
			o->hot_writes = atof(v);
		else if (strcmp(k, "--warmup") == 0)
			o->warmup = atof(v);
		else if (strcmp(k, "--measure") == 0)
			o->measure = atof(v);
		else if (strcmp(k, "--samples") == 0)
			o->samples = atoi(v);
		else if (strcmp(k, "--seed") == 0)
			o->seed = strtoull(v, NULL, 10);
		else if (strcmp(k, "--check-pct") == 0)
			o->check_pct = atof(v);
		else if (strcmp(k, "--uniform-pct") == 0)
			o->uniform_pct = atof(v);
		else
			return -EINVAL;
	}
	if ((argc - 1) % 2 != 0 || o->samples < 1 || o->samples > 64 || o->measure <= 0 ||
	    o->warmup < 0 || !(o->hot_lba > 0 && o->hot_lba < 1) ||
	    !(o->hot_writes >= 0 && o->hot_writes <= 1))
		return -EINVAL;
	if (o->spares == 0) {
		o->spare_pct[0] = 7;
		o->spare_pct[1] = 28;
		o->spares = 2;
	}
	return 0;
}

/*
 * The model drive of the analytic checks (as sim.waf_model): the small client drive at
 * --user-bytes with 1 MiB superblocks, the smallest lazy pool (the models have none), 2 handles.
 */
static int fdp_profile(const struct fdp_opts *o, double spare_pct, enum dq_sim_victim_policy victim,
		       struct dq_sim_profile *p)
{
	char err[256];

	if (dq_sim_profile_load_name(DQ_SIM_PROFILES_DIR, "test-client-7pct", p, err,
				     sizeof(err)) != 0) {
		fprintf(stderr, "sim_fdp_waf: %s\n", err);
		return -EINVAL;
	}
	p->user_bytes = o->user_bytes / 4096 * 4096;
	p->raw_bytes = (uint64_t)(p->user_bytes * (1.0 + spare_pct / 100.0));
	p->pages_per_block = 8;
	p->free_target_pct = 0;
	p->victim = victim;
	p->fdp_handles = 2;
	if (dq_sim_profile_validate(p, err, sizeof(err)) != 0) {
		fprintf(stderr, "sim_fdp_waf: %s\n", err);
		return -EINVAL;
	}
	return 0;
}

static int fdp_run(const struct fdp_opts *o, const struct dq_sim_profile *p, int placed,
		   struct fdp_result *r, double *rho)
{
	struct dq_sim_hot_cold w = { .hot_lba_fraction = o->hot_lba,
				     .hot_write_fraction = o->hot_writes,
				     .placed = placed,
				     .hot_handle = 1,
				     .cold_handle = 0,
				     .fill = 1,
				     .seed = o->seed };
	struct dq_sim_fdp_stats before, at, prev;
	struct dq_sim_identify id;
	struct dq_sim_drive *d = NULL;
	uint64_t units, t = 0;
	double a_sum[2] = { 0, 0 };
	int rc;

	rc = dq_sim_drive_create(p, o->seed, &d);
	if (rc != 0)
		return rc;
	dq_sim_drive_identify(d, &id);
	*rho = (double)id.raw_bytes / (double)id.user_bytes - 1.0;
	units = id.user_bytes / 4096;
	w.writes = (uint64_t)(o->warmup * units);
	rc = dq_sim_run_hot_cold(d, &w, t, &t);
	w.fill = 0;
	dq_sim_drive_fdp_stats(d, &before);
	prev = before;
	for (int s = 0; s < o->samples && rc == 0; s++) {
		w.writes = (uint64_t)(o->measure * units / o->samples);
		w.seed = o->seed * 1000 + (uint64_t)s + 1;
		rc = dq_sim_run_hot_cold(d, &w, t, &t);
		dq_sim_drive_fdp_stats(d, &at);
		r->series[s] = (double)(at.media_bytes_written - prev.media_bytes_written) /
			       (double)(at.host_bytes_written - prev.host_bytes_written);
		for (int h = 0; h < 2; h++) {
			const struct dq_sim_fdp_handle_stats *hs = &at.per_handle[h];

			if (hs->valid_bytes > 0)
				a_sum[h] += (double)hs->programmed_bytes / (double)hs->valid_bytes;
		}
		prev = at;
	}
	if (rc == 0) {
		r->waf = (double)(at.media_bytes_written - before.media_bytes_written) /
			 (double)(at.host_bytes_written - before.host_bytes_written);
		r->pool_a[0] = a_sum[0] / o->samples;
		r->pool_a[1] = a_sum[1] / o->samples;
	}
	dq_sim_drive_destroy(d);
	return rc;
}

static void fdp_print_series(const struct fdp_opts *o, const char *what, const struct fdp_result *r)
{
	printf("#   %s device WAF per %.2g drive writes:", what, o->measure / o->samples);
	for (int s = 0; s < o->samples; s++)
		printf(" %.3f", r->series[s]);
	printf("\n");
}

int main(int argc, char **argv)
{
	struct fdp_opts o;
	int failed = 0;

	if (fdp_parse(argc, argv, &o) != 0) {
		fprintf(stderr, "usage: see the comment at the top of bench/sim_fdp_waf.c\n");
		return 2;
	}
	printf("# hot/cold: %.0f %% of the writes to %.0f %% of the LBAs; %g GB user; warm-up %g, "
	       "measured over %g drive writes\n",
	       o.hot_writes * 100, o.hot_lba * 100, o.user_bytes / 1e9, o.warmup, o.measure);
	printf("%-6s %-7s %-6s %8s %9s %8s  %s\n", "spare", "rho", "run", "measured", "expected",
	       "error", "model");
	for (int i = 0; i < o.spares; i++) {
		double x[2] = { 1.0 - o.hot_lba, o.hot_lba },
		       f[2] = { 1.0 - o.hot_writes, o.hot_writes };
		struct dq_sim_profile greedy, fifo;
		struct fdp_result on = { 0 }, off = { 0 }, lrw = { 0 };
		double rho, lrw_model, uniform, err_on, err_off, err_lrw;

		if (fdp_profile(&o, o.spare_pct[i], DQ_SIM_VICTIM_GREEDY, &greedy) != 0 ||
		    fdp_profile(&o, o.spare_pct[i], DQ_SIM_VICTIM_FIFO, &fifo) != 0)
			return 2;
		if (fdp_run(&o, &greedy, 1, &on, &rho) != 0 ||
		    fdp_run(&o, &greedy, 0, &off, &rho) != 0 ||
		    fdp_run(&o, &fifo, 0, &lrw, &rho) != 0)
			return 2;
		/* two isolated pools under uniform traffic each: greedy at the spare they hold */
		on.expected = f[0] * dq_sim_waf_model_greedy(on.pool_a[0] - 1.0) +
			      f[1] * dq_sim_waf_model_greedy(on.pool_a[1] - 1.0);
		lrw_model = dq_sim_waf_model_lrw(rho, x, f, 2);
		uniform = dq_sim_waf_model_greedy(rho);
		err_on = (on.waf / on.expected - 1.0) * 100.0;
		err_off = (off.waf / lrw_model - 1.0) * 100.0;
		err_lrw = (lrw.waf / lrw_model - 1.0) * 100.0;
		printf("%4.0f%%  %.4f  %-6s %8.3f %9.3f %+7.1f%%  greedy per pool, rho cold %.3f "
		       "hot %.3f\n",
		       o.spare_pct[i], rho, "on", on.waf, on.expected, err_on, on.pool_a[0] - 1.0,
		       on.pool_a[1] - 1.0);
		printf("%4.0f%%  %.4f  %-6s %8.3f %9.3f %+7.1f%%  LRW hot/cold (bound); uniform "
		       "greedy %.3f\n",
		       o.spare_pct[i], rho, "off", off.waf, lrw_model, err_off, uniform);
		printf("%4.0f%%  %.4f  %-6s %8.3f %9.3f %+7.1f%%  LRW hot/cold (exact for LRW)\n",
		       o.spare_pct[i], rho, "lrw", lrw.waf, lrw_model, err_lrw);
		printf("%4.0f%%  on/off WAF ratio %.3f; on vs uniform greedy %+.1f%%\n",
		       o.spare_pct[i], on.waf / off.waf, (on.waf / uniform - 1.0) * 100.0);
		fdp_print_series(&o, "on ", &on);
		fdp_print_series(&o, "off", &off);
		if (o.check_pct >= 0) {
			double tol = o.check_pct;

			if (fabs(err_on) > tol || fabs(err_lrw) > tol || off.waf <= uniform ||
			    err_off > tol || on.waf >= off.waf ||
			    fabs(on.waf / uniform - 1.0) * 100.0 > o.uniform_pct) {
				printf("FAIL at %.0f %% spare (tolerance %.1f %%, %.1f %% against the "
				       "uniform model)\n",
				       o.spare_pct[i], tol, o.uniform_pct);
				failed = 1;
			}
		}
	}
	return failed;
}
