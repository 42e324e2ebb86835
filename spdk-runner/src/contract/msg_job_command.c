/*
 * Codec of the job command (schemas/messages/job-command.schema.json): the runner decodes start and
 * cancel commands strictly before acting, since a start command leads to erasing a drive.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "contract/msg_job_command.h"
#include "msg_internal.h"

static const char *const command_type_names_array[] = { NULL, "start", "cancel" };
static const struct dq_enum_names command_type_names = DQ_ENUM_NAMES(command_type_names_array);

/* The oneOf branches: each lists every member it allows (additionalProperties: false). */
static const char *const start_keys[] = {
	"schemaVersion", "type",	   "commandId", "jobId",  "runnerId",
	"issuedAt",	 "device",	   "engine",	"phases", "healthPollIntervalS",
	"resume",	 "latencyMonitor", NULL
};
static const char *const resume_keys[] = { "fromPhaseIndex", "fromSecond", "eventSeq", NULL };
static const char *const cancel_keys[] = { "schemaVersion", "type",	"commandId", "jobId",
					   "runnerId",	    "issuedAt", "reason",    NULL };
static const char *const device_keys[] = { "serial", "transportAddress", NULL };
static const char *const latency_monitor_keys[] = { "thresholdsMs", NULL };

/* #/$defs/latencyMonitorConfig; that the thresholds increase is the runner's check (a refusal). */
static void latency_monitor_decode(struct dq_jctx *ctx, struct json_object *root,
				   struct dq_job_command_start *start)
{
	const struct dq_jpath *path = DQ_JPATH_KEY(NULL, "latencyMonitor");
	const struct dq_jpath *thresholds_path = DQ_JPATH_KEY(path, "thresholdsMs");
	struct json_object *monitor, *thresholds;
	size_t i, n = 0;
	int64_t ms;

	dq_json_object(ctx, NULL, root, "latencyMonitor", false, &monitor);
	if (ctx->rc != 0 || monitor == NULL) {
		return;
	}
	dq_json_check_keys(ctx, path, monitor, latency_monitor_keys, NULL);
	dq_json_array(ctx, path, monitor, "thresholdsMs", true, DQ_LATENCY_MONITOR_BUCKETS,
		      DQ_LATENCY_MONITOR_BUCKETS, &thresholds, &n);
	for (i = 0; i < n && ctx->rc == 0; i++) {
		dq_json_int_value(ctx, DQ_JPATH_INDEX(thresholds_path, i),
				  json_object_array_get_idx(thresholds, i), 5, 1280, &ms);
		if (ctx->rc == 0 && ms % 5 != 0) {
			dq_json_fail(ctx, DQ_JPATH_INDEX(thresholds_path, i),
				     "%lld is not a multiple of 5", (long long)ms);
		}
		start->latency_monitor.thresholds_ms[i] = (uint32_t)ms;
	}
	start->has_latency_monitor = ctx->rc == 0;
}

const char *dq_job_command_type_to_str(enum dq_job_command_type type)
{
	return dq_enum_to_str(&command_type_names, type);
}

static int start_decode(struct dq_jctx *ctx, struct json_object *root,
			struct dq_job_command_start *start)
{
	const struct dq_jpath *device_path = DQ_JPATH_KEY(NULL, "device");
	const struct dq_jpath *phases_path = DQ_JPATH_KEY(NULL, "phases");
	const struct dq_jpath *resume_path = DQ_JPATH_KEY(NULL, "resume");
	struct json_object *device, *phases, *resume = NULL;
	size_t i, n = 0;

	dq_json_object(ctx, NULL, root, "device", true, &device);
	dq_json_check_keys(ctx, device_path, device, device_keys, NULL);
	dq_json_str(ctx, device_path, device, "serial", true, DQ_STR_SERIAL, 0, 0,
		    start->device_serial, sizeof(start->device_serial), NULL);
	dq_json_str(ctx, device_path, device, "transportAddress", false, DQ_STR_ANY, 1,
		    DQ_TRANSPORT_MAX_CHARS, start->transport_address,
		    sizeof(start->transport_address), &start->has_transport_address);
	start->engine = dq_json_enum(ctx, NULL, root, "engine", false, &g_dq_engine_names);
	dq_json_array(ctx, NULL, root, "phases", true, 1, DQ_MAX_PHASES, &phases, &n);
	for (i = 0; i < n && ctx->rc == 0; i++) {
		dq_phase_spec_decode(ctx, DQ_JPATH_INDEX(phases_path, i),
				     json_object_array_get_idx(phases, i), &start->phases[i]);
	}
	if (ctx->rc == 0) {
		start->phase_count = n;
	}
	dq_json_u32(ctx, NULL, root, "healthPollIntervalS", false, 0, DQ_HEALTH_POLL_INTERVAL_MAX_S,
		    &start->health_poll_interval_s, &start->has_health_poll_interval_s);
	dq_json_object(ctx, NULL, root, "resume", false, &resume);
	if (resume != NULL && ctx->rc == 0) {
		start->has_resume = true;
		dq_json_check_keys(ctx, resume_path, resume, resume_keys, NULL);
		dq_json_u32(ctx, resume_path, resume, "fromPhaseIndex", true, 0, DQ_MAX_PHASES - 1,
			    &start->resume_phase_index, NULL);
		dq_json_u32(ctx, resume_path, resume, "fromSecond", true, 0, 31536000,
			    &start->resume_from_s, NULL);
		dq_json_u32(ctx, resume_path, resume, "eventSeq", true, 1, 999999999,
			    &start->resume_event_seq, NULL);
		if (ctx->rc == 0 && start->resume_phase_index >= start->phase_count) {
			dq_json_fail(ctx, resume_path,
				     "fromPhaseIndex %u: the job has %zu phase(s)",
				     start->resume_phase_index, start->phase_count);
		}
	}
	latency_monitor_decode(ctx, root, start);
	return ctx->rc;
}

