/*
 * Adaptive rounds as SNIA's PTS runs them: each round runs every step of the phase for
 * stepRuntimeS, and after each round the steady-state rule (steady_state.c) decides on the
 * tracking variable whether the phase may stop. Every step is an ordinary closed-loop IO phase;
 * a sink in between renumbers its seconds into the phase's time line, labels them with round and
 * step, and collects the tracking step's per-second values (or, for a mean latency, the step's
 * latency sum and IOs from its seconds' merged histograms). Every step's histograms of the last
 * five rounds are kept (window_latency.c) for its latency over the measurement window.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contract/phase_rules.h"
#include "contract/clock.h"
#include "job/steady_state.h"
#include "rounds_phase.h"
#include "window_latency.h"

struct rounds_run {
	const struct dq_phase_env *env; /* the phase's own environment and sink */
	const struct dq_round_spec *spec;
	uint32_t round;
	uint32_t step;
	uint32_t t_offset; /* seconds of the phase before this step */
	struct dq_ss_round *rounds; /* spec->max_rounds entries */
	struct step_latency *latency; /* meanLatencyNs: the tracking step's, per round */
	struct dq_window_keeper *window; /* every step's histograms of the last five rounds */
};

/* The tracking step's IOs of one round: their latencies' exact sum and their number. */
struct step_latency {
	unsigned __int128 sum_ns;
	uint64_t ios;
};

bool dq_rw_is_random_write(enum dq_rw rw, uint32_t read_percent)
{
	return rw == DQ_RW_RANDWRITE || (rw == DQ_RW_RANDRW && read_percent < 100);
}

/* A step's second: into the phase's time line, labelled, and counted when it tracks. */
static int step_sample(void *arg, const struct dq_sample *sample)
{
	struct rounds_run *run = arg;
	struct dq_ss_round *round = &run->rounds[run->round];
	struct dq_sample labelled = *sample;

	labelled.t = sample->t + run->t_offset;
	labelled.has_round = true;
	labelled.round = run->round;
	labelled.step = run->step;
	if (run->spec->has_tracking && run->step == run->spec->tracking_step) {
		if (run->spec->tracking_metric == DQ_TRACKING_METRIC_BYTES_PER_S) {
			round->sum += sample->read.bytes + sample->write.bytes;
		} else if (run->spec->tracking_metric == DQ_TRACKING_METRIC_IOPS) {
			round->sum += sample->read.ios + sample->write.ios;
		} /* a mean latency is taken from the step's totals when it ends */
		round->seconds_present++;
	}
	return run->env->sink->sample(run->env->sink->arg, &labelled);
}

/* A step's seconds: an idle step's wait, an IO step's own runtimeS, else the round's. */
static uint32_t step_seconds(const struct dq_round_spec *r, const struct dq_round_step *step)
{
	if (step->idle_s > 0) {
		return step->idle_s;
	}
	return step->has_runtime_s ? step->runtime_s : r->step_runtime_s;
}

static void step_params(const struct dq_phase_spec *spec, const struct dq_round_step *step,
			uint64_t range_bytes, struct dq_io_phase_params *params)
{
	memset(params, 0, sizeof(*params));
	params->phase_index = spec->index;
	params->phase_name = spec->name;
	params->block_size = step->block_size_bytes;
	params->queue_depth = step->queue_depth;
	params->data_pattern = spec->data_pattern;
	params->range_bytes = range_bytes - range_bytes % step->block_size_bytes;
	params->runtime_ns = (uint64_t)step_seconds(&spec->rounds, step) * DQ_NS_PER_S;
	params->sequential = step->rw == DQ_RW_READ || step->rw == DQ_RW_WRITE ||
			     step->rw == DQ_RW_RW;
	if (step->rw == DQ_RW_READ || step->rw == DQ_RW_RANDREAD) {
		params->read_percent = 100;
	} else if (step->rw == DQ_RW_RW || step->rw == DQ_RW_RANDRW) {
		params->read_percent = step->read_percent;
	}
}

