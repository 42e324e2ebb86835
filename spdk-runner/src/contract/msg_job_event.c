/*
 * Codec of the job and phase events (schemas/messages/job-event.schema.json): one oneOf branch per
 * event type, each with its own members, all behind the same envelope (eventId, jobId, seq, time).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contract/msg_job_event.h"
#include "msg_internal.h"

static const char *const event_type_names_array[] = {
	NULL,	     "accepted", "refused",   "phase-started", "phase-completed", "smart-snapshot",
	"completed", "failed",	 "cancelled", "health"
};
static const char *const refuse_reason_names_array[] = { NULL,
							 "not-allowlisted",
							 "serial-mismatch",
							 "mounted",
							 "partition-table",
							 "signature",
							 "device-busy",
							 "device-not-found",
							 "engine-unavailable",
							 "invalid-command" };
static const char *const fail_reason_names_array[] = { NULL, "io-error", "device-lost",
						       "engine-error", "internal" };
static const char *const clock_names_array[] = { NULL, "real", "simulated" };
static const char *const when_names_array[] = { NULL, "before", "after" };
static const char *const limit_names_array[] = { NULL, "runtimeS", "sizeBytes" };
static const char *const skip_reason_names_array[] = { NULL, "sweep-saturated" };

static const struct dq_enum_names event_type_names = DQ_ENUM_NAMES(event_type_names_array);
static const struct dq_enum_names refuse_reason_names = DQ_ENUM_NAMES(refuse_reason_names_array);
static const struct dq_enum_names fail_reason_names = DQ_ENUM_NAMES(fail_reason_names_array);
static const struct dq_enum_names clock_names = DQ_ENUM_NAMES(clock_names_array);
static const struct dq_enum_names when_names = DQ_ENUM_NAMES(when_names_array);
static const struct dq_enum_names limit_names = DQ_ENUM_NAMES(limit_names_array);
static const struct dq_enum_names skip_reason_names = DQ_ENUM_NAMES(skip_reason_names_array);

#define ENVELOPE_KEYS "schemaVersion", "type", "eventId", "jobId", "runnerId", "seq", "time"

/* The members each oneOf branch allows (additionalProperties: false), by event type. */
static const char *const *const event_keys[] = {
	[DQ_JOB_EVENT_ACCEPTED] =
		(const char *const[]){ ENVELOPE_KEYS, "device", "phaseCount", NULL },
	[DQ_JOB_EVENT_REFUSED] =
		(const char *const[]){ ENVELOPE_KEYS, "reason", "message", "deviceSerial", NULL },
	[DQ_JOB_EVENT_PHASE_STARTED] = (const char *const[]){ ENVELOPE_KEYS, "phaseIndex",
							      "phaseName", "kind", "clock",
							      "startTimeMs", NULL },
	[DQ_JOB_EVENT_PHASE_COMPLETED] =
		(const char *const[]){ ENVELOPE_KEYS, "phaseIndex", "phaseName", "kind",
				       "durationNs", "samples", "read", "write", "trim",
				       "deallocatedBytes", "effectiveQueueDepthMilli",
				       "purgeVerification", "verify", "powerCycle", "rounds",
				       "limitReached", "streams", "skipped", NULL },
	[DQ_JOB_EVENT_SMART_SNAPSHOT] =
		(const char *const[]){ ENVELOPE_KEYS, "phaseIndex", "when", "smart", NULL },
	[DQ_JOB_EVENT_COMPLETED] = (const char *const[]){ ENVELOPE_KEYS, "durationNs", NULL },
	[DQ_JOB_EVENT_FAILED] =
		(const char *const[]){ ENVELOPE_KEYS, "phaseIndex", "reason", "message", NULL },
	[DQ_JOB_EVENT_CANCELLED] =
		(const char *const[]){ ENVELOPE_KEYS, "phaseIndex", "message", NULL },
	[DQ_JOB_EVENT_HEALTH] = (const char *const[]){ ENVELOPE_KEYS, "phaseIndex", "elapsedMs",
						       "timeMs", "smart", NULL },
};

const char *dq_job_event_type_to_str(enum dq_job_event_type type)
{
	return dq_enum_to_str(&event_type_names, type);
}

const char *dq_refuse_reason_to_str(enum dq_refuse_reason reason)
{
	return dq_enum_to_str(&refuse_reason_names, reason);
}

