/*
 * A purge's proof in two steps around the erase (verify.c), for the purge phase (phase.c).
 * Internal to the io wing.
 */
#ifndef DRIVEQUAL_IO_VERIFY_H
#define DRIVEQUAL_IO_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/phase.h"
#include "readback.h"

struct dq_purge_proof {
	bool armed; /* canaries were written: the check reads them back */
	uint32_t unit_bytes;
	uint32_t lba_bytes;
	struct dq_readback_plan plan;
	struct dq_purge_verification result;
};

/*
 * Before the erase: write canaries over the whole device (or one unit per stratum of a large
 * one). A target that keeps no data gets an "unverifiable" result instead. Returns 0 or -errno
 * (err says why; -ECANCELED when the job was cancelled).
 */
int dq_purge_proof_prepare(const struct dq_phase_env *env, uint32_t phase_index,
			   struct dq_purge_proof *proof, char *err, size_t err_len);

/* After the erase: read the canaries' places back; proof->result says what was found. */
int dq_purge_proof_check(const struct dq_phase_env *env, struct dq_purge_proof *proof, char *err,
			 size_t err_len);

#endif /* DRIVEQUAL_IO_VERIFY_H */
