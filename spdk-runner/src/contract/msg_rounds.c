/*
 * Codecs of adaptive rounds (common.schema.json's roundSpec, roundStep and roundsResult with its
 * windowLatency): what a phase with SNIA-style rounds asks of the runner, how such a phase reports
 * that it stopped, and each step's latency over its measurement window.
 * The rules across members (tracking step within the steps, readPercent for mixes) are
 * phase_rules.c's.
 */
#include <stdint.h>
#include <string.h>

#include "contract/phase_rules.h"
#include "msg_internal.h"

static const char *const metric_names_array[] = { NULL, "iops", "bytesPerS", "meanLatencyNs" };
static const char *const stop_names_array[] = { NULL, "steady", "maxRounds" };

static const struct dq_enum_names metric_names = DQ_ENUM_NAMES(metric_names_array);
static const char *const evidence_names_array[] = { NULL,	    "read-only",  "no-reset",
						    "media-writes", "iops-cliff", "written-bytes" };
static const struct dq_enum_names stop_names = DQ_ENUM_NAMES(stop_names_array);
static const struct dq_enum_names evidence_names = DQ_ENUM_NAMES(evidence_names_array);

const char *dq_tracking_metric_to_str(enum dq_tracking_metric metric)
{
	return dq_enum_to_str(&metric_names, metric);
}

const char *dq_rounds_stop_to_str(enum dq_rounds_stop stop)
{
	return dq_enum_to_str(&stop_names, stop);
}

const char *dq_fresh_state_evidence_to_str(enum dq_fresh_state_evidence evidence)
{
	return dq_enum_to_str(&evidence_names, evidence);
}

static const char *const spec_keys[] = { "steps",     "stepRuntimeS",	     "tracking",
					 "maxRounds", "rangeWritesRequired", NULL };
static const char *const step_keys[] = { "rw",	       "readPercent", "blockSizeBytes",
					 "queueDepth", "runtimeS",    "idleS",
					 NULL };
static const char *const tracking_keys[] = { "step", "metric", NULL };
static const char *const result_keys[] = { "roundsRun",		 "stoppedBecause",
					   "reachedAtRound",	 "firstEligibleRound",
					   "freshStateEvidence", "trackingMilli",
					   "windowLatency",	 NULL };
static const char *const window_keys[] = { "firstRound", "lastRound", "steps", NULL };
static const char *const step_window_keys[] = { "step", "read", "write", "total", NULL };
static const char *const figures_keys[] = { "ios",	"meanNs", "p99Ns", "p999Ns",
					    "p99999Ns", "maxNs",  NULL };

static void step_decode(struct dq_jctx *ctx, const struct dq_jpath *path, struct json_object *obj,
			struct dq_round_step *s)
{
	if (dq_json_object_value(ctx, path, obj) != 0) {
		return;
	}
	bool idle = false;

	dq_json_check_keys(ctx, path, obj, step_keys, NULL);
	dq_json_u32(ctx, path, obj, "idleS", false, 1, DQ_ROUND_STEP_RUNTIME_S_MAX, &s->idle_s,
		    &idle);
	s->rw = dq_json_enum(ctx, path, obj, "rw", !idle, &g_dq_rw_names);
	dq_json_u32(ctx, path, obj, "readPercent", false, 0, DQ_READ_PERCENT_MAX, &s->read_percent,
		    &s->has_read_percent);
	dq_json_u32(ctx, path, obj, "blockSizeBytes", !idle, DQ_BLOCK_SIZE_MIN_BYTES,
		    DQ_BLOCK_SIZE_MAX_BYTES, &s->block_size_bytes, NULL);
	dq_json_u32(ctx, path, obj, "queueDepth", !idle, DQ_QUEUE_DEPTH_MIN, DQ_QUEUE_DEPTH_MAX,
		    &s->queue_depth, NULL);
	dq_json_u32(ctx, path, obj, "runtimeS", false, 1, DQ_ROUND_STEP_RUNTIME_S_MAX,
		    &s->runtime_s, &s->has_runtime_s);
	if (ctx->rc == 0 && idle &&
	    (s->rw != DQ_RW_NONE || s->has_read_percent || s->has_runtime_s ||
	     json_object_object_get_ex(obj, "blockSizeBytes", NULL) ||
	     json_object_object_get_ex(obj, "queueDepth", NULL))) {
		dq_json_fail(ctx, path, "an idle step (idleS) takes no IO fields and no runtimeS");
	}
}

