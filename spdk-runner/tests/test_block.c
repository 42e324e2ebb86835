/*
 * The block header every write carries and the job's ledger of them: a sealed unit inspects as
 * valid with every field intact, any flipped bit is caught, units and tails are cut right, the
 * generation map counts and forgets as the verify phase needs, and read-back plans touch exactly
 * the extents they promise (the same ones again after a rewind).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "io/block_header.h"
#include "io/block_ledger.h"
#include "readback.h"
#include "test_util.h"

static void test_seal_inspect(struct test_ctx *t)
{
	static unsigned char unit[4096] __attribute__((aligned(64)));
	struct dq_block_header in = { .job_hash = 0x1122334455667788ULL,
				      .lba = 123456789,
				      .sequence = 42,
				      .unit_bytes = sizeof(unit),
				      .lba_bytes = 512,
				      .phase_index = 300,
				      .generation = 7,
				      .flags = DQ_BLOCK_FLAG_CANARY },
			       out;
	struct dq_datagen gen __attribute__((aligned(64)));
	size_t bit;
	char text[160];

	dq_datagen_seed(&gen, 1);
	dq_datagen_fill(&gen, unit, sizeof(unit));
	dq_block_seal(unit, &in);
	CHECK(t, dq_block_inspect(unit, sizeof(unit), &out, NULL) == DQ_BLOCK_VALID, "sealed");
	CHECK(t,
	      out.job_hash == in.job_hash && out.lba == in.lba && out.sequence == 42 &&
		      out.unit_bytes == 4096 && out.lba_bytes == 512 && out.phase_index == 300 &&
		      out.generation == 7 && out.flags == DQ_BLOCK_FLAG_CANARY,
	      "fields round-trip");
	/* every bit of the unit matters: the header's via its magic or CRC, the rest via the CRC */
	for (bit = 0; bit < sizeof(unit) * 8; bit += 61) {
		enum dq_block_state state;

		unit[bit / 8] ^= (unsigned char)(1u << (bit % 8));
		state = dq_block_inspect(unit, sizeof(unit), &out, NULL);
		CHECK(t, state != DQ_BLOCK_VALID, "bit %zu flipped went unnoticed", bit);
		CHECK(t, bit >= 64 || state == DQ_BLOCK_NO_HEADER, "a flipped magic bit %zu", bit);
		unit[bit / 8] ^= (unsigned char)(1u << (bit % 8));
	}
	CHECK(t, dq_block_inspect(unit, sizeof(unit), &out, NULL) == DQ_BLOCK_VALID, "restored");
	CHECK(t, dq_block_inspect(unit, 2048, &out, NULL) == DQ_BLOCK_BAD_CHECKSUM,
	      "a unit longer than what was read is not valid");
	dq_block_describe(unit, sizeof(unit), text, sizeof(text));
	CHECK(t, strncmp(text, "job 1122334455667788 lba 123456789 seq 42 gen 7 crc ", 52) == 0,
	      "%s", text);
	memset(unit, 0, sizeof(unit));
	dq_block_describe(unit, sizeof(unit), text, sizeof(text));
	CHECK(t, strcmp(text, "no header: 4096 zero bytes") == 0, "%s", text);
	CHECK(t, dq_block_job_hash("job-1") != dq_block_job_hash("job-2"), "job hashes differ");
}

static void test_fill(struct test_ctx *t)
{
	static unsigned char buf[131072 + 2048] __attribute__((aligned(64)));
	struct dq_block_header template = { .job_hash = 9,
					    .lba = 1000,
					    .sequence = 5,
					    .lba_bytes = 512 },
			       out;
	struct dq_datagen gen __attribute__((aligned(64)));
	uint8_t generations[33];
	uint32_t i;

	for (i = 0; i < 33; i++) {
		generations[i] = (uint8_t)(i + 1);
	}
	dq_datagen_seed(&gen, 2);
	dq_block_fill(&gen, buf, sizeof(buf), 4096, &template, generations);
	for (i = 0; i < 33; i++) {
		CHECK(t,
		      dq_block_inspect(buf + i * 4096, sizeof(buf) - i * 4096, &out, NULL) ==
			      DQ_BLOCK_VALID,
		      "unit %u", i);
		CHECK(t, out.lba == 1000 + 8 * i && out.generation == i + 1 && out.sequence == 5,
		      "unit %u: lba %llu gen %u", i, (unsigned long long)out.lba, out.generation);
	}
	CHECK(t, out.unit_bytes == 2048, "the tail unit is %u bytes", out.unit_bytes);
	CHECK(t, memcmp(buf + 64, buf + 4096 + 64, 4032) != 0, "units carry distinct data");
}

