/*
 * The latency histogram against known HdrHistogram values (bucket edges, 0, the int64 limit),
 * properties over random values (value error <= 1/128, percentiles equal to the sorted data's
 * nearest rank mapped to its bucket), merge, reset, and the contract export through the codec.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contract/msg_job_event.h"
#include "io/histogram.h"
#include "test_util.h"

/* The exact mean from the histogram's 128-bit sum. */
static double histogram_mean(const struct dq_histogram *h)
{
	if (h->total_count == 0) {
		return 0.0;
	}
	return ((double)h->sum_hi * 18446744073709551616.0 + (double)h->sum_lo) /
	       (double)h->total_count;
}

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static struct dq_histogram *histogram_new(void)
{
	struct dq_histogram *h = malloc(sizeof(*h));

	if (h == NULL) {
		abort();
	}
	dq_histogram_init(h);
	return h;
}

static void test_layout(struct test_ctx *t)
{
	static const struct {
		uint64_t value, index, lowest, highest;
	} known[] = {
		{ 0, 0, 0, 0 },
		{ 1, 1, 1, 1 },
		{ 127, 127, 127, 127 },
		{ 128, 128, 128, 128 },
		{ 255, 255, 255, 255 },
		{ 256, 256, 256, 257 },
		{ 257, 256, 256, 257 },
		{ 258, 257, 258, 259 },
		{ 511, 383, 510, 511 },
		{ 512, 384, 512, 515 },
		{ 1023, 511, 1020, 1023 },
		{ 1024, 512, 1024, 1031 },
		{ 10007, 924, 9984, 10047 },
		{ 1000000, 1780, 999424, 1003519 },
		{ 1ULL << 40, 4352, 1ULL << 40, (1ULL << 40) + (1ULL << 33) - 1 },
		{ (1ULL << 40) - 1, 4351, (1ULL << 40) - (1ULL << 32), (1ULL << 40) - 1 },
		{ INT64_MAX, DQ_HISTOGRAM_COUNTS_LEN - 1, 9187343239835811840ULL, INT64_MAX },
		{ UINT64_MAX, DQ_HISTOGRAM_COUNTS_LEN - 1, 9187343239835811840ULL, INT64_MAX },
	};
	size_t i;

	CHECK(t, DQ_HISTOGRAM_COUNTS_LEN == 7296, "%d", DQ_HISTOGRAM_COUNTS_LEN);
	CHECK(t, DQ_HISTOGRAM_COUNTS_LEN <= DQ_HISTOGRAM_MAX_BUCKETS, "export fits the schema");
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		uint64_t v = known[i].value;

		CHECK(t, dq_histogram_index_of(v) == known[i].index, "index_of(%" PRIu64 ") = %u",
		      v, dq_histogram_index_of(v));
		CHECK(t, dq_histogram_lowest_equivalent(v) == known[i].lowest,
		      "lowest(%" PRIu64 ") = %" PRIu64, v, dq_histogram_lowest_equivalent(v));
		CHECK(t, dq_histogram_highest_equivalent(v) == known[i].highest,
		      "highest(%" PRIu64 ") = %" PRIu64, v, dq_histogram_highest_equivalent(v));
	}
	/* Every index maps to a value that maps back to it: the layout is a bijection. */
	for (i = 0; i < DQ_HISTOGRAM_COUNTS_LEN; i++) {
		uint64_t low = dq_histogram_value_from_index((uint32_t)i);

		CHECK(t, dq_histogram_index_of(low) == i, "index %zu", i);
		CHECK(t, dq_histogram_index_of(dq_histogram_highest_equivalent(low)) == i, "%zu",
		      i);
		if (i > 0) {
			CHECK(t, dq_histogram_highest_equivalent(low - 1) == low - 1,
			      "bucket %zu starts right after the previous one ends", i);
		}
	}
}

