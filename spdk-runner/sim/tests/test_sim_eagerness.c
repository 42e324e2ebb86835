/*
 * Must-reproduce #3: at the same spare area, eager GC (early, paced with host writes) gives a steady
 * state with far less second-to-second variation than lazy GC (late, in bursts), at a similar mean.
 */
#include "sim_test.h"

int main(void)
{
	struct dq_sim_profile lazy, eager;
	struct sim_series sl, se;
	double cv_lazy, cv_eager, mean_lazy, mean_eager;

	sim_test_load("test-client-7pct", &lazy);
	CHECK(lazy.eagerness == 0.0);
	eager = lazy;
	eager.eagerness = 1.0;
	CHECK_RC(dq_sim_profile_validate(&eager, NULL, 0));

	sim_test_consistency(&lazy, 1.0, 2000, 1400, &sl);
	sim_test_consistency(&eager, 1.0, 2000, 1400, &se);
	cv_lazy = sim_series_cv(&sl, 1400, 2000);
	cv_eager = sim_series_cv(&se, 1400, 2000);
	mean_lazy = sim_series_mean(&sl, 1400, 2000);
	mean_eager = sim_series_mean(&se, 1400, 2000);
	printf("lazy: mean %.0f IOPS CV %.3f; eager: mean %.0f IOPS CV %.3f\n", mean_lazy, cv_lazy,
	       mean_eager, cv_eager);
	CHECK(cv_eager < 0.10);
	CHECK(cv_lazy > 0.5);
	CHECK(cv_lazy > 5 * cv_eager);
	CHECK(mean_eager > 0.75 * mean_lazy && mean_eager < 1.25 * mean_lazy);
	sim_series_free(&sl);
	sim_series_free(&se);
	return 0;
}