static void test_ledger(struct test_ctx *t)
{
	const uint32_t sizes_4k[] = { 4096, 131072 }, sizes_mixed[] = { 4096, 6144 };
	struct dq_block_ledger ledger;
	uint64_t map_bytes = 0;
	uint8_t next[4];
	int i;

	CHECK(t, dq_block_unit_for(512, sizes_4k, 2) == 4096, "4 KiB units on 512-byte LBAs");
	CHECK(t, dq_block_unit_for(512, sizes_mixed, 2) == 512, "a 6 KiB block: LBA units");
	CHECK(t, dq_block_unit_for(4096, sizes_4k, 2) == 4096, "4 KiB LBAs");
	CHECK(t, dq_block_unit_for(8192, NULL, 0) == 8192, "8 KiB LBAs");
	CHECK(t,
	      dq_block_ledger_init(&ledger, "job", 4096, 512, 1ULL << 20, true, &map_bytes) == 0 &&
		      map_bytes == 256,
	      "a 1 MiB device: 256 units");
	dq_block_ledger_peek(&ledger, 8192, 8192, false, next);
	CHECK(t, next[0] == 1 && next[1] == 1, "a first write is generation 1");
	dq_block_ledger_record(&ledger, 8192, 8192, false);
	CHECK(t, dq_block_ledger_written_units(&ledger, 0, 1ULL << 20) == 2, "two units written");
	for (i = 0; i < 254; i++) {
		dq_block_ledger_record(&ledger, 8192, 4096, false);
	}
	dq_block_ledger_peek(&ledger, 8192, 4096, false, next);
	CHECK(t, next[0] == 1, "generations wrap 255 -> 1, never 0 (got %u)", next[0]);
	dq_block_ledger_record(&ledger, 12288, 4096, true);
	CHECK(t, dq_block_ledger_written_units(&ledger, 0, 1ULL << 20) == 1,
	      "an ambiguous write leaves its unit unverifiable");
	dq_block_ledger_record(&ledger, 0, 4096, false);
	dq_block_ledger_forget(&ledger, 1, 8192); /* touches units 0..2 */
	CHECK(t, dq_block_ledger_written_units(&ledger, 0, 1ULL << 20) == 0, "forgotten");
	dq_block_ledger_fini(&ledger);
	CHECK(t,
	      dq_block_ledger_init(&ledger, "job", 512, 512, DQ_BLOCK_LEDGER_MAX_BYTES * 1024, true,
				   &map_bytes) == -E2BIG &&
		      map_bytes == DQ_BLOCK_LEDGER_MAX_BYTES * 2,
	      "an oversized map is refused with its size");
	dq_block_ledger_fini(&ledger);
}

static void test_plans(struct test_ctx *t)
{
	struct dq_readback_plan plan;
	uint64_t offset, first[100], total = 0, count = 0;
	uint32_t length;

	/* 1000 units + a 2 KiB tail, one unit drawn in each of 100 strata */
	dq_readback_plan_init(&plan, 1000 * 4096ULL + 2048, 4096, 100, 7);
	while (dq_readback_plan_next(&plan, &offset, &length)) {
		uint64_t unit = offset / 4096;

		CHECK(t, offset % 4096 == 0 && (length == 4096 || (unit == 1000 && length == 2048)),
		      "extent %llu+%u", (unsigned long long)offset, length);
		CHECK(t, unit >= count * 1001 / 100 && unit < (count + 1) * 1001 / 100,
		      "unit %llu outside stratum %llu", (unsigned long long)unit,
		      (unsigned long long)count);
		first[count++ % 100] = offset;
	}
	CHECK(t, count == 100, "100 strata, 100 extents (got %llu)", (unsigned long long)count);
	dq_readback_plan_rewind(&plan);
	for (count = 0; dq_readback_plan_next(&plan, &offset, &length); count++) {
		CHECK(t, offset == first[count], "a rewound plan yields the same extents");
	}
	/* fewer units than strata: every unit, contiguously */
	dq_readback_plan_init(&plan, 3 * 1048576ULL + 4096, 4096, 65536, 7);
	while (dq_readback_plan_next(&plan, &offset, &length)) {
		CHECK(t, offset == total, "contiguous");
		total += length;
	}
	CHECK(t, total == 3 * 1048576ULL + 4096, "the whole range (got %llu)",
	      (unsigned long long)total);
}

int main(void)
{
	struct test_ctx t = { 0 };

	test_seal_inspect(&t);
	test_fill(&t);
	test_ledger(&t);
	test_plans(&t);
	return test_report(&t, "test_block");
}
