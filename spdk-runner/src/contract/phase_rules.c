/*
 * The phase rules, written once: the JSON decoder reports a violation at its member's path, the
 * job runner and the agent per phase, so a rule cannot differ between a job command and a job
 * from the command line.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "contract/phase_rules.h"

static int violate(struct dq_phase_violation *v, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int violate(struct dq_phase_violation *v, const char *field, const char *fmt, ...)
{
	va_list args;

	v->field = field;
	va_start(args, fmt);
	vsnprintf(v->reason, sizeof(v->reason), fmt, args);
	va_end(args);
	return -EINVAL;
}

static int check_bounds(const struct dq_phase_spec *p, struct dq_phase_violation *v)
{
	if (p->kind == DQ_PHASE_KIND_NONE) {
		return violate(v, "kind", "is required");
	}
	if (p->name[0] == '\0') {
		return violate(v, "name", "is required");
	}
	if (p->rw == DQ_RW_TRIM || p->rw == DQ_RW_RANDTRIM) {
		return violate(v, "rw", "trims run in a stream (streams), not as a phase's rw");
	}
	if (p->has_read_percent && p->read_percent > DQ_READ_PERCENT_MAX) {
		return violate(v, "readPercent", "must be 0..%d (got %u)", DQ_READ_PERCENT_MAX,
			       p->read_percent);
	}
	if (p->has_block_size_bytes && (p->block_size_bytes < DQ_BLOCK_SIZE_MIN_BYTES ||
					p->block_size_bytes > DQ_BLOCK_SIZE_MAX_BYTES)) {
		return violate(v, "blockSizeBytes", "must be %d..%d (got %u)",
			       DQ_BLOCK_SIZE_MIN_BYTES, DQ_BLOCK_SIZE_MAX_BYTES,
			       p->block_size_bytes);
	}
	if (p->has_block_size_bytes && p->block_size_bytes % DQ_BLOCK_SIZE_ALIGN_BYTES != 0) {
		return violate(v, "blockSizeBytes", "must be a multiple of %d (got %u)",
			       DQ_BLOCK_SIZE_ALIGN_BYTES, p->block_size_bytes);
	}
	if (p->has_queue_depth &&
	    (p->queue_depth < DQ_QUEUE_DEPTH_MIN || p->queue_depth > DQ_QUEUE_DEPTH_MAX)) {
		return violate(v, "queueDepth", "must be %d..%d (got %u)", DQ_QUEUE_DEPTH_MIN,
			       DQ_QUEUE_DEPTH_MAX, p->queue_depth);
	}
	if (p->has_range_percent &&
	    !(p->range_percent > 0 && p->range_percent <= DQ_RANGE_PERCENT_MAX)) {
		return violate(v, "rangePercent", "must be in (0, %d] (got %g)",
			       DQ_RANGE_PERCENT_MAX, p->range_percent);
	}
	if (p->has_runtime_s && (p->runtime_s < 1 || p->runtime_s > DQ_RUNTIME_S_MAX)) {
		return violate(v, "runtimeS", "must be 1..%d (got %u)", DQ_RUNTIME_S_MAX,
			       p->runtime_s);
	}
	if (p->has_size_bytes && (p->size_bytes < 1 || p->size_bytes > INT64_MAX)) {
		return violate(v, "sizeBytes", "must be 1..%lld", (long long)INT64_MAX);
	}
	if (p->has_passes && (p->passes < 1 || p->passes > DQ_PASSES_MAX)) {
		return violate(v, "passes", "must be 1..%d (got %u)", DQ_PASSES_MAX, p->passes);
	}
	if (p->has_idle_s && (p->idle_s < 1 || p->idle_s > DQ_IDLE_S_MAX)) {
		return violate(v, "idleS", "must be 1..%d (got %u)", DQ_IDLE_S_MAX, p->idle_s);
	}
	return 0;
}

static bool rw_is_mix(enum dq_rw rw)
{
	return rw == DQ_RW_RW || rw == DQ_RW_RANDRW;
}

static bool rw_may_write(enum dq_rw rw, bool has_read_percent, uint32_t read_percent)
{
	if (rw == DQ_RW_READ || rw == DQ_RW_RANDREAD) {
		return false;
	}
	return !(rw_is_mix(rw) && has_read_percent && read_percent == DQ_READ_PERCENT_MAX);
}

/* A phase with rounds: its steps carry the stimulus, so the single-stimulus fields stay away. */
static int check_rounds(const struct dq_phase_spec *p, struct dq_phase_violation *v)
{
	const struct dq_round_spec *r = &p->rounds;
	const struct dq_round_step *s;
	size_t i;

	if (p->kind != DQ_PHASE_KIND_WORKLOAD) {
		return violate(v, "rounds", "only a workload runs rounds");
	}
	if (p->rw != DQ_RW_NONE || p->has_read_percent || p->has_block_size_bytes ||
	    p->has_queue_depth || p->has_runtime_s || p->has_size_bytes) {
		return violate(v, "rounds",
			       "replaces rw, readPercent, blockSizeBytes, queueDepth, runtimeS and "
			       "sizeBytes; give them per step");
	}
	if (!p->has_range_percent) {
		return violate(v, "rangePercent", "is required for kind workload");
	}
	if (r->step_count < 1 || r->step_count > DQ_ROUND_STEPS_MAX) {
		return violate(v, "rounds.steps", "must hold 1..%d steps (got %zu)",
			       DQ_ROUND_STEPS_MAX, r->step_count);
	}
	for (i = 0; i < r->step_count; i++) {
		s = &r->steps[i];
		if (s->idle_s > 0) {
			if (s->idle_s > DQ_ROUND_STEP_RUNTIME_S_MAX || s->rw != DQ_RW_NONE ||
			    s->has_runtime_s) {
				return violate(v, "rounds.steps",
					       "step %zu: an idle step is idleS (1..%d) alone", i,
					       DQ_ROUND_STEP_RUNTIME_S_MAX);
			}
			continue;
		}
		if (s->has_runtime_s &&
		    (s->runtime_s < 1 || s->runtime_s > DQ_ROUND_STEP_RUNTIME_S_MAX)) {
			return violate(v, "rounds.steps", "step %zu: runtimeS must be 1..%d", i,
				       DQ_ROUND_STEP_RUNTIME_S_MAX);
		}
		if (s->rw == DQ_RW_NONE || s->block_size_bytes < DQ_BLOCK_SIZE_MIN_BYTES ||
		    s->block_size_bytes > DQ_BLOCK_SIZE_MAX_BYTES ||
		    s->block_size_bytes % DQ_BLOCK_SIZE_ALIGN_BYTES != 0 ||
		    s->queue_depth < DQ_QUEUE_DEPTH_MIN || s->queue_depth > DQ_QUEUE_DEPTH_MAX ||
		    (s->has_read_percent && s->read_percent > DQ_READ_PERCENT_MAX)) {
			return violate(
				v, "rounds.steps",
				"step %zu: rw, blockSizeBytes (a multiple of %d) and queueDepth "
				"within the phase bounds",
				i, DQ_BLOCK_SIZE_ALIGN_BYTES);
		}
		if (rw_is_mix(s->rw) && !s->has_read_percent) {
			return violate(v, "rounds.steps",
				       "step %zu: readPercent is required for rw %s", i,
				       dq_rw_to_str(s->rw));
		}
	}
	if (r->step_runtime_s < 1 || r->step_runtime_s > DQ_ROUND_STEP_RUNTIME_S_MAX) {
		return violate(v, "rounds.stepRuntimeS", "must be 1..%d (got %u)",
			       DQ_ROUND_STEP_RUNTIME_S_MAX, r->step_runtime_s);
	}
	if (r->has_tracking && r->tracking_step >= r->step_count) {
		return violate(v, "rounds.tracking.step", "names step %u of %zu", r->tracking_step,
			       r->step_count);
	}
	if (r->has_tracking && r->steps[r->tracking_step].idle_s > 0) {
		return violate(v, "rounds.tracking.step", "names idle step %u: it measures nothing",
			       r->tracking_step);
	}
	if (r->has_tracking && r->tracking_metric == DQ_TRACKING_METRIC_NONE) {
		return violate(v, "rounds.tracking.metric", "is required");
	}
	if (r->max_rounds < DQ_ROUNDS_MIN || r->max_rounds > DQ_ROUNDS_MAX) {
		return violate(v, "rounds.maxRounds", "must be %d..%d (got %u)", DQ_ROUNDS_MIN,
			       DQ_ROUNDS_MAX, r->max_rounds);
	}
	if (!isfinite(r->range_writes_required) || r->range_writes_required < 0 ||
	    r->range_writes_required > DQ_RANGE_WRITES_REQUIRED_MAX) {
		return violate(v, "rounds.rangeWritesRequired", "must be 0..%d (got %g)",
			       DQ_RANGE_WRITES_REQUIRED_MAX, r->range_writes_required);
	}
	return 0;
}

