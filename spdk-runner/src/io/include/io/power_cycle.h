/*
 * The power-cycle integrity phase: write self-describing blocks, journal (on the runner host, not
 * on the drive) what was acknowledged and what a completed flush made durable, cut the drive's
 * power through a power driver, restore it, read every journalled block back and classify it.
 * docs/methodology.md ("Power-loss integrity") defines the classes and the verdict.
 */
#ifndef DRIVEQUAL_POWER_CYCLE_H
#define DRIVEQUAL_POWER_CYCLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/engine.h"
#include "io/power.h"

#define DQ_POWER_CYCLE_DETAIL_MAX 200

struct dq_power_cycle_config {
	uint64_t range_bytes; /* blocks are written in [0, range_bytes) */
	uint32_t block_bytes; /* one self-describing block per write; a multiple of the LBA size */
	uint32_t queue_depth;
	uint32_t writes_per_cycle; /* acknowledged writes a cycle aims at (the cut comes first) */
	uint32_t flush_every; /* a flush after this many acknowledged writes; 0: never */
	uint32_t cycles;
	/* the cut: after this many acknowledged writes of a cycle; 0: a random point in
	 * [writes_per_cycle / 2, writes_per_cycle) drawn from seed */
	uint32_t cut_after_writes;
	uint64_t seed;
	const char *job_id; /* its hash goes into every header */
	const struct dq_power_site *site; /* the drive's allowlisted power settings, or NULL */
};

/* What the drive promises, from its volatile-write-cache answer. */
enum dq_power_durability {
	DQ_POWER_DURABLE_ON_ACK = 0, /* no volatile write cache: power-loss protected */
	DQ_POWER_DURABLE_ON_FLUSH, /* a volatile write cache: durable once a flush completes */
};

/* One cycle's classification of every journalled block. */
struct dq_power_cycle_counts {
	uint64_t intact; /* the newest acknowledged write (or an unacknowledged one that landed) */
	uint64_t lost_allowed; /* an older write, but the newer one was not yet durable */
	uint64_t lost_durable; /* an older write (or zeros) where a durable write was due: FAIL */
	uint64_t corrupt; /* bad checksum, another LBA or job, or a write never sent there: FAIL */
	uint64_t acknowledged; /* writes acknowledged this cycle */
	uint64_t flushes; /* flushes completed this cycle */
	uint64_t in_flight_at_cut;
	/* of which did not land (the block holds the acknowledged write before it): allowed */
	uint64_t in_flight_at_cut_lost;
};

struct dq_power_cycle_result {
	uint32_t cycle; /* 0-based */
	uint32_t cut_after_writes;
	/* when, on the engine's clock (virtual for the simulator, else monotonic) */
	uint64_t cut_ns;
	uint64_t last_flush_ns; /* the last flush that completed before the cut; 0: none */
	struct dq_power_cycle_counts counts;
	bool pass; /* no lost_durable, no corrupt */
	/* the first failure: "lba 1234: expected seq 77 (durable), found seq 40" */
	char first_failure[DQ_POWER_CYCLE_DETAIL_MAX];
	bool has_truth; /* a simulated drive: what its cut really dropped */
	struct dq_power_truth truth;
};

struct dq_power_cycle_summary {
	uint32_t cycles;
	uint32_t passed;
	uint32_t failed;
	struct dq_power_cycle_counts totals;
	enum dq_power_durability durability;
};

/* Called after each cycle; a negative return stops the phase and is returned. */
typedef int (*dq_power_cycle_fn)(const struct dq_power_cycle_result *result, void *arg);

/*
 * The refusals, before any write: a bad config (-EINVAL naming the field), no power driver
 * (dq_power_driver_open's), a drive whose volatile-write-cache answer is missing (-ENOTSUP: its
 * durability promise is unknown), a target that does not keep data. On 0, *driver and
 * *durability are what run() needs.
 */
int dq_power_cycle_admit(const struct dq_io_engine *engine, const char *power_driver,
			 const struct dq_power_cycle_config *config, struct dq_power_driver *driver,
			 enum dq_power_durability *durability, char *err, size_t err_len);

/* Runs config->cycles cycles. 0 when every cycle ran (verdicts are in the results), or -errno
 * with err when the phase could not run (an IO error, the driver failing). */
int dq_power_cycle_run(struct dq_io_engine *engine, const struct dq_power_driver *driver,
		       enum dq_power_durability durability,
		       const struct dq_power_cycle_config *config, dq_power_cycle_fn on_cycle,
		       void *arg, struct dq_power_cycle_summary *summary, char *err,
		       size_t err_len);

/* ---- the phase as a job runs it (power_cycle_phase.c) ---- */

struct dq_phase_env;
struct dq_phase_spec;
struct dq_phase_stats;

/* The admission check of a power-cycle phaseSpec against the opened target (job_fit.c): 0, or
 * -errno with the refusal in why. Nothing is written. */
int dq_power_cycle_phase_check(const struct dq_io_engine *engine, const struct dq_phase_spec *spec,
			       const struct dq_power_site *site, char *why, size_t why_len);

/* Runs a power-cycle phase; the result goes to stats->power_cycle. 0, or the sink's -errno (a
 * phase that could not run says so in stats->fail_reason and message). */
int dq_power_cycle_phase_run(const struct dq_phase_env *env, const struct dq_phase_spec *spec,
			     struct dq_phase_stats *stats);

#endif /* DRIVEQUAL_POWER_CYCLE_H */
