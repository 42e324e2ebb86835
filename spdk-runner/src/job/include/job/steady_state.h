/*
 * The SNIA steady-state rule as the runner applies it to adaptive rounds: which rounds count and
 * are eligible, the first five-round window that holds ("reached at round x", where a phase with
 * rounds stops) and the window of the last five rounds ("steady at end"). The service's analysis
 * implements the same rule in Java; both are pinned by the vectors in
 * schemas/examples/steady-state
 * (docs/methodology.md, "SNIA steady state").
 */
#ifndef DRIVEQUAL_STEADY_STATE_H
#define DRIVEQUAL_STEADY_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DQ_SS_WINDOW_ROUNDS 5
/* A fixed divisor at most a round's longest step (3600 s): the exact products stay in 128 bits. */
#define DQ_SS_DIVISOR_MAX 3600u

/*
 * One round's totals: the integer sum of the tracking variable's per-second values, the seconds
 * present, and the random-write bytes of the whole round. The round's value is sum / divisor, and
 * a divisor of 0 means the seconds present (a per-second mean); a value that is not a per-second
 * mean (the mean latency of a step's IOs) comes as sum / a fixed divisor (thousandths: 1000).
 */
struct dq_ss_round {
	uint64_t sum;
	uint32_t seconds_present;
	uint64_t random_write_bytes;
	uint32_t divisor;
};

/*
 * What makes a round eligible: for a phase that writes (applies), the random writes since the last
 * purge or fill counted to the round's start reach W x the tested range. W is decided in
 * millionths (W = 1.0 is exactly 1 000 000 millionths).
 */
struct dq_ss_eligibility {
	bool applies;
	double range_writes_required;
	bool has_tested_range;
	uint64_t tested_range_bytes;
	uint64_t random_write_bytes_before;
};

struct dq_ss_round_verdict {
	bool counted; /* >= 90% of the round length present */
	bool eligible;
	uint64_t random_write_bytes_at_start;
};

/* A five-round window's figures; the bounds are decided exactly in integers. */
struct dq_ss_window {
	uint32_t first_round;
	uint32_t last_round;
	double avg;
	double min;
	double max;
	double range_percent;
	double slope_per_round;
	double slope_excursion_percent;
	bool range_within_bound; /* max - min <= 20% of avg */
	bool slope_within_bound; /* |slope| x 4 <= 10% of avg */
};

/* Why the last five rounds are not steady, in the order the reports list them. */
enum dq_ss_failure {
	DQ_SS_FAIL_TOO_FEW_ROUNDS = 1 << 0,
	DQ_SS_FAIL_ROUNDS_NOT_COUNTED = 1 << 1,
	DQ_SS_FAIL_ROUNDS_NOT_ELIGIBLE = 1 << 2,
	DQ_SS_FAIL_TESTED_RANGE_UNKNOWN = 1 << 3,
	DQ_SS_FAIL_RANGE_ABOVE_BOUND = 1 << 4,
	DQ_SS_FAIL_SLOPE_ABOVE_BOUND = 1 << 5,
};

struct dq_ss_result {
	bool has_first_eligible;
	uint32_t first_eligible_round;
	bool reached;
	uint32_t reached_at_round;
	uint32_t windows_evaluated;
	bool has_window; /* the last window evaluated: the one that holds when reached */
	struct dq_ss_window window;
	int32_t end_first_round; /* -1 when fewer than five rounds up to the last counted one */
	int32_t end_last_round; /* the last counted round, -1 when none counts */
	bool end_holds;
	bool has_end_window; /* every round of the end window counted */
	struct dq_ss_window end_window;
	unsigned end_failures; /* enum dq_ss_failure bits */
};

/*
 * Judge rounds[0..n-1] of round_length_s seconds each, using rounds 0..max_rounds-1 only
 * (max_rounds 0: no limit; otherwise >= 5). verdicts (n entries) receive each round's
 * counted/eligible state. Returns 0, or -EINVAL for impossible input (a round with more
 * seconds than its length, a sum without seconds, W negative or not finite).
 */
int dq_steady_state_detect(const struct dq_ss_round *rounds, size_t n, uint32_t round_length_s,
			   uint32_t max_rounds, const struct dq_ss_eligibility *eligibility,
			   struct dq_ss_round_verdict *verdicts, struct dq_ss_result *result);

/* A round's value (sum / its divisor); 0 for a round without seconds. */
double dq_steady_state_round_mean(const struct dq_ss_round *round);

#endif /* DRIVEQUAL_STEADY_STATE_H */
