/*
 * What each stream of a multi-stream phase does next, as fio's job options say: the range
 * (offset/size as bytes or shares of the capacity), block sizes by share of IOs (bssplit),
 * directions by share (rwmixread, plus a share of trims), random offsets for percentage_random
 * of the IOs and sequential ones for the rest, and an open loop's intended issue times (uniform,
 * fio's rate_process=linear, or Poisson) with think time inserted after every N arrivals.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "contract/clock.h"
#include "stream_phase.h"

static bool is_trim(enum dq_rw rw)
{
	return rw == DQ_RW_TRIM || rw == DQ_RW_RANDTRIM;
}

static bool is_random(enum dq_rw rw)
{
	return rw == DQ_RW_RANDREAD || rw == DQ_RW_RANDWRITE || rw == DQ_RW_RANDRW ||
	       rw == DQ_RW_RANDTRIM;
}

uint32_t stream_draw_length(const struct stream *st, struct dq_rng *rng)
{
	const struct dq_stream_spec *s = st->spec;
	uint32_t pick, sum = 0;
	size_t i;

	if (s->split_count == 0) {
		return s->block_size_bytes;
	}
	pick = (uint32_t)dq_rng_below(rng, 100);
	for (i = 0; i < s->split_count; i++) {
		sum += s->split[i].percent;
		if (pick < sum) {
			return s->split[i].block_size_bytes;
		}
	}
	return s->split[s->split_count - 1].block_size_bytes;
}

/* -ln(U), U uniform in (0, 1]: an exponential gap of mean 1. */
static double exponential(struct dq_rng *rng)
{
	double u = (double)((dq_rng_next(rng) >> 11) + 1) * 0x1.0p-53;

	return -log(u);
}

void stream_arrivals_step(const struct stream *st, struct stream_arrivals *a)
{
	const struct dq_stream_spec *s = st->spec;
	double mean_ns;
	uint32_t length = a->next_length;

	/* the gap after this arrival: its own share of the rate */
	mean_ns = s->has_rate_iops ? 1e9 / (double)s->rate_iops :
				     (double)length * 1e9 / (double)s->rate_bytes_per_s;
	a->count++;
	a->since_start_ns += s->arrivals == DQ_ARRIVALS_POISSON ? mean_ns * exponential(&a->rng) :
								  mean_ns;
	if (st->think_blocks > 0 && a->count % st->think_blocks == 0) {
		a->since_start_ns += (double)st->think_ns;
	}
	a->next_ns = st->start_ns + (uint64_t)a->since_start_ns;
	a->next_length = stream_draw_length(st, &a->rng);
}

/* A random offset in the range, a multiple of the alignment, with room for length. */
static uint64_t random_offset(struct stream *st, uint32_t length)
{
	uint64_t slots;

	if (st->range_bytes <= length) {
		return st->range_start;
	}
	slots = (st->range_bytes - length) / st->align + 1;
	return st->range_start + dq_rng_below(&st->rng, slots) * st->align;
}

void stream_choose(struct stream *st, uint32_t length_hint, uint8_t *direction, uint32_t *length,
		   uint64_t *offset)
{
	const struct dq_stream_spec *s = st->spec;
	uint32_t pick, len = length_hint;
	bool random;

	switch (s->rw) {
	case DQ_RW_READ:
	case DQ_RW_RANDREAD:
		*direction = STREAM_READ;
		break;
	case DQ_RW_WRITE:
	case DQ_RW_RANDWRITE:
		*direction = STREAM_WRITE;
		break;
	case DQ_RW_TRIM:
	case DQ_RW_RANDTRIM:
		*direction = STREAM_TRIM;
		break;
	default:
		pick = (uint32_t)dq_rng_below(&st->rng, 100);
		*direction = pick < s->read_percent ? STREAM_READ :
			     pick < s->read_percent + (s->has_trim_percent ? s->trim_percent : 0) ?
						      STREAM_TRIM :
						      STREAM_WRITE;
		break;
	}
	if (len > st->range_bytes) {
		len = (uint32_t)st->range_bytes; /* a range smaller than one block: all of it */
	}
	random = is_random(s->rw) &&
		 (!s->has_random_percent || s->random_percent == 100 ||
		  (s->random_percent > 0 && dq_rng_below(&st->rng, 100) < s->random_percent));
	if (random) {
		*offset = random_offset(st, len);
	} else {
		if (st->cursor + len > st->range_start + st->range_bytes) {
			st->cursor = st->range_start; /* the next pass */
		}
		*offset = st->cursor;
	}
	st->cursor = *offset + len;
	*length = len;
}