static void add_direction(struct dq_direction_stats *to, const struct dq_direction_stats *from)
{
	to->ios += from->ios;
	to->bytes += from->bytes;
	to->errors += from->errors;
	dq_histogram_merge(&to->histogram, &from->histogram);
}

/* The step's totals into the phase's; a failure or cancel ends the phase with its words. */
static void add_step(struct dq_phase_stats *stats, const struct dq_phase_stats *step, bool first)
{
	if (first) {
		stats->start_ns = step->start_ns;
	}
	stats->duration_ns += step->duration_ns;
	stats->samples += step->samples;
	stats->outstanding_io_ns += step->outstanding_io_ns;
	add_direction(&stats->read, &step->read);
	add_direction(&stats->write, &step->write);
	stats->cancelled = step->cancelled;
	stats->fail_reason = step->fail_reason;
	memcpy(stats->message, step->message, sizeof(stats->message));
}

/* The tested range as the eligibility rule takes it: capacity x rangePercent, whole bytes. */
static uint64_t tested_range_bytes(const struct dq_phase_spec *spec, const struct dq_device *device)
{
	double percent = spec->has_range_percent ? spec->range_percent : 100.0;

	return percent >= 100.0 ?
		       device->capacity_bytes :
		       (uint64_t)((long double)device->capacity_bytes * percent / 100.0L);
}

/* The tracking step's IOs and latencies into its round (meanLatencyNs). */
static void add_step_latency(struct step_latency *to, const struct dq_phase_stats *step)
{
	to->sum_ns += dq_histogram_sum_ns(&step->read.histogram) +
		      dq_histogram_sum_ns(&step->write.histogram);
	to->ios += step->read.histogram.total_count + step->write.histogram.total_count;
}

/*
 * A round's tracking value x 1000, rounded: the mean of the step's per-second values, or the mean
 * latency of its IOs. A mean latency goes to the steady-state rule as exactly that reported value
 * (thousandths of a nanosecond), so the stop can be rechecked from phase-completed alone; a round
 * whose step completed no IO has no value and does not count.
 */
static int64_t tracking_milli(const struct rounds_run *run, struct dq_ss_round *round,
			      const struct step_latency *latency)
{
	unsigned __int128 milli;

	if (run->spec->tracking_metric != DQ_TRACKING_METRIC_MEAN_LATENCY_NS) {
		return round->seconds_present > 0 ?
			       (int64_t)((round->sum * 1000 + round->seconds_present / 2) /
					 round->seconds_present) :
			       -1;
	}
	if (round->seconds_present == 0 || latency->ios == 0) {
		round->seconds_present = 0;
		round->sum = 0;
		return -1;
	}
	milli = (latency->sum_ns * 1000 + latency->ios / 2) / latency->ios;
	round->sum = milli > INT64_MAX ? INT64_MAX : (uint64_t)milli;
	round->divisor = 1000;
	return (int64_t)round->sum;
}

/* The rule's evidence as phase-completed names it (the runner never has media evidence). */
static enum dq_fresh_state_evidence evidence_of(enum dq_ss_evidence evidence)
{
	switch (evidence) {
	case DQ_SS_EVIDENCE_READ_ONLY:
		return DQ_FRESH_STATE_EVIDENCE_READ_ONLY;
	case DQ_SS_EVIDENCE_NO_RESET:
		return DQ_FRESH_STATE_EVIDENCE_NO_RESET;
	case DQ_SS_EVIDENCE_IOPS_CLIFF:
		return DQ_FRESH_STATE_EVIDENCE_IOPS_CLIFF;
	case DQ_SS_EVIDENCE_WRITTEN_BYTES:
		return DQ_FRESH_STATE_EVIDENCE_WRITTEN_BYTES;
	}
	return DQ_FRESH_STATE_EVIDENCE_NONE;
}