static bool stream_is_trim(enum dq_rw rw)
{
	return rw == DQ_RW_TRIM || rw == DQ_RW_RANDTRIM;
}

static bool stream_is_random(enum dq_rw rw)
{
	return rw == DQ_RW_RANDREAD || rw == DQ_RW_RANDWRITE || rw == DQ_RW_RANDRW ||
	       rw == DQ_RW_RANDTRIM;
}

/* One stream's rules (#/$defs/streamSpec's allOf), reported as "streams" with its index. */
static int check_stream(const struct dq_stream_spec *s, size_t i, struct dq_phase_violation *v)
{
	uint32_t sum = 0, largest = 0;
	size_t j;

	if (s->rw == DQ_RW_NONE) {
		return violate(v, "streams", "stream %zu: rw is required", i);
	}
	if ((s->block_size_bytes != 0) == (s->split_count > 0)) {
		return violate(v, "streams",
			       "stream %zu: give blockSizeBytes or blockSizeSplit, "
			       "one of them",
			       i);
	}
	largest = s->block_size_bytes;
	for (j = 0; j < s->split_count; j++) {
		sum += s->split[j].percent;
		if (s->split[j].block_size_bytes > largest) {
			largest = s->split[j].block_size_bytes;
		}
		if (s->split[j].block_size_bytes % DQ_BLOCK_SIZE_ALIGN_BYTES != 0 ||
		    s->split[j].block_size_bytes < DQ_BLOCK_SIZE_MIN_BYTES) {
			return violate(v, "streams",
				       "stream %zu: split block sizes are multiples of %d", i,
				       DQ_BLOCK_SIZE_ALIGN_BYTES);
		}
	}
	if (s->split_count > 0 && sum != 100) {
		return violate(v, "streams",
			       "stream %zu: blockSizeSplit percents add up to %u, not 100", i, sum);
	}
	if (largest % DQ_BLOCK_SIZE_ALIGN_BYTES != 0 || largest > DQ_STREAM_BLOCK_SIZE_MAX_BYTES) {
		return violate(v, "streams", "stream %zu: block sizes are multiples of %d up to %u",
			       i, DQ_BLOCK_SIZE_ALIGN_BYTES, DQ_STREAM_BLOCK_SIZE_MAX_BYTES);
	}
	if (!stream_is_trim(s->rw) && largest > DQ_BLOCK_SIZE_MAX_BYTES) {
		return violate(v, "streams", "stream %zu: reads and writes are at most %d bytes", i,
			       DQ_BLOCK_SIZE_MAX_BYTES);
	}
	if (s->queue_depth < DQ_QUEUE_DEPTH_MIN || s->queue_depth > DQ_QUEUE_DEPTH_MAX) {
		return violate(v, "streams", "stream %zu: queueDepth must be %d..%d", i,
			       DQ_QUEUE_DEPTH_MIN, DQ_QUEUE_DEPTH_MAX);
	}
	if (rw_is_mix(s->rw)) {
		if (!s->has_read_percent) {
			return violate(v, "streams",
				       "stream %zu: readPercent is required for rw %s", i,
				       dq_rw_to_str(s->rw));
		}
		if (s->has_trim_percent && s->read_percent + s->trim_percent > 100) {
			return violate(v, "streams",
				       "stream %zu: readPercent + trimPercent exceed 100", i);
		}
	} else if (s->has_read_percent || s->has_trim_percent) {
		return violate(v, "streams",
			       "stream %zu: readPercent and trimPercent are for rw and randrw", i);
	}
	if (s->has_random_percent && !stream_is_random(s->rw)) {
		return violate(v, "streams", "stream %zu: randomPercent is for the rand* patterns",
			       i);
	}
	if (s->has_offset_bytes && s->has_offset_percent) {
		return violate(v, "streams", "stream %zu: offsetBytes or offsetPercent, not both",
			       i);
	}
	if (s->has_range_bytes && s->has_range_percent) {
		return violate(v, "streams", "stream %zu: rangeBytes or rangePercent, not both", i);
	}
	if ((s->has_offset_bytes && s->offset_bytes % DQ_BLOCK_SIZE_ALIGN_BYTES != 0) ||
	    (s->has_range_bytes && s->range_bytes % DQ_BLOCK_SIZE_ALIGN_BYTES != 0)) {
		return violate(v, "streams",
			       "stream %zu: offsetBytes and rangeBytes are multiples "
			       "of %d",
			       i, DQ_BLOCK_SIZE_ALIGN_BYTES);
	}
	if (s->has_offset_percent && !(s->offset_percent >= 0 && s->offset_percent < 100)) {
		return violate(v, "streams", "stream %zu: offsetPercent must be in [0, 100)", i);
	}
	if (s->has_range_percent && !(s->range_percent > 0 && s->range_percent <= 100)) {
		return violate(v, "streams", "stream %zu: rangePercent must be in (0, 100]", i);
	}
	if (s->has_rate_iops && s->has_rate_bytes_per_s) {
		return violate(v, "streams", "stream %zu: rateIops or rateBytesPerS, not both", i);
	}
	if (s->arrivals != DQ_ARRIVALS_NONE && !s->has_rate_iops && !s->has_rate_bytes_per_s) {
		return violate(v, "streams",
			       "stream %zu: arrivals needs a rate (rateIops or rateBytesPerS)", i);
	}
	if (s->has_think_time_blocks && !s->has_think_time_us) {
		return violate(v, "streams", "stream %zu: thinkTimeBlocks needs thinkTimeUs", i);
	}
	return 0;
}

