/*
 * What the job runner and the phase implementations share: the environment a phase runs in
 * (engine, sink, clock, cancel flag) and a phase's results, which become phase-completed.
 */
#ifndef DRIVEQUAL_PHASE_H
#define DRIVEQUAL_PHASE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "contract/msg_job_event.h"
#include "io/block_ledger.h"
#include "io/engine.h"
#include "io/histogram.h"
#include "io/sink.h"

/* The cancel flag is checked at least this often; stalled devices still get a sample per second. */
#define DQ_TICK_NS 100000000ULL

/* The queue depth of read-backs (purge proofs, verify phases): the engine must take this many. */
#define DQ_READBACK_QUEUE_DEPTH 16u

struct dq_phase_env {
	struct dq_io_engine *engine;
	const struct dq_sink *sink;
	atomic_int *cancel;
	const char *job_id;
	const char *runner_id;
	const char *serial;
	/* The drive's allowlisted power settings (powerSlot, powerRedfish...), never NULL. */
	const struct dq_power_site *power_site;
	uint64_t seed;
	bool virtual_clock; /* times are the engine's clock */
	/* The job's record of what it wrote (headers' identity, generations); never NULL. */
	struct dq_block_ledger *ledger;
	/* Maps phase clock to epoch ms: wall_origin_ms corresponds to clock_origin_ns. */
	uint64_t wall_origin_ms;
	uint64_t clock_origin_ns;
	/* Optional: called on the phase's thread each time the phase clock passes a whole second
	 * (after that second's sample; each second of an idle phase on a virtual clock), never
	 * between two IO submissions. Health polls in simulated time ride on it. */
	void (*second_tick)(void *arg, uint64_t clock_ns);
	void *second_tick_arg;
};

/* The phase clock: the engine's virtual clock, or CLOCK_MONOTONIC. */
uint64_t dq_phase_env_now(const struct dq_phase_env *env);
uint64_t dq_phase_env_epoch_ms(const struct dq_phase_env *env, uint64_t clock_ns);

/* One closed-loop IO phase (workload or precondition), derived from its phaseSpec. */
struct dq_io_phase_params {
	uint32_t phase_index;
	const char *phase_name;
	uint32_t read_percent; /* 0 write only .. 100 read only */
	bool sequential;
	uint32_t block_size;
	uint32_t queue_depth;
	uint64_t range_bytes; /* addressed from offset 0; a multiple of the lba size */
	/* The limits: a timed phase, a sized one, or both (it ends at the first reached). */
	uint64_t runtime_ns; /* 0: no time limit */
	uint64_t total_bytes; /* bytes to transfer; 0: no size limit */
	enum dq_data_pattern data_pattern;
	/* A resumed phase: its samples' t continue after this second (the lost run's rounds). */
	uint32_t t_offset_s;
};

struct dq_direction_stats {
	uint64_t ios;
	uint64_t bytes;
	uint64_t errors;
	struct dq_histogram histogram;
};

/* One stream of a multi-stream phase: per direction (read, write, trim) the service time in
 * dir[d].histogram and, for an open loop, the response time beside it. */
struct dq_stream_phase_stats {
	char name[DQ_STREAM_NAME_MAX_LEN + 1];
	bool open_loop;
	bool issues[3]; /* the directions the stream may issue */
	uint64_t offered_ios; /* open loop: arrivals intended within the phase */
	uint64_t max_backlog; /* open loop: the most arrivals due and waiting for a slot at once */
	struct dq_direction_stats dir[3];
	struct dq_histogram response[3];
};