int dq_job_command_decode(const char *json, size_t len, struct dq_job_command *c, char *err,
			  size_t err_len)
{
	struct dq_jctx ctx = { .err = err, .err_len = err_len };
	struct json_object *root = NULL;

	memset(c, 0, sizeof(*c));
	if (err != NULL && err_len > 0) {
		err[0] = '\0';
	}
	dq_json_parse_object(&ctx, json, len, &root);
	dq_json_schema_version(&ctx, root);
	c->type = dq_json_enum(&ctx, NULL, root, "type", true, &command_type_names);
	if (c->type == DQ_JOB_COMMAND_START) {
		dq_json_check_keys(&ctx, NULL, root, start_keys, "in a start command");
	} else {
		dq_json_check_keys(&ctx, NULL, root, cancel_keys, "in a cancel command");
	}
	dq_json_str(&ctx, NULL, root, "commandId", true, DQ_STR_ID, 0, 0, c->command_id,
		    sizeof(c->command_id), NULL);
	dq_json_str(&ctx, NULL, root, "jobId", true, DQ_STR_ID, 0, 0, c->job_id, sizeof(c->job_id),
		    NULL);
	dq_json_str(&ctx, NULL, root, "runnerId", true, DQ_STR_ID, 0, 0, c->runner_id,
		    sizeof(c->runner_id), NULL);
	dq_json_str(&ctx, NULL, root, "issuedAt", true, DQ_STR_TIMESTAMP, 0, 0, c->issued_at,
		    sizeof(c->issued_at), NULL);
	if (c->type == DQ_JOB_COMMAND_START) {
		start_decode(&ctx, root, &c->start);
	} else {
		dq_json_str(&ctx, NULL, root, "reason", false, DQ_STR_ANY, 0, DQ_REASON_MAX_CHARS,
			    c->cancel.reason, sizeof(c->cancel.reason), &c->cancel.has_reason);
	}
	json_object_put(root);
	return ctx.rc;
}

static void start_encode(struct dq_jbuild *b, struct json_object *root,
			 const struct dq_job_command_start *start)
{
	struct json_object *device, *phases, *resume;
	size_t i;

	device = dq_jb_object(b, root, "device");
	dq_jb_str(b, device, "serial", start->device_serial, sizeof(start->device_serial));
	if (start->has_transport_address) {
		dq_jb_str(b, device, "transportAddress", start->transport_address,
			  sizeof(start->transport_address));
	}
	if (start->engine != DQ_ENGINE_NONE) {
		dq_jb_enum(b, root, "engine", &g_dq_engine_names, start->engine);
	}
	phases = dq_jb_array(b, root, "phases");
	for (i = 0; i < start->phase_count && i < DQ_MAX_PHASES && b->rc == 0; i++) {
		dq_phase_spec_encode(b, dq_jb_append_object(b, phases), &start->phases[i]);
	}
	if (start->has_health_poll_interval_s) {
		dq_jb_u64(b, root, "healthPollIntervalS", start->health_poll_interval_s);
	}
	if (start->has_resume) {
		resume = dq_jb_object(b, root, "resume");
		dq_jb_u64(b, resume, "fromPhaseIndex", start->resume_phase_index);
		dq_jb_u64(b, resume, "fromSecond", start->resume_from_s);
		dq_jb_u64(b, resume, "eventSeq", start->resume_event_seq);
	}
	if (start->has_latency_monitor) {
		struct json_object *thresholds =
			dq_jb_array(b, dq_jb_object(b, root, "latencyMonitor"), "thresholdsMs");

		for (i = 0; i < DQ_LATENCY_MONITOR_BUCKETS; i++) {
			dq_jb_append_u64(b, thresholds, start->latency_monitor.thresholds_ms[i]);
		}
	}
}

int dq_job_command_encode(const struct dq_job_command *c, char **json, size_t *len, char *err,
			  size_t err_len)
{
	struct dq_jbuild b = { .err = err, .err_len = err_len };
	struct json_object *root = dq_jb_root(&b);
	struct dq_job_command *check;
	int rc;

	dq_jb_u64(&b, root, "schemaVersion", DQ_SCHEMA_VERSION);
	dq_jb_enum(&b, root, "type", &command_type_names, c->type);
	dq_jb_str(&b, root, "commandId", c->command_id, sizeof(c->command_id));
	dq_jb_str(&b, root, "jobId", c->job_id, sizeof(c->job_id));
	dq_jb_str(&b, root, "runnerId", c->runner_id, sizeof(c->runner_id));
	dq_jb_str(&b, root, "issuedAt", c->issued_at, sizeof(c->issued_at));
	if (c->type == DQ_JOB_COMMAND_START) {
		start_encode(&b, root, &c->start);
	} else if (c->cancel.has_reason) {
		dq_jb_str(&b, root, "reason", c->cancel.reason, sizeof(c->cancel.reason));
	}
	rc = dq_jb_finish(&b, root, json, len);
	if (rc != 0) {
		return rc;
	}
	/* Never hand out a message the runner would reject (on the heap: ~10 KiB of phases). */
	check = malloc(sizeof(*check));
	rc = check != NULL ? dq_job_command_decode(*json, *len, check, err, err_len) : -ENOMEM;
	free(check);
	if (rc != 0) {
		free(*json);
		*json = NULL;
		*len = 0;
	}
	return rc;
}
