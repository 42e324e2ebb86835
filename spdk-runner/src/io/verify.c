/*
 * Reading back what the job wrote: the verify phase (every unit the ledger says this job wrote
 * in the range must carry this job's header, its own LBA, its newest generation and an intact
 * CRC32C) and a purge's proof (canaries written across the device before the erase, none of
 * which may read back after it), in the manner of NIST SP 800-88's purge verification.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contract/strutil.h"
#include "io/block_header.h"
#include "readback.h"
#include "verify.h"

/* A device of at most this many units is read back whole; a larger one one unit per stratum. */
#define PURGE_PROOF_UNITS 65536u

struct verify_check {
	const struct dq_block_ledger *ledger;
	struct dq_verify_result *result;
};

static void add_mismatch(struct dq_verify_result *result, uint64_t lba, const char *expected,
			 const void *unit, size_t available)
{
	struct dq_verify_mismatch *m;

	result->mismatches++;
	if (result->reported == DQ_READBACK_REPORT_MAX) {
		return;
	}
	m = &result->first_mismatches[result->reported++];
	m->lba = lba;
	dq_strlcpy(m->expected, expected, sizeof(m->expected));
	dq_block_describe(unit, available, m->found, sizeof(m->found));
}

/* Each unit of a read-back extent against what the ledger says was written there. */
static void verify_extent(void *arg, uint64_t offset, uint32_t length, void *buf)
{
	struct verify_check *check = arg;
	const struct dq_block_ledger *ledger = check->ledger;
	struct dq_block_header found;
	uint32_t at, available;
	char expected[DQ_BLOCK_TEXT_MAX_CHARS + 1];

	for (at = 0; at < length; at += ledger->unit_bytes) {
		uint64_t unit_offset = offset + at, lba = unit_offset / ledger->lba_bytes;
		uint8_t generation = ledger->generations[unit_offset / ledger->unit_bytes];
		const unsigned char *unit = (const unsigned char *)buf + at;
		enum dq_block_state state;

		available = length - at;
		if (generation == 0) {
			check->result->unwritten_blocks++;
			continue;
		}
		check->result->blocks_checked++;
		snprintf(expected, sizeof(expected), "job %016" PRIx64 " lba %" PRIu64 " gen %u",
			 ledger->job_hash, lba, generation);
		state = dq_block_inspect(unit, available, &found, NULL);
		if (state != DQ_BLOCK_VALID || found.job_hash != ledger->job_hash ||
		    found.lba != lba || found.generation != generation) {
			add_mismatch(check->result, lba, expected, unit,
				     available < ledger->unit_bytes ? available :
								      ledger->unit_bytes);
		}
	}
}

/* The range rounded up to whole units (a short last unit is read whole), within the device. */
static uint64_t unit_range(const struct dq_block_ledger *ledger, uint64_t range)
{
	uint64_t rounded =
		(range + ledger->unit_bytes - 1) / ledger->unit_bytes * ledger->unit_bytes;

	return rounded > ledger->capacity_bytes ? ledger->capacity_bytes : rounded;
}

int dq_verify_phase_run(const struct dq_phase_env *env, const struct dq_phase_spec *spec,
			struct dq_phase_stats *stats)
{
	struct dq_block_ledger *ledger = env->ledger;
	struct verify_check check = { .ledger = ledger, .result = &stats->verify };
	struct dq_readback_plan plan;
	uint64_t range, written;
	char err[256] = "";
	int rc;

	stats->start_ns = dq_phase_env_now(env);
	range = unit_range(ledger, dq_phase_range_bytes(spec, &env->engine->target.device));
	written = dq_block_ledger_written_units(ledger, 0, range);
	if (!dq_block_ledger_tracks(ledger) || written == 0) {
		/* Never a pass: a verify of nothing proves nothing. */
		stats->fail_reason = DQ_FAIL_INTERNAL;
		snprintf(stats->message, sizeof(stats->message),
			 "verify: nothing to verify: no block of [0, %" PRIu64
			 ") was written by this job since its last erase",
			 range);
		return 0;
	}
	dq_readback_plan_init(&plan, range, ledger->unit_bytes, 0, 0);
	rc = dq_readback_run(env, &plan, DQ_IO_READ, verify_extent, &check,
			     &stats->verify.bytes_read, err, sizeof(err));
	stats->duration_ns = dq_phase_env_now(env) - stats->start_ns;
	if (rc == -ECANCELED) {
		stats->cancelled = true;
	} else if (rc != 0) {
		stats->fail_reason = rc == -EIO ? DQ_FAIL_IO_ERROR : DQ_FAIL_ENGINE_ERROR;
		snprintf(stats->message, sizeof(stats->message), "verify: %s", err);
	} else {
		stats->has_verify = true;
	}
	return 0;
}

