/*
 * The runner's latency histogram: HdrHistogram's bucket layout with 2 significant digits (256
 * sub-buckets, unit 1 ns, value error <= 1/128), so a phase's histogram exported as the contract's
 * latencyHistogram rebuilds exactly in HdrHistogram Java on the service side.
 */
#ifndef DRIVEQUAL_HISTOGRAM_H
#define DRIVEQUAL_HISTOGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "contract/msg_common.h"

/*
 * HdrHistogram(lowestDiscernibleValue=1, highestTrackableValue=INT64_MAX, significantDigits=2):
 * subBucketCount 256 (half 128), unitMagnitude 0, bucketCount 56, countsArrayLength 57 * 128.
 */
#define DQ_HISTOGRAM_SUB_BUCKET_COUNT 256
#define DQ_HISTOGRAM_SUB_BUCKET_HALF_COUNT 128
#define DQ_HISTOGRAM_SUB_BUCKET_HALF_MAGNITUDE 7
#define DQ_HISTOGRAM_BUCKET_COUNT 56
#define DQ_HISTOGRAM_COUNTS_LEN \
	((DQ_HISTOGRAM_BUCKET_COUNT + 1) * DQ_HISTOGRAM_SUB_BUCKET_HALF_COUNT)
/* Recorded values above this (the schema's integer bound) are recorded as this. */
#define DQ_HISTOGRAM_VALUE_MAX ((uint64_t)INT64_MAX)

/*
 * Read the fields, never write them: the functions below keep them consistent. About 58 KiB; embed
 * it or allocate it, then dq_histogram_init() before first use.
 */
struct dq_histogram {
	uint64_t total_count;
	uint64_t min_ns; /* exact; UINT64_MAX while empty */
	uint64_t max_ns; /* exact; 0 while empty */
	/* Exact sum of the recorded values, 128 bits: with total_count, the exact mean latency
	 * (what the Little's-law check of a closed-loop phase needs; buckets alone are <= 1% off). */
	uint64_t sum_lo;
	uint64_t sum_hi;
	uint32_t lowest_index; /* non-empty counts lie in [lowest_index, highest_index] */
	uint32_t highest_index;
	uint64_t counts[DQ_HISTOGRAM_COUNTS_LEN];
};

/* The counts index of a value (HdrHistogram's countsArrayIndex). */
static inline uint32_t dq_histogram_index_of(uint64_t value_ns)
{
	uint32_t bucket, sub_bucket;

	if (value_ns > DQ_HISTOGRAM_VALUE_MAX) {
		value_ns = DQ_HISTOGRAM_VALUE_MAX;
	}
	bucket = 56u - (uint32_t)__builtin_clzll(value_ns | (DQ_HISTOGRAM_SUB_BUCKET_COUNT - 1));
	sub_bucket = (uint32_t)(value_ns >> bucket);
	return ((bucket + 1) << DQ_HISTOGRAM_SUB_BUCKET_HALF_MAGNITUDE) +
	       (sub_bucket - DQ_HISTOGRAM_SUB_BUCKET_HALF_COUNT);
}

/* Record count occurrences of value_ns (values above DQ_HISTOGRAM_VALUE_MAX are clamped). */
static inline void dq_histogram_record_n(struct dq_histogram *h, uint64_t value_ns, uint64_t count)
{
	uint32_t index;
	uint64_t lo;

	if (count == 0) {
		return;
	}
	if (value_ns > DQ_HISTOGRAM_VALUE_MAX) {
		value_ns = DQ_HISTOGRAM_VALUE_MAX;
	}
	index = dq_histogram_index_of(value_ns);
	h->counts[index] += count;
	h->total_count += count;
	if (value_ns < h->min_ns) {
		h->min_ns = value_ns;
	}
	if (value_ns > h->max_ns) {
		h->max_ns = value_ns;
	}
	if (index < h->lowest_index) {
		h->lowest_index = index;
	}
	if (index > h->highest_index) {
		h->highest_index = index;
	}
	if (count == 1) {
		lo = h->sum_lo + value_ns;
		h->sum_hi += lo < h->sum_lo;
		h->sum_lo = lo;
	} else {
		__extension__ unsigned __int128 sum =
			((unsigned __int128)h->sum_hi << 64 | h->sum_lo) +
			(unsigned __int128)value_ns * count;
		h->sum_lo = (uint64_t)sum;
		h->sum_hi = (uint64_t)(sum >> 64);
	}
}

