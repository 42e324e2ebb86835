/*
 * What this job wrote where: the job's header identity (job hash, unit size, write sequence) and,
 * when a phase verifies data, one generation byte per unit of the device, so a read-back knows
 * which units this job wrote since their last erase and which write of each must be there.
 */
#ifndef DRIVEQUAL_BLOCK_LEDGER_H
#define DRIVEQUAL_BLOCK_LEDGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The generation map's size limit: one byte per unit (4 TiB at 4 KiB units). */
#define DQ_BLOCK_LEDGER_MAX_BYTES (1ULL << 30)

struct dq_block_ledger {
	uint64_t job_hash;
	uint32_t unit_bytes; /* DQ_BLOCK_UNIT_BYTES, or the LBA size (see dq_block_unit_for) */
	uint32_t lba_bytes;
	uint64_t capacity_bytes;
	uint64_t units; /* capacity in units, the last one possibly short */
	uint64_t next_sequence; /* the next write's ordinal */
	/* Per unit: 0 = not written by this job since its last erase (or untracked), else the
	 * generation its last write carries (1..255, wrapping). NULL: no phase verifies. */
	uint8_t *generations;
};

/*
 * The header unit for a device and the block sizes its IO phases use: DQ_BLOCK_UNIT_BYTES when
 * every block size and the LBA size divide into it evenly, else the LBA size.
 */
uint32_t dq_block_unit_for(uint32_t lba_bytes, const uint32_t *block_sizes, size_t count);

/*
 * Set up a job's ledger; track allocates the generation map. Returns 0, -ENOMEM, or -E2BIG when
 * the map would exceed DQ_BLOCK_LEDGER_MAX_BYTES (*map_bytes says how much it would need).
 */
int dq_block_ledger_init(struct dq_block_ledger *ledger, const char *job_id, uint32_t unit_bytes,
			 uint32_t lba_bytes, uint64_t capacity_bytes, bool track,
			 uint64_t *map_bytes);
void dq_block_ledger_fini(struct dq_block_ledger *ledger);

static inline bool dq_block_ledger_tracks(const struct dq_block_ledger *ledger)
{
	return ledger != NULL && ledger->generations != NULL;
}

/* The generation of a unit's next write: 1..255, never 0. */
static inline uint8_t dq_block_next_generation(uint8_t current)
{
	return (uint8_t)(current % 255 + 1);
}

/* out[i] = the generation the next write of the i-th unit of [offset, offset + length) carries
 * (all 0 when untracked or ambiguous is set: the write shares units with one in flight). */
void dq_block_ledger_peek(const struct dq_block_ledger *ledger, uint64_t offset, uint32_t length,
			  bool ambiguous, uint8_t *out);

/* A write of [offset, offset + length) that peek described was submitted: its units now hold
 * those generations (0 for an ambiguous one: no read-back can know which write landed last). */
void dq_block_ledger_record(struct dq_block_ledger *ledger, uint64_t offset, uint32_t length,
			    bool ambiguous);

/* [offset, offset + length) holds none of this job's headers any more (erased, deallocated,
 * written with zeros): every unit it touches is forgotten. */
void dq_block_ledger_forget(struct dq_block_ledger *ledger, uint64_t offset, uint64_t length);

/* Units of [offset, offset + length) this job wrote since their last erase. */
uint64_t dq_block_ledger_written_units(const struct dq_block_ledger *ledger, uint64_t offset,
				       uint64_t length);

#endif /* DRIVEQUAL_BLOCK_LEDGER_H */
