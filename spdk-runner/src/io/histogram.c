/*
 * HdrHistogram's arithmetic for the runner's fixed layout (2 significant digits, 1 ns unit), kept
 * to what a phase needs: record (inline in the header), merge, percentiles and the contract export.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/histogram.h"

static uint32_t bucket_of_index(uint32_t index)
{
	uint32_t bucket_plus_one = index >> DQ_HISTOGRAM_SUB_BUCKET_HALF_MAGNITUDE;

	return bucket_plus_one == 0 ? 0 : bucket_plus_one - 1;
}

uint64_t dq_histogram_value_from_index(uint32_t index)
{
	int64_t bucket = (int64_t)(index >> DQ_HISTOGRAM_SUB_BUCKET_HALF_MAGNITUDE) - 1;
	uint64_t sub_bucket = (index & (DQ_HISTOGRAM_SUB_BUCKET_HALF_COUNT - 1)) +
			      DQ_HISTOGRAM_SUB_BUCKET_HALF_COUNT;

	if (bucket < 0) {
		sub_bucket -= DQ_HISTOGRAM_SUB_BUCKET_HALF_COUNT;
		bucket = 0;
	}
	return sub_bucket << bucket;
}

uint64_t dq_histogram_lowest_equivalent(uint64_t value_ns)
{
	return dq_histogram_value_from_index(dq_histogram_index_of(value_ns));
}

static uint64_t highest_equivalent_of_index(uint32_t index)
{
	return dq_histogram_value_from_index(index) + (((uint64_t)1 << bucket_of_index(index)) - 1);
}

uint64_t dq_histogram_highest_equivalent(uint64_t value_ns)
{
	return highest_equivalent_of_index(dq_histogram_index_of(value_ns));
}

void dq_histogram_init(struct dq_histogram *h)
{
	memset(h, 0, sizeof(*h));
	dq_histogram_reset(h);
}

void dq_histogram_reset(struct dq_histogram *h)
{
	if (h->lowest_index <= h->highest_index && h->highest_index < DQ_HISTOGRAM_COUNTS_LEN) {
		memset(&h->counts[h->lowest_index], 0,
		       (h->highest_index - h->lowest_index + 1) * sizeof(h->counts[0]));
	}
	h->total_count = 0;
	h->min_ns = UINT64_MAX;
	h->max_ns = 0;
	h->sum_lo = 0;
	h->sum_hi = 0;
	h->lowest_index = DQ_HISTOGRAM_COUNTS_LEN;
	h->highest_index = 0;
}

void dq_histogram_merge(struct dq_histogram *dst, const struct dq_histogram *src)
{
	uint64_t lo;
	uint32_t i;

	if (src->total_count == 0) {
		return;
	}
	for (i = src->lowest_index; i <= src->highest_index; i++) {
		dst->counts[i] += src->counts[i];
	}
	dst->total_count += src->total_count;
	if (src->min_ns < dst->min_ns) {
		dst->min_ns = src->min_ns;
	}
	if (src->max_ns > dst->max_ns) {
		dst->max_ns = src->max_ns;
	}
	if (src->lowest_index < dst->lowest_index) {
		dst->lowest_index = src->lowest_index;
	}
	if (src->highest_index > dst->highest_index) {
		dst->highest_index = src->highest_index;
	}
	lo = dst->sum_lo + src->sum_lo;
	dst->sum_hi += src->sum_hi + (lo < dst->sum_lo);
	dst->sum_lo = lo;
}

uint64_t dq_histogram_value_at_percentile(const struct dq_histogram *h, double percentile)
{
	double requested, fractional;
	uint64_t count_at_percentile, running = 0;
	uint32_t i;

	if (h->total_count == 0) {
		return 0;
	}
	/* As HdrHistogram: one ulp less, so round-off never pushes the rank into the next bucket. */
	requested = fmin(fmax(nextafter(percentile, -INFINITY), 0.0), 100.0);
	fractional = requested / 100.0 * (double)h->total_count;
	count_at_percentile = (uint64_t)ceil(fractional);
	if (count_at_percentile < 1) {
		count_at_percentile = 1;
	}
	for (i = h->lowest_index; i <= h->highest_index; i++) {
		running += h->counts[i];
		if (running >= count_at_percentile) {
			return percentile == 0.0 ? dq_histogram_value_from_index(i) :
						   highest_equivalent_of_index(i);
		}
	}
	return 0;
}

uint64_t dq_histogram_min(const struct dq_histogram *h)
{
	return h->total_count == 0 ? 0 : h->min_ns;
}

uint64_t dq_histogram_max(const struct dq_histogram *h)
{
	return h->max_ns;
}

uint64_t dq_histogram_percentile_capped(const struct dq_histogram *h, double percentile)
{
	uint64_t value_ns = dq_histogram_value_at_percentile(h, percentile);

	return value_ns > h->max_ns ? h->max_ns : value_ns;
}

void dq_histogram_sample_percentiles(const struct dq_histogram *h,
				     struct dq_latency_percentiles *out)
{
	out->p50 = dq_histogram_percentile_capped(h, 50.0);
	out->p99 = dq_histogram_percentile_capped(h, 99.0);
	out->p999 = dq_histogram_percentile_capped(h, 99.9);
	out->max = h->max_ns;
}

uint64_t dq_histogram_mean_ns(const struct dq_histogram *h)
{
	return h->total_count == 0 ? 0 : (uint64_t)(dq_histogram_sum_ns(h) / h->total_count);
}

int dq_histogram_export(const struct dq_histogram *h, struct dq_latency_histogram *out)
{
	size_t n = 0;
	uint32_t i;

	memset(out, 0, sizeof(*out));
	out->total_count = h->total_count;
	out->min_ns = dq_histogram_min(h);
	out->max_ns = h->max_ns;
	if (h->total_count == 0) {
		return 0;
	}
	for (i = h->lowest_index; i <= h->highest_index; i++) {
		n += h->counts[i] != 0;
	}
	out->buckets = calloc(n, sizeof(*out->buckets));
	if (out->buckets == NULL) {
		return -ENOMEM;
	}
	for (i = h->lowest_index; i <= h->highest_index; i++) {
		if (h->counts[i] != 0) {
			out->buckets[out->bucket_count].value_ns = dq_histogram_value_from_index(i);
			out->buckets[out->bucket_count].count = h->counts[i];
			out->bucket_count++;
		}
	}
	return 0;
}

void dq_histogram_export_fini(struct dq_latency_histogram *out)
{
	free(out->buckets);
	out->buckets = NULL;
	out->bucket_count = 0;
}

int dq_histogram_import(struct dq_histogram *h, const struct dq_latency_histogram *in)
{
	uint64_t total = 0;
	size_t i;

	dq_histogram_reset(h);
	for (i = 0; i < in->bucket_count; i++) {
		dq_histogram_record_n(h, in->buckets[i].value_ns, in->buckets[i].count);
		total += in->buckets[i].count;
	}
	if (total != in->total_count) {
		return -EINVAL;
	}
	if (total > 0) {
		h->min_ns = in->min_ns;
		h->max_ns = in->max_ns;
	}
	return 0;
}
