/*
 * sim_truth: the known truth the steady-state rule is judged against. One simulated drive, the
 * seeds' workload (purge; 128 KiB sequential fill of the tested range; 4 KiB random write QD32
 * over the range), run on until the random writes reach --drive-writes times the tested range
 * (SNIA's write-saturation amount is 4) and for at least --min-seconds. Prints one CSV line per
 * second with the drive's own media-write counter (OCP C0h physical media units written), so a
 * test of any length is a prefix of the run and the truth is the mean after 4 x the range.
 *
 *   sim_truth --profile NAME|PATH [--user-bytes B] [--spare-pct P] [--channels N]
 *             [--dies-per-channel N] [--eagerness E] [--no-thermal] [--range F] [--seed S]
 *             [--drive-writes W] [--min-seconds N]
 *
 * Lines: "# key=value" facts, then "t,ios,write_bytes,media_bytes,host_bytes" where the last two
 * are the drive's counters at the end of second t (bytes since the drive was created).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dq_sim.h"

struct truth_opts {
	const char *profile;
	uint64_t user_bytes; /* 0: the profile's */
	double spare_pct; /* < 0: the profile's */
	uint32_t channels; /* 0: the profile's */
	uint32_t dies_per_channel;
	double eagerness; /* < 0: the profile's */
	int no_thermal;
	double range;
	uint64_t seed;
	double drive_writes;
	uint32_t min_seconds;
};

struct truth_run {
	struct dq_sim_drive *drive;
	uint64_t target_bytes; /* random writes to reach */
	uint64_t written; /* random writes so far */
	uint32_t min_seconds;
};

static int truth_second(const struct dq_sim_second *s, void *arg)
{
	struct truth_run *run = arg;
	struct dq_sim_smart smart;

	dq_sim_drive_smart(run->drive, &smart);
	run->written += s->write_bytes;
	printf("%u,%llu,%llu,%llu,%llu\n", s->t, (unsigned long long)(s->read_ios + s->write_ios),
	       (unsigned long long)s->write_bytes,
	       (unsigned long long)smart.physical_media_units_written_bytes,
	       (unsigned long long)smart.host_write_bytes);
	if (run->written >= run->target_bytes && s->t >= run->min_seconds)
		return -ECANCELED; /* done: the caller treats this as the normal end */
	return 0;
}

static int truth_parse(int argc, char **argv, struct truth_opts *o)
{
	*o = (struct truth_opts){ .profile = NULL,
				  .spare_pct = -1.0,
				  .eagerness = -1.0,
				  .range = 1.0,
				  .seed = 1,
				  .drive_writes = 5.0,
				  .min_seconds = 7200 };
	for (int i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(argv[i], "--no-thermal") == 0) {
			o->no_thermal = 1;
			continue;
		}
		if (v == NULL)
			return -EINVAL;
		if (strcmp(argv[i], "--profile") == 0)
			o->profile = v;
		else if (strcmp(argv[i], "--user-bytes") == 0)
			o->user_bytes = strtoull(v, NULL, 10);
		else if (strcmp(argv[i], "--spare-pct") == 0)
			o->spare_pct = strtod(v, NULL);
		else if (strcmp(argv[i], "--channels") == 0)
			o->channels = (uint32_t)strtoul(v, NULL, 10);
		else if (strcmp(argv[i], "--dies-per-channel") == 0)
			o->dies_per_channel = (uint32_t)strtoul(v, NULL, 10);
		else if (strcmp(argv[i], "--eagerness") == 0)
			o->eagerness = strtod(v, NULL);
		else if (strcmp(argv[i], "--range") == 0)
			o->range = strtod(v, NULL);
		else if (strcmp(argv[i], "--seed") == 0)
			o->seed = strtoull(v, NULL, 10);
		else if (strcmp(argv[i], "--drive-writes") == 0)
			o->drive_writes = strtod(v, NULL);
		else if (strcmp(argv[i], "--min-seconds") == 0)
			o->min_seconds = (uint32_t)strtoul(v, NULL, 10);
		else
			return -EINVAL;
		i++;
	}
	if (o->profile == NULL || !(o->range > 0.0 && o->range <= 1.0) || !(o->drive_writes > 0.0))
		return -EINVAL;
	return 0;
}