/* A multi-stream workload: the streams carry the stimulus, the phase its duration. */
static int check_streams(const struct dq_phase_spec *p, struct dq_phase_violation *v)
{
	uint32_t depth = 0;
	size_t i;
	int rc;

	if (p->kind != DQ_PHASE_KIND_WORKLOAD) {
		return violate(v, "streams", "only a workload runs streams");
	}
	if (p->has_rounds || p->rw != DQ_RW_NONE || p->has_read_percent ||
	    p->has_block_size_bytes || p->has_queue_depth || p->has_range_percent ||
	    p->has_size_bytes || p->has_passes) {
		return violate(v, "streams",
			       "replace rw, readPercent, blockSizeBytes, queueDepth, rangePercent, "
			       "sizeBytes, passes and rounds; give them per stream");
	}
	if (!p->has_runtime_s) {
		return violate(v, "runtimeS", "is required for a workload with streams");
	}
	if (p->stream_count < 1 || p->stream_count > DQ_STREAMS_MAX) {
		return violate(v, "streams", "must hold 1..%d streams (got %zu)", DQ_STREAMS_MAX,
			       p->stream_count);
	}
	for (i = 0; i < p->stream_count; i++) {
		rc = check_stream(&p->streams[i], i, v);
		if (rc != 0) {
			return rc;
		}
		depth += p->streams[i].queue_depth;
	}
	if (depth > DQ_QUEUE_DEPTH_MAX) {
		return violate(v, "streams", "the streams' queue depths add up to %u, more than %d",
			       depth, DQ_QUEUE_DEPTH_MAX);
	}
	return 0;
}

