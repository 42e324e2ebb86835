/*
 * Types shared by every drivequal message (schemas/messages/common.schema.json): identifiers,
 * devices, phase specifications and latency histograms, as plain C structs that the per-message
 * codecs decode into and encode from; the SMART snapshot's types are in contract/msg_smart.h,
 * which this header includes.
 */
#ifndef DRIVEQUAL_MSG_COMMON_H
#define DRIVEQUAL_MSG_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DQ_SCHEMA_VERSION 1

/* Lengths from the schemas' patterns and maxLength; buffers add the terminating NUL. */
#define DQ_ID_MAX_LEN 64
#define DQ_SERIAL_MAX_LEN 64
#define DQ_PHASE_NAME_MAX_LEN 64
#define DQ_TIMESTAMP_LEN 24 /* 2026-11-22T21:00:00.000Z */
#define DQ_EVENT_ID_MAX_LEN (DQ_ID_MAX_LEN + 1 + 9)

/* maxLength counts characters; UTF-8 needs up to 4 bytes for one. */
#define DQ_UTF8_BUF(max_chars) ((max_chars)*4 + 1)
#define DQ_MODEL_MAX_CHARS 64
#define DQ_FIRMWARE_MAX_CHARS 16
#define DQ_TRANSPORT_MAX_CHARS 256
#define DQ_REASON_MAX_CHARS 512
#define DQ_MESSAGE_MAX_CHARS 1024

#define DQ_PHASE_INDEX_MAX 255
#define DQ_MAX_PHASES 64
#define DQ_HISTOGRAM_MAX_BUCKETS 8192
#define DQ_HISTOGRAM_SIGNIFICANT_DIGITS 2

/*
 * Enumerations: value 0 means "absent" (optional fields) and never survives a successful decode of a
 * required field; the other values follow the schema's enum order.
 */
enum dq_engine {
	DQ_ENGINE_NONE = 0,
	DQ_ENGINE_SPDK,
	DQ_ENGINE_URING,
	DQ_ENGINE_SIM,
	DQ_ENGINE_NULL,
	DQ_ENGINE_COUNT /* not a value: the number of engines + 1 */
};

enum dq_phase_kind {
	DQ_PHASE_KIND_NONE = 0,
	DQ_PHASE_KIND_PURGE,
	DQ_PHASE_KIND_PRECONDITION,
	DQ_PHASE_KIND_WORKLOAD,
	DQ_PHASE_KIND_DEALLOCATE,
	DQ_PHASE_KIND_IDLE,
	DQ_PHASE_KIND_SMART,
	DQ_PHASE_KIND_VERIFY,
	DQ_PHASE_KIND_POWER_CYCLE,
};

enum dq_rw {
	DQ_RW_NONE = 0,
	DQ_RW_READ,
	DQ_RW_WRITE,
	DQ_RW_RW,
	DQ_RW_RANDREAD,
	DQ_RW_RANDWRITE,
	DQ_RW_RANDRW,
	/* streams only (#/$defs/streamSpec): deallocations */
	DQ_RW_TRIM,
	DQ_RW_RANDTRIM,
};

enum dq_data_pattern {
	DQ_DATA_PATTERN_NONE = 0,
	DQ_DATA_PATTERN_RANDOM,
	DQ_DATA_PATTERN_ZEROS,
};

enum dq_purge_method {
	DQ_PURGE_METHOD_NONE = 0,
	DQ_PURGE_METHOD_AUTO,
	DQ_PURGE_METHOD_FORMAT_USER_DATA,
	DQ_PURGE_METHOD_FORMAT_CRYPTO,
	DQ_PURGE_METHOD_SANITIZE_BLOCK,
	DQ_PURGE_METHOD_SANITIZE_CRYPTO,
	DQ_PURGE_METHOD_SANITIZE_OVERWRITE,
	DQ_PURGE_METHOD_DEALLOCATE,
};

enum dq_smart_source {
	DQ_SMART_SOURCE_NONE = 0,
	DQ_SMART_SOURCE_NVME_LOG_02H,
	DQ_SMART_SOURCE_SIM,
	DQ_SMART_SOURCE_UNAVAILABLE,
};

