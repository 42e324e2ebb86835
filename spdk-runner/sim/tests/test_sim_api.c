/*
 * The drive's contract with the runner's engine: argument checks, SMART counters in the contract's
 * units, Identify, TRIM and purge semantics, the host interface ceiling, 512-byte LBAs, and
 * determinism (same profile, seed and calls -> same completion times).
 */
#include <errno.h>
#include <string.h>

#include "sim_test.h"

static void test_arguments(struct dq_sim_drive *d)
{
	struct dq_sim_identify id;
	uint64_t t;

	dq_sim_drive_identify(d, &id);
	CHECK(dq_sim_drive_submit(d, DQ_SIM_OP_WRITE, 0, 0, 0, &t) == -EINVAL);
	CHECK(dq_sim_drive_submit(d, DQ_SIM_OP_WRITE, id.lba_count, 1, 0, &t) == -EINVAL);
	CHECK(dq_sim_drive_submit(d, DQ_SIM_OP_READ, id.lba_count - 1, 2, 0, &t) == -EINVAL);
	CHECK(dq_sim_drive_submit(d, (enum dq_sim_op)9, 0, 1, 0, &t) == -EINVAL);
	CHECK(dq_sim_drive_submit(d, DQ_SIM_OP_WRITE, 0, 1, 0, NULL) == -EINVAL);
	CHECK_RC(dq_sim_drive_submit(d, DQ_SIM_OP_WRITE, id.lba_count - 1, 1, 0, &t));
	CHECK_RC(dq_sim_drive_submit(d, DQ_SIM_OP_FLUSH, 0, 0, 0, &t));
}

static void test_identify_and_smart(const struct dq_sim_profile *p)
{
	struct dq_sim_drive *a = sim_test_drive(p), *b;
	struct dq_sim_identify ia, ib;
	struct dq_sim_smart s0, s1;
	uint64_t t = 0, done;

	dq_sim_drive_identify(a, &ia);
	CHECK(strncmp(ia.serial, "SIM", 3) == 0 && strlen(ia.serial) <= DQ_SIM_SERIAL_MAX);
	CHECK(strcmp(ia.model, p->model) == 0);
	CHECK(ia.user_bytes == p->user_bytes && ia.raw_bytes > ia.user_bytes);
	CHECK_RC(dq_sim_drive_create(p, 43, &b));
	dq_sim_drive_identify(b, &ib);
	CHECK(strcmp(ia.serial, ib.serial) != 0); /* another seed, another sample */
	dq_sim_drive_destroy(b);

	test_arguments(a);
	dq_sim_drive_smart(a, &s0);
	/* 1000 sequential 128 KiB writes on a fresh drive: WAF exactly 1 once the cache is flushed */
	for (uint32_t i = 0; i < 1000; i++)
		CHECK_RC(dq_sim_drive_submit(a, DQ_SIM_OP_WRITE, (uint64_t)i * 32, 32, t, &done));
	for (uint32_t i = 0; i < 10; i++)
		CHECK_RC(dq_sim_drive_submit(a, DQ_SIM_OP_READ, (uint64_t)i * 32, 32, done, &t));
	dq_sim_drive_smart(a, &s1);
	CHECK(s1.host_write_commands - s0.host_write_commands == 1000);
	CHECK(s1.host_read_commands - s0.host_read_commands == 10);
	CHECK(s1.host_write_bytes - s0.host_write_bytes == 1000ull * 131072);
	/* NVMe data units: thousands of 512-byte units, rounded up */
	CHECK(s1.data_units_written == (s1.host_write_bytes + 511999) / 512000);
	CHECK(s1.data_units_read == (10ull * 131072 + 511999) / 512000);
	CHECK(s1.physical_media_units_written_bytes - s0.physical_media_units_written_bytes ==
	      1000ull * 131072);
	CHECK(s1.physical_media_units_read_bytes - s0.physical_media_units_read_bytes ==
	      10ull * 131072);
	CHECK(s1.available_spare_percent == 100 && s1.percentage_used == 0);
	CHECK(s1.nand_erase_count == 0);
	dq_sim_drive_destroy(a);
}

