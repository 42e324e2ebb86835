/*
 * The block header's byte layout and checksum. The layout is fixed little-endian so a block
 * written by one runner verifies on another; the checksum is CRC32C (ISA-L, the storage
 * industry's checksum, as fio's verify=crc32c) over the whole unit.
 */
#include <endian.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <isa-l/crc.h>

#include "io/block_header.h"

/* Byte offsets on the medium. */
#define OFF_MAGIC 0
#define OFF_JOB 8
#define OFF_LBA 16
#define OFF_SEQUENCE 24
#define OFF_UNIT 32
#define OFF_LBA_BYTES 36
#define OFF_PHASE 40
#define OFF_GENERATION 42
#define OFF_FLAGS 43
#define OFF_CRC 60

#define CRC_INIT 0xffffffffu

static void put64(unsigned char *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, sizeof(v));
}

static void put32(unsigned char *p, uint32_t v)
{
	v = htole32(v);
	memcpy(p, &v, sizeof(v));
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

uint64_t dq_block_job_hash(const char *job_id)
{
	uint64_t hash = 0xcbf29ce484222325ULL;

	for (; *job_id != '\0'; job_id++) {
		hash = (hash ^ (unsigned char)*job_id) * 0x100000001b3ULL;
	}
	return hash;
}

/* CRC32C of the unit as if its checksum field were zero. */
static uint32_t unit_crc(const unsigned char *unit, uint32_t len)
{
	static const unsigned char zeros[4];
	uint32_t crc;

	crc = crc32_iscsi((unsigned char *)unit, OFF_CRC, CRC_INIT);
	crc = crc32_iscsi((unsigned char *)zeros, sizeof(zeros), crc);
	return crc32_iscsi((unsigned char *)unit + DQ_BLOCK_HEADER_BYTES,
			   (int)(len - DQ_BLOCK_HEADER_BYTES), crc);
}

void dq_block_seal(void *unit, const struct dq_block_header *h)
{
	unsigned char *p = unit;

	put64(p + OFF_MAGIC, DQ_BLOCK_MAGIC);
	put64(p + OFF_JOB, h->job_hash);
	put64(p + OFF_LBA, h->lba);
	put64(p + OFF_SEQUENCE, h->sequence);
	put32(p + OFF_UNIT, h->unit_bytes);
	put32(p + OFF_LBA_BYTES, h->lba_bytes);
	p[OFF_PHASE] = (unsigned char)(h->phase_index & 0xff);
	p[OFF_PHASE + 1] = (unsigned char)(h->phase_index >> 8);
	p[OFF_GENERATION] = h->generation;
	p[OFF_FLAGS] = h->flags;
	put32(p + OFF_CRC, unit_crc(p, h->unit_bytes));
}

void dq_block_fill(struct dq_datagen *gen, void *buf, uint32_t len, uint32_t unit_bytes,
		   const struct dq_block_header *template, const uint8_t *generations)
{
	struct dq_block_header h = *template;
	uint32_t at, i = 0, lbas_per_unit = unit_bytes / template->lba_bytes;

	dq_datagen_fill(gen, buf, (len + 63) & ~63u);
	for (at = 0; at < len; at += unit_bytes, i++) {
		h.unit_bytes = len - at < unit_bytes ? len - at : unit_bytes;
		h.lba = template->lba + (uint64_t)i * lbas_per_unit;
		h.generation = generations != NULL ? generations[i] : 0;
		dq_block_seal((char *)buf + at, &h);
	}
}

enum dq_block_state dq_block_inspect(const void *unit, size_t available, struct dq_block_header *h,
				     uint32_t *computed_crc)
{
	const unsigned char *p = unit;
	uint32_t crc;

	memset(h, 0, sizeof(*h));
	if (available < DQ_BLOCK_HEADER_BYTES || get64(p + OFF_MAGIC) != DQ_BLOCK_MAGIC) {
		return DQ_BLOCK_NO_HEADER;
	}
	h->job_hash = get64(p + OFF_JOB);
	h->lba = get64(p + OFF_LBA);
	h->sequence = get64(p + OFF_SEQUENCE);
	h->unit_bytes = get32(p + OFF_UNIT);
	h->lba_bytes = get32(p + OFF_LBA_BYTES);
	h->phase_index = (uint16_t)(p[OFF_PHASE] | (p[OFF_PHASE + 1] << 8));
	h->generation = p[OFF_GENERATION];
	h->flags = p[OFF_FLAGS];
	h->crc32c = get32(p + OFF_CRC);
	if (h->unit_bytes < DQ_BLOCK_HEADER_BYTES || h->unit_bytes > available) {
		return DQ_BLOCK_BAD_CHECKSUM; /* a length no unit has: the header is damaged */
	}
	crc = unit_crc(p, h->unit_bytes);
	if (computed_crc != NULL) {
		*computed_crc = crc;
	}
	return crc == h->crc32c ? DQ_BLOCK_VALID : DQ_BLOCK_BAD_CHECKSUM;
}

void dq_block_describe(const void *unit, size_t available, char *out, size_t out_len)
{
	const unsigned char *p = unit;
	struct dq_block_header h;
	uint32_t crc = 0;
	size_t i, zeros = 0, shown = available < 16 ? available : 16;

	switch (dq_block_inspect(unit, available, &h, &crc)) {
	case DQ_BLOCK_VALID:
		snprintf(out, out_len,
			 "job %016" PRIx64 " lba %" PRIu64 " seq %" PRIu64 " gen %u crc %08x",
			 h.job_hash, h.lba, h.sequence, h.generation, h.crc32c);
		return;
	case DQ_BLOCK_BAD_CHECKSUM:
		snprintf(out, out_len,
			 "job %016" PRIx64 " lba %" PRIu64 " seq %" PRIu64
			 " gen %u crc %08x, but the "
			 "data's crc is %08x",
			 h.job_hash, h.lba, h.sequence, h.generation, h.crc32c, crc);
		return;
	case DQ_BLOCK_NO_HEADER:
		break;
	}
	for (i = 0; i < available && p[i] == 0; i++) {
		zeros++;
	}
	if (zeros == available) {
		snprintf(out, out_len, "no header: %zu zero bytes", available);
		return;
	}
	snprintf(out, out_len, "no header: bytes");
	for (i = 0; i < shown; i++) {
		size_t used = strlen(out);

		snprintf(out + used, out_len - used, " %02x", p[i]);
	}
}