/* What a kind requires (the schema's allOf of if-then rules), in the schema's order. */
static int check_kind(const struct dq_phase_spec *p, struct dq_phase_violation *v)
{
	const char *kind = dq_phase_kind_to_str(p->kind);
	const struct {
		const char *field;
		bool present;
	} *r, workload[] = {
		{ "rw", p->rw != DQ_RW_NONE },
		{ "blockSizeBytes", p->has_block_size_bytes },
		{ "queueDepth", p->has_queue_depth },
		{ "rangePercent", p->has_range_percent },
		{ NULL, false },
	}, precondition[] = {
		{ "blockSizeBytes", p->has_block_size_bytes },
		{ "queueDepth", p->has_queue_depth },
		{ "rangePercent", p->has_range_percent },
		{ "passes", p->has_passes },
		{ NULL, false },
	}, deallocate[] = {
		{ "rangePercent", p->has_range_percent },
		{ NULL, false },
	}, idle[] = {
		{ "idleS", p->has_idle_s },
		{ NULL, false },
	}, verify[] = {
		{ "rangePercent", p->has_range_percent },
		{ NULL, false },
	}, power_cycle[] = {
		{ "powerCycle", p->has_power_cycle },
		{ "rangePercent", p->has_range_percent },
		{ "queueDepth", p->has_queue_depth },
		{ NULL, false },
	}, purge[] = {
		{ "purgeMethod", p->purge_method != DQ_PURGE_METHOD_NONE },
		{ NULL, false },
	}, none[] = {
		{ NULL, false },
	};

	if (p->has_power_cycle && p->kind != DQ_PHASE_KIND_POWER_CYCLE) {
		return violate(v, "powerCycle", "applies to power-cycle phases only (kind %s)",
			       kind);
	}
	if (p->purge_fallback != DQ_PURGE_METHOD_NONE && p->kind != DQ_PHASE_KIND_PURGE) {
		return violate(v, "purgeFallback", "applies to purge phases only (kind %s)", kind);
	}
	if (p->purge_fallback != DQ_PURGE_METHOD_NONE &&
	    p->purge_fallback != DQ_PURGE_METHOD_DEALLOCATE) {
		return violate(v, "purgeFallback", "must be deallocate (got %s)",
			       dq_purge_method_to_str(p->purge_fallback));
	}
	if (p->stream_count > 0) {
		return check_streams(p, v);
	}
	if (p->has_rounds) {
		return check_rounds(p, v);
	}
	switch (p->kind) {
	case DQ_PHASE_KIND_WORKLOAD:
		r = workload;
		break;
	case DQ_PHASE_KIND_PRECONDITION:
		r = precondition;
		break;
	case DQ_PHASE_KIND_DEALLOCATE:
		r = deallocate;
		break;
	case DQ_PHASE_KIND_IDLE:
		r = idle;
		break;
	case DQ_PHASE_KIND_PURGE:
		r = purge;
		break;
	case DQ_PHASE_KIND_VERIFY:
		r = verify;
		break;
	case DQ_PHASE_KIND_POWER_CYCLE:
		r = power_cycle;
		break;
	default:
		r = none;
		break;
	}
	for (; r->field != NULL; r++) {
		if (!r->present) {
			return violate(v, r->field, "is required for kind %s", kind);
		}
	}
	if (p->kind == DQ_PHASE_KIND_WORKLOAD && !p->has_runtime_s && !p->has_size_bytes) {
		return violate(v, NULL,
			       "a workload needs runtimeS, sizeBytes or both (it ends at the first "
			       "reached)");
	}
	if (rw_is_mix(p->rw) && !p->has_read_percent) {
		return violate(v, "readPercent", "is required for rw %s", dq_rw_to_str(p->rw));
	}
	return 0;
}

