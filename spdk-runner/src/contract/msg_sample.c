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
					   "trim",
					   "effectiveQueueDepthMilli",
					   "wallMs",
					   "clockRateMilli",
					   "round",
					   "step",
					   "streams",
					   NULL };
static const char *const stream_keys[] = { "index", "offeredIos", "read", "write", "trim", NULL };
static const char *const stream_direction_keys[] = { "ios", "bytes", "latencyNs",
						     "responseLatencyNs", NULL };
static const char *const stream_direction_names[] = { "read", "write", "trim" };
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
			    bool required, struct dq_sample_direction *dir, bool *present)
{
	const struct dq_jpath *path = DQ_JPATH_KEY(NULL, key);
	struct json_object *obj, *latency;

	dq_json_object(ctx, NULL, root, key, required, &obj);
	if (ctx->rc != 0 || obj == NULL) {
		return ctx->rc;
	}
	if (present != NULL) {
		*present = true;
	}
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

static void stream_direction_decode(struct dq_jctx *ctx, const struct dq_jpath *parent,
				    struct json_object *stream, const char *key,
				    struct dq_sample_stream_direction *dir)
{
	const struct dq_jpath *path = DQ_JPATH_KEY(parent, key);
	struct json_object *obj, *latency = NULL, *response = NULL;

	dq_json_object(ctx, parent, stream, key, true, &obj);
	dq_json_check_keys(ctx, path, obj, stream_direction_keys, NULL);
	dq_json_u64(ctx, path, obj, "ios", true, 0, INT64_MAX, &dir->ios, NULL);
	dq_json_u64(ctx, path, obj, "bytes", true, 0, INT64_MAX, &dir->bytes, NULL);
	dq_json_object(ctx, path, obj, "latencyNs", false, &latency);
	dq_json_object(ctx, path, obj, "responseLatencyNs", false, &response);
	if (ctx->rc != 0) {
		return;
	}
	if (dir->ios >= 1 && latency == NULL) {
		dq_json_fail(ctx, DQ_JPATH_KEY(path, "latencyNs"), "is required when ios >= 1");
		return;
	}
	if (dir->ios == 0 && (latency != NULL || response != NULL)) {
		dq_json_fail(ctx, path, "latencies must be absent when ios is 0");
		return;
	}
	if (latency != NULL) {
		dq_latency_percentiles_decode(ctx, DQ_JPATH_KEY(path, "latencyNs"), latency,
					      &dir->latency_ns);
	}
	if (response != NULL) {
		dir->has_response_latency_ns = true;
		dq_latency_percentiles_decode(ctx, DQ_JPATH_KEY(path, "responseLatencyNs"),
					      response, &dir->response_latency_ns);
	}
}

static void streams_decode(struct dq_jctx *ctx, struct json_object *root, struct dq_sample *s)
{
	const struct dq_jpath *path = DQ_JPATH_KEY(NULL, "streams");
	struct json_object *arr = NULL, *obj;
	size_t i, n = 0;
	int d;

	dq_json_array(ctx, NULL, root, "streams", false, 1, DQ_STREAMS_MAX, &arr, &n);
	for (i = 0; ctx->rc == 0 && arr != NULL && i < n; i++) {
		const struct dq_jpath *item = DQ_JPATH_INDEX(path, i);
		struct dq_sample_stream *st = &s->streams[i];

		obj = json_object_array_get_idx(arr, i);
		if (dq_json_object_value(ctx, item, obj) != 0) {
			return;
		}
		dq_json_check_keys(ctx, item, obj, stream_keys, NULL);
		dq_json_u32(ctx, item, obj, "index", true, 0, DQ_STREAMS_MAX - 1, &st->index, NULL);
		dq_json_u64(ctx, item, obj, "offeredIos", false, 0, INT64_MAX, &st->offered_ios,
			    &st->has_offered_ios);
		for (d = 0; d < 3; d++) {
			stream_direction_decode(ctx, item, obj, stream_direction_names[d],
						&st->direction[d]);
		}
		s->stream_count = i + 1;
	}
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
	direction_decode(&ctx, root, "read", true, &s->read, NULL);
	direction_decode(&ctx, root, "write", true, &s->write, NULL);
	direction_decode(&ctx, root, "trim", false, &s->trim, &s->has_trim);
	streams_decode(&ctx, root, s);
	dq_json_u64(&ctx, NULL, root, "effectiveQueueDepthMilli", false, 0,
		    DQ_EFFECTIVE_QUEUE_DEPTH_MILLI_MAX, &s->effective_queue_depth_milli,
		    &s->has_effective_queue_depth_milli);
	dq_json_u64(&ctx, NULL, root, "wallMs", false, 0, INT64_MAX, &s->wall_ms, &s->has_wall_ms);
	dq_json_u64(&ctx, NULL, root, "clockRateMilli", false, 1, DQ_CLOCK_RATE_MILLI_MAX,
		    &s->clock_rate_milli, &s->has_clock_rate_milli);
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

static void stream_direction_encode(struct dq_jbuild *b, struct json_object *obj,
				    const struct dq_sample_stream_direction *dir)
{
	dq_jb_u64(b, obj, "ios", dir->ios);
	dq_jb_u64(b, obj, "bytes", dir->bytes);
	if (dir->ios > 0) {
		dq_latency_percentiles_encode(b, dq_jb_object(b, obj, "latencyNs"),
					      &dir->latency_ns);
		if (dir->has_response_latency_ns) {
			dq_latency_percentiles_encode(b, dq_jb_object(b, obj, "responseLatencyNs"),
						      &dir->response_latency_ns);
		}
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
	if (s->has_trim) {
		direction_encode(&b, dq_jb_object(&b, root, "trim"), &s->trim);
	}
	if (s->has_effective_queue_depth_milli) {
		dq_jb_u64(&b, root, "effectiveQueueDepthMilli", s->effective_queue_depth_milli);
	}
	if (s->has_wall_ms) {
		dq_jb_u64(&b, root, "wallMs", s->wall_ms);
	}
	if (s->has_clock_rate_milli) {
		dq_jb_u64(&b, root, "clockRateMilli", s->clock_rate_milli);
	}
	if (s->stream_count > 0) {
		struct json_object *arr = dq_jb_array(&b, root, "streams"), *obj;

		for (size_t i = 0; i < s->stream_count; i++) {
			obj = dq_jb_append_object(&b, arr);
			dq_jb_u64(&b, obj, "index", s->streams[i].index);
			if (s->streams[i].has_offered_ios) {
				dq_jb_u64(&b, obj, "offeredIos", s->streams[i].offered_ios);
			}
			for (int d = 0; d < 3; d++) {
				stream_direction_encode(
					&b, dq_jb_object(&b, obj, stream_direction_names[d]),
					&s->streams[i].direction[d]);
			}
		}
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