/* The schema's name of an enum value ("randwrite"), or NULL for 0 and out-of-range values. */
const char *dq_engine_to_str(enum dq_engine engine);
const char *dq_phase_kind_to_str(enum dq_phase_kind kind);
const char *dq_rw_to_str(enum dq_rw rw);
const char *dq_data_pattern_to_str(enum dq_data_pattern pattern);
const char *dq_purge_method_to_str(enum dq_purge_method method);

/* A drive as a runner sees it (common.schema.json#/$defs/device). */
struct dq_device {
	char serial[DQ_SERIAL_MAX_LEN + 1];
	char model[DQ_UTF8_BUF(DQ_MODEL_MAX_CHARS)];
	char firmware[DQ_UTF8_BUF(DQ_FIRMWARE_MAX_CHARS)];
	uint64_t capacity_bytes;
	uint32_t lba_size_bytes;
	enum dq_engine engine;
	char transport_address[DQ_UTF8_BUF(DQ_TRANSPORT_MAX_CHARS)];
};

/* Adaptive rounds (#/$defs/roundSpec): bounds as the schema states them. */
#define DQ_ROUND_STEPS_MAX 64
#define DQ_ROUND_STEP_RUNTIME_S_MAX 3600
#define DQ_ROUNDS_MIN 5 /* one steady-state window */
#define DQ_ROUNDS_MAX 1000
#define DQ_RANGE_WRITES_REQUIRED_MAX 1000

enum dq_tracking_metric {
	DQ_TRACKING_METRIC_NONE = 0,
	DQ_TRACKING_METRIC_IOPS,
	DQ_TRACKING_METRIC_BYTES_PER_S,
	DQ_TRACKING_METRIC_MEAN_LATENCY_NS, /* the step's IOs' mean latency, not a per-second mean */
};

/* One step of a round (#/$defs/roundStep): a fixed stimulus, or a host-idle wait (idle_s > 0). */
struct dq_round_step {
	uint32_t idle_s; /* 0: an IO step */
	bool has_runtime_s; /* IO steps: their own seconds instead of stepRuntimeS */
	uint32_t runtime_s;
	enum dq_rw rw;
	bool has_read_percent;
	uint32_t read_percent;
	uint32_t block_size_bytes;
	uint32_t queue_depth;
};

struct dq_round_spec {
	size_t step_count;
	struct dq_round_step steps[DQ_ROUND_STEPS_MAX];
	uint32_t step_runtime_s;
	bool has_tracking; /* none: exactly max_rounds rounds */
	uint32_t tracking_step; /* index into steps */
	enum dq_tracking_metric tracking_metric;
	uint32_t max_rounds;
	double range_writes_required; /* W */
};

enum dq_rounds_stop {
	DQ_ROUNDS_STOP_NONE = 0,
	DQ_ROUNDS_STOP_STEADY,
	DQ_ROUNDS_STOP_MAX_ROUNDS,
};

/* What decided the first eligible round (#/$defs/roundsResult freshStateEvidence). */
enum dq_fresh_state_evidence {
	DQ_FRESH_STATE_EVIDENCE_NONE = 0, /* absent: no tracking, or an older runner */
	DQ_FRESH_STATE_EVIDENCE_READ_ONLY,
	DQ_FRESH_STATE_EVIDENCE_NO_RESET,
	DQ_FRESH_STATE_EVIDENCE_MEDIA_WRITES,
	DQ_FRESH_STATE_EVIDENCE_IOPS_CLIFF,
	DQ_FRESH_STATE_EVIDENCE_WRITTEN_BYTES,
};

/*
 * The completion latency of a step's IOs in one direction (or both: total) over the measurement
 * window (#/$defs/windowLatencyFigures): mean and max exact, percentiles from the merged histogram.
 */
struct dq_latency_figures {
	uint64_t ios; /* >= 1 */
	uint64_t mean_ns; /* the latencies' exact sum / ios, rounded down */
	uint64_t p99_ns;
	uint64_t p999_ns;
	uint64_t p99999_ns;
	uint64_t max_ns;
};

/* One IO step's window latency (#/$defs/stepWindowLatency); a direction without IO is absent. */
struct dq_step_window_latency {
	uint32_t step; /* index into the round's steps */
	bool has_read;
	struct dq_latency_figures read;
	bool has_write;
	struct dq_latency_figures write;
	struct dq_latency_figures total;
};

