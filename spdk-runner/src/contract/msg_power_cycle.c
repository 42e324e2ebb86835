/*
 * The power-cycle phase's codecs (common.schema.json#/$defs/powerCycleSpec and
 * #/$defs/powerCycleResult): what the plan asks for, and the classified blocks it reports.
 */
#include <stdint.h>
#include <string.h>

#include "msg_internal.h"

static const char *const spec_keys[] = { "powerDriver", "cycles",	  "writesPerCycle",
					 "flushEvery",	"cutAfterWrites", NULL };
static const char *const report_keys[] = {
	"powerDriver",	      "durability",   "cycles",	  "cyclesPassed", "cyclesFailed", "verdict",
	"acknowledgedWrites", "flushes",      "intact",	  "lostAllowed",  "lostDurable",  "corrupt",
	"inFlightAtCut",      "inFlightLost", "perCycle", "failedCycles", "firstFailure", NULL
};
static const char *const outcome_keys[] = { "cycle",   "verdict",     "cutAfterWrites",
					    "intact",  "lostAllowed", "lostDurable",
					    "corrupt", NULL };
static const char *const durability_names[] = { NULL, "on-acknowledge", "on-flush" };
static const char *const verdict_names[] = { NULL, "pass", "fail" };
static const struct dq_enum_names g_durability_names = DQ_ENUM_NAMES(durability_names);
static const struct dq_enum_names g_verdict_names = DQ_ENUM_NAMES(verdict_names);

int dq_power_cycle_spec_decode(struct dq_jctx *ctx, const struct dq_jpath *path,
			       struct json_object *obj, struct dq_power_cycle_spec *spec)
{
	memset(spec, 0, sizeof(*spec));
	dq_json_check_keys(ctx, path, obj, spec_keys, NULL);
	dq_json_str(ctx, path, obj, "powerDriver", true, DQ_STR_PHASE_NAME, 0, 0,
		    spec->power_driver, sizeof(spec->power_driver), NULL);
	dq_json_u32(ctx, path, obj, "cycles", true, 1, DQ_POWER_CYCLES_MAX, &spec->cycles, NULL);
	dq_json_u32(ctx, path, obj, "writesPerCycle", true, 2, DQ_POWER_WRITES_MAX,
		    &spec->writes_per_cycle, NULL);
	dq_json_u32(ctx, path, obj, "flushEvery", false, 0, DQ_POWER_WRITES_MAX, &spec->flush_every,
		    NULL);
	dq_json_u32(ctx, path, obj, "cutAfterWrites", false, 0, DQ_POWER_WRITES_MAX,
		    &spec->cut_after_writes, NULL);
	if (ctx->rc == 0 && spec->cut_after_writes > spec->writes_per_cycle) {
		dq_json_fail(ctx, DQ_JPATH_KEY(path, "cutAfterWrites"),
			     "is beyond writesPerCycle (%u)", spec->writes_per_cycle);
	}
	return ctx->rc;
}

void dq_power_cycle_spec_encode(struct dq_jbuild *b, struct json_object *obj,
				const struct dq_power_cycle_spec *spec)
{
	dq_jb_str(b, obj, "powerDriver", spec->power_driver, sizeof(spec->power_driver));
	dq_jb_u64(b, obj, "cycles", spec->cycles);
	dq_jb_u64(b, obj, "writesPerCycle", spec->writes_per_cycle);
	if (spec->flush_every != 0) {
		dq_jb_u64(b, obj, "flushEvery", spec->flush_every);
	}
	if (spec->cut_after_writes != 0) {
		dq_jb_u64(b, obj, "cutAfterWrites", spec->cut_after_writes);
	}
}

static void outcome_decode(struct dq_jctx *ctx, const struct dq_jpath *path,
			   struct json_object *obj, struct dq_power_cycle_outcome *o)
{
	if (dq_json_object_value(ctx, path, obj) != 0) {
		return;
	}
	dq_json_check_keys(ctx, path, obj, outcome_keys, NULL);
	dq_json_u32(ctx, path, obj, "cycle", true, 0, DQ_POWER_CYCLES_MAX, &o->cycle, NULL);
	o->pass = dq_json_enum(ctx, path, obj, "verdict", true, &g_verdict_names) == 1;
	dq_json_u32(ctx, path, obj, "cutAfterWrites", true, 0, UINT32_MAX, &o->cut_after_writes,
		    NULL);
	dq_json_u32(ctx, path, obj, "intact", true, 0, UINT32_MAX, &o->intact, NULL);
	dq_json_u32(ctx, path, obj, "lostAllowed", true, 0, UINT32_MAX, &o->lost_allowed, NULL);
	dq_json_u32(ctx, path, obj, "lostDurable", true, 0, UINT32_MAX, &o->lost_durable, NULL);
	dq_json_u32(ctx, path, obj, "corrupt", true, 0, UINT32_MAX, &o->corrupt, NULL);
}

int dq_power_cycle_report_decode(struct dq_jctx *ctx, const struct dq_jpath *path,
				 struct json_object *obj, struct dq_power_cycle_report *r)
{
	const struct dq_jpath *list = DQ_JPATH_KEY(path, "failedCycles");
	struct json_object *array = NULL;
	size_t n = 0;

