/*
 * The SNIA steady-state rule (v2, "judged by evidence") as the runner applies it to adaptive
 * rounds: which rounds count, where the fresh state ends (the first eligible round, and the
 * evidence that decided it), the first window that holds ("reached at round x", where a phase with
 * rounds stops) and the window of the last five rounds ("steady at end"). The service's analysis
 * implements the same rule in Java and Python; all are pinned by the vectors in
 * schemas/examples/steady-state (docs/methodology.md, "SNIA steady state"). The runner has no
 * per-round media figures, so the media-writes evidence is the service's alone.
 */
#ifndef DRIVEQUAL_STEADY_STATE_H
#define DRIVEQUAL_STEADY_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DQ_SS_WINDOW_ROUNDS 5
/*
 * The horizon over which the level must have stopped moving (not for read-only, no-reset): at
 * least the ten rounds x-9..x, and with the tested range known, back until the horizon's random
 * writes reach 1/20 of it.
 */
#define DQ_SS_HORIZON_ROUNDS 10
#define DQ_SS_HORIZON_RANGE_WRITES_NUMERATOR 1u
#define DQ_SS_HORIZON_RANGE_WRITES_DENOMINATOR 20u
/* A fixed divisor at most a round's longest step (3600 s). */
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

/* What precedes the phase in the drive's history. */
enum dq_ss_history {
	DQ_SS_HISTORY_RESET = 0, /* a purge, fill or deallocation (or the job is taken as fresh) */
	DQ_SS_HISTORY_UNKNOWN, /* an imported log that does not start from a purge or fill */
};

/*
 * What decides where the fresh state ends: a phase that does not write (applies false) and a
 * history without a reset follow SNIA's published rules (every round eligible); else the IOPS
 * cliff, else the written-bytes rule: the random writes since the last purge or fill counted to a
 * round's start reach W x the tested range. W is decided in millionths (W = 1.0 is exactly
 * 1 000 000 millionths). lower_is_better: the tracking value is a mean latency; the spec's cliff
 * is a throughput's fall, so for a latency the written bytes decide.
 */
struct dq_ss_eligibility {
	bool applies;
	enum dq_ss_history history;
	bool lower_is_better;
	double range_writes_required;
	bool has_tested_range;
	uint64_t tested_range_bytes;
	uint64_t random_write_bytes_before;
};