const char *dq_fail_reason_to_str(enum dq_fail_reason reason)
{
	return dq_enum_to_str(&fail_reason_names, reason);
}

const char *dq_phase_limit_to_str(enum dq_phase_limit limit)
{
	return dq_enum_to_str(&limit_names, limit);
}

static void totals_decode(struct dq_jctx *ctx, struct json_object *root, const char *key,
			  struct dq_direction_totals *totals)
{
	struct json_object *obj;

	dq_json_object(ctx, NULL, root, key, true, &obj);
	if (ctx->rc == 0) {
		dq_direction_totals_decode(ctx, DQ_JPATH_KEY(NULL, key), obj, totals);
	}
}

/* A multi-stream phase's streams (decoded totals own their histograms until the event's fini). */
static void streams_decode(struct dq_jctx *ctx, struct json_object *root,
			   struct dq_job_event_phase_completed *done)
{
	const struct dq_jpath *path = DQ_JPATH_KEY(NULL, "streams");
	struct json_object *arr = NULL;
	size_t i, n = 0;

	dq_json_array(ctx, NULL, root, "streams", false, 1, DQ_STREAMS_MAX, &arr, &n);
	for (i = 0; ctx->rc == 0 && arr != NULL && i < n; i++) {
		dq_stream_totals_decode(ctx, DQ_JPATH_INDEX(path, i),
					json_object_array_get_idx(arr, i), &done->streams[i]);
		done->stream_count = i + 1;
	}
}

/* A skipped phase's reason (#/$defs/phaseSkipped). */
static void skipped_decode(struct dq_jctx *ctx, struct json_object *root,
			   struct dq_phase_skipped *skipped)
{
	const struct dq_jpath *path = DQ_JPATH_KEY(NULL, "skipped");
	static const char *const keys[] = { "reason", "saturatedPhaseIndex", "message", NULL };
	struct json_object *obj = NULL;

	dq_json_object(ctx, NULL, root, "skipped", false, &obj);
	if (ctx->rc != 0 || obj == NULL) {
		return;
	}
	dq_json_check_keys(ctx, path, obj, keys, NULL);
	skipped->reason = dq_json_enum(ctx, path, obj, "reason", true, &skip_reason_names);
	dq_json_u32(ctx, path, obj, "saturatedPhaseIndex", true, 0, DQ_PHASE_INDEX_MAX,
		    &skipped->saturated_phase_index, NULL);
	dq_json_str(ctx, path, obj, "message", true, DQ_STR_ANY, 1, DQ_SKIP_MESSAGE_MAX_LEN,
		    skipped->message, sizeof(skipped->message), NULL);
}

static void skipped_encode(struct dq_jbuild *b, struct json_object *root,
			   const struct dq_phase_skipped *skipped)
{
	struct json_object *obj = dq_jb_object(b, root, "skipped");

	dq_jb_enum(b, obj, "reason", &skip_reason_names, skipped->reason);
	dq_jb_u64(b, obj, "saturatedPhaseIndex", skipped->saturated_phase_index);
	dq_jb_str(b, obj, "message", skipped->message, sizeof(skipped->message));
}

/* The phase-completed members after deallocatedBytes: effective queue depth, read-backs and how
 * the phase ended (rounds, or the limit it reached). */
static void readback_decode(struct dq_jctx *ctx, struct json_object *root,
			    struct dq_job_event_phase_completed *done)
{
	struct json_object *obj;