static inline void dq_histogram_record(struct dq_histogram *h, uint64_t value_ns)
{
	dq_histogram_record_n(h, value_ns, 1);
}

/* Make memory of any content an empty histogram. */
void dq_histogram_init(struct dq_histogram *h);

/* Empty an initialized histogram (cost proportional to the range of recorded values). */
void dq_histogram_reset(struct dq_histogram *h);

/* Add every count of src to dst. */
void dq_histogram_merge(struct dq_histogram *dst, const struct dq_histogram *src);

/* HdrHistogram's valueFromIndex, lowestEquivalentValue, highestEquivalentValue. */
uint64_t dq_histogram_value_from_index(uint32_t index);
uint64_t dq_histogram_lowest_equivalent(uint64_t value_ns);
uint64_t dq_histogram_highest_equivalent(uint64_t value_ns);

/*
 * HdrHistogram Java's getValueAtPercentile (2.1.12+): the highest equivalent value of the bucket
 * holding rank ceil(percentile/100 * total) (at least 1); the lowest equivalent value for 0; 0
 * when empty. percentile is clamped to [0, 100].
 */
uint64_t dq_histogram_value_at_percentile(const struct dq_histogram *h, double percentile);

/*
 * dq_histogram_value_at_percentile() at most the exact maximum (the highest equivalent value of the
 * maximum's bucket may exceed it): what a sample's, a phase's and a window's percentiles report.
 */
uint64_t dq_histogram_percentile_capped(const struct dq_histogram *h, double percentile);

/* The exact sum of the recorded values. */
__extension__ static inline unsigned __int128 dq_histogram_sum_ns(const struct dq_histogram *h)
{
	return ((unsigned __int128)h->sum_hi << 64) | h->sum_lo;
}

/* The exact mean of the recorded values (their 128-bit sum / count), rounded down; 0 when empty. */
uint64_t dq_histogram_mean_ns(const struct dq_histogram *h);

/* Exact minimum and maximum of the recorded values; 0 when empty. */
uint64_t dq_histogram_min(const struct dq_histogram *h);
uint64_t dq_histogram_max(const struct dq_histogram *h);

/*
 * A sample's p50/p99/p99.9/max: percentiles as above, clamped to the exact maximum (the highest
 * equivalent value of the maximum's bucket may exceed it), and the exact maximum.
 */
void dq_histogram_sample_percentiles(const struct dq_histogram *h,
				     struct dq_latency_percentiles *out);

/*
 * Export to the contract's latencyHistogram: buckets = ascending [lowestEquivalentValueNs, count]
 * of the non-empty buckets, in a malloc'd array that dq_histogram_export_fini() frees. Returns 0 or
 * -ENOMEM.
 */
int dq_histogram_export(const struct dq_histogram *h, struct dq_latency_histogram *out);
void dq_histogram_export_fini(struct dq_latency_histogram *out);

/*
 * Rebuild an initialized histogram from an exported one (reset first): counts exactly as exported, min/max from
 * the export; the sum (and so the mean) is the buckets' lowest values times their counts. Returns 0
 * or -EINVAL when the export is inconsistent (counts do not add up to totalCount).
 */
int dq_histogram_import(struct dq_histogram *h, const struct dq_latency_histogram *in);

#endif /* DRIVEQUAL_HISTOGRAM_H */
