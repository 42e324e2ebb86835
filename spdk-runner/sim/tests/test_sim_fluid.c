/*
 * The fluid model against the FTL it stands in for: the same profile and workload give the same
 * fresh-out-of-box rate, the cliff after the same bytes, the same steady-state mean and WAF (and
 * so the analytic model's), recovery after idle, sequential overwrites without a stall; and what
 * the runner relies on: the identity of the FTL drive, exact byte counts of sized intervals,
 * latencies that obey Little's law.
 */
#include <math.h>
#include <string.h>

#include "sim_test.h"

#define QD 32

static struct dq_sim_fluid *fluid_drive(const struct dq_sim_profile *p)
{
	struct dq_sim_fluid *f = NULL;

	CHECK_RC(dq_sim_fluid_create(p, 42, &f));
	return f;
}

static struct dq_sim_fluid_load random_write(const struct dq_sim_profile *p, double range_fraction)
{
	struct dq_sim_fluid_load load = {
		.block_bytes = 4096,
		.queue_depth = QD,
		.range_bytes = (uint64_t)(range_fraction * p->user_bytes) / 4096 * 4096,
	};

	return load;
}

/* Runs the load second by second into s (may be NULL); returns the end time. */
static uint64_t fluid_run(struct dq_sim_fluid *f, const struct dq_sim_fluid_load *load,
			  uint32_t seconds, uint64_t now, struct sim_series *s)
{
	struct dq_sim_fluid_interval out;

	for (uint32_t t = 1; t <= seconds; t++) {
		CHECK_RC(dq_sim_fluid_run(f, load, now, DQ_SIM_NS_PER_S, 0, &out));
		CHECK(out.interval_ns == DQ_SIM_NS_PER_S);
		now += out.interval_ns;
		if (s != NULL && t <= s->cap) {
			s->iops[t - 1] = (double)(out.ios[0] + out.ios[1]);
			s->n = t;
		}
	}
	return now;
}

/* A sequential 128 KiB fill of the range in sized intervals, as the runner's precondition. */
static uint64_t fluid_fill(struct dq_sim_fluid *f, const struct dq_sim_profile *p, uint64_t now)
{
	struct dq_sim_fluid_load fill = {
		.sequential = 1,
		.block_bytes = 131072,
		.queue_depth = QD,
		.range_bytes = p->user_bytes / 4096 * 4096,
	};
	struct dq_sim_fluid_interval out;
	uint64_t left = fill.range_bytes, ios = 0;

	while (left > 0) {
		CHECK_RC(dq_sim_fluid_run(f, &fill, now, DQ_SIM_NS_PER_S, left, &out));
		CHECK(out.ios[0] == 0 && out.bytes[1] <= left);
		left -= out.bytes[1];
		ios += out.ios[1];
		now += out.interval_ns;
	}
	/* exact: every byte once, the last IO short */
	CHECK(ios == (fill.range_bytes + fill.block_bytes - 1) / fill.block_bytes);
	return now;
}

static uint32_t first_below(const struct sim_series *s, double level)
{
	for (uint32_t i = 0; i < s->n; i++) {
		if (s->iops[i] < level)
			return i + 1;
	}
	return 0;
}

static void test_against_ftl(const char *name, uint32_t seconds)
{
	struct dq_sim_profile p;
	struct dq_sim_drive *d;
	struct dq_sim_fluid *f;
	struct sim_series ftl, fluid;
	struct dq_sim_fluid_load load;
	struct dq_sim_smart before, after;
	struct dq_sim_identify a, b;
	double ftl_fob, fluid_fob, ftl_end, fluid_end, waf, model;
	uint32_t ftl_cliff, fluid_cliff, from = seconds - seconds / 4;

	sim_test_load(name, &p);
	d = sim_test_drive(&p);
	f = fluid_drive(&p);
	dq_sim_drive_identify(d, &a);
	dq_sim_fluid_identify(f, &b);
	CHECK(strcmp(a.serial, b.serial) == 0 && a.raw_bytes == b.raw_bytes);

	/* from an empty drive: the whole raw capacity is the free pool */
	sim_series_init(&ftl, d, seconds);
	sim_series_init(&fluid, NULL, seconds);
	sim_test_run(d, DQ_SIM_PATTERN_RANDWRITE, 4096, 1.0, seconds, 0, 7, &ftl);
	load = random_write(&p, 1.0);
	fluid_run(f, &load, from, 0, &fluid);
	dq_sim_fluid_smart(f, &before);
	fluid_run(f, &load, seconds - from, (uint64_t)from * DQ_SIM_NS_PER_S, NULL);
	dq_sim_fluid_smart(f, &after);

	ftl_fob = sim_series_mean(&ftl, 5, 20);
	fluid_fob = sim_series_mean(&fluid, 5, 20);
	ftl_cliff = first_below(&ftl, 0.8 * ftl_fob);
	fluid_cliff = first_below(&fluid, 0.8 * fluid_fob);
	ftl_end = sim_series_mean(&ftl, from, seconds);
	fluid_end =
		(double)(after.host_write_commands - before.host_write_commands) / (seconds - from);
	waf = sim_test_waf(&before, &after);
	model = dq_sim_waf_model_greedy((double)(a.raw_bytes - a.user_bytes) / a.user_bytes);
	printf("%s: FOB %.0f vs FTL %.0f IOPS; cliff at %u vs %u s; last quarter %.0f vs %.0f IOPS; "
	       "WAF %.2f (analytic %.2f)\n",
	       name, fluid_fob, ftl_fob, fluid_cliff, ftl_cliff, fluid_end, ftl_end, waf, model);
	CHECK(fabs(fluid_fob / ftl_fob - 1.0) < 0.05);
	CHECK(ftl_cliff > 0 && fluid_cliff > 0);
	CHECK(fabs((double)fluid_cliff / ftl_cliff - 1.0) < 0.15);
	CHECK(fabs(fluid_end / ftl_end - 1.0) < 0.25);
	CHECK(fabs(waf / model - 1.0) < 0.25);
	sim_series_free(&ftl);
	sim_series_free(&fluid);
	dq_sim_fluid_destroy(f);
	dq_sim_drive_destroy(d);
}