	dq_json_u64(ctx, NULL, root, "effectiveQueueDepthMilli", false, 0,
		    DQ_EFFECTIVE_QUEUE_DEPTH_MILLI_MAX, &done->effective_queue_depth_milli,
		    &done->has_effective_queue_depth_milli);
	dq_json_object(ctx, NULL, root, "purgeVerification", false, &obj);
	if (ctx->rc == 0 && obj != NULL) {
		done->has_purge_verification = true;
		dq_purge_verification_decode(ctx, DQ_JPATH_KEY(NULL, "purgeVerification"), obj,
					     &done->purge_verification);
	}
	dq_json_object(ctx, NULL, root, "verify", false, &obj);
	if (ctx->rc == 0 && obj != NULL) {
		done->has_verify = true;
		dq_verify_result_decode(ctx, DQ_JPATH_KEY(NULL, "verify"), obj, &done->verify);
	}
	dq_json_object(ctx, NULL, root, "powerCycle", false, &obj);
	if (ctx->rc == 0 && obj != NULL) {
		done->has_power_cycle = true;
		dq_power_cycle_report_decode(ctx, DQ_JPATH_KEY(NULL, "powerCycle"), obj,
					     &done->power_cycle);
	}
	dq_json_object(ctx, NULL, root, "rounds", false, &obj);
	if (ctx->rc == 0 && obj != NULL) {
		done->has_rounds = true;
		dq_rounds_result_decode(ctx, DQ_JPATH_KEY(NULL, "rounds"), obj, &done->rounds);
	}
	done->limit_reached = dq_json_enum(ctx, NULL, root, "limitReached", false, &limit_names);
	if (ctx->rc == 0 && done->has_rounds && done->limit_reached != DQ_PHASE_LIMIT_NONE) {
		dq_json_fail(ctx, DQ_JPATH_KEY(NULL, "limitReached"),
			     "a phase with rounds stops by its rounds, not by a limit");
	}
	streams_decode(ctx, root, done);
	skipped_decode(ctx, root, &done->skipped);
}

static void readback_encode(struct dq_jbuild *b, struct json_object *root,
			    const struct dq_job_event_phase_completed *done)
{
	if (done->has_effective_queue_depth_milli) {
		dq_jb_u64(b, root, "effectiveQueueDepthMilli", done->effective_queue_depth_milli);
	}
	if (done->has_purge_verification) {
		dq_purge_verification_encode(b, dq_jb_object(b, root, "purgeVerification"),
					     &done->purge_verification);
	}
	if (done->has_verify) {
		dq_verify_result_encode(b, dq_jb_object(b, root, "verify"), &done->verify);
	}
	if (done->has_power_cycle) {
		dq_power_cycle_report_encode(b, dq_jb_object(b, root, "powerCycle"),
					     &done->power_cycle);
	}
	if (done->has_rounds) {
		dq_rounds_result_encode(b, dq_jb_object(b, root, "rounds"), &done->rounds);
	}
	if (done->limit_reached != DQ_PHASE_LIMIT_NONE) {
		dq_jb_enum(b, root, "limitReached", &limit_names, done->limit_reached);
	}
	if (done->stream_count > 0) {
		struct json_object *arr = dq_jb_array(b, root, "streams");

		for (size_t i = 0; i < done->stream_count; i++) {
			dq_stream_totals_encode(b, dq_jb_append_object(b, arr), &done->streams[i]);
		}
	}
	if (done->skipped.reason != DQ_SKIP_NONE) {
		skipped_encode(b, root, &done->skipped);
	}
}

