/*
 * The workloads and statistics the simulator's tests share, so each test file states only what it
 * asserts (see sim_test.h).
 */
#include <math.h>
#include <string.h>

#include "sim_test.h"

void sim_test_load(const char *name, struct dq_sim_profile *profile)
{
	char err[256];

	if (dq_sim_profile_load_name(DQ_SIM_PROFILES_DIR, name, profile, err, sizeof(err)) != 0) {
		fprintf(stderr, "profile %s: %s\n", name, err);
		exit(1);
	}
}

struct dq_sim_drive *sim_test_drive(const struct dq_sim_profile *profile)
{
	struct dq_sim_drive *d = NULL;

	CHECK_RC(dq_sim_drive_create(profile, 42, &d));
	return d;
}

void sim_series_init(struct sim_series *s, struct dq_sim_drive *drive, uint32_t cap)
{
	memset(s, 0, sizeof(*s));
	s->iops = calloc(cap, sizeof(*s->iops));
	CHECK(s->iops != NULL);
	s->cap = cap;
	s->drive = drive;
}

void sim_series_free(struct sim_series *s)
{
	free(s->iops);
	s->iops = NULL;
}

int sim_series_record(const struct dq_sim_second *second, void *arg)
{
	struct sim_series *s = arg;

	if (second->t > s->cap)
		return 0;
	s->iops[second->t - 1] =
		(double)(second->read_ios + second->write_ios) * 1e9 / (double)second->interval_ns;
	if (second->t > s->n)
		s->n = second->t;
	if (s->snapshot_at != 0 && second->t == s->snapshot_at)
		dq_sim_drive_smart(s->drive, &s->snapshot);
	return 0;
}

double sim_series_mean(const struct sim_series *s, uint32_t from, uint32_t to)
{
	double sum = 0;

	CHECK(from < to && to <= s->n);
	for (uint32_t i = from; i < to; i++)
		sum += s->iops[i];
	return sum / (to - from);
}

double sim_series_cv(const struct sim_series *s, uint32_t from, uint32_t to)
{
	double mean = sim_series_mean(s, from, to), sq = 0;

	for (uint32_t i = from; i < to; i++)
		sq += (s->iops[i] - mean) * (s->iops[i] - mean);
	return sqrt(sq / (to - from)) / mean;
}

double sim_series_mbps(const struct sim_series *s, uint32_t from, uint32_t to, uint32_t block_bytes)
{
	return sim_series_mean(s, from, to) * block_bytes / 1e6;
}

uint64_t sim_test_fill(struct dq_sim_drive *d, double range_fraction, uint64_t now_ns)
{
	struct dq_sim_identify id;
	struct dq_sim_run_result res;
	struct dq_sim_workload fill = {
		.pattern = DQ_SIM_PATTERN_SEQWRITE,
		.block_bytes = 131072,
		.queue_depth = 32,
		.range_fraction = range_fraction,
		.seed = 1,
	};

	dq_sim_drive_identify(d, &id);
	fill.bytes_limit =
		(uint64_t)(range_fraction * id.user_bytes) / fill.block_bytes * fill.block_bytes;
	CHECK_RC(dq_sim_run_closed_loop(d, &fill, now_ns, NULL, NULL, &res));
	return res.end_ns;
}

uint64_t sim_test_purge_fill(struct dq_sim_drive *d, double range_fraction, uint64_t now_ns)
{
	uint64_t t;

	CHECK_RC(dq_sim_drive_purge(d, now_ns, &t));
	return sim_test_fill(d, range_fraction, t);
}

uint64_t sim_test_run(struct dq_sim_drive *d, enum dq_sim_pattern pattern, uint32_t block_bytes,
		      double range_fraction, uint32_t seconds, uint64_t now_ns, uint64_t seed,
		      struct sim_series *s)
{
	struct dq_sim_run_result res;
	struct dq_sim_workload w = {
		.pattern = pattern,
		.block_bytes = block_bytes,
		.queue_depth = 32,
		.range_fraction = range_fraction,
		.duration_ns = (uint64_t)seconds * DQ_SIM_NS_PER_S,
		.seed = seed,
	};

	CHECK_RC(dq_sim_run_closed_loop(d, &w, now_ns, s ? sim_series_record : NULL, s, &res));
	CHECK(res.seconds == seconds);
	return res.end_ns;
}

double sim_test_waf(const struct dq_sim_smart *before, const struct dq_sim_smart *after)
{
	double host = (double)(after->data_units_written - before->data_units_written) * 512000.0;
	double nand = (double)(after->physical_media_units_written_bytes -
			       before->physical_media_units_written_bytes);

	CHECK(host > 0);
	return nand / host;
}

double sim_test_consistency(const struct dq_sim_profile *profile, double range_fraction,
			    uint32_t seconds, uint32_t window_from, struct sim_series *s)
{
	struct dq_sim_drive *d = sim_test_drive(profile);
	struct dq_sim_smart end;
	uint64_t t;
	double waf;

	sim_series_init(s, d, seconds);
	s->snapshot_at = window_from;
	t = sim_test_purge_fill(d, range_fraction, 0);
	sim_test_run(d, DQ_SIM_PATTERN_RANDWRITE, 4096, range_fraction, seconds, t, 7, s);
	dq_sim_drive_smart(d, &end);
	waf = sim_test_waf(&s->snapshot, &end);
	s->drive = NULL;
	dq_sim_drive_destroy(d);
	return waf;
}
