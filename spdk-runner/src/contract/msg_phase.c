/*
 * The phase specification codec (common.schema.json#/$defs/phaseSpec), including the schema's
 * if-then rules: what each kind of phase must state before the runner may execute it.
 */
#include <stdint.h>
#include <string.h>

#include "msg_internal.h"

static const char *const phase_keys[] = {
	"index",      "name",	      "kind",	       "rw",	    "readPercent", "blockSizeBytes",
	"queueDepth", "rangePercent", "runtimeS",      "sizeBytes", "passes",	   "dataPattern",
	"idleS",      "purgeMethod",  "smartSnapshot", NULL
};

static void require(struct dq_jctx *ctx, const struct dq_jpath *path, bool present, const char *key,
		    const char *kind)
{
	if (!present) {
		dq_json_fail(ctx, DQ_JPATH_KEY(path, key), "is required for kind %s", kind);
	}
}

/* The allOf of if-then rules: required fields by kind, and readPercent for mixed patterns. */
static int phase_rules_check(struct dq_jctx *ctx, const struct dq_jpath *path,
			     const struct dq_phase_spec *p)
{
	const char *kind = dq_phase_kind_to_str(p->kind);

	switch (p->kind) {
	case DQ_PHASE_KIND_WORKLOAD:
		require(ctx, path, p->rw != DQ_RW_NONE, "rw", kind);
		require(ctx, path, p->has_block_size_bytes, "blockSizeBytes", kind);
		require(ctx, path, p->has_queue_depth, "queueDepth", kind);
		require(ctx, path, p->has_range_percent, "rangePercent", kind);
		if (p->has_runtime_s == p->has_size_bytes) {
			dq_json_fail(ctx, path,
				     "a workload needs exactly one of runtimeS, sizeBytes");
		}
		break;
	case DQ_PHASE_KIND_PRECONDITION:
		require(ctx, path, p->has_block_size_bytes, "blockSizeBytes", kind);
		require(ctx, path, p->has_queue_depth, "queueDepth", kind);
		require(ctx, path, p->has_range_percent, "rangePercent", kind);
		require(ctx, path, p->has_passes, "passes", kind);
		break;
	case DQ_PHASE_KIND_DEALLOCATE:
		require(ctx, path, p->has_range_percent, "rangePercent", kind);
		break;
	case DQ_PHASE_KIND_IDLE:
		require(ctx, path, p->has_idle_s, "idleS", kind);
		break;
	case DQ_PHASE_KIND_PURGE:
		require(ctx, path, p->purge_method != DQ_PURGE_METHOD_NONE, "purgeMethod", kind);
		break;
	default:
		break;
	}
	if ((p->rw == DQ_RW_RW || p->rw == DQ_RW_RANDRW) && !p->has_read_percent) {
		dq_json_fail(ctx, DQ_JPATH_KEY(path, "readPercent"), "is required for rw %s",
			     dq_rw_to_str(p->rw));
	}
	return ctx->rc;
}

int dq_phase_spec_decode(struct dq_jctx *ctx, const struct dq_jpath *path, struct json_object *obj,
			 struct dq_phase_spec *p)
{
	memset(p, 0, sizeof(*p));
	if (ctx->rc == 0 && !json_object_is_type(obj, json_type_object)) {
		return dq_json_fail(ctx, path, "must be an object (got %s)",
				    dq_json_type_desc(obj));
	}
	dq_json_check_keys(ctx, path, obj, phase_keys, NULL);
	dq_json_u32(ctx, path, obj, "index", true, 0, DQ_PHASE_INDEX_MAX, &p->index, NULL);
	dq_json_str(ctx, path, obj, "name", true, DQ_STR_PHASE_NAME, 0, 0, p->name, sizeof(p->name),
		    NULL);
	p->kind = dq_json_enum(ctx, path, obj, "kind", true, &g_dq_phase_kind_names);
	p->rw = dq_json_enum(ctx, path, obj, "rw", false, &g_dq_rw_names);
	dq_json_u32(ctx, path, obj, "readPercent", false, 0, 100, &p->read_percent,
		    &p->has_read_percent);
	dq_json_u32(ctx, path, obj, "blockSizeBytes", false, 512, 16777216, &p->block_size_bytes,
		    &p->has_block_size_bytes);
	if (ctx->rc == 0 && p->has_block_size_bytes && p->block_size_bytes % 512 != 0) {
		dq_json_fail(ctx, DQ_JPATH_KEY(path, "blockSizeBytes"),
			     "must be a multiple of 512 (got %u)", p->block_size_bytes);
	}
	dq_json_u32(ctx, path, obj, "queueDepth", false, 1, 1024, &p->queue_depth,
		    &p->has_queue_depth);
	dq_json_number(ctx, path, obj, "rangePercent", false, 0, true, 100, &p->range_percent,
		       &p->has_range_percent);
	dq_json_u32(ctx, path, obj, "runtimeS", false, 1, 2592000, &p->runtime_s,
		    &p->has_runtime_s);
	dq_json_u64(ctx, path, obj, "sizeBytes", false, 1, INT64_MAX, &p->size_bytes,
		    &p->has_size_bytes);
	dq_json_u32(ctx, path, obj, "passes", false, 1, 100, &p->passes, &p->has_passes);
	p->data_pattern =
		dq_json_enum(ctx, path, obj, "dataPattern", false, &g_dq_data_pattern_names);
	dq_json_u32(ctx, path, obj, "idleS", false, 1, 604800, &p->idle_s, &p->has_idle_s);
	p->purge_method =
		dq_json_enum(ctx, path, obj, "purgeMethod", false, &g_dq_purge_method_names);
	dq_json_bool(ctx, path, obj, "smartSnapshot", false, &p->smart_snapshot,
		     &p->has_smart_snapshot);
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
	if (p->has_smart_snapshot) {
		dq_jb_bool(b, obj, "smartSnapshot", p->smart_snapshot);
	}
}