/* Canaries: fresh random data with a header flagged as a purge canary. */
struct canary_fill {
	const struct dq_phase_env *env;
	struct dq_datagen *gen;
	uint32_t phase_index;
	uint64_t units;
};

static void fill_canary(void *arg, uint64_t offset, uint32_t length, void *buf)
{
	struct canary_fill *fill = arg;
	const struct dq_block_ledger *ledger = fill->env->ledger;
	struct dq_block_header header = { .job_hash = ledger->job_hash,
					  .lba = offset / ledger->lba_bytes,
					  .sequence = fill->env->ledger->next_sequence++,
					  .lba_bytes = ledger->lba_bytes,
					  .phase_index = (uint16_t)fill->phase_index,
					  .flags = DQ_BLOCK_FLAG_CANARY };

	dq_block_fill(fill->gen, buf, length, ledger->unit_bytes, &header, NULL);
	fill->units += (length + ledger->unit_bytes - 1) / ledger->unit_bytes;
}

/* After the erase: any unit still carrying a drivequal header is data from before it. */
static void find_survivors(void *arg, uint64_t offset, uint32_t length, void *buf)
{
	struct dq_purge_proof *proof = arg;
	struct dq_purge_verification *v = &proof->result;
	struct dq_block_header header;
	uint32_t unit = proof->unit_bytes, at;

	for (at = 0; at < length; at += unit) {
		v->blocks_read++;
		if (dq_block_inspect((const char *)buf + at, length - at, &header, NULL) !=
		    DQ_BLOCK_NO_HEADER) {
			if (v->found_reported < DQ_READBACK_REPORT_MAX) {
				v->first_found_lbas[v->found_reported++] =
					(offset + at) / proof->lba_bytes;
			}
			v->blocks_found++;
		}
	}
}

int dq_purge_proof_prepare(const struct dq_phase_env *env, uint32_t phase_index,
			   struct dq_purge_proof *proof, char *err, size_t err_len)
{
	const struct dq_device_target *target = &env->engine->target;
	struct dq_block_ledger *ledger = env->ledger;
	struct canary_fill fill = { .env = env, .phase_index = phase_index };
	uint64_t written = 0;
	int rc;

	memset(proof, 0, sizeof(*proof));
	proof->unit_bytes = ledger->unit_bytes;
	proof->lba_bytes = ledger->lba_bytes;
	if (!target->keeps_data) {
		proof->result.status = DQ_PURGE_VERIFY_UNVERIFIABLE;
		proof->result.coverage = DQ_COVERAGE_NONE;
		proof->result.has_reason = true;
		snprintf(proof->result.reason, sizeof(proof->result.reason),
			 "nothing can be read back: %s", target->no_data_reason);
		return 0;
	}
	proof->armed = true;
	dq_readback_plan_init(&proof->plan, ledger->capacity_bytes, ledger->unit_bytes,
			      PURGE_PROOF_UNITS, env->seed ^ 0x70757267652d7631ULL);
	proof->result.coverage = proof->plan.strata == 0 ? DQ_COVERAGE_ALL : DQ_COVERAGE_SAMPLE;
	if (posix_memalign((void **)&fill.gen, 64, sizeof(*fill.gen)) != 0) {
		return -ENOMEM;
	}
	dq_datagen_seed(fill.gen, env->seed ^ ledger->next_sequence);
	rc = dq_readback_run(env, &proof->plan, DQ_IO_WRITE, fill_canary, &fill, &written, err,
			     err_len);
	free(fill.gen);
	proof->result.canary_blocks = fill.units;
	return rc;
}

int dq_purge_proof_check(const struct dq_phase_env *env, struct dq_purge_proof *proof, char *err,
			 size_t err_len)
{
	struct dq_purge_verification *v = &proof->result;
	int rc;

	if (!proof->armed) {
		return 0;
	}
	dq_readback_plan_rewind(&proof->plan);
	rc = dq_readback_run(env, &proof->plan, DQ_IO_READ, find_survivors, proof, &v->bytes_read,
			     err, err_len);
	v->lbas_read = v->bytes_read / proof->lba_bytes;
	v->status = v->blocks_found > 0 ? DQ_PURGE_VERIFY_FAILED : DQ_PURGE_VERIFY_VERIFIED;
	return rc;
}
