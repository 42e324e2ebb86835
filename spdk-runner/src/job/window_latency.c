/*
 * A phase with rounds keeps its last five rounds' step histograms here, each as its non-empty
 * buckets (the contract's latencyHistogram form: a QD1 step fills a few hundred of the layout's
 * 7,296 counts, ~58 KiB dense) with the exact sum of its latencies, and merges a window's rounds
 * per step with the runner's own histogram (io/histogram.c). The merged counts are exactly those
 * of one histogram of all the window's IOs, so its percentiles are that histogram's; mean and
 * maximum come from the exact sums and maxima, not from the buckets.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "window_latency.h"

enum { DIR_READ, DIR_WRITE, DIRECTIONS };

/* One direction of one step in one round. */
struct kept {
	struct dq_latency_histogram buckets; /* total_count 0: no IO */
	__extension__ unsigned __int128 sum_ns;
};

struct kept_round {
	bool begun;
	uint32_t round;
	struct kept steps[DQ_ROUND_STEPS_MAX][DIRECTIONS];
};

struct dq_window_keeper {
	size_t step_count;
	struct kept_round rounds[DQ_WINDOW_ROUNDS]; /* round r in slot r % DQ_WINDOW_ROUNDS */
};

static void drop_round(struct kept_round *slot)
{
	size_t step;
	int d;

	for (step = 0; step < DQ_ROUND_STEPS_MAX; step++) {
		for (d = 0; d < DIRECTIONS; d++) {
			dq_histogram_export_fini(&slot->steps[step][d].buckets);
		}
	}
	memset(slot, 0, sizeof(*slot));
}

struct dq_window_keeper *dq_window_keeper_new(size_t step_count)
{
	struct dq_window_keeper *keeper;

	if (step_count > DQ_ROUND_STEPS_MAX) {
		return NULL;
	}
	keeper = calloc(1, sizeof(*keeper));
	if (keeper != NULL) {
		keeper->step_count = step_count;
	}
	return keeper;
}

void dq_window_keeper_free(struct dq_window_keeper *keeper)
{
	size_t i;

	if (keeper == NULL) {
		return;
	}
	for (i = 0; i < DQ_WINDOW_ROUNDS; i++) {
		drop_round(&keeper->rounds[i]);
	}
	free(keeper);
}

void dq_window_begin_round(struct dq_window_keeper *keeper, uint32_t round)
{
	struct kept_round *slot = &keeper->rounds[round % DQ_WINDOW_ROUNDS];

	drop_round(slot);
	slot->begun = true;
	slot->round = round;
}

int dq_window_keep(struct dq_window_keeper *keeper, uint32_t round, uint32_t step,
		   const struct dq_histogram *read, const struct dq_histogram *write)
{
	struct kept_round *slot = &keeper->rounds[round % DQ_WINDOW_ROUNDS];
	const struct dq_histogram *from[DIRECTIONS] = { read, write };
	struct kept *kept;
	int d, rc;

	if (step >= keeper->step_count || !slot->begun || slot->round != round) {
		return -EINVAL;
	}
	for (d = 0; d < DIRECTIONS; d++) {
		kept = &slot->steps[step][d];
		dq_histogram_export_fini(&kept->buckets);
		memset(kept, 0, sizeof(*kept));
		rc = dq_histogram_export(from[d], &kept->buckets);
		if (rc != 0) {
			return rc;
		}
		kept->sum_ns = dq_histogram_sum_ns(from[d]);
	}
	return 0;
}

/* IOs, exact mean and maximum, and the percentiles of a merged histogram. */
static void figures_of(const struct dq_histogram *h, unsigned __int128 sum_ns,
		       struct dq_latency_figures *f)
{
	f->ios = h->total_count;
	f->mean_ns = (uint64_t)(sum_ns / h->total_count);
	f->p99_ns = dq_histogram_percentile_capped(h, 99.0);
	f->p999_ns = dq_histogram_percentile_capped(h, 99.9);
	f->p99999_ns = dq_histogram_percentile_capped(h, 99.999);
	f->max_ns = dq_histogram_max(h);
}

/* merged[d] gets step's direction d over the window's rounds, sums[d] its exact sum. */
static int merge_step(const struct dq_window_keeper *keeper, uint32_t first, uint32_t last,
		      uint32_t step, struct dq_histogram *scratch, struct dq_histogram *merged,
		      unsigned __int128 *sums)
{
	const struct kept *kept;
	uint32_t round;
	int d, rc;

	for (d = 0; d < DIRECTIONS; d++) {
		dq_histogram_reset(&merged[d]);
		sums[d] = 0;
		for (round = first; round <= last; round++) {
			kept = &keeper->rounds[round % DQ_WINDOW_ROUNDS].steps[step][d];
			if (kept->buckets.total_count == 0) {
				continue;
			}
			rc = dq_histogram_import(scratch, &kept->buckets);
			if (rc != 0) {
				return rc;
			}
			dq_histogram_merge(&merged[d], scratch);
			sums[d] += kept->sum_ns;
		}
	}
	return 0;
}

int dq_window_latency(const struct dq_window_keeper *keeper, uint32_t first, uint32_t last,
		      struct dq_window_latency *out)
{
	/* scratch, then read, write and both directions */
	struct dq_histogram *h = malloc(4 * sizeof(*h));
	struct dq_histogram *merged = h + 1, *total = h + 3;
	struct dq_step_window_latency *entry;
	unsigned __int128 sums[DIRECTIONS];
	const struct kept_round *slot;
	uint32_t round, step;
	int i, rc = 0;

	if (h == NULL) {
		return -ENOMEM;
	}
	for (i = 0; i < 4; i++) {
		dq_histogram_init(&h[i]);
	}
	memset(out, 0, sizeof(*out));
	out->first_round = first;
	out->last_round = last;
	if (last < first || last - first >= DQ_WINDOW_ROUNDS) {
		rc = -EINVAL;
		goto out;
	}
	for (round = first; round <= last; round++) {
		slot = &keeper->rounds[round % DQ_WINDOW_ROUNDS];
		if (!slot->begun || slot->round != round) {
			rc = -EINVAL;
			goto out;
		}
	}
	for (step = 0; step < keeper->step_count; step++) {
		rc = merge_step(keeper, first, last, step, h, merged, sums);
		if (rc != 0) {
			goto out;
		}
		if (merged[DIR_READ].total_count + merged[DIR_WRITE].total_count == 0) {
			continue; /* an idle step, or one that completed no IO in the window */
		}
		dq_histogram_reset(total);
		dq_histogram_merge(total, &merged[DIR_READ]);
		dq_histogram_merge(total, &merged[DIR_WRITE]);
		entry = &out->steps[out->step_count++];
		entry->step = step;
		entry->has_read = merged[DIR_READ].total_count > 0;
		if (entry->has_read) {
			figures_of(&merged[DIR_READ], sums[DIR_READ], &entry->read);
		}
		entry->has_write = merged[DIR_WRITE].total_count > 0;
		if (entry->has_write) {
			figures_of(&merged[DIR_WRITE], sums[DIR_WRITE], &entry->write);
		}
		figures_of(total, sums[DIR_READ] + sums[DIR_WRITE], &entry->total);
	}
out:
	free(h);
	return rc;
}