int dq_phase_check(const struct dq_phase_spec *phase, struct dq_phase_violation *violation)
{
	int rc = check_bounds(phase, violation);

	return rc != 0 ? rc : check_kind(phase, violation);
}

int dq_phase_list_check(const struct dq_phase_spec *phases, size_t count, char *err, size_t err_len)
{
	struct dq_phase_violation v;
	const char *kind;
	size_t i;

	if (count == 0 || count > DQ_MAX_PHASES) {
		snprintf(err, err_len, "a job has 1..%d phases", DQ_MAX_PHASES);
		return -EINVAL;
	}
	for (i = 0; i < count; i++) {
		if (dq_phase_check(&phases[i], &v) != 0) {
			kind = dq_phase_kind_to_str(phases[i].kind);
			snprintf(err, err_len, "phase %zu (%s, %s): %s%s%s", i, phases[i].name,
				 kind != NULL ? kind : "?", v.field != NULL ? v.field : "",
				 v.field != NULL ? ": " : "", v.reason);
			return -EINVAL;
		}
	}
	return 0;
}

bool dq_phase_is_destructive(const struct dq_phase_spec *phase)
{
	size_t i;

	switch (phase->kind) {
	case DQ_PHASE_KIND_PURGE:
	case DQ_PHASE_KIND_PRECONDITION:
	case DQ_PHASE_KIND_DEALLOCATE:
	case DQ_PHASE_KIND_POWER_CYCLE:
		return true;
	case DQ_PHASE_KIND_WORKLOAD:
		for (i = 0; i < phase->stream_count; i++) {
			const struct dq_stream_spec *s = &phase->streams[i];

			/* trims destroy data as writes do */
			if (stream_is_trim(s->rw) ||
			    rw_may_write(s->rw, s->has_read_percent, s->read_percent)) {
				return true;
			}
		}
		if (phase->stream_count > 0) {
			return false;
		}
		if (phase->has_rounds) {
			for (i = 0; i < phase->rounds.step_count; i++) {
				if (phase->rounds.steps[i].idle_s == 0 &&
				    rw_may_write(phase->rounds.steps[i].rw,
						 phase->rounds.steps[i].has_read_percent,
						 phase->rounds.steps[i].read_percent)) {
					return true;
				}
			}
			return false;
		}
		return rw_may_write(phase->rw, phase->has_read_percent, phase->read_percent);
	default:
		return false;
	}
}
