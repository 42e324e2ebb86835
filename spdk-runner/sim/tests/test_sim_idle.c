/*
 * Must-reproduce #5, the idle-recovery profile scaled to the small drive: after reaching steady
 * state, 30 minutes of idle let background GC refill the free pool, so the first 60 s afterwards
 * run faster than the steady state before - whether the runner says "idle" (dq_sim_drive_idle) or
 * simply submits nothing for that long.
 */
#include "sim_test.h"

#define IDLE_S 1800

static void test_idle(int explicit_idle)
{
	struct dq_sim_profile p;
	struct dq_sim_drive *d;
	struct sim_series before, after;
	double steady, recovered;
	uint64_t t;

	sim_test_load("test-client-7pct", &p);
	d = sim_test_drive(&p);
	sim_series_init(&before, d, 600);
	sim_series_init(&after, d, 60);
	t = sim_test_purge_fill(d, 1.0, 0);
	t = sim_test_run(d, DQ_SIM_PATTERN_RANDWRITE, 4096, 1.0, 600, t, 2, &before);
	steady = sim_series_mean(&before, 540, 600);
	if (explicit_idle)
		dq_sim_drive_idle(d, t, t + IDLE_S * DQ_SIM_NS_PER_S);
	t += IDLE_S * DQ_SIM_NS_PER_S;
	sim_test_run(d, DQ_SIM_PATTERN_RANDWRITE, 4096, 1.0, 60, t, 3, &after);
	recovered = sim_series_mean(&after, 0, 60);
	printf("%s idle: steady %.0f IOPS before, first 60 s after %.0f IOPS (recovery %.2f)\n",
	       explicit_idle ? "explicit" : "implicit", steady, recovered, recovered / steady);
	CHECK(recovered > 1.2 * steady);
	CHECK(after.iops[0] > 3.0 * steady);
	sim_series_free(&before);
	sim_series_free(&after);
	dq_sim_drive_destroy(d);
}

static void test_no_idle_no_recovery(void)
{
	struct dq_sim_profile p;
	struct dq_sim_drive *d;
	struct sim_series before, after;
	uint64_t t;

	/* control: without the pause the next minute is just more steady state */
	sim_test_load("test-client-7pct", &p);
	d = sim_test_drive(&p);
	sim_series_init(&before, d, 600);
	sim_series_init(&after, d, 60);
	t = sim_test_purge_fill(d, 1.0, 0);
	t = sim_test_run(d, DQ_SIM_PATTERN_RANDWRITE, 4096, 1.0, 600, t, 2, &before);
	sim_test_run(d, DQ_SIM_PATTERN_RANDWRITE, 4096, 1.0, 60, t, 3, &after);
	CHECK(sim_series_mean(&after, 0, 60) < 1.1 * sim_series_mean(&before, 540, 600));
	sim_series_free(&before);
	sim_series_free(&after);
	dq_sim_drive_destroy(d);
}

int main(void)
{
	test_idle(1);
	test_idle(0);
	test_no_idle_no_recovery();
	return 0;
}
