/*
 * bench_sim: how fast the simulator runs the 2000 s consistency workload (purge, 128 KiB sequential
 * fill, 4 KiB random write QD32) on a full-size profile, as simulated seconds per wall second for
 * the fresh-out-of-box part and for steady state, plus peak RSS. It also prints the drive's
 * numbers (FOB and steady IOPS, CV, WAF, seconds at 0 IOPS and the slowest IO in the steady
 * window), which docs/simulator.md's tables come from; --trace prints every second.
 *
 * It ends with a digest of everything the drive reported: every second's counts, bytes and latency
 * sum and maximum, its SMART counters at every second, the erase count of every superblock at the
 * end. A change that makes the model faster must leave it as it was (bench/speed.sh checks it against
 * bench/speed-digests.txt); a change to what the drive does changes it.
 *
 *   bench_sim [--profile NAME|PATH] [--seconds N] [--range F] [--eagerness E] [--seed S] [--trace]
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "dq_sim.h"

struct bench_opts {
	const char *profile;
	uint32_t seconds;
	double range;
	double eagerness; /* < 0: the profile's */
	uint64_t seed;
	int trace;
};

struct bench_run {
	struct dq_sim_drive *drive;
	uint32_t seconds;
	uint32_t steady_from; /* seconds with t > steady_from form the steady window */
	double *iops;
	double *latency_max_ms; /* the slowest IO that completed in second t */
	double *wall_s; /* wall clock when second t was reported */
	double *cpu_s; /* process CPU time then: immune to other load on the machine */
	struct dq_sim_smart smart_steady;
	uint64_t digest; /* FNV-1a 64 of what the drive reported, field by field */
	int trace;
};

static void bench_digest_u64(uint64_t *h, uint64_t v)
{
	for (int i = 0; i < 8; i++, v >>= 8)
		*h = (*h ^ (v & 0xff)) * 0x100000001b3ull;
}

static void bench_digest_smart(uint64_t *h, const struct dq_sim_smart *s)
{
	const uint64_t fields[] = {
		s->data_units_written,
		s->data_units_read,
		s->host_write_commands,
		s->host_read_commands,
		s->percentage_used,
		s->critical_warning,
		s->temperature_k,
		s->warning_temperature_time_min,
		s->critical_temperature_time_min,
		s->throttle_transitions,
		s->throttle_time_s,
		s->power_on_hours,
		s->physical_media_units_written_bytes,
		s->physical_media_units_read_bytes,
		s->nand_erase_count,
		s->host_write_bytes,
		s->host_read_bytes,
		s->erase_count_min,
		s->erase_count_max,
	};

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		bench_digest_u64(h, fields[i]);
}

static double bench_clock_s(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double bench_now_s(void)
{
	return bench_clock_s(CLOCK_MONOTONIC);
}

static double bench_cpu_s(void)
{
	return bench_clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

static double bench_timeval_s(struct timeval tv)
{
	return tv.tv_sec + tv.tv_usec / 1e6;
}

/*
 * The run's CPU time split into the model's own (user) and the kernel's (system: mostly zeroing
 * table pages the run touches first, a one-off cost that depends on the machine).
 */
static void bench_report_cpu_split(const struct rusage *from, const struct rusage *to)
{
	printf("cpu (run, fill excluded): user=%.2fs sys=%.2fs\n",
	       bench_timeval_s(to->ru_utime) - bench_timeval_s(from->ru_utime),
	       bench_timeval_s(to->ru_stime) - bench_timeval_s(from->ru_stime));
}

static long bench_rss_peak_kib(void)
{
	char line[256];
	long kib = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "VmHWM:", 6) == 0)
			kib = strtol(line + 6, NULL, 10);
	}
	fclose(f);
	return kib;
}

static int bench_second(const struct dq_sim_second *s, void *arg)
{
	struct bench_run *run = arg;
	struct dq_sim_smart smart;
	const uint64_t fields[] = {
		s->t,	       s->interval_ns, s->read_ios,	  s->write_ios,
		s->read_bytes, s->write_bytes, s->latency_sum_ns, s->latency_max_ns,
	};

	if (s->t > run->seconds)
		return 0;
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		bench_digest_u64(&run->digest, fields[i]);
	dq_sim_drive_smart(run->drive, &smart);
	bench_digest_smart(&run->digest, &smart);
	run->iops[s->t - 1] = (double)(s->read_ios + s->write_ios) * 1e9 / s->interval_ns;
	run->latency_max_ms[s->t - 1] = s->latency_max_ns / 1e6;
	run->wall_s[s->t - 1] = bench_now_s();
	run->cpu_s[s->t - 1] = bench_cpu_s();
	if (s->t == run->steady_from)
		dq_sim_drive_smart(run->drive, &run->smart_steady);
	if (run->trace)
		printf("t=%u iops=%.0f maxlat_ms=%.2f\n", s->t, run->iops[s->t - 1],
		       s->latency_max_ns / 1e6);
	return 0;
}

