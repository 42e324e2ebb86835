/*
 * The phase specification codec (common.schema.json#/$defs/phaseSpec). The schema's if-then rules
 * (what each kind of phase must state before the runner may execute it) are phase_rules.c's.
 */
#include <stdint.h>
#include <string.h>

#include "contract/phase_rules.h"
#include "msg_internal.h"

static const char *const phase_keys[] = {
	"index",       "name",		 "kind",	  "rw",
	"readPercent", "blockSizeBytes", "queueDepth",	  "rangePercent",
	"runtimeS",    "sizeBytes",	 "passes",	  "dataPattern",
	"idleS",       "purgeMethod",	 "purgeFallback", "smartSnapshot",
	"rounds",      "streams",	 "sweepGroup",	  "powerCycle",
	NULL
};

/* The schema's if-then rules and bounds, as the runner checks every phase (phase_rules.c). */
static int phase_rules_check(struct dq_jctx *ctx, const struct dq_jpath *path,
			     const struct dq_phase_spec *p)
{
	struct dq_phase_violation v;

	if (dq_phase_check(p, &v) != 0) {
		dq_json_fail(ctx, v.field != NULL ? DQ_JPATH_KEY(path, v.field) : path, "%s",
			     v.reason);
	}
	return ctx->rc;
}

int dq_phase_spec_decode(struct dq_jctx *ctx, const struct dq_jpath *path, struct json_object *obj,
			 struct dq_phase_spec *p)
{
	struct json_object *rounds = NULL, *streams = NULL, *power_cycle = NULL;
	size_t stream_count = 0;

	memset(p, 0, sizeof(*p));
	if (dq_json_object_value(ctx, path, obj) != 0) {
		return ctx->rc;
	}
	dq_json_check_keys(ctx, path, obj, phase_keys, NULL);
	dq_json_u32(ctx, path, obj, "index", true, 0, DQ_PHASE_INDEX_MAX, &p->index, NULL);
	dq_json_str(ctx, path, obj, "name", true, DQ_STR_PHASE_NAME, 0, 0, p->name, sizeof(p->name),
		    NULL);
	p->kind = dq_json_enum(ctx, path, obj, "kind", true, &g_dq_phase_kind_names);
	p->rw = dq_json_enum(ctx, path, obj, "rw", false, &g_dq_rw_names);
	dq_json_u32(ctx, path, obj, "readPercent", false, 0, DQ_READ_PERCENT_MAX, &p->read_percent,
		    &p->has_read_percent);
	dq_json_u32(ctx, path, obj, "blockSizeBytes", false, DQ_BLOCK_SIZE_MIN_BYTES,
		    DQ_BLOCK_SIZE_MAX_BYTES, &p->block_size_bytes, &p->has_block_size_bytes);
	dq_json_u32(ctx, path, obj, "queueDepth", false, DQ_QUEUE_DEPTH_MIN, DQ_QUEUE_DEPTH_MAX,
		    &p->queue_depth, &p->has_queue_depth);
	dq_json_number(ctx, path, obj, "rangePercent", false, 0, true, DQ_RANGE_PERCENT_MAX,
		       &p->range_percent, &p->has_range_percent);
	dq_json_u32(ctx, path, obj, "runtimeS", false, 1, DQ_RUNTIME_S_MAX, &p->runtime_s,
		    &p->has_runtime_s);
	dq_json_u64(ctx, path, obj, "sizeBytes", false, 1, INT64_MAX, &p->size_bytes,
		    &p->has_size_bytes);
	dq_json_u32(ctx, path, obj, "passes", false, 1, DQ_PASSES_MAX, &p->passes, &p->has_passes);
	p->data_pattern =
		dq_json_enum(ctx, path, obj, "dataPattern", false, &g_dq_data_pattern_names);
	dq_json_u32(ctx, path, obj, "idleS", false, 1, DQ_IDLE_S_MAX, &p->idle_s, &p->has_idle_s);
	p->purge_method =
		dq_json_enum(ctx, path, obj, "purgeMethod", false, &g_dq_purge_method_names);
	p->purge_fallback =
		dq_json_enum(ctx, path, obj, "purgeFallback", false, &g_dq_purge_method_names);
	dq_json_bool(ctx, path, obj, "smartSnapshot", false, &p->smart_snapshot,
		     &p->has_smart_snapshot);
	dq_json_object(ctx, path, obj, "rounds", false, &rounds);
	if (ctx->rc == 0 && rounds != NULL) {
		p->has_rounds = true;
		dq_round_spec_decode(ctx, DQ_JPATH_KEY(path, "rounds"), rounds, &p->rounds);
	}
	dq_json_array(ctx, path, obj, "streams", false, 1, DQ_STREAMS_MAX, &streams, &stream_count);
	if (ctx->rc == 0 && streams != NULL) {
		dq_streams_decode(ctx, DQ_JPATH_KEY(path, "streams"), streams, p);
	}
	dq_json_str(ctx, path, obj, "sweepGroup", false, DQ_STR_PHASE_NAME, 0, 0, p->sweep_group,
		    sizeof(p->sweep_group), &p->has_sweep_group);
	dq_json_object(ctx, path, obj, "powerCycle", false, &power_cycle);
	if (ctx->rc == 0 && power_cycle != NULL) {
		p->has_power_cycle = true;
		dq_power_cycle_spec_decode(ctx, DQ_JPATH_KEY(path, "powerCycle"), power_cycle,
					   &p->power_cycle);
	}
	if (ctx->rc == 0) {
		phase_rules_check(ctx, path, p);
	}
	return ctx->rc;
}