static void body_decode(struct dq_jctx *ctx, struct json_object *root, struct dq_job_event *e)
{
	struct json_object *obj;

	switch (e->type) {
	case DQ_JOB_EVENT_ACCEPTED:
		dq_json_object(ctx, NULL, root, "device", true, &obj);
		if (ctx->rc == 0) {
			dq_device_decode(ctx, DQ_JPATH_KEY(NULL, "device"), obj,
					 &e->accepted.device);
		}
		dq_json_u32(ctx, NULL, root, "phaseCount", true, 1, DQ_MAX_PHASES,
			    &e->accepted.phase_count, NULL);
		break;
	case DQ_JOB_EVENT_REFUSED:
		e->refused.reason =
			dq_json_enum(ctx, NULL, root, "reason", true, &refuse_reason_names);
		dq_json_str(ctx, NULL, root, "message", true, DQ_STR_ANY, 1, DQ_MESSAGE_MAX_CHARS,
			    e->refused.message, sizeof(e->refused.message), NULL);
		dq_json_str(ctx, NULL, root, "deviceSerial", false, DQ_STR_SERIAL, 0, 0,
			    e->refused.device_serial, sizeof(e->refused.device_serial),
			    &e->refused.has_device_serial);
		break;
	case DQ_JOB_EVENT_PHASE_STARTED:
		dq_json_u32(ctx, NULL, root, "phaseIndex", true, 0, DQ_PHASE_INDEX_MAX,
			    &e->phase_started.phase_index, NULL);
		dq_json_str(ctx, NULL, root, "phaseName", true, DQ_STR_PHASE_NAME, 0, 0,
			    e->phase_started.phase_name, sizeof(e->phase_started.phase_name), NULL);
		e->phase_started.kind =
			dq_json_enum(ctx, NULL, root, "kind", true, &g_dq_phase_kind_names);
		e->phase_started.clock = dq_json_enum(ctx, NULL, root, "clock", true, &clock_names);
		dq_json_u64(ctx, NULL, root, "startTimeMs", true, 0, INT64_MAX,
			    &e->phase_started.start_time_ms, NULL);
		break;
	case DQ_JOB_EVENT_PHASE_COMPLETED:
		dq_json_u32(ctx, NULL, root, "phaseIndex", true, 0, DQ_PHASE_INDEX_MAX,
			    &e->phase_completed.phase_index, NULL);
		dq_json_str(ctx, NULL, root, "phaseName", true, DQ_STR_PHASE_NAME, 0, 0,
			    e->phase_completed.phase_name, sizeof(e->phase_completed.phase_name),
			    NULL);
		e->phase_completed.kind =
			dq_json_enum(ctx, NULL, root, "kind", true, &g_dq_phase_kind_names);
		dq_json_u64(ctx, NULL, root, "durationNs", true, 0, INT64_MAX,
			    &e->phase_completed.duration_ns, NULL);
		dq_json_u64(ctx, NULL, root, "samples", true, 0, INT64_MAX,
			    &e->phase_completed.samples, NULL);
		totals_decode(ctx, root, "read", &e->phase_completed.read);
		totals_decode(ctx, root, "write", &e->phase_completed.write);
		dq_json_object(ctx, NULL, root, "trim", false, &obj);
		if (ctx->rc == 0 && obj != NULL) {
			e->phase_completed.has_trim = true;
			dq_direction_totals_decode(ctx, DQ_JPATH_KEY(NULL, "trim"), obj,
						   &e->phase_completed.trim);
		}
		dq_json_u64(ctx, NULL, root, "deallocatedBytes", false, 0, INT64_MAX,
			    &e->phase_completed.deallocated_bytes,
			    &e->phase_completed.has_deallocated_bytes);
		readback_decode(ctx, root, &e->phase_completed);
		break;
	case DQ_JOB_EVENT_SMART_SNAPSHOT:
		dq_json_u32(ctx, NULL, root, "phaseIndex", true, 0, DQ_PHASE_INDEX_MAX,
			    &e->smart_snapshot.phase_index, NULL);
		e->smart_snapshot.when = dq_json_enum(ctx, NULL, root, "when", true, &when_names);
		dq_json_object(ctx, NULL, root, "smart", true, &obj);
		if (ctx->rc == 0) {
			dq_smart_snapshot_decode(ctx, DQ_JPATH_KEY(NULL, "smart"), obj,
						 &e->smart_snapshot.smart);
		}
		break;
	case DQ_JOB_EVENT_COMPLETED:
		dq_json_u64(ctx, NULL, root, "durationNs", true, 0, INT64_MAX,
			    &e->completed.duration_ns, NULL);
		break;
	case DQ_JOB_EVENT_FAILED:
		dq_json_u32(ctx, NULL, root, "phaseIndex", false, 0, DQ_PHASE_INDEX_MAX,
			    &e->failed.phase_index, &e->failed.has_phase_index);
		e->failed.reason =
			dq_json_enum(ctx, NULL, root, "reason", true, &fail_reason_names);
		dq_json_str(ctx, NULL, root, "message", true, DQ_STR_ANY, 1, DQ_MESSAGE_MAX_CHARS,
			    e->failed.message, sizeof(e->failed.message), NULL);
		break;
	case DQ_JOB_EVENT_CANCELLED:
		dq_json_u32(ctx, NULL, root, "phaseIndex", false, 0, DQ_PHASE_INDEX_MAX,
			    &e->cancelled.phase_index, &e->cancelled.has_phase_index);
		dq_json_str(ctx, NULL, root, "message", false, DQ_STR_ANY, 0, DQ_MESSAGE_MAX_CHARS,
			    e->cancelled.message, sizeof(e->cancelled.message),
			    &e->cancelled.has_message);
		break;
	case DQ_JOB_EVENT_HEALTH:
		dq_json_u32(ctx, NULL, root, "phaseIndex", true, 0, DQ_PHASE_INDEX_MAX,
			    &e->health.phase_index, NULL);
		dq_json_u64(ctx, NULL, root, "elapsedMs", true, 0, INT64_MAX, &e->health.elapsed_ms,
			    NULL);
		dq_json_u64(ctx, NULL, root, "timeMs", true, 0, INT64_MAX, &e->health.time_ms,
			    NULL);
		dq_json_object(ctx, NULL, root, "smart", true, &obj);
		if (ctx->rc == 0) {
			dq_smart_snapshot_decode(ctx, DQ_JPATH_KEY(NULL, "smart"), obj,
						 &e->health.smart);
		}
		break;
	case DQ_JOB_EVENT_NONE:
		break;
	}
}