static void test_known_percentiles(struct test_ctx *t)
{
	struct dq_histogram *h = histogram_new();
	struct dq_latency_percentiles p;
	uint64_t v;

	CHECK(t, dq_histogram_value_at_percentile(h, 50) == 0, "empty");
	CHECK(t, dq_histogram_min(h) == 0 && dq_histogram_max(h) == 0 && histogram_mean(h) == 0,
	      "empty stats");
	for (v = 1; v <= 10000; v++) {
		dq_histogram_record(h, v);
	}
	CHECK(t, h->total_count == 10000, "%" PRIu64, h->total_count);
	CHECK(t, dq_histogram_value_at_percentile(h, 0) == 1, "p0 = lowest of the first bucket");
	CHECK(t, dq_histogram_value_at_percentile(h, 50) == 5023, "p50 %" PRIu64,
	      dq_histogram_value_at_percentile(h, 50));
	CHECK(t, dq_histogram_value_at_percentile(h, 99) == 9919, "p99 %" PRIu64,
	      dq_histogram_value_at_percentile(h, 99));
	CHECK(t, dq_histogram_value_at_percentile(h, 100) == 10047, "p100 %" PRIu64,
	      dq_histogram_value_at_percentile(h, 100));
	CHECK(t, dq_histogram_value_at_percentile(h, 250) == 10047, "clamped above 100");
	CHECK(t, dq_histogram_value_at_percentile(h, -3) == 1, "clamped below 0");
	/* rank 1 of 10000 is value 1; rank 2 (0.02%) is value 2 */
	CHECK(t, dq_histogram_value_at_percentile(h, 0.01) == 1, "%" PRIu64,
	      dq_histogram_value_at_percentile(h, 0.01));
	CHECK(t, dq_histogram_value_at_percentile(h, 0.02) == 2, "%" PRIu64,
	      dq_histogram_value_at_percentile(h, 0.02));
	CHECK(t, dq_histogram_min(h) == 1 && dq_histogram_max(h) == 10000, "min/max exact");
	CHECK(t, histogram_mean(h) == 5000.5, "mean %f", histogram_mean(h));
	dq_histogram_sample_percentiles(h, &p);
	CHECK(t, p.p50 == 5023 && p.p99 == 9919 && p.p999 == 10000 && p.max == 10000,
	      "p50 %" PRIu64 " p99 %" PRIu64 " p999 %" PRIu64 " (clamped to max)", p.p50, p.p99,
	      p.p999);

	dq_histogram_reset(h);
	CHECK(t, h->total_count == 0 && dq_histogram_value_at_percentile(h, 99) == 0, "reset");
	for (v = 0; v < DQ_HISTOGRAM_COUNTS_LEN; v++) {
		CHECK(t, h->counts[v] == 0, "count %" PRIu64 " after reset", v);
	}
	dq_histogram_record(h, 0);
	CHECK(t, dq_histogram_value_at_percentile(h, 100) == 0 && dq_histogram_min(h) == 0,
	      "zero is a value");
	dq_histogram_record(h, UINT64_MAX);
	CHECK(t, dq_histogram_max(h) == INT64_MAX, "huge values clamp to INT64_MAX");
	CHECK(t, dq_histogram_value_at_percentile(h, 100) == INT64_MAX, "%" PRIu64,
	      dq_histogram_value_at_percentile(h, 100));
	CHECK(t, dq_histogram_value_at_percentile(h, 50) == 0, "rank 1 of 2");
	dq_histogram_record_n(h, 1000, 3);
	CHECK(t, h->total_count == 5 && histogram_mean(h) == ((double)INT64_MAX + 3000) / 5,
	      "record_n and a 128-bit sum: %f", histogram_mean(h));
	free(h);
}

/* Log-uniform over [0, 2^48) plus values straddling every bucket edge. */
static uint64_t random_value(uint64_t *state)
{
	uint64_t r = splitmix64(state);
	unsigned bits = (unsigned)(r % 48);
	uint64_t v = splitmix64(state) & ((1ULL << bits) - 1);

	if ((r >> 32) % 8 == 0) {
		v = (1ULL << (bits + 8)) + (uint64_t)((int64_t)(r >> 40) % 3 - 1);
	}
	return v;
}

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void test_properties(struct test_ctx *t)
{
	static const double percentiles[] = { 0,  0.001, 1,    10,    25,     50,      75,
					      90, 99,	 99.9, 99.99, 99.999, 99.9999, 100 };
	const size_t n = 200000;
	struct dq_histogram *h = histogram_new(), *a = histogram_new(), *b = histogram_new();
	uint64_t *values = calloc(n, sizeof(*values)), state = 42;
	double sum = 0;
	size_t i, bad_error = 0;

	for (i = 0; i < n; i++) {
		uint64_t v = random_value(&state), low, high;

		values[i] = v;
		sum += (double)v;
		dq_histogram_record(h, v);
		dq_histogram_record(i % 3 == 0 ? a : b, v);
		low = dq_histogram_lowest_equivalent(v);
		high = dq_histogram_highest_equivalent(v);
		/* the bucket holds v, and its width is at most 1/128 of its lowest value */
		if (!(low <= v && v <= high && (high - low) * 128 <= low)) {
			bad_error++;
		}
	}
	CHECK(t, bad_error == 0, "%zu values with error above 1/128", bad_error);
	qsort(values, n, sizeof(*values), compare_u64);
	for (i = 0; i < sizeof(percentiles) / sizeof(percentiles[0]); i++) {
		double p = percentiles[i];
		size_t rank = (size_t)ceil(nextafter(p, -INFINITY) / 100.0 * (double)n);
		uint64_t exact, got = dq_histogram_value_at_percentile(h, p);

		rank = rank < 1 ? 1 : rank;
		exact = values[rank - 1];
		CHECK(t,
		      got == (p == 0 ? dq_histogram_lowest_equivalent(exact) :
				       dq_histogram_highest_equivalent(exact)),
		      "p%g: got %" PRIu64 " for nearest-rank value %" PRIu64, p, got, exact);
		CHECK(t, p == 0 || (got >= exact && (got - exact) * 128 <= exact),
		      "p%g error above 1/128", p);
	}
	CHECK(t, dq_histogram_min(h) == values[0] && dq_histogram_max(h) == values[n - 1],
	      "min max");
	CHECK(t, fabs(histogram_mean(h) - sum / (double)n) < 1e-9 * sum / (double)n, "mean");

	dq_histogram_merge(a, b);
	CHECK(t,
	      a->total_count == h->total_count && a->min_ns == h->min_ns &&
		      a->max_ns == h->max_ns && a->sum_lo == h->sum_lo && a->sum_hi == h->sum_hi,
	      "merged totals");
	CHECK(t, memcmp(a->counts, h->counts, sizeof(h->counts)) == 0, "merged counts");
	free(values);
	free(h);
	free(a);
	free(b);
}