void dq_phase_spec_encode(struct dq_jbuild *b, struct json_object *obj,
			  const struct dq_phase_spec *p)
{
	dq_jb_u64(b, obj, "index", p->index);
	dq_jb_str(b, obj, "name", p->name, sizeof(p->name));
	dq_jb_enum(b, obj, "kind", &g_dq_phase_kind_names, p->kind);
	if (p->rw != DQ_RW_NONE) {
		dq_jb_enum(b, obj, "rw", &g_dq_rw_names, p->rw);
	}
	if (p->has_read_percent) {
		dq_jb_u64(b, obj, "readPercent", p->read_percent);
	}
	if (p->has_block_size_bytes) {
		dq_jb_u64(b, obj, "blockSizeBytes", p->block_size_bytes);
	}
	if (p->has_queue_depth) {
		dq_jb_u64(b, obj, "queueDepth", p->queue_depth);
	}
	if (p->has_range_percent) {
		dq_jb_number(b, obj, "rangePercent", p->range_percent);
	}
	if (p->has_runtime_s) {
		dq_jb_u64(b, obj, "runtimeS", p->runtime_s);
	}
	if (p->has_size_bytes) {
		dq_jb_u64(b, obj, "sizeBytes", p->size_bytes);
	}
	if (p->has_passes) {
		dq_jb_u64(b, obj, "passes", p->passes);
	}
	if (p->data_pattern != DQ_DATA_PATTERN_NONE) {
		dq_jb_enum(b, obj, "dataPattern", &g_dq_data_pattern_names, p->data_pattern);
	}
	if (p->has_idle_s) {
		dq_jb_u64(b, obj, "idleS", p->idle_s);
	}
	if (p->purge_method != DQ_PURGE_METHOD_NONE) {
		dq_jb_enum(b, obj, "purgeMethod", &g_dq_purge_method_names, p->purge_method);
	}
	if (p->purge_fallback != DQ_PURGE_METHOD_NONE) {
		dq_jb_enum(b, obj, "purgeFallback", &g_dq_purge_method_names, p->purge_fallback);
	}
	if (p->has_smart_snapshot) {
		dq_jb_bool(b, obj, "smartSnapshot", p->smart_snapshot);
	}
	if (p->has_rounds) {
		dq_round_spec_encode(b, dq_jb_object(b, obj, "rounds"), &p->rounds);
	}
	if (p->stream_count > 0) {
		dq_streams_encode(b, dq_jb_array(b, obj, "streams"), p);
	}
	if (p->has_sweep_group) {
		dq_jb_str(b, obj, "sweepGroup", p->sweep_group, sizeof(p->sweep_group));
	}
	if (p->has_power_cycle) {
		dq_power_cycle_spec_encode(b, dq_jb_object(b, obj, "powerCycle"), &p->power_cycle);
	}
}