int dq_job_event_decode(const char *json, size_t len, struct dq_job_event *e, char *err,
			size_t err_len)
{
	struct dq_jctx ctx = { .err = err, .err_len = err_len };
	struct json_object *root = NULL;
	char context[48];

	memset(e, 0, sizeof(*e));
	if (err != NULL && err_len > 0) {
		err[0] = '\0';
	}
	dq_json_parse_object(&ctx, json, len, &root);
	dq_json_schema_version(&ctx, root);
	e->type = dq_json_enum(&ctx, NULL, root, "type", true, &event_type_names);
	if (ctx.rc == 0) {
		snprintf(context, sizeof(context), "in an event of type %s",
			 dq_job_event_type_to_str(e->type));
		dq_json_check_keys(&ctx, NULL, root, event_keys[e->type], context);
	}
	dq_json_str(&ctx, NULL, root, "eventId", true, DQ_STR_EVENT_ID, 0, 0, e->event_id,
		    sizeof(e->event_id), NULL);
	dq_json_str(&ctx, NULL, root, "jobId", true, DQ_STR_ID, 0, 0, e->job_id, sizeof(e->job_id),
		    NULL);
	dq_json_str(&ctx, NULL, root, "runnerId", true, DQ_STR_ID, 0, 0, e->runner_id,
		    sizeof(e->runner_id), NULL);
	dq_json_u32(&ctx, NULL, root, "seq", true, 0, DQ_JOB_EVENT_SEQ_MAX, &e->seq, NULL);
	dq_json_str(&ctx, NULL, root, "time", true, DQ_STR_TIMESTAMP, 0, 0, e->time,
		    sizeof(e->time), NULL);
	body_decode(&ctx, root, e);
	json_object_put(root);
	if (ctx.rc != 0) {
		dq_job_event_fini(e);
	}
	return ctx.rc;
}

void dq_job_event_fini(struct dq_job_event *e)
{
	if (e->type == DQ_JOB_EVENT_PHASE_COMPLETED) {
		dq_direction_totals_fini(&e->phase_completed.read);
		dq_direction_totals_fini(&e->phase_completed.write);
		dq_direction_totals_fini(&e->phase_completed.trim);
		for (size_t i = 0; i < e->phase_completed.stream_count; i++) {
			dq_stream_totals_fini(&e->phase_completed.streams[i]);
		}
	}
}