/* After round r: has the tracking variable settled, or is this the last round? */
static bool round_decides(const struct dq_phase_spec *spec, const struct dq_device *device,
			  const struct dq_rounds_history *history, const struct rounds_run *run,
			  struct dq_ss_round_verdict *verdicts, struct dq_rounds_result *result)
{
	const struct dq_ss_eligibility eligibility = {
		.applies = dq_phase_is_destructive(spec),
		.history = history->history,
		/* A mean latency rises when the fresh state ends: the spec's cliff is a fall. */
		.lower_is_better = spec->rounds.tracking_metric ==
				   DQ_TRACKING_METRIC_MEAN_LATENCY_NS,
		.range_writes_required = spec->rounds.range_writes_required,
		.has_tested_range = true,
		.tested_range_bytes = tested_range_bytes(spec, device),
		.random_write_bytes_before = history->random_write_bytes_since_reset,
	};
	struct dq_ss_result ss;
	uint32_t n = run->round + 1;

	result->rounds_run = n;
	result->tracking_milli[run->round] =
		tracking_milli(run, &run->rounds[run->round], &run->latency[run->round]);
	result->tracking_count = n;
	if (!spec->rounds.has_tracking) {
		result->tracking_count = 0;
		result->stopped_because = DQ_ROUNDS_STOP_MAX_ROUNDS;
		return n >= spec->rounds.max_rounds;
	}
	if (dq_steady_state_detect(run->rounds, n,
				   step_seconds(&spec->rounds,
						&spec->rounds.steps[spec->rounds.tracking_step]),
				   spec->rounds.max_rounds, &eligibility, verdicts, &ss) != 0) {
		return true; /* cannot happen with the runner's own rounds; never loop on it */
	}
	result->has_first_eligible_round = ss.has_first_eligible;
	result->first_eligible_round = ss.first_eligible_round;
	result->fresh_state_evidence = evidence_of(ss.evidence);
	if (ss.reached) {
		result->stopped_because = DQ_ROUNDS_STOP_STEADY;
		result->has_reached_at_round = true;
		result->reached_at_round = ss.reached_at_round;
		return true;
	}
	if (n >= spec->rounds.max_rounds) {
		result->stopped_because = DQ_ROUNDS_STOP_MAX_ROUNDS;
		return true;
	}
	return false;
}

static void fail_internal(struct dq_phase_stats *stats, const char *why)
{
	stats->fail_reason = DQ_FAIL_INTERNAL;
	snprintf(stats->message, sizeof(stats->message), "rounds: %s", why);
}

/*
 * Each step's latency over the measurement window: the five rounds x-4..x at which steady state
 * was reached, where the phase stopped, else the last five rounds run; either way the last five.
 */
static int window_latency(const struct dq_window_keeper *window, struct dq_rounds_result *result)
{
	uint32_t last = result->has_reached_at_round ? result->reached_at_round :
						       result->rounds_run - 1;
	uint32_t first = last >= DQ_WINDOW_ROUNDS - 1 ? last - (DQ_WINDOW_ROUNDS - 1) : 0;
	int rc = dq_window_latency(window, first, last, &result->window_latency);

	result->has_window_latency = rc == 0;
	return rc;
}

int dq_rounds_phase_check_fit(const struct dq_phase_spec *spec, const struct dq_device *device,
			      uint32_t max_queue_depth, char *why, size_t why_len)
{
	const struct dq_round_step *step;
	uint64_t range = dq_phase_range_bytes(spec, device);
	size_t i;

	for (i = 0; i < spec->rounds.step_count; i++) {
		step = &spec->rounds.steps[i];
		if (step->idle_s > 0) {
			continue;
		}
		if (step->block_size_bytes % device->lba_size_bytes != 0) {
			snprintf(why, why_len,
				 "step %zu: blockSizeBytes %u is not a multiple of the device's "
				 "%u-byte LBA",
				 i, step->block_size_bytes, device->lba_size_bytes);
			return -EINVAL;
		}
		if (step->queue_depth > max_queue_depth) {
			snprintf(why, why_len, "step %zu: queueDepth %u exceeds the engine's %u", i,
				 step->queue_depth, max_queue_depth);
			return -EINVAL;
		}
		if (range < step->block_size_bytes) {
			snprintf(
				why, why_len,
				"step %zu: the tested range (%llu bytes) is smaller than one block",
				i, (unsigned long long)range);
			return -EINVAL;
		}
	}
	return 0;
}