int dq_round_spec_decode(struct dq_jctx *ctx, const struct dq_jpath *path, struct json_object *obj,
			 struct dq_round_spec *r)
{
	const struct dq_jpath *steps_path = DQ_JPATH_KEY(path, "steps");
	const struct dq_jpath *tracking_path = DQ_JPATH_KEY(path, "tracking");
	struct json_object *steps, *tracking;
	size_t i, n = 0;

	memset(r, 0, sizeof(*r));
	dq_json_check_keys(ctx, path, obj, spec_keys, NULL);
	dq_json_array(ctx, path, obj, "steps", true, 1, DQ_ROUND_STEPS_MAX, &steps, &n);
	for (i = 0; i < n && ctx->rc == 0; i++) {
		step_decode(ctx, DQ_JPATH_INDEX(steps_path, i), json_object_array_get_idx(steps, i),
			    &r->steps[i]);
	}
	r->step_count = n;
	dq_json_u32(ctx, path, obj, "stepRuntimeS", true, 1, DQ_ROUND_STEP_RUNTIME_S_MAX,
		    &r->step_runtime_s, NULL);
	dq_json_object(ctx, path, obj, "tracking", false, &tracking);
	if (ctx->rc == 0 && tracking != NULL) {
		r->has_tracking = true;
		dq_json_check_keys(ctx, tracking_path, tracking, tracking_keys, NULL);
		dq_json_u32(ctx, tracking_path, tracking, "step", true, 0, DQ_ROUND_STEPS_MAX - 1,
			    &r->tracking_step, NULL);
		r->tracking_metric =
			dq_json_enum(ctx, tracking_path, tracking, "metric", true, &metric_names);
	}
	dq_json_u32(ctx, path, obj, "maxRounds", true, DQ_ROUNDS_MIN, DQ_ROUNDS_MAX, &r->max_rounds,
		    NULL);
	dq_json_number(ctx, path, obj, "rangeWritesRequired", true, 0, false,
		       DQ_RANGE_WRITES_REQUIRED_MAX, &r->range_writes_required, NULL);
	return ctx->rc;
}

void dq_round_spec_encode(struct dq_jbuild *b, struct json_object *obj,
			  const struct dq_round_spec *r)
{
	struct json_object *steps, *step, *tracking;
	size_t i;

	steps = dq_jb_array(b, obj, "steps");
	for (i = 0; i < r->step_count && i < DQ_ROUND_STEPS_MAX && b->rc == 0; i++) {
		step = dq_jb_append_object(b, steps);
		if (r->steps[i].idle_s > 0) {
			dq_jb_u64(b, step, "idleS", r->steps[i].idle_s);
			continue;
		}
		dq_jb_enum(b, step, "rw", &g_dq_rw_names, r->steps[i].rw);
		if (r->steps[i].has_read_percent) {
			dq_jb_u64(b, step, "readPercent", r->steps[i].read_percent);
		}
		dq_jb_u64(b, step, "blockSizeBytes", r->steps[i].block_size_bytes);
		dq_jb_u64(b, step, "queueDepth", r->steps[i].queue_depth);
		if (r->steps[i].has_runtime_s) {
			dq_jb_u64(b, step, "runtimeS", r->steps[i].runtime_s);
		}
	}
	dq_jb_u64(b, obj, "stepRuntimeS", r->step_runtime_s);
	if (r->has_tracking) {
		tracking = dq_jb_object(b, obj, "tracking");
		dq_jb_u64(b, tracking, "step", r->tracking_step);
		dq_jb_enum(b, tracking, "metric", &metric_names, r->tracking_metric);
	}
	dq_jb_u64(b, obj, "maxRounds", r->max_rounds);
	dq_jb_number(b, obj, "rangeWritesRequired", r->range_writes_required);
}