/* Per step, the latency of the measurement window's rounds first..last (#/$defs/windowLatency). */
struct dq_window_latency {
	uint32_t first_round;
	uint32_t last_round;
	size_t step_count; /* the IO steps that completed IOs in the window, in step order */
	struct dq_step_window_latency steps[DQ_ROUND_STEPS_MAX];
};

/* How a phase with rounds stopped (#/$defs/roundsResult). */
struct dq_rounds_result {
	uint32_t rounds_run;
	enum dq_rounds_stop stopped_because;
	bool has_reached_at_round; /* exactly when stopped_because is STEADY */
	uint32_t reached_at_round;
	bool has_first_eligible_round;
	uint32_t first_eligible_round;
	enum dq_fresh_state_evidence fresh_state_evidence;
	size_t tracking_count;
	int64_t tracking_milli[DQ_ROUNDS_MAX]; /* -1: no second of the tracking step present */
	bool has_window_latency; /* absent from runners that keep no per-step histograms */
	struct dq_window_latency window_latency;
};

const char *dq_tracking_metric_to_str(enum dq_tracking_metric metric);
const char *dq_rounds_stop_to_str(enum dq_rounds_stop stop);
const char *dq_fresh_state_evidence_to_str(enum dq_fresh_state_evidence evidence);

/* Multi-stream phases (#/$defs/streamSpec): bounds as the schema states them. */
#define DQ_STREAMS_MAX 8
#define DQ_STREAM_NAME_MAX_LEN 32
#define DQ_BLOCK_SPLIT_MAX 16
#define DQ_STREAM_BLOCK_SIZE_MAX_BYTES 2147483648u /* trims; reads and writes stay at the phase's */
#define DQ_STREAM_RATE_IOPS_MAX 100000000ULL
#define DQ_STREAM_RATE_BYTES_MAX 1000000000000ULL
#define DQ_STREAM_THINK_TIME_US_MAX 60000000u
#define DQ_STREAM_THINK_TIME_BLOCKS_MAX 1000000u
#define DQ_STREAM_START_DELAY_MS_MAX 86400000u
/* NVMe FDP: a placement handle is a 16-bit index (PHNDL) */
#define DQ_STREAM_PLACEMENT_HANDLE_MAX 65535u

enum dq_arrivals {
	DQ_ARRIVALS_NONE = 0, /* absent: uniform with a rate, closed loop without */
	DQ_ARRIVALS_UNIFORM,
	DQ_ARRIVALS_POISSON,
};

const char *dq_arrivals_to_str(enum dq_arrivals arrivals);

/* One entry of a block-size split (fio's bssplit): a size and its share of the IOs. */
struct dq_block_split {
	uint32_t block_size_bytes;
	uint32_t percent;
};

/* One stream of a multi-stream workload (#/$defs/streamSpec). */
struct dq_stream_spec {
	char name[DQ_STREAM_NAME_MAX_LEN + 1]; /* "" when absent: reported as stream<index> */
	enum dq_rw rw; /* every dq_rw value, trims included */
	bool has_read_percent;
	uint32_t read_percent;
	bool has_trim_percent;
	uint32_t trim_percent;
	bool has_random_percent;
	uint32_t random_percent;
	uint32_t block_size_bytes; /* 0 with a split */
	size_t split_count;
	struct dq_block_split split[DQ_BLOCK_SPLIT_MAX];
	uint32_t queue_depth;
	bool has_offset_bytes;
	uint64_t offset_bytes;
	bool has_offset_percent;
	double offset_percent;
	bool has_range_bytes;
	uint64_t range_bytes;
	bool has_range_percent;
	double range_percent;
	bool has_rate_iops;
	uint64_t rate_iops;
	bool has_rate_bytes_per_s;
	uint64_t rate_bytes_per_s;
	enum dq_arrivals arrivals;
	bool has_think_time_us;
	uint32_t think_time_us;
	bool has_think_time_blocks;
	uint32_t think_time_blocks;
	bool has_start_delay_ms;
	uint32_t start_delay_ms;
	/* FDP: the stream's writes carry this placement handle (an index into the namespace's
	 * reclaim unit handles); refused before any write on a drive without FDP or beyond them */
	bool has_placement_handle;
	uint32_t placement_handle;
};

