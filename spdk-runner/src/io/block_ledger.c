/*
 * The job's record of its writes (block_ledger.h): the generation map's bookkeeping, kept apart
 * from the IO loop so the loop only peeks before a write and records when it submits one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "io/block_header.h"
#include "io/block_ledger.h"

uint32_t dq_block_unit_for(uint32_t lba_bytes, const uint32_t *block_sizes, size_t count)
{
	size_t i;

	if (lba_bytes == 0 || lba_bytes >= DQ_BLOCK_UNIT_BYTES ||
	    DQ_BLOCK_UNIT_BYTES % lba_bytes != 0) {
		return lba_bytes;
	}
	for (i = 0; i < count; i++) {
		if (block_sizes[i] % DQ_BLOCK_UNIT_BYTES != 0) {
			return lba_bytes;
		}
	}
	return DQ_BLOCK_UNIT_BYTES;
}

int dq_block_ledger_init(struct dq_block_ledger *l, const char *job_id, uint32_t unit_bytes,
			 uint32_t lba_bytes, uint64_t capacity_bytes, bool track,
			 uint64_t *map_bytes)
{
	memset(l, 0, sizeof(*l));
	l->job_hash = dq_block_job_hash(job_id);
	l->unit_bytes = unit_bytes;
	l->lba_bytes = lba_bytes;
	l->capacity_bytes = capacity_bytes;
	l->units = (capacity_bytes + unit_bytes - 1) / unit_bytes;
	l->next_sequence = 1;
	if (map_bytes != NULL) {
		*map_bytes = track ? l->units : 0;
	}
	if (!track) {
		return 0;
	}
	if (l->units > DQ_BLOCK_LEDGER_MAX_BYTES) {
		return -E2BIG;
	}
	l->generations = calloc(l->units, 1);
	return l->generations == NULL ? -ENOMEM : 0;
}

void dq_block_ledger_fini(struct dq_block_ledger *l)
{
	free(l->generations);
	l->generations = NULL;
}

/* The units [first, end) that [offset, offset + length) touches, clamped to the device. */
static void unit_span(const struct dq_block_ledger *l, uint64_t offset, uint64_t length,
		      uint64_t *first, uint64_t *end)
{
	*first = offset / l->unit_bytes;
	*end = length == 0 ? *first : (offset + length - 1) / l->unit_bytes + 1;
	if (*end > l->units) {
		*end = l->units;
	}
	if (*first > *end) {
		*first = *end;
	}
}

void dq_block_ledger_peek(const struct dq_block_ledger *l, uint64_t offset, uint32_t length,
			  bool ambiguous, uint8_t *out)
{
	uint64_t first, end, u;

	unit_span(l, offset, length, &first, &end);
	for (u = first; u < end; u++) {
		out[u - first] = !dq_block_ledger_tracks(l) || ambiguous ?
					 0 :
					 dq_block_next_generation(l->generations[u]);
	}
}

void dq_block_ledger_record(struct dq_block_ledger *l, uint64_t offset, uint32_t length,
			    bool ambiguous)
{
	uint64_t first, end, u;

	if (!dq_block_ledger_tracks(l)) {
		return;
	}
	unit_span(l, offset, length, &first, &end);
	for (u = first; u < end; u++) {
		l->generations[u] = ambiguous ? 0 : dq_block_next_generation(l->generations[u]);
	}
}

void dq_block_ledger_forget(struct dq_block_ledger *l, uint64_t offset, uint64_t length)
{
	uint64_t first, end;

	if (!dq_block_ledger_tracks(l)) {
		return;
	}
	unit_span(l, offset, length, &first, &end);
	memset(l->generations + first, 0, end - first);
}

uint64_t dq_block_ledger_written_units(const struct dq_block_ledger *l, uint64_t offset,
				       uint64_t length)
{
	uint64_t first, end, u, written = 0;

	if (!dq_block_ledger_tracks(l)) {
		return 0;
	}
	unit_span(l, offset, length, &first, &end);
	for (u = first; u < end; u++) {
		written += l->generations[u] != 0;
	}
	return written;
}