static int bench_parse(int argc, char **argv, struct bench_opts *o)
{
	o->profile = "client-7pct";
	o->seconds = 2000;
	o->range = 1.0;
	o->eagerness = -1.0;
	o->seed = 1;
	o->trace = 0;
	for (int i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(argv[i], "--trace") == 0) {
			o->trace = 1;
			continue;
		}
		if (v == NULL)
			return -EINVAL;
		if (strcmp(argv[i], "--profile") == 0)
			o->profile = v;
		else if (strcmp(argv[i], "--seconds") == 0)
			o->seconds = (uint32_t)strtoul(v, NULL, 10);
		else if (strcmp(argv[i], "--range") == 0)
			o->range = strtod(v, NULL);
		else if (strcmp(argv[i], "--eagerness") == 0)
			o->eagerness = strtod(v, NULL);
		else if (strcmp(argv[i], "--seed") == 0)
			o->seed = strtoull(v, NULL, 10);
		else
			return -EINVAL;
		i++;
	}
	return o->seconds >= 10 ? 0 : -EINVAL;
}

static int bench_load(const struct bench_opts *o, struct dq_sim_profile *p)
{
	char err[256];
	int rc;

	if (strchr(o->profile, '/') != NULL || strstr(o->profile, ".json") != NULL)
		rc = dq_sim_profile_load(o->profile, p, err, sizeof(err));
	else
		rc = dq_sim_profile_load_name(DQ_SIM_PROFILES_DIR, o->profile, p, err, sizeof(err));
	if (rc != 0) {
		fprintf(stderr, "bench_sim: %s\n", err);
		return rc;
	}
	if (o->eagerness >= 0.0) {
		p->eagerness = o->eagerness;
		rc = dq_sim_profile_validate(p, err, sizeof(err));
		if (rc != 0)
			fprintf(stderr, "bench_sim: %s\n", err);
	}
	return rc;
}

static void bench_report(const struct bench_opts *o, struct bench_run *run, double fill_wall_s,
			 double run_start_wall_s, double run_start_cpu_s,
			 const struct dq_sim_smart *end)
{
	uint32_t n = run->seconds, fob_end = n, steady_n = n - run->steady_from;
	double fob_ref = run->iops[0], sum = 0, sq = 0, mean, fob = 0, fob_wall, steady_wall, waf;
	double fob_cpu, steady_cpu, total_cpu, latency_max_ms = 0;
	uint32_t zero_seconds = 0;
	double host, nand;

	for (uint32_t t = 1; t < n; t++) {
		if (run->iops[t] < 0.5 * fob_ref) {
			fob_end = t;
			break;
		}
	}
	for (uint32_t t = 0; t < fob_end && t < 5; t++)
		fob += run->iops[t] / (fob_end < 5 ? fob_end : 5);
	for (uint32_t t = run->steady_from; t < n; t++) {
		sum += run->iops[t];
		sq += run->iops[t] * run->iops[t];
		zero_seconds += run->iops[t] == 0;
		latency_max_ms = fmax(latency_max_ms, run->latency_max_ms[t]);
	}
	mean = sum / steady_n;
	fob_wall = run->wall_s[fob_end - 1] - run_start_wall_s;
	steady_wall = run->wall_s[n - 1] - run->wall_s[run->steady_from - 1];
	fob_cpu = run->cpu_s[fob_end - 1] - run_start_cpu_s;
	steady_cpu = run->cpu_s[n - 1] - run->cpu_s[run->steady_from - 1];
	total_cpu = run->cpu_s[n - 1] - run_start_cpu_s;
	host = (double)(end->data_units_written - run->smart_steady.data_units_written) * 512000.0;
	nand = (double)(end->physical_media_units_written_bytes -
			run->smart_steady.physical_media_units_written_bytes);
	waf = host > 0 ? nand / host : 0;
	printf("profile=%s range=%.2f seconds=%u\n", o->profile, o->range, n);
	printf("fob_iops=%.0f fob_seconds=%u steady_iops=%.0f steady_cv=%.3f steady_waf=%.2f "
	       "(window t>%u)\n",
	       fob, fob_end, mean, sqrt(fmax(0.0, sq / steady_n - mean * mean)) / mean, waf,
	       run->steady_from);
	printf("steady_zero_seconds=%u/%u steady_latency_max_ms=%.1f\n", zero_seconds, steady_n,
	       latency_max_ms);
	printf("wall: fill=%.2fs fob=%.2fs steady_window=%.2fs total_run=%.2fs\n", fill_wall_s,
	       fob_wall, steady_wall, run->wall_s[n - 1] - run_start_wall_s);
	printf("speed (simulated s / wall s): fob=%.0fx steady=%.0fx overall=%.0fx\n",
	       fob_end / fmax(fob_wall, 1e-9), steady_n / fmax(steady_wall, 1e-9),
	       n / fmax(run->wall_s[n - 1] - run_start_wall_s, 1e-9));
	printf("speed (simulated s / CPU s):  fob=%.0fx steady=%.0fx overall=%.0fx\n",
	       fob_end / fmax(fob_cpu, 1e-9), steady_n / fmax(steady_cpu, 1e-9),
	       n / fmax(total_cpu, 1e-9));
	printf("rss_peak=%ld MiB\n", bench_rss_peak_kib() / 1024);
}

