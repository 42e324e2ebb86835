/*
 * Must-reproduce #3: at the same spare area, eager GC (early, paced with host writes) gives a steady
 * state with far less second-to-second variation than lazy GC (late, in bounded foreground steps),
 * at a similar mean. Lazy GC's seconds form a band, never a stall of a whole second; the
 * stall-prone firmware (foreground_step_pct 0: one burst while the host waits) has such seconds.
 */
#include "sim_test.h"

static uint32_t zero_seconds(const struct sim_series *s, uint32_t from, uint32_t to)
{
	uint32_t n = 0;

	for (uint32_t i = from; i < to; i++)
		n += s->iops[i] == 0;
	return n;
}

static double min_second(const struct sim_series *s, uint32_t from, uint32_t to)
{
	double m = s->iops[from];

	for (uint32_t i = from; i < to; i++)
		m = s->iops[i] < m ? s->iops[i] : m;
	return m;
}

int main(void)
{
	struct dq_sim_profile lazy, eager, stalling;
	struct sim_series sl, se, ss;
	double cv_lazy, cv_eager, mean_lazy, mean_eager, mean_stalling;
	uint32_t zero_lazy, zero_stalling;

	sim_test_load("test-client-7pct", &lazy);
	CHECK(lazy.eagerness == 0.0 && lazy.foreground_step_pct > 0.0);
	eager = lazy;
	eager.eagerness = 1.0;
	CHECK_RC(dq_sim_profile_validate(&eager, NULL, 0));
	stalling = lazy;
	stalling.foreground_step_pct = 0.0;

	sim_test_consistency(&lazy, 1.0, 2000, 1400, &sl);
	sim_test_consistency(&eager, 1.0, 2000, 1400, &se);
	sim_test_consistency(&stalling, 1.0, 2000, 1400, &ss);
	cv_lazy = sim_series_cv(&sl, 1400, 2000);
	cv_eager = sim_series_cv(&se, 1400, 2000);
	mean_lazy = sim_series_mean(&sl, 1400, 2000);
	mean_eager = sim_series_mean(&se, 1400, 2000);
	mean_stalling = sim_series_mean(&ss, 1400, 2000);
	zero_lazy = zero_seconds(&sl, 1400, 2000);
	zero_stalling = zero_seconds(&ss, 1400, 2000);
	printf("lazy: mean %.0f IOPS CV %.3f, slowest second %.0f, %u at 0; eager: mean %.0f IOPS "
	       "CV %.3f; stall-prone: mean %.0f IOPS, %u of 600 seconds at 0\n",
	       mean_lazy, cv_lazy, min_second(&sl, 1400, 2000), zero_lazy, mean_eager, cv_eager,
	       mean_stalling, zero_stalling);
	CHECK(cv_eager < 0.10);
	CHECK(cv_lazy > 0.5);
	CHECK(cv_lazy > 5 * cv_eager);
	CHECK(mean_eager > 0.75 * mean_lazy && mean_eager < 1.25 * mean_lazy);
	/* a band: every second has host completions, the slowest a fair share of the mean */
	CHECK(zero_lazy == 0);
	CHECK(min_second(&sl, 1400, 2000) > 0.2 * mean_lazy);
	/* two lines: whole seconds behind a burst, at about the same mean */
	CHECK(zero_stalling > 150);
	CHECK(mean_stalling > 0.75 * mean_lazy && mean_stalling < 1.25 * mean_lazy);
	sim_series_free(&sl);
	sim_series_free(&se);
	sim_series_free(&ss);
	return 0;
}