/* One direction's (or the total's) figures; *present says whether the member was there. */
static void figures_decode(struct dq_jctx *ctx, const struct dq_jpath *parent,
			   struct json_object *obj, const char *key, bool required,
			   struct dq_latency_figures *f, bool *present)
{
	const struct dq_jpath *path = DQ_JPATH_KEY(parent, key);
	struct json_object *figures = NULL;

	dq_json_object(ctx, parent, obj, key, required, &figures);
	if (present != NULL) {
		*present = ctx->rc == 0 && figures != NULL;
	}
	if (ctx->rc != 0 || figures == NULL) {
		return;
	}
	dq_json_check_keys(ctx, path, figures, figures_keys, NULL);
	dq_json_u64(ctx, path, figures, "ios", true, 1, INT64_MAX, &f->ios, NULL);
	dq_json_u64(ctx, path, figures, "meanNs", true, 0, INT64_MAX, &f->mean_ns, NULL);
	dq_json_u64(ctx, path, figures, "p99Ns", true, 0, INT64_MAX, &f->p99_ns, NULL);
	dq_json_u64(ctx, path, figures, "p999Ns", true, 0, INT64_MAX, &f->p999_ns, NULL);
	dq_json_u64(ctx, path, figures, "p99999Ns", true, 0, INT64_MAX, &f->p99999_ns, NULL);
	dq_json_u64(ctx, path, figures, "maxNs", true, 0, INT64_MAX, &f->max_ns, NULL);
}

static void step_window_decode(struct dq_jctx *ctx, const struct dq_jpath *path,
			       struct json_object *obj, struct dq_step_window_latency *s)
{
	if (dq_json_object_value(ctx, path, obj) != 0) {
		return;
	}
	dq_json_check_keys(ctx, path, obj, step_window_keys, NULL);
	dq_json_u32(ctx, path, obj, "step", true, 0, DQ_ROUND_STEPS_MAX - 1, &s->step, NULL);
	figures_decode(ctx, path, obj, "read", false, &s->read, &s->has_read);
	figures_decode(ctx, path, obj, "write", false, &s->write, &s->has_write);
	figures_decode(ctx, path, obj, "total", true, &s->total, NULL);
	if (ctx->rc == 0 && !s->has_read && !s->has_write) {
		dq_json_fail(ctx, path, "needs read or write (a step without IO has no entry)");
	}
}

static void window_decode(struct dq_jctx *ctx, const struct dq_jpath *path, struct json_object *obj,
			  struct dq_window_latency *w)
{
	const struct dq_jpath *list = DQ_JPATH_KEY(path, "steps");
	struct json_object *steps;
	size_t i, n = 0;

	dq_json_check_keys(ctx, path, obj, window_keys, NULL);
	dq_json_u32(ctx, path, obj, "firstRound", true, 0, DQ_ROUNDS_MAX - 1, &w->first_round,
		    NULL);
	dq_json_u32(ctx, path, obj, "lastRound", true, 0, DQ_ROUNDS_MAX - 1, &w->last_round, NULL);
	dq_json_array(ctx, path, obj, "steps", true, 0, DQ_ROUND_STEPS_MAX, &steps, &n);
	for (i = 0; i < n && ctx->rc == 0; i++) {
		step_window_decode(ctx, DQ_JPATH_INDEX(list, i),
				   json_object_array_get_idx(steps, i), &w->steps[i]);
	}
	w->step_count = n;
}

int dq_rounds_result_decode(struct dq_jctx *ctx, const struct dq_jpath *path,
			    struct json_object *obj, struct dq_rounds_result *r)
{
	const struct dq_jpath *list = DQ_JPATH_KEY(path, "trackingMilli");
	struct json_object *array;
	size_t i, n = 0;
	int64_t value;