/* The digest's last part: both phases' totals and every superblock's erase count. */
static int bench_digest_end(struct bench_run *run, const struct dq_sim_run_result *fill,
			    const struct dq_sim_run_result *rand)
{
	const struct dq_sim_run_result *phases[] = { fill, rand };
	size_t blocks = dq_sim_drive_erase_counts(run->drive, NULL, 0);
	uint32_t *counts = calloc(blocks, sizeof(*counts));

	if (counts == NULL)
		return -ENOMEM;
	for (size_t i = 0; i < 2; i++) {
		const struct dq_sim_run_result *r = phases[i];
		const uint64_t fields[] = {
			r->start_ns,   r->end_ns,      r->read_ios,	  r->write_ios,
			r->read_bytes, r->write_bytes, r->latency_max_ns, r->seconds,
		};

		for (size_t f = 0; f < sizeof(fields) / sizeof(fields[0]); f++)
			bench_digest_u64(&run->digest, fields[f]);
	}
	dq_sim_drive_erase_counts(run->drive, counts, blocks);
	for (size_t b = 0; b < blocks; b++)
		bench_digest_u64(&run->digest, counts[b]);
	free(counts);
	return 0;
}

int main(int argc, char **argv)
{
	struct bench_opts o;
	struct dq_sim_profile p;
	struct bench_run run = { 0 };
	struct dq_sim_run_result fill_res, res;
	struct dq_sim_smart end;
	struct dq_sim_workload fill = { .pattern = DQ_SIM_PATTERN_SEQWRITE,
					.block_bytes = 131072,
					.queue_depth = 32 };
	struct dq_sim_workload rand = { .pattern = DQ_SIM_PATTERN_RANDWRITE,
					.block_bytes = 4096,
					.queue_depth = 32 };
	uint64_t t;
	double w0, w1, c1;
	struct rusage ru_run, ru_end;
	int rc = 1;

	if (bench_parse(argc, argv, &o) != 0) {
		fprintf(stderr, "usage: bench_sim [--profile NAME|PATH] [--seconds N] [--range F] "
				"[--eagerness E] [--seed S] [--trace]\n");
		return 2;
	}
	if (bench_load(&o, &p) != 0)
		return 1;
	if (dq_sim_drive_create(&p, o.seed, &run.drive) != 0) {
		fprintf(stderr, "bench_sim: cannot create the drive\n");
		return 1;
	}
	run.seconds = o.seconds;
	run.digest = 0xcbf29ce484222325ull; /* FNV-1a 64 offset basis */
	run.steady_from = o.seconds * 7 / 10;
	run.trace = o.trace;
	run.iops = calloc(o.seconds, sizeof(*run.iops));
	run.wall_s = calloc(o.seconds, sizeof(*run.wall_s));
	run.cpu_s = calloc(o.seconds, sizeof(*run.cpu_s));
	run.latency_max_ms = calloc(o.seconds, sizeof(*run.latency_max_ms));
	if (run.iops == NULL || run.wall_s == NULL || run.cpu_s == NULL ||
	    run.latency_max_ms == NULL)
		goto out;

	w0 = bench_now_s();
	dq_sim_drive_purge(run.drive, 0, &t);
	fill.range_fraction = rand.range_fraction = o.range;
	fill.bytes_limit = (uint64_t)(o.range * p.user_bytes) / fill.block_bytes * fill.block_bytes;
	fill.seed = o.seed;
	if (dq_sim_run_closed_loop(run.drive, &fill, t, NULL, NULL, &fill_res) != 0)
		goto out;
	w1 = bench_now_s();
	c1 = bench_cpu_s();
	getrusage(RUSAGE_SELF, &ru_run);
	rand.duration_ns = (uint64_t)o.seconds * DQ_SIM_NS_PER_S;
	rand.seed = o.seed + 1;
	if (dq_sim_run_closed_loop(run.drive, &rand, fill_res.end_ns, bench_second, &run, &res) !=
	    0)
		goto out;
	getrusage(RUSAGE_SELF, &ru_end);
	dq_sim_drive_smart(run.drive, &end);
	bench_report(&o, &run, w1 - w0, w1, c1, &end);
	bench_report_cpu_split(&ru_run, &ru_end);
	if (bench_digest_end(&run, &fill_res, &res) != 0)
		goto out;
	printf("digest=%016llx (seed %llu)\n", (unsigned long long)run.digest,
	       (unsigned long long)o.seed);
	rc = 0;
out:
	free(run.latency_max_ms);
	free(run.cpu_s);
	free(run.wall_s);
	free(run.iops);
	dq_sim_drive_destroy(run.drive);
	return rc;
}