static void body_encode(struct dq_jbuild *b, struct json_object *root, const struct dq_job_event *e)
{
	switch (e->type) {
	case DQ_JOB_EVENT_ACCEPTED:
		dq_device_encode(b, dq_jb_object(b, root, "device"), &e->accepted.device);
		dq_jb_u64(b, root, "phaseCount", e->accepted.phase_count);
		break;
	case DQ_JOB_EVENT_REFUSED:
		dq_jb_enum(b, root, "reason", &refuse_reason_names, e->refused.reason);
		dq_jb_str(b, root, "message", e->refused.message, sizeof(e->refused.message));
		if (e->refused.has_device_serial) {
			dq_jb_str(b, root, "deviceSerial", e->refused.device_serial,
				  sizeof(e->refused.device_serial));
		}
		break;
	case DQ_JOB_EVENT_PHASE_STARTED:
		dq_jb_u64(b, root, "phaseIndex", e->phase_started.phase_index);
		dq_jb_str(b, root, "phaseName", e->phase_started.phase_name,
			  sizeof(e->phase_started.phase_name));
		dq_jb_enum(b, root, "kind", &g_dq_phase_kind_names, e->phase_started.kind);
		dq_jb_enum(b, root, "clock", &clock_names, e->phase_started.clock);
		dq_jb_u64(b, root, "startTimeMs", e->phase_started.start_time_ms);
		break;
	case DQ_JOB_EVENT_PHASE_COMPLETED:
		dq_jb_u64(b, root, "phaseIndex", e->phase_completed.phase_index);
		dq_jb_str(b, root, "phaseName", e->phase_completed.phase_name,
			  sizeof(e->phase_completed.phase_name));
		dq_jb_enum(b, root, "kind", &g_dq_phase_kind_names, e->phase_completed.kind);
		dq_jb_u64(b, root, "durationNs", e->phase_completed.duration_ns);
		dq_jb_u64(b, root, "samples", e->phase_completed.samples);
		dq_direction_totals_encode(b, dq_jb_object(b, root, "read"),
					   &e->phase_completed.read);
		dq_direction_totals_encode(b, dq_jb_object(b, root, "write"),
					   &e->phase_completed.write);
		if (e->phase_completed.has_trim) {
			dq_direction_totals_encode(b, dq_jb_object(b, root, "trim"),
						   &e->phase_completed.trim);
		}
		if (e->phase_completed.has_deallocated_bytes) {
			dq_jb_u64(b, root, "deallocatedBytes",
				  e->phase_completed.deallocated_bytes);
		}
		readback_encode(b, root, &e->phase_completed);
		break;
	case DQ_JOB_EVENT_SMART_SNAPSHOT:
		dq_jb_u64(b, root, "phaseIndex", e->smart_snapshot.phase_index);
		dq_jb_enum(b, root, "when", &when_names, e->smart_snapshot.when);
		dq_smart_snapshot_encode(b, dq_jb_object(b, root, "smart"),
					 &e->smart_snapshot.smart);
		break;
	case DQ_JOB_EVENT_COMPLETED:
		dq_jb_u64(b, root, "durationNs", e->completed.duration_ns);
		break;
	case DQ_JOB_EVENT_FAILED:
		if (e->failed.has_phase_index) {
			dq_jb_u64(b, root, "phaseIndex", e->failed.phase_index);
		}
		dq_jb_enum(b, root, "reason", &fail_reason_names, e->failed.reason);
		dq_jb_str(b, root, "message", e->failed.message, sizeof(e->failed.message));
		break;
	case DQ_JOB_EVENT_CANCELLED:
		if (e->cancelled.has_phase_index) {
			dq_jb_u64(b, root, "phaseIndex", e->cancelled.phase_index);
		}
		if (e->cancelled.has_message) {
			dq_jb_str(b, root, "message", e->cancelled.message,
				  sizeof(e->cancelled.message));
		}
		break;
	case DQ_JOB_EVENT_HEALTH:
		dq_jb_u64(b, root, "phaseIndex", e->health.phase_index);
		dq_jb_u64(b, root, "elapsedMs", e->health.elapsed_ms);
		dq_jb_u64(b, root, "timeMs", e->health.time_ms);
		dq_smart_snapshot_encode(b, dq_jb_object(b, root, "smart"), &e->health.smart);
		break;
	case DQ_JOB_EVENT_NONE:
		break;
	}
}

int dq_job_event_encode(const struct dq_job_event *e, char **json, size_t *len, char *err,
			size_t err_len)
{
	struct dq_jbuild b = { .err = err, .err_len = err_len };
	struct json_object *root = dq_jb_root(&b);
	struct dq_job_event *check;
	int rc;

	dq_jb_u64(&b, root, "schemaVersion", DQ_SCHEMA_VERSION);
	dq_jb_enum(&b, root, "type", &event_type_names, e->type);
	dq_jb_str(&b, root, "eventId", e->event_id, sizeof(e->event_id));
	dq_jb_str(&b, root, "jobId", e->job_id, sizeof(e->job_id));
	dq_jb_str(&b, root, "runnerId", e->runner_id, sizeof(e->runner_id));
	dq_jb_u64(&b, root, "seq", e->seq);
	dq_jb_str(&b, root, "time", e->time, sizeof(e->time));
	body_encode(&b, root, e);
	rc = dq_jb_finish(&b, root, json, len);
	if (rc != 0) {
		return rc;
	}
	/* Never hand out a message the service would reject. */
	check = malloc(sizeof(*check));
	rc = check != NULL ? dq_job_event_decode(*json, *len, check, err, err_len) : -ENOMEM;
	if (check != NULL) {
		dq_job_event_fini(check);
		free(check);
	}
	if (rc != 0) {
		free(*json);
		*json = NULL;
		*len = 0;
	}
	return rc;
}
