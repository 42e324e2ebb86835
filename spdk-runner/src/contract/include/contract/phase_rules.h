/*
 * The one home of the phase rules (schemas/messages/common.schema.json#/$defs/phaseSpec): the
 * bounds of every field, what each kind of phase must state, and which phases destroy data. The
 * decoder, the job runner, the agent and the command line all check phases here, and the
 * destructive rule is pinned by schemas/examples/phase-rules/destructive.json, which the Java
 * side reads too.
 */
#ifndef DRIVEQUAL_PHASE_RULES_H
#define DRIVEQUAL_PHASE_RULES_H

#include <stdbool.h>
#include <stddef.h>

#include "contract/msg_common.h"

/* The phaseSpec's bounds. Plain literals, so DQ_STRINGIFY can put them in help texts. */
#define DQ_QUEUE_DEPTH_MIN 1
#define DQ_QUEUE_DEPTH_MAX 1024
#define DQ_BLOCK_SIZE_MIN_BYTES 512
#define DQ_BLOCK_SIZE_MAX_BYTES 16777216
#define DQ_BLOCK_SIZE_ALIGN_BYTES 512 /* blockSizeBytes is a multiple of this */
#define DQ_READ_PERCENT_MAX 100
#define DQ_RANGE_PERCENT_MAX 100 /* rangePercent is in (0, this] */
#define DQ_RUNTIME_S_MAX 2592000 /* 30 days */
#define DQ_PASSES_MAX 100
#define DQ_IDLE_S_MAX 604800 /* 7 days */

#define DQ_STRINGIFY_VALUE(x) #x
/* A numeric constant as a string literal: DQ_STRINGIFY(DQ_QUEUE_DEPTH_MAX) is "1024". */
#define DQ_STRINGIFY(x) DQ_STRINGIFY_VALUE(x)

/* The first rule a phase breaks: the member at fault (NULL: the phase as a whole) and why. */
struct dq_phase_violation {
	const char *field;
	char reason[128];
};

/*
 * Check one phase: every bound above, then what its kind requires (a workload: rw,
 * blockSizeBytes, queueDepth, rangePercent and runtimeS, sizeBytes or both; ...), then
 * readPercent for the mixed patterns. Returns 0, or -EINVAL with *violation filled.
 */
int dq_phase_check(const struct dq_phase_spec *phase, struct dq_phase_violation *violation);

/*
 * Check a job's phases: 1..DQ_MAX_PHASES of them, each passing dq_phase_check(). Returns 0, or
 * -EINVAL with err "phase I (NAME, KIND): FIELD: REASON".
 */
int dq_phase_list_check(const struct dq_phase_spec *phases, size_t count, char *err,
			size_t err_len);

/*
 * Does this phase destroy data on the drive? A purge, a precondition, a deallocate, and any
 * workload that can write: all but read, randread and a mix of 100% reads. Destructive phases run
 * only where every interlock passes.
 */
bool dq_phase_is_destructive(const struct dq_phase_spec *phase);

#endif /* DRIVEQUAL_PHASE_RULES_H */
