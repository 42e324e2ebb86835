/*
 * Flexible Data Placement in the simulated drive: the configuration it reports, refusals before any
 * write (a drive without FDP, a handle out of range), placed data staying isolated per handle
 * through garbage collection, the FDP statistics adding up, and the LRW model's values. The
 * write amplification against the analytic models is sim.fdp_waf (bench/sim_fdp_waf.c).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "sim_test.h"

static void test_config(void)
{
	struct dq_sim_profile p;
	struct dq_sim_fdp_config cfg;
	struct dq_sim_drive *d;

	sim_test_load("test-fdp-enterprise", &p);
	d = sim_test_drive(&p);
	dq_sim_drive_fdp_config(d, &cfg);
	CHECK(cfg.enabled && cfg.reclaim_groups == 1 && cfg.reclaim_unit_handles == 8);
	/* 8 dies x 2 planes x 16 KiB pages x 64 pages: a 16 MiB superblock */
	CHECK(cfg.reclaim_unit_bytes == 16ull << 20);
	dq_sim_drive_destroy(d);

	sim_test_load("test-enterprise-eager", &p);
	d = sim_test_drive(&p);
	dq_sim_drive_fdp_config(d, &cfg);
	CHECK(!cfg.enabled && cfg.reclaim_unit_handles == 0);
	dq_sim_drive_destroy(d);
}

/* A refused placed write changes nothing: no host bytes, no media bytes, no time. */
static void test_refusals(void)
{
	struct dq_sim_profile p;
	struct dq_sim_smart smart;
	struct dq_sim_fdp_stats st;
	struct dq_sim_drive *d;
	uint64_t done = 12345;

	sim_test_load("test-enterprise-eager", &p);
	d = sim_test_drive(&p);
	CHECK(dq_sim_drive_write_placed(d, 0, 1, 0, 0, &done) == -EOPNOTSUPP);
	dq_sim_drive_smart(d, &smart);
	CHECK(smart.host_write_bytes == 0 && smart.physical_media_units_written_bytes == 0);
	CHECK(done == 12345);
	dq_sim_drive_destroy(d);

	sim_test_load("test-fdp-enterprise", &p);
	d = sim_test_drive(&p);
	CHECK(dq_sim_drive_write_placed(d, 0, 1, 8, 0, &done) == -ERANGE);
	CHECK(dq_sim_drive_write_placed(d, 0, 1, UINT32_MAX, 0, &done) == -ERANGE);
	dq_sim_drive_fdp_stats(d, &st);
	CHECK(st.host_bytes_written == 0 && st.media_bytes_written == 0);
	CHECK(done == 12345);
	/* the last handle is in range; a bad LBA is still -EINVAL */
	CHECK_RC(dq_sim_drive_write_placed(d, 0, 1, 7, 0, &done));
	CHECK(dq_sim_drive_write_placed(d, UINT64_MAX, 1, 7, done, &done) == -EINVAL);
	CHECK(dq_sim_drive_write_placed(NULL, 0, 1, 0, 0, &done) == -EINVAL);
	dq_sim_drive_fdp_stats(d, &st);
	CHECK(st.host_bytes_written == 4096 && st.per_handle[7].host_bytes_written == 4096);
	dq_sim_drive_destroy(d);
}

/*
 * Hot and cold data on two handles through several drive writes of GC: every hot LBA's live copy
 * is in a hot reclaim unit and every cold one in a cold one (the live bytes per handle are exactly
 * the class sizes), the per-handle counters add up to the log's totals, and each handle's media
 * bytes are its host bytes plus its own GC copies (so >= its host bytes).
 */
static void test_isolation(void)
{
	struct dq_sim_profile p;
	struct dq_sim_fdp_stats st;
	struct dq_sim_identify id;
	struct dq_sim_drive *d;
	struct dq_sim_hot_cold w = { .hot_lba_fraction = 0.25,
				     .hot_write_fraction = 0.8,
				     .placed = 1,
				     .hot_handle = 3,
				     .cold_handle = 5,
				     .fill = 1,
				     .seed = 9 };
	uint64_t units, hot_units, t = 0, media = 0, host = 0, erased_units;
	uint32_t rus = 0;

	sim_test_load("test-fdp-enterprise", &p);
	p.user_bytes = 1000000000ull / 4096 * 4096;
	p.raw_bytes = (uint64_t)(p.user_bytes * 1.2);
	p.pages_per_block = 8; /* 2 MiB reclaim units: ~570 of them */
	CHECK_RC(dq_sim_profile_validate(&p, NULL, 0));
	d = sim_test_drive(&p);
	dq_sim_drive_identify(d, &id);
	units = id.lba_count;
	hot_units = (uint64_t)(0.25 * (double)units);
	w.writes = 3 * units;
	CHECK_RC(dq_sim_run_hot_cold(d, &w, 0, &t));
	dq_sim_drive_fdp_stats(d, &st);
	CHECK(st.handles == 8);
	CHECK(st.per_handle[3].valid_bytes == hot_units * 4096);
	CHECK(st.per_handle[5].valid_bytes == (units - hot_units) * 4096);
	for (uint32_t h = 0; h < st.handles; h++) {
		media += st.per_handle[h].media_bytes_written;
		host += st.per_handle[h].host_bytes_written;
		rus += st.per_handle[h].reclaim_units;
		CHECK(st.per_handle[h].media_bytes_written >= st.per_handle[h].host_bytes_written);
		if (h != 3 && h != 5)
			CHECK(st.per_handle[h].media_bytes_written == 0 &&
			      st.per_handle[h].reclaim_units == 0);
	}
	CHECK(host == st.host_bytes_written && media == st.media_bytes_written);
	CHECK(st.host_bytes_written == (units + w.writes) * 4096);
	/* GC ran: media > host, and units were erased */
	CHECK(st.media_bytes_written > st.host_bytes_written);
	erased_units = st.media_bytes_erased / 4096;
	CHECK(erased_units > 0);
	/* both pools hold reclaim units in proportion to their data, within the spare */
	CHECK(rus <= (uint32_t)(id.raw_bytes / (2u << 20)));
	CHECK(st.per_handle[3].reclaim_units * (2ull << 20) > hot_units * 4096);
	dq_sim_drive_destroy(d);
}

