/*
 * Must-reproduce #1: on the consistency-2000s workload a drive is fast fresh out of the box and
 * drops once the spare area is used up - and the drop comes when roughly the spare area's worth of
 * random data has been written, which is what ties it to the spare area and not to some timer.
 */
#include "sim_test.h"

static void test_fob_drop(const char *name, double min_ratio)
{
	struct dq_sim_profile p;
	struct dq_sim_identify id;
	struct dq_sim_drive *d;
	struct sim_series s;
	double fob, steady, written = 0, spare;
	uint32_t drop = 0;

	sim_test_load(name, &p);
	d = sim_test_drive(&p);
	dq_sim_drive_identify(d, &id);
	dq_sim_drive_destroy(d);
	sim_test_consistency(&p, 1.0, 2000, 1400, &s);

	fob = sim_series_mean(&s, 0, 3);
	steady = sim_series_mean(&s, 1400, 2000);
	for (uint32_t i = 0; i < s.n; i++) {
		if (s.iops[i] < 0.5 * fob) {
			drop = i + 1;
			break;
		}
		written += s.iops[i] * 4096;
	}
	spare = (double)(id.raw_bytes - id.user_bytes);
	printf("%s: fob=%.0f IOPS steady=%.0f IOPS (x%.1f) drop at t=%u after %.2f GB, spare %.2f GB\n",
	       name, fob, steady, fob / steady, drop, written / 1e9, spare / 1e9);
	CHECK(fob > min_ratio * steady);
	CHECK(drop > 1);
	/* the free space after the fill is the spare area, less GC's free-block reserve */
	CHECK(written > 0.6 * spare && written < 1.1 * spare);
	sim_series_free(&s);
}

int main(void)
{
	test_fob_drop("test-client-7pct", 5.0);
	test_fob_drop("test-enterprise-eager", 2.0);
	return 0;
}