/* One step of a qualification (#/$defs/phaseSpec); has_* says whether an optional field is set. */
/* A power-cycle phase's plan (#/$defs/powerCycleSpec). */
struct dq_power_cycle_spec {
	char power_driver[DQ_PHASE_NAME_MAX_LEN + 1];
	uint32_t cycles;
	uint32_t writes_per_cycle;
	uint32_t flush_every; /* 0: never */
	uint32_t cut_after_writes; /* 0: random */
};

#define DQ_POWER_CYCLES_MAX 1000u
#define DQ_POWER_WRITES_MAX 10000000u
#define DQ_POWER_FAILED_CYCLES_MAX 16
#define DQ_POWER_FAILURE_MAX_CHARS 300

enum dq_power_durability_name {
	DQ_DURABILITY_NONE = 0,
	DQ_DURABILITY_ON_ACKNOWLEDGE,
	DQ_DURABILITY_ON_FLUSH,
};

/* One cycle of a power-cycle phase (#/$defs/powerCycleOutcome). */
struct dq_power_cycle_outcome {
	uint32_t cycle;
	uint32_t cut_after_writes;
	uint32_t intact;
	uint32_t lost_allowed;
	uint32_t lost_durable;
	uint32_t corrupt;
	bool pass;
};

/* A power-cycle phase's result (#/$defs/powerCycleResult). */
struct dq_power_cycle_report {
	char power_driver[DQ_PHASE_NAME_MAX_LEN + 1];
	enum dq_power_durability_name durability;
	uint64_t cycles;
	uint64_t cycles_passed;
	uint64_t cycles_failed;
	bool pass;
	uint64_t acknowledged_writes;
	uint64_t flushes;
	uint64_t intact;
	uint64_t lost_allowed;
	uint64_t lost_durable;
	uint64_t corrupt;
	uint64_t in_flight_at_cut;
	uint64_t in_flight_lost;
	size_t failed_cycle_count;
	uint64_t failed_cycles[DQ_POWER_FAILED_CYCLES_MAX];
	bool has_first_failure;
	char first_failure[DQ_POWER_FAILURE_MAX_CHARS + 1];
	size_t outcome_count; /* one per cycle, in order */
	struct dq_power_cycle_outcome outcomes[DQ_POWER_CYCLES_MAX];
};

struct dq_phase_spec {
	uint32_t index;
	char name[DQ_PHASE_NAME_MAX_LEN + 1];
	enum dq_phase_kind kind;
	enum dq_rw rw;
	bool has_read_percent;
	uint32_t read_percent;
	bool has_block_size_bytes;
	uint32_t block_size_bytes;
	bool has_queue_depth;
	uint32_t queue_depth;
	bool has_range_percent;
	double range_percent;
	bool has_runtime_s;
	uint32_t runtime_s;
	bool has_size_bytes;
	uint64_t size_bytes;
	bool has_passes;
	uint32_t passes;
	enum dq_data_pattern data_pattern;
	bool has_idle_s;
	uint32_t idle_s;
	enum dq_purge_method purge_method;
	/* purge phases: what the plan accepts when the device cannot do purge_method (only
	 * deallocate: a TRIM, which SNIA PTS does not count as a purge); NONE: refuse instead */
	enum dq_purge_method purge_fallback;
	bool has_smart_snapshot;
	bool smart_snapshot;
	bool has_rounds; /* adaptive rounds: the steps replace rw..queueDepth and the duration */
	struct dq_round_spec rounds;
	size_t stream_count; /* a multi-stream workload: the streams replace rw..queueDepth */
	struct dq_stream_spec streams[DQ_STREAMS_MAX];
	/* a latency-at-load sweep's steps share a group: once one saturates, the group's later
	 * steps are skipped */
	bool has_sweep_group;
	char sweep_group[DQ_PHASE_NAME_MAX_LEN + 1];
	bool has_power_cycle; /* power-cycle phases */
	struct dq_power_cycle_spec power_cycle;
};

/* Per-second completion latency percentiles, nanoseconds (#/$defs/latencyPercentilesNs). */
struct dq_latency_percentiles {
	uint64_t p50;
	uint64_t p99;
	uint64_t p999;
	uint64_t max;
};

/* One non-empty HdrHistogram bucket: [lowestEquivalentValueNs, count]. */
struct dq_histogram_bucket {
	uint64_t value_ns;
	uint64_t count;
};