static void test_trim_and_purge(const struct dq_sim_profile *p)
{
	struct dq_sim_drive *d = sim_test_drive(p);
	struct dq_sim_smart s0, s1;
	uint32_t counts[4];
	uint64_t t, t_unmapped, t_mapped, start;

	/* a mapped read costs a NAND read, an unmapped (deallocated) one does not */
	CHECK_RC(dq_sim_drive_submit(d, DQ_SIM_OP_WRITE, 100, 1, 0, &t));
	start = dq_sim_drive_busy_until(d) + 1000000;
	CHECK_RC(dq_sim_drive_submit(d, DQ_SIM_OP_READ, 100, 1, start, &t_mapped));
	CHECK(t_mapped - start >= (uint64_t)(p->read_us * 1000 * 0.9));
	CHECK_RC(dq_sim_drive_submit(d, DQ_SIM_OP_DEALLOCATE, 100, 1, t_mapped, &t));
	start = t + 1000000;
	CHECK_RC(dq_sim_drive_submit(d, DQ_SIM_OP_READ, 100, 1, start, &t_unmapped));
	CHECK(t_unmapped - start < (uint64_t)(p->read_us * 1000 * 0.5));

	/* purge: erases what holds data, keeps wear and counters, and brings back FOB speed */
	t = sim_test_purge_fill(d, 1.0, t_unmapped);
	t = sim_test_run(d, DQ_SIM_PATTERN_RANDWRITE, 4096, 1.0, 60, t, 5, NULL);
	dq_sim_drive_smart(d, &s0);
	CHECK(s0.nand_erase_count > 0 && s0.erase_count_max >= s0.erase_count_min);
	CHECK(dq_sim_drive_erase_counts(d, counts, 4) > 4);
	CHECK_RC(dq_sim_drive_purge(d, t, &t));
	dq_sim_drive_smart(d, &s1);
	CHECK(s1.nand_erase_count > s0.nand_erase_count);
	CHECK(s1.data_units_written == s0.data_units_written);
	{
		struct sim_series s;

		sim_series_init(&s, d, 3);
		sim_test_run(d, DQ_SIM_PATTERN_RANDWRITE, 4096, 1.0, 3, t, 6, &s);
		/* FOB: the NAND program bandwidth of all dies, 4 KiB at a time */
		CHECK(sim_series_mean(&s, 0, 3) > 0.9 *
							  (p->channels * p->dies_per_channel *
							   p->planes * p->page_bytes / 4096.0) /
							  (p->program_us * 1e-6));
		sim_series_free(&s);
	}
	dq_sim_drive_destroy(d);
}

static void test_host_ceiling(const struct dq_sim_profile *base)
{
	struct dq_sim_profile p = *base;
	struct dq_sim_drive *d;
	struct sim_series s;
	uint64_t t;

	/* a slow link caps sequential reads; a slow controller caps small random reads */
	p.host_max_mbps = 200;
	p.host_max_kiops = 20;
	CHECK_RC(dq_sim_profile_validate(&p, NULL, 0));
	d = sim_test_drive(&p);
	sim_series_init(&s, d, 5);
	t = sim_test_purge_fill(d, 1.0, 0);
	t = sim_test_run(d, DQ_SIM_PATTERN_SEQREAD, 131072, 1.0, 5, t, 1, &s);
	CHECK(sim_series_mbps(&s, 1, 5, 131072) <= 200.0 * 1.01);
	CHECK(sim_series_mbps(&s, 1, 5, 131072) > 200.0 * 0.9);
	sim_test_run(d, DQ_SIM_PATTERN_RANDREAD, 4096, 1.0, 5, t, 2, &s);
	CHECK(sim_series_mean(&s, 1, 5) <= 20000 * 1.01);
	CHECK(sim_series_mean(&s, 1, 5) > 20000 * 0.9);
	sim_series_free(&s);
	dq_sim_drive_destroy(d);
}

static void test_small_lbas(const struct dq_sim_profile *base)
{
	struct dq_sim_profile p = *base;
	struct dq_sim_drive *d;
	struct dq_sim_smart s;
	uint64_t t;

	/* 512-byte LBAs: a sub-4 KiB write rewrites the whole mapping unit */
	p.lba_bytes = 512;
	CHECK_RC(dq_sim_profile_validate(&p, NULL, 0));
	d = sim_test_drive(&p);
	CHECK_RC(dq_sim_drive_submit(d, DQ_SIM_OP_WRITE, 3, 1, 0, &t));
	dq_sim_drive_smart(d, &s);
	CHECK(s.host_write_bytes == 512 && s.physical_media_units_written_bytes == 4096);
	dq_sim_drive_destroy(d);
}

static void test_determinism(const struct dq_sim_profile *p)
{
	struct dq_sim_smart sa, sb;
	struct sim_series a, b;
	struct dq_sim_drive *da = sim_test_drive(p), *db = sim_test_drive(p);
	uint64_t ta, tb;

	sim_series_init(&a, da, 200);
	sim_series_init(&b, db, 200);
	ta = sim_test_purge_fill(da, 1.0, 0);
	tb = sim_test_purge_fill(db, 1.0, 0);
	ta = sim_test_run(da, DQ_SIM_PATTERN_RANDRW, 8192, 1.0, 200, ta, 9, &a);
	tb = sim_test_run(db, DQ_SIM_PATTERN_RANDRW, 8192, 1.0, 200, tb, 9, &b);
	CHECK(ta == tb);
	CHECK(memcmp(a.iops, b.iops, 200 * sizeof(double)) == 0);
	dq_sim_drive_smart(da, &sa);
	dq_sim_drive_smart(db, &sb);
	CHECK(memcmp(&sa, &sb, sizeof(sa)) == 0);
	sim_series_free(&a);
	sim_series_free(&b);
	dq_sim_drive_destroy(da);
	dq_sim_drive_destroy(db);
}

int main(void)
{
	struct dq_sim_profile p;

	sim_test_load("test-client-7pct", &p);
	test_identify_and_smart(&p);
	test_trim_and_purge(&p);
	test_host_ceiling(&p);
	test_small_lbas(&p);
	test_determinism(&p);
	return 0;
}
