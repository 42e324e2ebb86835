/*
 * Must-reproduce #4, the trim-validation profile scaled to the small drive: 128 KiB sequential
 * writes are fast on a clean drive, slow on a drive dirtied by random writes (GC must copy nearly
 * full blocks), and recover after the whole range is deallocated (GC victims are empty: erase only).
 */
#include "sim_test.h"

#define SEQ_SECONDS 10

static double seq_write_mbps(struct dq_sim_drive *d, uint64_t *t, uint64_t seed)
{
	struct sim_series s;
	double mbps;

	sim_series_init(&s, d, SEQ_SECONDS);
	*t = sim_test_run(d, DQ_SIM_PATTERN_SEQWRITE, 131072, 1.0, SEQ_SECONDS, *t, seed, &s);
	mbps = sim_series_mbps(&s, 0, SEQ_SECONDS, 131072);
	sim_series_free(&s);
	return mbps;
}

static uint64_t deallocate_all(struct dq_sim_drive *d, uint64_t t)
{
	struct dq_sim_identify id;
	const uint32_t chunk = 1u << 20;

	dq_sim_drive_identify(d, &id);
	for (uint64_t lba = 0; lba < id.lba_count; lba += chunk) {
		uint64_t n = id.lba_count - lba < chunk ? id.lba_count - lba : chunk;

		CHECK_RC(dq_sim_drive_submit(d, DQ_SIM_OP_DEALLOCATE, lba, (uint32_t)n, t, &t));
	}
	return t;
}

int main(void)
{
	struct dq_sim_profile p;
	struct dq_sim_drive *d;
	struct dq_sim_smart before, after;
	double clean, dirty, trimmed, recovery;
	uint64_t t;

	sim_test_load("test-client-7pct", &p);
	d = sim_test_drive(&p);
	CHECK_RC(dq_sim_drive_purge(d, 0, &t));
	clean = seq_write_mbps(d, &t, 1);
	t = sim_test_fill(d, 1.0, t);
	t = sim_test_run(d, DQ_SIM_PATTERN_RANDWRITE, 4096, 1.0, 600, t, 2, NULL);
	dirty = seq_write_mbps(d, &t, 3);
	t = deallocate_all(d, t);
	dq_sim_drive_smart(d, &before);
	trimmed = seq_write_mbps(d, &t, 4);
	dq_sim_drive_smart(d, &after);
	recovery = (trimmed - dirty) / (clean - dirty);
	printf("128KiB seq write: clean %.1f MB/s, dirty %.1f MB/s, after TRIM %.1f MB/s "
	       "(recovery %.2f, WAF after TRIM %.2f)\n",
	       clean, dirty, trimmed, recovery, sim_test_waf(&before, &after));
	CHECK(clean > 2.0 * dirty);
	CHECK(trimmed > 1.5 * dirty);
	CHECK(recovery > 0.5 && recovery < 1.1);
	/* deallocated data is never copied again */
	CHECK(sim_test_waf(&before, &after) < 1.05);
	dq_sim_drive_destroy(d);
	return 0;
}