static void test_export(struct test_ctx *t)
{
	struct dq_histogram *h = histogram_new(), *back = histogram_new();
	struct dq_job_event event = { .type = DQ_JOB_EVENT_PHASE_COMPLETED,
				      .event_id = "j:3",
				      .job_id = "j",
				      .runner_id = "r",
				      .seq = 3,
				      .time = "2026-11-22T21:00:00.000Z" };
	struct dq_job_event decoded;
	struct dq_direction_totals *w = &event.phase_completed.write;
	uint64_t state = 7;
	char err[256] = "", *json = NULL;
	size_t i, len;
	int rc;

	for (i = 0; i < 100000; i++) {
		dq_histogram_record(h, random_value(&state));
	}
	dq_histogram_record(h, 0);
	dq_histogram_record(h, INT64_MAX);
	rc = dq_histogram_export(h, &w->latency_histogram);
	CHECK(t, rc == 0, "export %d", rc);
	for (i = 1; i < w->latency_histogram.bucket_count; i++) {
		CHECK(t,
		      w->latency_histogram.buckets[i - 1].value_ns <
			      w->latency_histogram.buckets[i].value_ns,
		      "ascending at %zu", i);
	}
	for (i = 0; i < w->latency_histogram.bucket_count; i++) {
		uint64_t value = w->latency_histogram.buckets[i].value_ns;

		CHECK(t,
		      w->latency_histogram.buckets[i].count > 0 &&
			      dq_histogram_lowest_equivalent(value) == value,
		      "pair %zu is a non-empty bucket's lowest value", i);
	}
	CHECK(t, w->latency_histogram.min_ns == 0 && w->latency_histogram.max_ns == INT64_MAX,
	      "exact min max");

	strcpy(event.phase_completed.phase_name, "p");
	event.phase_completed.kind = DQ_PHASE_KIND_WORKLOAD;
	w->ios = h->total_count;
	w->bytes = h->total_count * 4096;
	w->has_latency_histogram = true;
	rc = dq_job_event_encode(&event, &json, &len, err, sizeof(err));
	CHECK(t, rc == 0, "encode: %s", err);
	rc = dq_job_event_decode(json, len, &decoded, err, sizeof(err));
	CHECK(t, rc == 0, "decode: %s", err);
	if (rc == 0) {
		rc = dq_histogram_import(back, &decoded.phase_completed.write.latency_histogram);
		CHECK(t, rc == 0, "import %d", rc);
		CHECK(t, memcmp(back->counts, h->counts, sizeof(h->counts)) == 0,
		      "the export rebuilds the histogram exactly");
		CHECK(t, back->min_ns == h->min_ns && back->max_ns == h->max_ns, "min max");
		decoded.phase_completed.write.latency_histogram.total_count++;
		CHECK(t,
		      dq_histogram_import(back, &decoded.phase_completed.write.latency_histogram) ==
			      -EINVAL,
		      "an inconsistent export is refused");
	}
	dq_job_event_fini(&decoded);
	free(json);
	dq_histogram_export_fini(&w->latency_histogram);

	dq_histogram_reset(h);
	rc = dq_histogram_export(h, &w->latency_histogram);
	CHECK(t,
	      rc == 0 && w->latency_histogram.bucket_count == 0 &&
		      w->latency_histogram.total_count == 0 && w->latency_histogram.min_ns == 0,
	      "empty export");
	dq_histogram_export_fini(&w->latency_histogram);
	free(h);
	free(back);
}

int main(void)
{
	struct test_ctx t = { 0 };

	test_layout(&t);
	test_known_percentiles(&t);
	test_properties(&t);
	test_export(&t);
	return test_report(&t, "histogram");
}