static uint64_t percent_of(uint64_t capacity, double percent, uint32_t lba)
{
	uint64_t bytes = (uint64_t)((double)capacity * percent / 100.0);

	return bytes - bytes % lba;
}

int stream_choice_init(struct stream *st, const struct dq_stream_spec *spec, uint32_t index,
		       const struct dq_device *device, uint64_t seed, uint64_t phase_start_ns,
		       char *why, size_t why_len)
{
	uint64_t capacity = device->capacity_bytes, start, length;
	uint32_t lba = device->lba_size_bytes, smallest = spec->block_size_bytes;
	size_t i;

	st->spec = spec;
	st->index = index;
	st->queue_depth = spec->queue_depth;
	st->open_loop = spec->has_rate_iops || spec->has_rate_bytes_per_s;
	start = spec->has_offset_bytes	 ? spec->offset_bytes :
		spec->has_offset_percent ? percent_of(capacity, spec->offset_percent, lba) :
					   0;
	length = spec->has_range_bytes	 ? spec->range_bytes :
		 spec->has_range_percent ? percent_of(capacity, spec->range_percent, lba) :
		 start < capacity	 ? capacity - start :
					   0;
	if (start % lba != 0 || length % lba != 0 || start >= capacity || length == 0 ||
	    length > capacity - start) {
		snprintf(why, why_len,
			 "stream %u: its range [%llu, +%llu) is not whole %u-byte LBAs within the "
			 "device's %llu bytes",
			 index, (unsigned long long)start, (unsigned long long)length, lba,
			 (unsigned long long)capacity);
		return -EINVAL;
	}
	st->range_start = start;
	st->range_bytes = length;
	st->cursor = start;
	for (i = 0; i < spec->split_count; i++) {
		if (smallest == 0 || spec->split[i].block_size_bytes < smallest) {
			smallest = spec->split[i].block_size_bytes;
		}
	}
	for (i = 0; i < (spec->split_count > 0 ? spec->split_count : 1); i++) {
		uint32_t bs = spec->split_count > 0 ? spec->split[i].block_size_bytes :
						      spec->block_size_bytes;

		if (bs % lba != 0) {
			snprintf(
				why, why_len,
				"stream %u: block size %u is not a multiple of the device's %u-byte "
				"LBA",
				index, bs, lba);
			return -EINVAL;
		}
		if (!is_trim(spec->rw) && bs > st->largest_rw) {
			st->largest_rw = bs;
		}
	}
	st->align = smallest;
	st->issues[STREAM_READ] =
		spec->rw == DQ_RW_READ || spec->rw == DQ_RW_RANDREAD ||
		((spec->rw == DQ_RW_RW || spec->rw == DQ_RW_RANDRW) && spec->read_percent > 0);
	st->issues[STREAM_TRIM] = is_trim(spec->rw) ||
				  (spec->has_trim_percent && spec->trim_percent > 0);
	st->issues[STREAM_WRITE] =
		spec->rw == DQ_RW_WRITE || spec->rw == DQ_RW_RANDWRITE ||
		((spec->rw == DQ_RW_RW || spec->rw == DQ_RW_RANDRW) &&
		 spec->read_percent + (spec->has_trim_percent ? spec->trim_percent : 0) < 100);
	st->start_ns = phase_start_ns + (uint64_t)spec->start_delay_ms * DQ_NS_PER_MS;
	st->think_ns = (uint64_t)spec->think_time_us * 1000u;
	st->think_blocks = spec->has_think_time_us ?
				   (spec->has_think_time_blocks ? spec->think_time_blocks : 1) :
				   0;
	dq_rng_seed(&st->rng, seed ^ (0x9e3779b97f4a7c15ULL * (index + 1)));
	dq_rng_seed(&st->size_rng, seed ^ (0xc2b2ae3d27d4eb4fULL * (index + 1)));
	if (st->open_loop) {
		memset(&st->issue, 0, sizeof(st->issue));
		dq_rng_seed(&st->issue.rng, seed ^ (0x165667b19e3779f9ULL * (index + 1)));
		/* the first arrival at the stream's start, as fio issues its first IO at once */
		st->issue.next_length = stream_draw_length(st, &st->issue.rng);
		st->issue.next_ns = st->start_ns;
		st->offer = st->issue;
	}
	return 0;
}