static int truth_load(const struct truth_opts *o, struct dq_sim_profile *p)
{
	char err[256];
	int rc;

	if (strchr(o->profile, '/') != NULL || strstr(o->profile, ".json") != NULL)
		rc = dq_sim_profile_load(o->profile, p, err, sizeof(err));
	else
		rc = dq_sim_profile_load_name(DQ_SIM_PROFILES_DIR, o->profile, p, err, sizeof(err));
	if (rc != 0)
		goto fail;
	if (o->user_bytes > 0) {
		double spare = (double)p->raw_bytes / (double)p->user_bytes;

		p->user_bytes = o->user_bytes / p->lba_bytes * p->lba_bytes;
		p->raw_bytes = (uint64_t)(spare * (double)p->user_bytes);
	}
	if (o->spare_pct >= 0.0)
		p->raw_bytes = (uint64_t)((double)p->user_bytes * (1.0 + o->spare_pct / 100.0));
	if (o->channels > 0)
		p->channels = o->channels;
	if (o->dies_per_channel > 0)
		p->dies_per_channel = o->dies_per_channel;
	if (o->eagerness >= 0.0)
		p->eagerness = o->eagerness;
	if (o->no_thermal)
		p->thermal_enabled = 0;
	rc = dq_sim_profile_validate(p, err, sizeof(err));
	if (rc == 0)
		return 0;
fail:
	fprintf(stderr, "sim_truth: %s\n", err);
	return rc;
}

int main(int argc, char **argv)
{
	struct truth_opts o;
	struct dq_sim_profile p;
	struct dq_sim_identify id;
	struct truth_run run = { 0 };
	struct dq_sim_run_result res;
	struct dq_sim_workload fill = { .pattern = DQ_SIM_PATTERN_SEQWRITE,
					.block_bytes = 131072,
					.queue_depth = 32 };
	struct dq_sim_workload rand = { .pattern = DQ_SIM_PATTERN_RANDWRITE,
					.block_bytes = 4096,
					.queue_depth = 32 };
	uint64_t t, range_bytes;
	int rc;

	if (truth_parse(argc, argv, &o) != 0) {
		fprintf(stderr,
			"usage: sim_truth --profile NAME|PATH [--user-bytes B] [--spare-pct P] "
			"[--channels N] [--dies-per-channel N] [--eagerness E] [--no-thermal] "
			"[--range F] [--seed S] [--drive-writes W] [--min-seconds N]\n");
		return 2;
	}
	if (truth_load(&o, &p) != 0)
		return 1;
	if (dq_sim_drive_create(&p, o.seed, &run.drive) != 0) {
		fprintf(stderr, "sim_truth: cannot create the drive (memory?)\n");
		return 1;
	}
	dq_sim_drive_identify(run.drive, &id);
	range_bytes =
		(uint64_t)(o.range * (double)p.user_bytes) / fill.block_bytes * fill.block_bytes;
	run.target_bytes = (uint64_t)(o.drive_writes * (double)range_bytes);
	run.min_seconds = o.min_seconds;
	printf("# profile=%s\n# user_bytes=%llu\n# raw_bytes=%llu\n# dies=%u\n# eagerness=%.2f\n"
	       "# thermal=%d\n# range=%.4f\n# range_bytes=%llu\n# seed=%llu\n",
	       p.name, (unsigned long long)id.user_bytes, (unsigned long long)id.raw_bytes,
	       p.channels * p.dies_per_channel, p.eagerness, p.thermal_enabled, o.range,
	       (unsigned long long)range_bytes, (unsigned long long)o.seed);
	dq_sim_drive_purge(run.drive, 0, &t);
	fill.range_fraction = rand.range_fraction = o.range;
	fill.bytes_limit = range_bytes;
	fill.seed = o.seed;
	rc = dq_sim_run_closed_loop(run.drive, &fill, t, NULL, NULL, &res);
	if (rc != 0)
		goto out;
	printf("t,ios,write_bytes,media_bytes,host_bytes\n");
	rand.seed = o.seed + 1;
	rand.duration_ns = 30ull * 24 * 3600 * DQ_SIM_NS_PER_S; /* the callback ends the run */
	rc = dq_sim_run_closed_loop(run.drive, &rand, res.end_ns, truth_second, &run, &res);
	if (rc == -ECANCELED)
		rc = 0;
out:
	dq_sim_drive_destroy(run.drive);
	return rc == 0 ? 0 : 1;
}
