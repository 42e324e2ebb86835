/*
 * Codec of the per-second sample (schemas/messages/sample.schema.json), the runner's most frequent
 * message: strict decode for replay and validate, canonical encode for the samples topic.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "contract/msg_sample.h"
#include "msg_internal.h"

static const char *const sample_keys[] = { "schemaVersion",
					   "jobId",
					   "runnerId",
					   "deviceSerial",
					   "phaseIndex",
					   "phaseName",
					   "t",
					   "timeMs",
					   "read",
					   "write",
					   "effectiveQueueDepthMilli",
					   "round",
					   "step",
					   NULL };
static const char *const direction_keys[] = { "ios", "bytes", "latencyNs", NULL };

/* round and step come together or not at all. */
static void round_decode(struct dq_jctx *ctx, struct json_object *root, struct dq_sample *s)
{
	bool has_step = false;

	dq_json_u32(ctx, NULL, root, "round", false, 0, DQ_ROUNDS_MAX - 1, &s->round,
		    &s->has_round);
	dq_json_u32(ctx, NULL, root, "step", false, 0, DQ_ROUND_STEPS_MAX - 1, &s->step, &has_step);
	if (ctx->rc == 0 && s->has_round != has_step) {
		dq_json_fail(ctx, DQ_JPATH_KEY(NULL, s->has_round ? "step" : "round"),
			     "is required with %s", s->has_round ? "round" : "step");
	}
}

static int direction_decode(struct dq_jctx *ctx, struct json_object *root, const char *key,
			    struct dq_sample_direction *dir)
{
	const struct dq_jpath *path = DQ_JPATH_KEY(NULL, key);
	struct json_object *obj, *latency;

	dq_json_object(ctx, NULL, root, key, true, &obj);
	dq_json_check_keys(ctx, path, obj, direction_keys, NULL);
	dq_json_u64(ctx, path, obj, "ios", true, 0, INT64_MAX, &dir->ios, NULL);
	dq_json_u64(ctx, path, obj, "bytes", true, 0, INT64_MAX, &dir->bytes, NULL);
	dq_json_object(ctx, path, obj, "latencyNs", false, &latency);
	if (ctx->rc != 0) {
		return ctx->rc;
	}
	/* if ios >= 1 then latencyNs is required, else it must be absent */
	if (dir->ios >= 1 && latency == NULL) {
		return dq_json_fail(ctx, DQ_JPATH_KEY(path, "latencyNs"),
				    "is required when ios >= 1");
	}
	if (dir->ios == 0 && latency != NULL) {
		return dq_json_fail(ctx, DQ_JPATH_KEY(path, "latencyNs"),
				    "must be absent when ios is 0");
	}
	if (latency != NULL) {
		dq_latency_percentiles_decode(ctx, DQ_JPATH_KEY(path, "latencyNs"), latency,
					      &dir->latency_ns);
	}
	return ctx->rc;
}

int dq_sample_decode(const char *json, size_t len, struct dq_sample *s, char *err, size_t err_len)
{
	struct dq_jctx ctx = { .err = err, .err_len = err_len };
	struct json_object *root = NULL;

	memset(s, 0, sizeof(*s));
	if (err != NULL && err_len > 0) {
		err[0] = '\0';
	}
	dq_json_parse_object(&ctx, json, len, &root);
	dq_json_check_keys(&ctx, NULL, root, sample_keys, NULL);
	dq_json_schema_version(&ctx, root);
	dq_json_str(&ctx, NULL, root, "jobId", true, DQ_STR_ID, 0, 0, s->job_id, sizeof(s->job_id),
		    NULL);
	dq_json_str(&ctx, NULL, root, "runnerId", true, DQ_STR_ID, 0, 0, s->runner_id,
		    sizeof(s->runner_id), NULL);
	dq_json_str(&ctx, NULL, root, "deviceSerial", true, DQ_STR_SERIAL, 0, 0, s->device_serial,
		    sizeof(s->device_serial), NULL);
	dq_json_u32(&ctx, NULL, root, "phaseIndex", true, 0, DQ_PHASE_INDEX_MAX, &s->phase_index,
		    NULL);
	dq_json_str(&ctx, NULL, root, "phaseName", true, DQ_STR_PHASE_NAME, 0, 0, s->phase_name,
		    sizeof(s->phase_name), NULL);
	dq_json_u32(&ctx, NULL, root, "t", true, 1, DQ_SAMPLE_T_MAX, &s->t, NULL);
	dq_json_u64(&ctx, NULL, root, "timeMs", true, 0, INT64_MAX, &s->time_ms, NULL);
	round_decode(&ctx, root, s);
	direction_decode(&ctx, root, "read", &s->read);
	direction_decode(&ctx, root, "write", &s->write);
	dq_json_u64(&ctx, NULL, root, "effectiveQueueDepthMilli", false, 0,
		    DQ_EFFECTIVE_QUEUE_DEPTH_MILLI_MAX, &s->effective_queue_depth_milli,
		    &s->has_effective_queue_depth_milli);
	json_object_put(root);
	return ctx.rc;
}

static void direction_encode(struct dq_jbuild *b, struct json_object *obj,
			     const struct dq_sample_direction *dir)
{
	dq_jb_u64(b, obj, "ios", dir->ios);
	dq_jb_u64(b, obj, "bytes", dir->bytes);
	if (dir->ios > 0) {
		dq_latency_percentiles_encode(b, dq_jb_object(b, obj, "latencyNs"),
					      &dir->latency_ns);
	}
}

int dq_sample_encode(const struct dq_sample *s, char **json, size_t *len, char *err, size_t err_len)
{
	struct dq_jbuild b = { .err = err, .err_len = err_len };
	struct json_object *root = dq_jb_root(&b);
	struct dq_sample check;
	int rc;

	dq_jb_u64(&b, root, "schemaVersion", DQ_SCHEMA_VERSION);
	dq_jb_str(&b, root, "jobId", s->job_id, sizeof(s->job_id));
	dq_jb_str(&b, root, "runnerId", s->runner_id, sizeof(s->runner_id));
	dq_jb_str(&b, root, "deviceSerial", s->device_serial, sizeof(s->device_serial));
	dq_jb_u64(&b, root, "phaseIndex", s->phase_index);
	dq_jb_str(&b, root, "phaseName", s->phase_name, sizeof(s->phase_name));
	dq_jb_u64(&b, root, "t", s->t);
	dq_jb_u64(&b, root, "timeMs", s->time_ms);
	if (s->has_round) {
		dq_jb_u64(&b, root, "round", s->round);
		dq_jb_u64(&b, root, "step", s->step);
	}
	direction_encode(&b, dq_jb_object(&b, root, "read"), &s->read);
	direction_encode(&b, dq_jb_object(&b, root, "write"), &s->write);
	if (s->has_effective_queue_depth_milli) {
		dq_jb_u64(&b, root, "effectiveQueueDepthMilli", s->effective_queue_depth_milli);
	}
	rc = dq_jb_finish(&b, root, json, len);
	if (rc != 0) {
		return rc;
	}
	/* Never hand out a message the service would reject. */
	rc = dq_sample_decode(*json, *len, &check, err, err_len);
	if (rc != 0) {
		free(*json);
		*json = NULL;
		*len = 0;
	}
	return rc;
}