	memset(r, 0, sizeof(*r));
	dq_json_check_keys(ctx, path, obj, result_keys, NULL);
	dq_json_u32(ctx, path, obj, "roundsRun", true, 1, DQ_ROUNDS_MAX, &r->rounds_run, NULL);
	r->stopped_because = dq_json_enum(ctx, path, obj, "stoppedBecause", true, &stop_names);
	dq_json_u32(ctx, path, obj, "reachedAtRound", false, DQ_ROUNDS_MIN - 1, DQ_ROUNDS_MAX - 1,
		    &r->reached_at_round, &r->has_reached_at_round);
	dq_json_u32(ctx, path, obj, "firstEligibleRound", false, 0, DQ_ROUNDS_MAX - 1,
		    &r->first_eligible_round, &r->has_first_eligible_round);
	r->fresh_state_evidence =
		dq_json_enum(ctx, path, obj, "freshStateEvidence", false, &evidence_names);
	dq_json_array(ctx, path, obj, "trackingMilli", true, 0, DQ_ROUNDS_MAX, &array, &n);
	for (i = 0; i < n && ctx->rc == 0; i++) {
		dq_json_int_value(ctx, DQ_JPATH_INDEX(list, i), json_object_array_get_idx(array, i),
				  -1, INT64_MAX, &value);
		r->tracking_milli[i] = value;
	}
	r->tracking_count = n;
	dq_json_object(ctx, path, obj, "windowLatency", false, &array);
	if (ctx->rc == 0 && array != NULL) {
		r->has_window_latency = true;
		window_decode(ctx, DQ_JPATH_KEY(path, "windowLatency"), array, &r->window_latency);
	}
	if (ctx->rc == 0 &&
	    r->has_reached_at_round != (r->stopped_because == DQ_ROUNDS_STOP_STEADY)) {
		dq_json_fail(ctx, DQ_JPATH_KEY(path, "reachedAtRound"),
			     "is present exactly when stoppedBecause is steady");
	}
	return ctx->rc;
}

static void figures_encode(struct dq_jbuild *b, struct json_object *obj, const char *key,
			   const struct dq_latency_figures *f)
{
	struct json_object *figures = dq_jb_object(b, obj, key);

	dq_jb_u64(b, figures, "ios", f->ios);
	dq_jb_u64(b, figures, "meanNs", f->mean_ns);
	dq_jb_u64(b, figures, "p99Ns", f->p99_ns);
	dq_jb_u64(b, figures, "p999Ns", f->p999_ns);
	dq_jb_u64(b, figures, "p99999Ns", f->p99999_ns);
	dq_jb_u64(b, figures, "maxNs", f->max_ns);
}

static void window_encode(struct dq_jbuild *b, struct json_object *obj,
			  const struct dq_window_latency *w)
{
	struct json_object *steps, *step;
	size_t i;

	dq_jb_u64(b, obj, "firstRound", w->first_round);
	dq_jb_u64(b, obj, "lastRound", w->last_round);
	steps = dq_jb_array(b, obj, "steps");
	for (i = 0; i < w->step_count && i < DQ_ROUND_STEPS_MAX && b->rc == 0; i++) {
		step = dq_jb_append_object(b, steps);
		dq_jb_u64(b, step, "step", w->steps[i].step);
		if (w->steps[i].has_read) {
			figures_encode(b, step, "read", &w->steps[i].read);
		}
		if (w->steps[i].has_write) {
			figures_encode(b, step, "write", &w->steps[i].write);
		}
		figures_encode(b, step, "total", &w->steps[i].total);
	}
}

void dq_rounds_result_encode(struct dq_jbuild *b, struct json_object *obj,
			     const struct dq_rounds_result *r)
{
	struct json_object *array;
	size_t i;

	dq_jb_u64(b, obj, "roundsRun", r->rounds_run);
	dq_jb_enum(b, obj, "stoppedBecause", &stop_names, r->stopped_because);
	if (r->has_reached_at_round) {
		dq_jb_u64(b, obj, "reachedAtRound", r->reached_at_round);
	}
	if (r->has_first_eligible_round) {
		dq_jb_u64(b, obj, "firstEligibleRound", r->first_eligible_round);
	}
	if (r->fresh_state_evidence != DQ_FRESH_STATE_EVIDENCE_NONE) {
		dq_jb_enum(b, obj, "freshStateEvidence", &evidence_names, r->fresh_state_evidence);
	}
	array = dq_jb_array(b, obj, "trackingMilli");
	for (i = 0; i < r->tracking_count && i < DQ_ROUNDS_MAX && b->rc == 0; i++) {
		dq_jb_append_i64(b, array, r->tracking_milli[i]);
	}
	if (r->has_window_latency) {
		window_encode(b, dq_jb_object(b, obj, "windowLatency"), &r->window_latency);
	}
}