/* consistency-2000s' shape: purge, sequential fill, random writes: the dip and its level. */
static void test_filled_against_ftl(const char *name, uint32_t seconds)
{
	struct dq_sim_profile p;
	struct dq_sim_fluid *f;
	struct dq_sim_fluid_load load;
	struct sim_series ftl, fluid;
	double ftl_mid, fluid_mid, ftl_end, fluid_end;
	uint32_t half = seconds / 2;
	uint64_t now;

	sim_test_load(name, &p);
	sim_test_consistency(&p, 1.0, seconds, half, &ftl);
	f = fluid_drive(&p);
	sim_series_init(&fluid, NULL, seconds);
	load = random_write(&p, 1.0);
	now = fluid_fill(f, &p, 0);
	CHECK_RC(dq_sim_fluid_purge(f, now, &now));
	now = fluid_fill(f, &p, now);
	fluid_run(f, &load, seconds, now, &fluid);
	ftl_mid = sim_series_mean(&ftl, 60, half);
	fluid_mid = sim_series_mean(&fluid, 60, half);
	ftl_end = sim_series_mean(&ftl, half, seconds);
	fluid_end = sim_series_mean(&fluid, half, seconds);
	printf("%s after a fill: FOB %.0f vs FTL %.0f; first half %.0f vs %.0f IOPS, second half "
	       "%.0f vs %.0f IOPS\n",
	       name, fluid.iops[0], ftl.iops[0], fluid_mid, ftl_mid, fluid_end, ftl_end);
	CHECK(fabs(fluid_mid / ftl_mid - 1.0) < 0.25);
	CHECK(fabs(fluid_end / ftl_end - 1.0) < 0.25);
	sim_series_free(&ftl);
	sim_series_free(&fluid);
	dq_sim_fluid_destroy(f);
}

/* Little's law: the latencies add up to queue depth x time (per second, or over the run where
 * lazy GC's stalls span seconds). */
static void test_little(const char *name)
{
	struct dq_sim_profile p;
	struct dq_sim_fluid *f;
	struct dq_sim_fluid_load load;
	struct dq_sim_fluid_interval out;
	double total = 0;
	uint64_t now = 0;
	uint32_t closed = 0;

	sim_test_load(name, &p);
	f = fluid_drive(&p);
	now = fluid_fill(f, &p, 0);
	load = random_write(&p, 1.0);
	for (uint32_t t = 1; t <= 900; t++) {
		double sum = 0;
		uint64_t count = 0;

		CHECK_RC(dq_sim_fluid_run(f, &load, now, DQ_SIM_NS_PER_S, 0, &out));
		now += out.interval_ns;
		for (uint32_t i = 0; i < out.point_count[1]; i++) {
			sum += (double)out.points[1][i].ns * out.points[1][i].count;
			count += out.points[1][i].count;
		}
		CHECK(count == out.ios[1]);
		CHECK(out.bytes[1] == out.ios[1] * 4096);
		total += sum;
		/* a second without a stall (5 points around the mean) is closed on its own */
		if (out.ios[1] > 1000 && out.point_count[1] == 5) {
			CHECK(fabs(sum / (QD * 1e9) - 1.0) < 0.02);
			closed++;
		}
	}
	printf("%s: latency sum / (QD x 900 s) = %.4f, %u seconds closed on their own\n", name,
	       total / (QD * 900e9), closed);
	CHECK(fabs(total / (QD * 900e9) - 1.0) < 0.02);
	dq_sim_fluid_destroy(f);
}