int dq_rounds_phase_run(const struct dq_phase_env *env, const struct dq_phase_spec *spec,
			const struct dq_device *device, const struct dq_rounds_history *history,
			struct dq_phase_stats *stats, struct dq_rounds_result *result,
			uint64_t *random_write_bytes)
{
	const struct dq_round_spec *r = &spec->rounds;
	struct rounds_run run = { .env = env, .spec = r };
	struct dq_sink sink = { .sample = step_sample, .event = env->sink->event, .arg = &run };
	struct dq_phase_env step_env = *env;
	struct dq_phase_spec idle = { .index = spec->index, .kind = DQ_PHASE_KIND_IDLE };
	struct dq_io_phase_params params;
	struct dq_ss_round_verdict *verdicts;
	struct dq_phase_stats *step_stats;
	uint64_t range = dq_phase_range_bytes(spec, device);
	bool stop = false;
	int rc = 0;

	memset(result, 0, sizeof(*result));
	*random_write_bytes = 0;
	step_env.sink = &sink;
	run.rounds = calloc(r->max_rounds, sizeof(*run.rounds));
	run.latency = calloc(r->max_rounds, sizeof(*run.latency));
	verdicts = calloc(r->max_rounds, sizeof(*verdicts));
	step_stats = malloc(sizeof(*step_stats));
	run.window = dq_window_keeper_new(r->step_count);
	if (run.rounds == NULL || run.latency == NULL || verdicts == NULL || step_stats == NULL ||
	    run.window == NULL) {
		fail_internal(stats, "out of memory");
		goto out;
	}
	for (run.round = 0; !stop && run.round < r->max_rounds; run.round++) {
		dq_window_begin_round(run.window, run.round);
		for (run.step = 0; run.step < r->step_count; run.step++) {
			dq_phase_stats_init(step_stats);
			if (r->steps[run.step].idle_s > 0) {
				idle.idle_s = r->steps[run.step].idle_s;
				rc = dq_idle_phase_run(&step_env, &idle, step_stats);
			} else {
				step_params(spec, &r->steps[run.step], range, &params);
				rc = dq_io_phase_run(&step_env, &params, step_stats);
			}
			add_step(stats, step_stats, run.round == 0 && run.step == 0);
			if (rc != 0 || stats->cancelled || stats->fail_reason != DQ_FAIL_NONE) {
				goto out;
			}
			if (r->has_tracking && run.step == r->tracking_step) {
				add_step_latency(&run.latency[run.round], step_stats);
			}
			if (dq_window_keep(run.window, run.round, run.step,
					   &step_stats->read.histogram,
					   &step_stats->write.histogram) != 0) {
				fail_internal(stats, "out of memory keeping a step's histograms");
				goto out;
			}
			if (dq_rw_is_random_write(r->steps[run.step].rw, params.read_percent)) {
				run.rounds[run.round].random_write_bytes += step_stats->write.bytes;
				*random_write_bytes += step_stats->write.bytes;
			}
			run.t_offset += step_seconds(r, &r->steps[run.step]);
		}
		stop = round_decides(spec, device, history, &run, verdicts, result);
	}
	if (window_latency(run.window, result) != 0) {
		fail_internal(stats, "the measurement window's latency: out of memory");
		goto out;
	}
	stats->has_effective_queue_depth = true;
	stats->effective_queue_depth_milli =
		stats->duration_ns > 0 ? (uint64_t)((long double)stats->outstanding_io_ns * 1000 /
						    stats->duration_ns) :
					 0;
out:
	dq_window_keeper_free(run.window);
	free(step_stats);
	free(verdicts);
	free(run.latency);
	free(run.rounds);
	return rc;
}
