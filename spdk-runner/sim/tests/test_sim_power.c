/*
 * The power model's contract: protection keeps every accepted write, an honest volatile cache
 * keeps what a flush covered and may lose the rest, a liar loses writes a flush promised; a full
 * cache destages its oldest entry.
 */
#include <errno.h>
#include <string.h>

#include "sim_test.h"

struct record {
	uint8_t destaged[64];
	uint8_t lost[64];
	uint32_t lost_promised;
};

static void on_destage(uint64_t unit, void *arg)
{
	((struct record *)arg)->destaged[unit]++;
}

static void on_lost(uint64_t unit, bool promised, void *arg)
{
	struct record *r = arg;

	r->lost[unit]++;
	r->lost_promised += promised;
}

/* Writes units 0..31 one at a time, flushes after the first 16, then cuts. */
static uint64_t cut_after_half_flushed(enum dq_sim_power_mode mode, struct record *r,
				       struct dq_sim_cache_truth *truth)
{
	struct dq_sim_cache *cache;
	struct dq_sim_cache_sink sink = { .destage = on_destage, .lost = on_lost, .arg = r };
	uint64_t lost;

	memset(r, 0, sizeof(*r));
	CHECK_RC(dq_sim_cache_create(mode, 64, 48, 7, &cache));
	for (uint64_t u = 0; u < 32; u++) {
		CHECK_RC(dq_sim_cache_write(cache, u, 1, &sink));
		if (u == 15) {
			dq_sim_cache_flush(cache, &sink);
		}
	}
	lost = dq_sim_cache_power_cut(cache, &sink);
	CHECK(dq_sim_cache_dirty_units(cache) == 0);
	dq_sim_cache_truth(cache, truth);
	dq_sim_cache_destroy(cache);
	return lost;
}

int main(void)
{
	struct dq_sim_cache_truth truth;
	struct dq_sim_cache *cache;
	struct record r;
	struct dq_sim_cache_sink sink = { .destage = on_destage, .lost = on_lost, .arg = &r };
	enum dq_sim_power_mode mode;

	CHECK_RC(dq_sim_power_mode_parse("liar", &mode));
	CHECK(mode == DQ_SIM_POWER_LIAR);
	CHECK(dq_sim_power_mode_parse("maybe", &mode) == -EINVAL);

	/* protection: nothing lost, every unit destaged once */
	CHECK(cut_after_half_flushed(DQ_SIM_POWER_PLP, &r, &truth) == 0);
	for (int u = 0; u < 32; u++) {
		CHECK(r.destaged[u] == 1 && r.lost[u] == 0);
	}
	CHECK(truth.cuts == 1 && truth.units_lost == 0);

	/* honest volatile cache: the flushed half survives, some of the rest is lost, no promise */
	CHECK(cut_after_half_flushed(DQ_SIM_POWER_VOLATILE, &r, &truth) > 0);
	for (int u = 0; u < 16; u++) {
		CHECK(r.destaged[u] == 1 && r.lost[u] == 0);
	}
	for (int u = 16; u < 32; u++) {
		CHECK(r.destaged[u] + r.lost[u] == 1);
	}
	CHECK(r.lost_promised == 0 && truth.units_lost_promised == 0);

	/* the liar: some of the flushed half is lost, and the truth says it was promised */
	CHECK(cut_after_half_flushed(DQ_SIM_POWER_LIAR, &r, &truth) > 0);
	CHECK(r.lost_promised > 0 && truth.units_lost_promised == r.lost_promised);
	for (int u = 0; u < 32; u++) {
		CHECK(r.destaged[u] + r.lost[u] == 1);
	}

	/* a full cache destages its oldest entry; a rewrite of a cached unit coalesces */
	memset(&r, 0, sizeof(r));
	CHECK_RC(dq_sim_cache_create(DQ_SIM_POWER_VOLATILE, 64, 4, 1, &cache));
	CHECK_RC(dq_sim_cache_write(cache, 10, 4, &sink));
	CHECK_RC(dq_sim_cache_write(cache, 12, 1, &sink));
	CHECK(dq_sim_cache_dirty_units(cache) == 4 && r.destaged[10] == 0);
	CHECK_RC(dq_sim_cache_write(cache, 20, 1, &sink));
	CHECK(r.destaged[10] == 1 && r.destaged[11] == 0 && dq_sim_cache_dirty_units(cache) == 4);
	CHECK(dq_sim_cache_write(cache, 60, 5, &sink) == -EINVAL);
	dq_sim_cache_destroy(cache);
	printf("power model: plp keeps all, volatile keeps flushed, liar loses promised units\n");
	return 0;
}