/*
 * A phase's latency histogram (#/$defs/latencyHistogram); significantDigits is always 2. A decoder
 * allocates buckets (freed by the message's fini function); an encoder only reads them.
 */
struct dq_latency_histogram {
	uint64_t total_count;
	uint64_t min_ns;
	uint64_t max_ns;
	size_t bucket_count;
	struct dq_histogram_bucket *buckets;
};

/* A phase's totals for one direction (#/$defs/directionTotals). */
struct dq_direction_totals {
	/* open-loop streams: response time (intended issue to completion) beside the service time */
	bool has_response_time;
	uint64_t response_mean_latency_ns;
	struct dq_latency_histogram response_histogram;
	uint64_t ios;
	uint64_t bytes;
	bool has_errors;
	uint64_t errors;
	bool has_mean_latency_ns;
	uint64_t mean_latency_ns; /* exact: the latencies' sum / ios */
	bool has_latency_histogram;
	struct dq_latency_histogram latency_histogram;
};

/* One stream of a multi-stream phase (#/$defs/streamTotals); a direction it never issues is absent. */
struct dq_stream_totals {
	uint32_t index;
	char name[DQ_STREAM_NAME_MAX_LEN + 1];
	bool has_offered_ios; /* open loop */
	uint64_t offered_ios;
	bool has_max_backlog;
	uint64_t max_backlog;
	bool has_direction[3]; /* read, write, trim */
	struct dq_direction_totals direction[3];
};

/* effectiveQueueDepthMilli: time-averaged IOs outstanding x 1000 (at most the deepest queue). */
#define DQ_EFFECTIVE_QUEUE_DEPTH_MILLI_MAX 1024000

/* A read-back's reports are bounded: the first mismatches (or found LBAs), in LBA order. */
#define DQ_READBACK_REPORT_MAX 16
#define DQ_BLOCK_TEXT_MAX_CHARS 128

/* One block that did not read back as written (#/$defs/verifyMismatch). */
struct dq_verify_mismatch {
	uint64_t lba;
	char expected[DQ_UTF8_BUF(DQ_BLOCK_TEXT_MAX_CHARS)];
	char found[DQ_UTF8_BUF(DQ_BLOCK_TEXT_MAX_CHARS)];
};

/* A data-integrity read-back (#/$defs/verifyResult). */
struct dq_verify_result {
	uint64_t blocks_checked;
	uint64_t unwritten_blocks;
	uint64_t bytes_read;
	uint64_t mismatches;
	size_t reported; /* entries of first_mismatches */
	struct dq_verify_mismatch first_mismatches[DQ_READBACK_REPORT_MAX];
};

enum dq_purge_verify_status {
	DQ_PURGE_VERIFY_NONE = 0,
	DQ_PURGE_VERIFY_VERIFIED,
	DQ_PURGE_VERIFY_FAILED,
	DQ_PURGE_VERIFY_UNVERIFIABLE,
};

enum dq_readback_coverage {
	DQ_COVERAGE_ABSENT = 0,
	DQ_COVERAGE_ALL,
	DQ_COVERAGE_SAMPLE,
	DQ_COVERAGE_NONE,
};

/* A purge's proof (#/$defs/purgeVerification). */
struct dq_purge_verification {
	enum dq_purge_method method; /* the erase that ran; NONE when the sender did not say */
	enum dq_purge_verify_status status;
	bool has_reason;
	char reason[DQ_UTF8_BUF(DQ_REASON_MAX_CHARS)];
	enum dq_readback_coverage coverage;
	uint64_t canary_blocks;
	uint64_t blocks_read;
	uint64_t lbas_read;
	uint64_t bytes_read;
	uint64_t blocks_found;
	size_t found_reported; /* entries of first_found_lbas */
	uint64_t first_found_lbas[DQ_READBACK_REPORT_MAX];
};

const char *dq_purge_verify_status_to_str(enum dq_purge_verify_status status);
const char *dq_readback_coverage_to_str(enum dq_readback_coverage coverage);

/* SMART snapshots (OCP C0h and C3h, FDP statistics): contract/msg_smart.h. */
#include "contract/msg_smart.h"

#endif /* DRIVEQUAL_MSG_COMMON_H */
