/*
 * What the runner writes into every block: a 64-byte header (magic, job, LBA, sequence,
 * generation, CRC32C of the whole block) followed by fresh random data. The header makes each
 * block unique and recognisable, so a purge can be proven (no block written before it reads
 * back) and written data can be verified (right job, right LBA, newest generation, intact).
 */
#ifndef DRIVEQUAL_BLOCK_HEADER_H
#define DRIVEQUAL_BLOCK_HEADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/prng.h"

#define DQ_BLOCK_HEADER_BYTES 64u
/* "DQDQBLK1" read as a little-endian u64. */
#define DQ_BLOCK_MAGIC 0x314b4c4251445144ULL
/* The header unit: every IO of a job is cut into units of this size (or the LBA size when a
 * phase's block size is not a multiple of it), each with its own header. */
#define DQ_BLOCK_UNIT_BYTES 4096u

enum {
	DQ_BLOCK_FLAG_CANARY = 1u << 0, /* written by a purge's verification before the erase */
};

/* A header's fields, host order. Bytes 44..59 on the medium are random. */
struct dq_block_header {
	uint64_t job_hash; /* dq_block_job_hash() of the job that wrote it */
	uint64_t lba; /* the unit's first LBA */
	uint64_t sequence; /* the job's write ordinal (one per IO) */
	uint32_t unit_bytes; /* the unit's length: the checksum covers exactly this much */
	uint32_t lba_bytes;
	uint16_t phase_index;
	uint8_t generation; /* the unit's write count this job, 1..255 (wrapping); 0: untracked */
	uint8_t flags;
	uint32_t crc32c; /* of the unit with these four bytes taken as zero */
};

/* What a unit read back holds. */
enum dq_block_state {
	DQ_BLOCK_NO_HEADER = 0, /* no magic: zeros, another program's data, or garbage */
	DQ_BLOCK_BAD_CHECKSUM, /* a header, but the unit's CRC32C differs (or a bad length) */
	DQ_BLOCK_VALID,
};

/* FNV-1a of a job id: what headers carry to say which job wrote them. */
uint64_t dq_block_job_hash(const char *job_id);

/*
 * Fill len bytes at buf (8-byte aligned, len a multiple of 64 or the unit tail) with fresh random
 * data, then seal every unit of unit_bytes from its start (the last may be shorter): header
 * template with lba and generation per unit (generations[i], or 0 for all when NULL), CRC32C.
 */
void dq_block_fill(struct dq_datagen *gen, void *buf, uint32_t len, uint32_t unit_bytes,
		   const struct dq_block_header *template, const uint8_t *generations);

/* Write the header into unit (whose other bytes are already final) and its checksum. */
void dq_block_seal(void *unit, const struct dq_block_header *header);

/*
 * Read the header at the start of unit (available bytes readable there) into *header and check
 * the CRC32C over header->unit_bytes; *computed_crc (may be NULL) receives the CRC of what is
 * there when a header was found.
 */
enum dq_block_state dq_block_inspect(const void *unit, size_t available,
				     struct dq_block_header *header, uint32_t *computed_crc);

/* "job 9f3a12bc4d5e6f70 lba 1234 seq 77 gen 3" (or "no header: 16 zero bytes" etc.). */
void dq_block_describe(const void *unit, size_t available, char *out, size_t out_len);

#endif /* DRIVEQUAL_BLOCK_HEADER_H */