/* The evidence that decided the first eligible round (the spec's freshStateEvidence). */
enum dq_ss_evidence {
	DQ_SS_EVIDENCE_READ_ONLY = 0,
	DQ_SS_EVIDENCE_NO_RESET,
	DQ_SS_EVIDENCE_IOPS_CLIFF,
	DQ_SS_EVIDENCE_WRITTEN_BYTES,
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

/*
 * The horizon of a window ending at x (rule v2, revision 3; not for read-only, no-reset). Its
 * length m: ten rounds, and with the tested range known, the fewest from ten on whose random
 * writes reach 1/20 of it (exactly; back to round 0 at most). The m rounds x-m+1..x must count
 * and be eligible. When the counted, eligible rounds since the fresh state's end F and before
 * them have been more than 5% above their average and more than 5% below (crossed: exact for
 * m = 10, in doubles above), the horizon is those m rounds: max - min <= 20% of avg and
 * |b| (m - 1) <= 10% of avg (exact for m = 10, in doubles above). Else (a first approach) it is
 * the later half of the record since F, n = max(m, floor((x - F + 2) / 2)) rounds s..x:
 * max - min <= 20% and |b| (n - 1) <= 5% of avg (exact for n = 10, in doubles for n > 10), and
 * slowing: |b| (n - 1) <= max(half the change |b1| (last - first) of the least-squares line over
 * the counted rounds F..s-1, 2.5% of avg), in doubles. b is the least-squares slope over the
 * horizon's rounds.
 */
struct dq_ss_horizon {
	uint32_t first_round; /* x-m+1 when crossed, s on a first approach */
	uint32_t last_round;
	double range_percent;
	double slope_excursion_percent; /* 100 |b| (n - 1) / avg */
	/* 100 x the earlier change / the horizon's avg (first approach; 0 when crossed) */
	double earlier_change_percent;
	bool crossed;
	bool range_within_bound;
	bool slope_within_bound;
	bool slowing; /* true when crossed */
	bool holds; /* the bounds, and slowing */
};

/* Why the last five rounds are not steady, in the order the reports list them. */
enum dq_ss_failure {
	DQ_SS_FAIL_TOO_FEW_ROUNDS = 1 << 0,
	DQ_SS_FAIL_ROUNDS_NOT_COUNTED = 1 << 1,
	DQ_SS_FAIL_ROUNDS_NOT_ELIGIBLE = 1 << 2,
	DQ_SS_FAIL_TESTED_RANGE_UNKNOWN = 1 << 3,
	DQ_SS_FAIL_RANGE_ABOVE_BOUND = 1 << 4,
	DQ_SS_FAIL_SLOPE_ABOVE_BOUND = 1 << 5,
	/*
	 * the horizon is incomplete (a round of x-m+1..x, or of the later half s..x on a first
	 * approach, not counted or not eligible; x < 9) or fails (range, excursion, slowing)
	 */
	DQ_SS_FAIL_LEVEL_STILL_MOVING = 1 << 6,
};

struct dq_ss_result {
	enum dq_ss_evidence evidence;
	bool has_first_eligible; /* the first eligible round is below the round limit */
	uint32_t first_eligible_round;
	bool reached;
	uint32_t reached_at_round;
	uint32_t windows_evaluated;
	bool has_window; /* the last window evaluated: the one that holds when reached */
	struct dq_ss_window window;
	/*
	 * the horizon of that window, when it was required and complete (when not complete,
	 * horizon.first_round..last_round are the rounds it needed)
	 */
	bool has_horizon;
	struct dq_ss_horizon horizon;
	int32_t end_first_round; /* -1 when fewer than five rounds up to the last counted one */
	int32_t end_last_round; /* the last counted round, -1 when none counts */
	bool end_holds;
	bool has_end_window; /* every round of the end window counted */
	struct dq_ss_window end_window;
	/*
	 * required (not read-only, no-reset) and all its rounds counted and eligible; when
	 * required but not, end_horizon.first_round..last_round are the rounds it needed
	 */
	bool has_end_horizon;
	struct dq_ss_horizon end_horizon;
	unsigned end_failures; /* enum dq_ss_failure bits */
};

/*
 * Judge rounds[0..n-1] of round_length_s seconds each, using rounds 0..max_rounds-1 only
 * (max_rounds 0: no limit; otherwise >= 5). verdicts (n entries) receive each round's
 * counted/eligible state. Returns 0, -EINVAL for impossible input (a round with more seconds
 * than its length, a sum without seconds, W negative or not finite), or -EOVERFLOW when a window's
 * exact bounds do not fit in 128 bits. They are decided over the least common multiple D of the
 * rounds' divisors: every value y_i = S_i / n_i is scaled to S_i x (D / n_i), and the largest
 * product is 120 x 50 x that (the horizon's slope bound over ten rounds on a first approach).
 * That fits whenever max(S_i) x D < 2^127 / 6000, i.e. always when the divisors are equal
 * (D = n: any 64-bit sums), and for rounds of up to 60 s with seconds missing
 * (D <= lcm(54..60) < 2^32, with any 64-bit sums); only rounds of minutes with many different
 * seconds present can exceed it. Whether the level was crossed compares each earlier round's
 * mean with 21/20 and 19/20 of the horizon's average exactly (by continued fractions). A first
 * approach's later half of more than ten rounds and its slowing are decided in doubles, as the
 * spec says.
 */
int dq_steady_state_detect(const struct dq_ss_round *rounds, size_t n, uint32_t round_length_s,
			   uint32_t max_rounds, const struct dq_ss_eligibility *eligibility,
			   struct dq_ss_round_verdict *verdicts, struct dq_ss_result *result);

/* "read-only", "no-reset", "iops-cliff", "written-bytes" (the vectors' freshStateEvidence). */
const char *dq_ss_evidence_to_str(enum dq_ss_evidence evidence);

/* A round's value (sum / its divisor); 0 for a round without seconds. */
double dq_steady_state_round_mean(const struct dq_ss_round *round);

#endif /* DRIVEQUAL_STEADY_STATE_H */