/* Purge brings the fresh-out-of-box rate back; idle lets background GC refill the free pool. */
static void test_purge_and_idle(void)
{
	struct dq_sim_profile p;
	struct dq_sim_fluid *f;
	struct dq_sim_fluid_load load;
	struct sim_series s;
	double fob, steady, recovered;
	uint64_t now;

	sim_test_load("test-client-7pct", &p);
	f = fluid_drive(&p);
	load = random_write(&p, 1.0);
	sim_series_init(&s, NULL, 600);
	now = fluid_fill(f, &p, 0);
	now = fluid_run(f, &load, 600, now, &s);
	fob = s.iops[1];
	steady = sim_series_mean(&s, 540, 600);
	dq_sim_fluid_idle(f, now, now + 1800 * DQ_SIM_NS_PER_S);
	now += 1800 * DQ_SIM_NS_PER_S;
	now = fluid_run(f, &load, 60, now, &s);
	recovered = sim_series_mean(&s, 0, 60);
	printf("fluid: FOB %.0f, steady %.0f, first 60 s after 30 min idle %.0f IOPS\n", fob,
	       steady, recovered);
	CHECK(fob > 3.0 * steady);
	CHECK(recovered > 1.2 * steady);
	CHECK_RC(dq_sim_fluid_purge(f, now, &now));
	fluid_run(f, &load, 10, now, &s);
	CHECK(fabs(sim_series_mean(&s, 2, 10) / fob - 1.0) < 0.05);
	sim_series_free(&s);
	dq_sim_fluid_destroy(f);
}

/*
 * A sequential overwrite of a filled drive (SNIA's throughput test after its WIPC) frees whole
 * blocks as it goes, as on the FTL: no second of one and a half passes stalls on garbage
 * collection, and the rate stays the fill's. Random writes that interrupt the pass (the switch of
 * stimulus of cross-stimulus recovery) find the part of the last pass it overwrote invalid: they
 * run at least about as fast as right after a fill.
 */
static void test_sequential_overwrite(const char *name)
{
	struct dq_sim_profile p;
	struct dq_sim_fluid *f, *filled;
	struct dq_sim_fluid_load load = { .sequential = 1,
					  .block_bytes = 1048576,
					  .queue_depth = QD };
	struct dq_sim_fluid_load random;
	struct dq_sim_fluid_interval out;
	struct sim_series after_pass, after_fill;
	double first = 0, slowest = 0;
	uint64_t now, written = 0;
	uint32_t t;

	sim_test_load(name, &p);
	f = fluid_drive(&p);
	load.range_bytes = p.user_bytes / 4096 * 4096;
	random = random_write(&p, 1.0);
	now = fluid_fill(f, &p, 0);
	for (t = 1; written < 3 * load.range_bytes / 2; t++) {
		CHECK_RC(dq_sim_fluid_run(f, &load, now, DQ_SIM_NS_PER_S, 0, &out));
		now += out.interval_ns;
		written += out.bytes[1];
		first = t == 1 ? (double)out.bytes[1] : first;
		slowest = t == 1 || out.bytes[1] < slowest ? (double)out.bytes[1] : slowest;
	}
	sim_series_init(&after_pass, NULL, 60);
	sim_series_init(&after_fill, NULL, 60);
	fluid_run(f, &random, 60, now, &after_pass);
	filled = fluid_drive(&p);
	fluid_run(filled, &random, 60, fluid_fill(filled, &p, 0), &after_fill);
	printf("%s: 1.5 sequential 1 MiB passes after a fill in %u s, first second %.1f MB, slowest "
	       "%.1f MB; then 4 KiB random writes %.0f IOPS (%.0f right after a fill)\n",
	       name, t - 1, first / 1e6, slowest / 1e6, sim_series_mean(&after_pass, 0, 60),
	       sim_series_mean(&after_fill, 0, 60));
	CHECK(slowest > 0.8 * first);
	CHECK(sim_series_mean(&after_pass, 0, 60) >= 0.95 * sim_series_mean(&after_fill, 0, 60));
	sim_series_free(&after_pass);
	sim_series_free(&after_fill);
	dq_sim_fluid_destroy(filled);
	dq_sim_fluid_destroy(f);
}

int main(void)
{
	test_against_ftl("test-client-7pct", 2400);
	test_against_ftl("test-enterprise-eager", 1200);
	test_filled_against_ftl("test-client-7pct", 1200);
	test_filled_against_ftl("test-enterprise-eager", 1200);
	test_little("test-client-7pct");
	test_little("test-enterprise-eager");
	test_purge_and_idle();
	test_sequential_overwrite("test-enterprise-eager");
	test_sequential_overwrite("test-client-7pct");
	return 0;
}