/* A finished (or ended) phase; large (two histograms): allocate it. */
struct dq_phase_stats {
	uint64_t start_ns; /* phase clock */
	uint64_t duration_ns;
	uint64_t samples;
	/* IO phases: IOs outstanding integrated over the phase (IO-nanoseconds), and that divided
	 * by the duration x 1000 (the effective queue depth, the contract's integer form). */
	uint64_t outstanding_io_ns;
	bool has_effective_queue_depth;
	uint64_t effective_queue_depth_milli;
	struct dq_direction_stats read;
	struct dq_direction_stats write;
	/* Multi-stream phases: trims, and each stream (malloc'd; dq_phase_stats_release frees) */
	bool has_trim;
	struct dq_direction_stats trim;
	size_t stream_count;
	struct dq_stream_phase_stats *streams;
	bool has_deallocated_bytes;
	uint64_t deallocated_bytes;
	bool has_purge_verification; /* purge phases */
	struct dq_purge_verification purge_verification;
	bool has_verify; /* verify phases */
	struct dq_verify_result verify;
	bool has_power_cycle; /* power-cycle phases */
	struct dq_power_cycle_report power_cycle;
	bool cancelled;
	/* IO phases that ran to a limit (neither cancelled nor failed): the one that ended them */
	enum dq_phase_limit limit_reached;
	enum dq_fail_reason fail_reason; /* DQ_FAIL_NONE unless the phase failed */
	char message[DQ_UTF8_BUF(DQ_MESSAGE_MAX_CHARS)];
};

void dq_phase_stats_init(struct dq_phase_stats *stats);
/* Free what a phase allocated in stats (a multi-stream phase's streams); init is then needed. */
void dq_phase_stats_release(struct dq_phase_stats *stats);

/*
 * Run an IO phase: one sample per second through env->sink, totals and histograms in stats.
 * Returns 0 (also when stats says failed or cancelled) or the sink's -errno.
 */
int dq_io_phase_run(const struct dq_phase_env *env, const struct dq_io_phase_params *params,
		    struct dq_phase_stats *stats);

/*
 * A multi-stream workload (spec->streams, stream_phase.c): the streams run concurrently for
 * runtimeS, closed loops and open loops at their rates, on every engine (in virtual time on a
 * virtual clock: the engine needs advance() for open loops, and DQ_ENGINE_QUEUES_TRIMS for
 * trims). One sample per second with each stream's directions, offered and achieved IOs;
 * stats->streams gets each stream's service and response time histograms. Same return
 * convention; what the engine cannot run fails the phase with the reason.
 */
int dq_stream_phase_run(const struct dq_phase_env *env, const struct dq_phase_spec *spec,
			struct dq_phase_stats *stats);

/* Whether this opened engine can run spec's streams: 0, or -ENOTSUP with the reason in why. */
int dq_stream_phase_check(const struct dq_io_engine *engine, const struct dq_phase_spec *spec,
			  char *why, size_t why_len);

/*
 * The phases without a workload: purge, deallocate, idle. Same return convention; stats gets the
 * duration (and deallocatedBytes), or the failure.
 */
int dq_purge_phase_run(const struct dq_phase_env *env, const struct dq_phase_spec *spec,
		       struct dq_phase_stats *stats);
int dq_deallocate_phase_run(const struct dq_phase_env *env, const struct dq_phase_spec *spec,
			    struct dq_phase_stats *stats);
int dq_idle_phase_run(const struct dq_phase_env *env, const struct dq_phase_spec *spec,
		      struct dq_phase_stats *stats);

/*
 * A verify phase: read the tested range back and check every unit the ledger says this job wrote
 * (readback.c). stats->verify gets the result; a range with nothing written fails the phase.
 */
int dq_verify_phase_run(const struct dq_phase_env *env, const struct dq_phase_spec *spec,
			struct dq_phase_stats *stats);

/* IO-nanoseconds x 1000 / interval_ns, the contract's effectiveQueueDepthMilli (0 when the
 * interval is empty, capped at its maximum). */
uint64_t dq_io_queue_depth_milli(uint64_t outstanding_io_ns, uint64_t interval_ns);

/* The phase's tested range: rangePercent of the capacity, rounded down to whole lbas. */
uint64_t dq_phase_range_bytes(const struct dq_phase_spec *spec, const struct dq_device *device);

#endif /* DRIVEQUAL_PHASE_H */