/*
 * Every handle open at once, on lazy GC with its smallest reserve (stall-prone bursts: the case
 * where GC frontiers of many handles compete for the last free superblocks): 3 drive writes of
 * random 4 KiB writes, each to a handle by its LBA, and the drive's counters still add up.
 */
static void test_all_handles_lazy_gc(void)
{
	struct dq_sim_profile p;
	struct dq_sim_fdp_stats st;
	struct dq_sim_identify id;
	struct dq_sim_drive *d;
	uint64_t t = 0, rng = 7, live = 0, media = 0;

	sim_test_load("test-client-7pct", &p);
	p.user_bytes = 1000000000ull / 4096 * 4096;
	p.raw_bytes = (uint64_t)(p.user_bytes * 1.07);
	p.pages_per_block = 8;
	p.free_target_pct = 0;
	p.foreground_step_pct = 0;
	p.fdp_handles = 8;
	CHECK_RC(dq_sim_profile_validate(&p, NULL, 0));
	d = sim_test_drive(&p);
	dq_sim_drive_identify(d, &id);
	for (uint64_t i = 0; i < 4 * id.lba_count; i++) {
		uint64_t lba = i < id.lba_count ? i :
						  (rng = rng * 6364136223846793005ull + 1) >> 33;

		lba %= id.lba_count;
		CHECK_RC(dq_sim_drive_write_placed(d, lba, 1, (uint32_t)(lba % 8), t, &t));
	}
	dq_sim_drive_fdp_stats(d, &st);
	for (uint32_t h = 0; h < 8; h++) {
		CHECK(st.per_handle[h].reclaim_units > 0);
		live += st.per_handle[h].valid_bytes;
		media += st.per_handle[h].media_bytes_written;
	}
	/*
	 * Every LBA is live once, give or take a few units: a burst GC that runs when a host write
	 * needs a superblock (sim_ftl_host_write_unit) has already counted the old copy invalid but
	 * not yet remapped it, so GC may copy it once more and that stale copy stays counted valid.
	 * Not FDP's doing: without FDP the same workload counts 8 units too many, with FDP 5. A fix
	 * belongs in a change of its own (it may move the shipped lazy profiles' recorded digests).
	 */
	CHECK(live >= id.lba_count * 4096 && live - id.lba_count * 4096 <= 64 * 4096);
	CHECK(media == st.media_bytes_written && st.media_bytes_written > st.host_bytes_written);
	dq_sim_drive_destroy(d);
}

static void test_lrw_model(void)
{
	double one_x[1] = { 1.0 }, one_f[1] = { 1.0 };
	double x[2] = { 0.9, 0.1 }, f[2] = { 0.1, 0.9 }, even[2] = { 0.9, 0.1 };
	double cold_only[2] = { 1.0, 0.0 };

	/* one class of data: LRW and greedy agree in the large-block limit (u = exp(-a(1 - u))) */
	for (double rho = 0.05; rho < 1.0; rho += 0.05)
		CHECK(fabs(dq_sim_waf_model_lrw(rho, one_x, one_f, 1) /
				   dq_sim_waf_model_greedy(rho) -
			   1.0) < 1e-6);
	/* writes spread as the LBAs are: uniform again */
	CHECK(fabs(dq_sim_waf_model_lrw(0.28, x, even, 2) / dq_sim_waf_model_greedy(0.28) - 1.0) <
	      1e-6);
	/* skew costs LRW write amplification, the more the less spare there is */
	CHECK(dq_sim_waf_model_lrw(0.28, x, f, 2) > 1.2 * dq_sim_waf_model_greedy(0.28));
	CHECK(dq_sim_waf_model_lrw(0.07, x, f, 2) > dq_sim_waf_model_lrw(0.28, x, f, 2));
	CHECK(dq_sim_waf_model_lrw(0.0, x, f, 2) < 0);
	/*
	 * static data (a class never written) is copied on every pass of LRW's log: worse than
	 * uniform greedy over all the data, and than greedy over the active data alone
	 * (2.50 > 2.48 > 2.31), which never needs to touch it
	 */
	CHECK(dq_sim_waf_model_lrw(0.28, x, cold_only, 2) > dq_sim_waf_model_greedy(0.28));
	CHECK(dq_sim_waf_model_lrw(0.28, x, cold_only, 2) >
	      dq_sim_waf_model_greedy((1.28 - 0.1) / 0.9 - 1.0));
	f[1] = 0.5; /* fractions must sum to 1 */
	CHECK(dq_sim_waf_model_lrw(0.28, x, f, 2) < 0);
}

int main(void)
{
	test_config();
	test_refusals();
	test_isolation();
	test_all_handles_lazy_gc();
	test_lrw_model();
	return 0;
}