	memset(r, 0, sizeof(*r));
	dq_json_check_keys(ctx, path, obj, report_keys, NULL);
	dq_json_str(ctx, path, obj, "powerDriver", true, DQ_STR_PHASE_NAME, 0, 0, r->power_driver,
		    sizeof(r->power_driver), NULL);
	r->durability = dq_json_enum(ctx, path, obj, "durability", true, &g_durability_names);
	dq_json_u64(ctx, path, obj, "cycles", true, 0, INT64_MAX, &r->cycles, NULL);
	dq_json_u64(ctx, path, obj, "cyclesPassed", true, 0, INT64_MAX, &r->cycles_passed, NULL);
	dq_json_u64(ctx, path, obj, "cyclesFailed", true, 0, INT64_MAX, &r->cycles_failed, NULL);
	r->pass = dq_json_enum(ctx, path, obj, "verdict", true, &g_verdict_names) == 1;
	dq_json_u64(ctx, path, obj, "acknowledgedWrites", true, 0, INT64_MAX,
		    &r->acknowledged_writes, NULL);
	dq_json_u64(ctx, path, obj, "flushes", true, 0, INT64_MAX, &r->flushes, NULL);
	dq_json_u64(ctx, path, obj, "intact", true, 0, INT64_MAX, &r->intact, NULL);
	dq_json_u64(ctx, path, obj, "lostAllowed", true, 0, INT64_MAX, &r->lost_allowed, NULL);
	dq_json_u64(ctx, path, obj, "lostDurable", true, 0, INT64_MAX, &r->lost_durable, NULL);
	dq_json_u64(ctx, path, obj, "corrupt", true, 0, INT64_MAX, &r->corrupt, NULL);
	dq_json_u64(ctx, path, obj, "inFlightAtCut", true, 0, INT64_MAX, &r->in_flight_at_cut,
		    NULL);
	dq_json_u64(ctx, path, obj, "inFlightLost", true, 0, INT64_MAX, &r->in_flight_lost, NULL);
	dq_json_array(ctx, path, obj, "failedCycles", true, 0, DQ_POWER_FAILED_CYCLES_MAX, &array,
		      &n);
	for (size_t i = 0; i < n && ctx->rc == 0; i++) {
		int64_t cycle = 0;

		dq_json_int_value(ctx, DQ_JPATH_INDEX(list, i), json_object_array_get_idx(array, i),
				  0, INT64_MAX, &cycle);
		r->failed_cycles[i] = (uint64_t)cycle;
	}
	r->failed_cycle_count = n;
	dq_json_str(ctx, path, obj, "firstFailure", false, DQ_STR_ANY, 0,
		    DQ_POWER_FAILURE_MAX_CHARS, r->first_failure, sizeof(r->first_failure),
		    &r->has_first_failure);
	n = 0;
	array = NULL;
	dq_json_array(ctx, path, obj, "perCycle", true, 0, DQ_POWER_CYCLES_MAX, &array, &n);
	for (size_t i = 0; i < n && ctx->rc == 0; i++) {
		outcome_decode(ctx, DQ_JPATH_INDEX(DQ_JPATH_KEY(path, "perCycle"), i),
			       json_object_array_get_idx(array, i), &r->outcomes[i]);
	}
	r->outcome_count = n;
	return ctx->rc;
}

void dq_power_cycle_report_encode(struct dq_jbuild *b, struct json_object *obj,
				  const struct dq_power_cycle_report *r)
{
	struct json_object *array;

	dq_jb_str(b, obj, "powerDriver", r->power_driver, sizeof(r->power_driver));
	dq_jb_enum(b, obj, "durability", &g_durability_names, r->durability);
	dq_jb_u64(b, obj, "cycles", r->cycles);
	dq_jb_u64(b, obj, "cyclesPassed", r->cycles_passed);
	dq_jb_u64(b, obj, "cyclesFailed", r->cycles_failed);
	dq_jb_enum(b, obj, "verdict", &g_verdict_names, r->pass ? 1 : 2);
	dq_jb_u64(b, obj, "acknowledgedWrites", r->acknowledged_writes);
	dq_jb_u64(b, obj, "flushes", r->flushes);
	dq_jb_u64(b, obj, "intact", r->intact);
	dq_jb_u64(b, obj, "lostAllowed", r->lost_allowed);
	dq_jb_u64(b, obj, "lostDurable", r->lost_durable);
	dq_jb_u64(b, obj, "corrupt", r->corrupt);
	dq_jb_u64(b, obj, "inFlightAtCut", r->in_flight_at_cut);
	dq_jb_u64(b, obj, "inFlightLost", r->in_flight_lost);
	array = dq_jb_array(b, obj, "failedCycles");
	for (size_t i = 0; i < r->failed_cycle_count && i < DQ_POWER_FAILED_CYCLES_MAX; i++) {
		dq_jb_append_u64(b, array, r->failed_cycles[i]);
	}
	if (r->has_first_failure) {
		dq_jb_str(b, obj, "firstFailure", r->first_failure, sizeof(r->first_failure));
	}
	array = dq_jb_array(b, obj, "perCycle");
	for (size_t i = 0; i < r->outcome_count && i < DQ_POWER_CYCLES_MAX; i++) {
		const struct dq_power_cycle_outcome *o = &r->outcomes[i];
		struct json_object *item = dq_jb_append_object(b, array);

		dq_jb_u64(b, item, "cycle", o->cycle);
		dq_jb_enum(b, item, "verdict", &g_verdict_names, o->pass ? 1 : 2);
		dq_jb_u64(b, item, "cutAfterWrites", o->cut_after_writes);
		dq_jb_u64(b, item, "intact", o->intact);
		dq_jb_u64(b, item, "lostAllowed", o->lost_allowed);
		dq_jb_u64(b, item, "lostDurable", o->lost_durable);
		dq_jb_u64(b, item, "corrupt", o->corrupt);
	}
}
