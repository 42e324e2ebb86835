/*
 * Shared helpers for the simulator's tests: assertions that name the failing line, profile loading
 * from the source tree, and the catalog's workloads (purge, sequential fill, random write for N
 * seconds) with their per-second IOPS series and SMART-based WAF.
 */
#ifndef DQ_SIM_TEST_H
#define DQ_SIM_TEST_H

#include <stdio.h>
#include <stdlib.h>

#include "dq_sim.h"

#define CHECK(cond)                                                                              \
	do {                                                                                     \
		if (!(cond)) {                                                                   \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
			exit(1);                                                                 \
		}                                                                                \
	} while (0)

#define CHECK_RC(expr) CHECK((expr) == 0)

/* Per-second IOPS of one run: iops[t-1] is the sample with end time t. */
struct sim_series {
	double *iops;
	uint32_t n;
	uint32_t cap;
	struct dq_sim_drive *drive;
	uint32_t snapshot_at; /* SMART snapshot taken when second snapshot_at is reported */
	struct dq_sim_smart snapshot;
};

void sim_test_load(const char *name, struct dq_sim_profile *profile);
struct dq_sim_drive *sim_test_drive(const struct dq_sim_profile *profile);

void sim_series_init(struct sim_series *s, struct dq_sim_drive *drive, uint32_t cap);
void sim_series_free(struct sim_series *s);
int sim_series_record(const struct dq_sim_second *second, void *arg);

/* Mean and coefficient of variation of iops[from, to) (0-based indices). */
double sim_series_mean(const struct sim_series *s, uint32_t from, uint32_t to);
double sim_series_cv(const struct sim_series *s, uint32_t from, uint32_t to);

/* Writes the first range_fraction of the LBAs once, 128 KiB QD32; returns the end time. */
uint64_t sim_test_fill(struct dq_sim_drive *d, double range_fraction, uint64_t now_ns);
/* Purges at now_ns, then sim_test_fill(). */
uint64_t sim_test_purge_fill(struct dq_sim_drive *d, double range_fraction, uint64_t now_ns);

/* A closed loop for seconds; records the series when s is not NULL. Returns the end time. */
uint64_t sim_test_run(struct dq_sim_drive *d, enum dq_sim_pattern pattern, uint32_t block_bytes,
		      double range_fraction, uint32_t seconds, uint64_t now_ns, uint64_t seed,
		      struct sim_series *s);

/* Host MB/s (10^6 bytes) of a series over [from, to) for a fixed block size. */
double sim_series_mbps(const struct sim_series *s, uint32_t from, uint32_t to,
		       uint32_t block_bytes);

/* WAF between two SMART snapshots, computed as the service does for a real drive. */
double sim_test_waf(const struct dq_sim_smart *before, const struct dq_sim_smart *after);

/*
 * The catalog's consistency-2000s workload: purge, 128 KiB sequential fill of the range, 4 KiB random
 * write QD32 over the range for `seconds`. Fills s (snapshot at window_from) and returns the WAF over
 * seconds > window_from.
 */
double sim_test_consistency(const struct dq_sim_profile *profile, double range_fraction,
			    uint32_t seconds, uint32_t window_from, struct sim_series *s);

#endif /* DQ_SIM_TEST_H */
