/*
 * Must-reproduce #2 ("what does 25% more spare area buy us"): the consistency workload over 75% of
 * the LBAs leaves the other 25% unmapped, which the FTL uses as spare area - steady-state IOPS go
 * up and WAF goes down, as on real drives (the seeds' OP simulation).
 */
#include "sim_test.h"

static void test_spare(const char *name, double min_gain)
{
	struct dq_sim_profile p;
	struct sim_series full, part;
	double waf_full, waf_part, iops_full, iops_part;

	sim_test_load(name, &p);
	waf_full = sim_test_consistency(&p, 1.0, 2000, 1400, &full);
	waf_part = sim_test_consistency(&p, 0.75, 2000, 1400, &part);
	iops_full = sim_series_mean(&full, 1400, 2000);
	iops_part = sim_series_mean(&part, 1400, 2000);
	printf("%s: range 100%%: %.0f IOPS WAF %.2f; range 75%%: %.0f IOPS WAF %.2f\n", name,
	       iops_full, waf_full, iops_part, waf_part);
	CHECK(iops_part > min_gain * iops_full);
	CHECK(waf_part < waf_full);
	/* the 4 KiB random write bottleneck is the NAND: IOPS scale with 1 / WAF */
	CHECK(iops_part / iops_full > 0.7 * waf_full / waf_part);
	sim_series_free(&full);
	sim_series_free(&part);
}

int main(void)
{
	test_spare("test-client-7pct", 2.0);
	test_spare("test-enterprise-eager", 1.3);
	return 0;
}
