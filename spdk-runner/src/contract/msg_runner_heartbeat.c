/*
 * Codec of the runner heartbeat (schemas/messages/runner-heartbeat.schema.json): the runner's
 * liveness and device inventory, which the service's registry and scheduler trust.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "contract/msg_runner_heartbeat.h"
#include "msg_internal.h"

static const char *const device_state_names_array[] = { NULL, "idle", "busy", "refused" };
static const char *const interlock_names_array[] = { NULL, "not-allowlisted", "mounted",
						     "partition-table", "signature" };
static const struct dq_enum_names device_state_names = DQ_ENUM_NAMES(device_state_names_array);
static const struct dq_enum_names interlock_names = DQ_ENUM_NAMES(interlock_names_array);

static const char *const heartbeat_keys[] = { "schemaVersion", "runnerId", "time",    "intervalMs",
					      "runnerVersion", "hostname", "engines", "devices",
					      "activeJobs",    NULL };
static const char *const device_item_keys[] = { "device",    "allowlisted",  "state",
						"interlock", "capabilities", NULL };
static const char *const job_item_keys[] = { "jobId", "deviceSerial", "phaseIndex", NULL };

const char *dq_device_state_to_str(enum dq_device_state state)
{
	return dq_enum_to_str(&device_state_names, state);
}

/* engines: uniqueItems, each an engine name. */
static void engines_decode(struct dq_jctx *ctx, struct json_object *root,
			   struct dq_runner_heartbeat *hb)
{
	const struct dq_jpath *path = DQ_JPATH_KEY(NULL, "engines");
	struct json_object *engines;
	size_t i, j, n = 0;
	int engine;

	dq_json_array(ctx, NULL, root, "engines", true, 0, SIZE_MAX, &engines, &n);
	for (i = 0; i < n && ctx->rc == 0; i++) {
		engine = dq_json_enum_value(ctx, DQ_JPATH_INDEX(path, i),
					    json_object_array_get_idx(engines, i),
					    &g_dq_engine_names);
		for (j = 0; j < hb->engine_count && ctx->rc == 0; j++) {
			if (hb->engines[j] == (enum dq_engine)engine) {
				dq_json_fail(ctx, DQ_JPATH_INDEX(path, i), "duplicate engine %s",
					     dq_engine_to_str(engine));
			}
		}
		if (ctx->rc == 0) {
			hb->engines[hb->engine_count++] = engine;
		}
	}
}

static void devices_decode(struct dq_jctx *ctx, struct json_object *root,
			   struct dq_runner_heartbeat *hb)
{
	const struct dq_jpath *path = DQ_JPATH_KEY(NULL, "devices");
	struct dq_heartbeat_device *d;
	struct json_object *devices, *item, *device, *capabilities;
	size_t i, n = 0, capability_count;

	dq_json_array(ctx, NULL, root, "devices", true, 0, DQ_HEARTBEAT_MAX_DEVICES, &devices, &n);
	if (ctx->rc != 0 || n == 0) {
		return;
	}
	hb->devices = calloc(n, sizeof(*hb->devices));
	if (hb->devices == NULL) {
		ctx->rc = -ENOMEM;
		return;
	}
	hb->device_count = n;
	for (i = 0; i < n && ctx->rc == 0; i++) {
		const struct dq_jpath *item_path = DQ_JPATH_INDEX(path, i);

		d = &hb->devices[i];
		item = json_object_array_get_idx(devices, i);
		if (dq_json_object_value(ctx, item_path, item) != 0) {
			break;
		}
		dq_json_check_keys(ctx, item_path, item, device_item_keys, NULL);
		dq_json_object(ctx, item_path, item, "device", true, &device);
		if (ctx->rc == 0) {
			dq_device_decode(ctx, DQ_JPATH_KEY(item_path, "device"), device,
					 &d->device);
		}
		dq_json_bool(ctx, item_path, item, "allowlisted", true, &d->allowlisted, NULL);
		d->state = dq_json_enum(ctx, item_path, item, "state", true, &device_state_names);
		d->interlock =
			dq_json_enum(ctx, item_path, item, "interlock", false, &interlock_names);
		capabilities = NULL;
		dq_json_array(ctx, item_path, item, "capabilities", false, 1,
			      DQ_CAPABILITY_COUNT - 1, &capabilities, &capability_count);
		if (ctx->rc == 0 && capabilities != NULL) {
			dq_capabilities_decode(ctx, DQ_JPATH_KEY(item_path, "capabilities"),
					       capabilities, &d->capabilities);
		}
	}
}

static void active_jobs_decode(struct dq_jctx *ctx, struct json_object *root,
			       struct dq_runner_heartbeat *hb)
{
	const struct dq_jpath *path = DQ_JPATH_KEY(NULL, "activeJobs");
	struct dq_heartbeat_active_job *job;
	struct json_object *jobs, *item;
	size_t i, n = 0;

	dq_json_array(ctx, NULL, root, "activeJobs", true, 0, DQ_HEARTBEAT_MAX_ACTIVE_JOBS, &jobs,
		      &n);
	if (ctx->rc != 0 || n == 0) {
		return;
	}
	hb->active_jobs = calloc(n, sizeof(*hb->active_jobs));
	if (hb->active_jobs == NULL) {
		ctx->rc = -ENOMEM;
		return;
	}
	hb->active_job_count = n;
	for (i = 0; i < n && ctx->rc == 0; i++) {
		const struct dq_jpath *item_path = DQ_JPATH_INDEX(path, i);

		job = &hb->active_jobs[i];
		item = json_object_array_get_idx(jobs, i);
		if (dq_json_object_value(ctx, item_path, item) != 0) {
			break;
		}
		dq_json_check_keys(ctx, item_path, item, job_item_keys, NULL);
		dq_json_str(ctx, item_path, item, "jobId", true, DQ_STR_ID, 0, 0, job->job_id,
			    sizeof(job->job_id), NULL);
		dq_json_str(ctx, item_path, item, "deviceSerial", true, DQ_STR_SERIAL, 0, 0,
			    job->device_serial, sizeof(job->device_serial), NULL);
		dq_json_u32(ctx, item_path, item, "phaseIndex", true, 0, DQ_PHASE_INDEX_MAX,
			    &job->phase_index, NULL);
	}
}

int dq_runner_heartbeat_decode(const char *json, size_t len, struct dq_runner_heartbeat *hb,
			       char *err, size_t err_len)
{
	struct dq_jctx ctx = { .err = err, .err_len = err_len };
	struct json_object *root = NULL;

	memset(hb, 0, sizeof(*hb));
	if (err != NULL && err_len > 0) {
		err[0] = '\0';
	}
	dq_json_parse_object(&ctx, json, len, &root);
	dq_json_check_keys(&ctx, NULL, root, heartbeat_keys, NULL);
	dq_json_schema_version(&ctx, root);
	dq_json_str(&ctx, NULL, root, "runnerId", true, DQ_STR_ID, 0, 0, hb->runner_id,
		    sizeof(hb->runner_id), NULL);
	dq_json_str(&ctx, NULL, root, "time", true, DQ_STR_TIMESTAMP, 0, 0, hb->time,
		    sizeof(hb->time), NULL);
	dq_json_u32(&ctx, NULL, root, "intervalMs", true, DQ_HEARTBEAT_INTERVAL_MS_MIN,
		    DQ_HEARTBEAT_INTERVAL_MS_MAX, &hb->interval_ms, NULL);
	dq_json_str(&ctx, NULL, root, "runnerVersion", true, DQ_STR_ANY, 1,
		    DQ_RUNNER_VERSION_MAX_CHARS, hb->runner_version, sizeof(hb->runner_version),
		    NULL);
	dq_json_str(&ctx, NULL, root, "hostname", false, DQ_STR_ANY, 0, DQ_HOSTNAME_MAX_CHARS,
		    hb->hostname, sizeof(hb->hostname), &hb->has_hostname);
	engines_decode(&ctx, root, hb);
	devices_decode(&ctx, root, hb);
	active_jobs_decode(&ctx, root, hb);
	json_object_put(root);
	if (ctx.rc != 0) {
		dq_runner_heartbeat_fini(hb);
	}
	return ctx.rc;
}

void dq_runner_heartbeat_fini(struct dq_runner_heartbeat *hb)
{
	free(hb->devices);
	hb->devices = NULL;
	hb->device_count = 0;
	free(hb->active_jobs);
	hb->active_jobs = NULL;
	hb->active_job_count = 0;
}

int dq_runner_heartbeat_encode(const struct dq_runner_heartbeat *hb, char **json, size_t *len,
			       char *err, size_t err_len)
{
	struct dq_jbuild b = { .err = err, .err_len = err_len };
	struct json_object *root = dq_jb_root(&b);
	struct json_object *array, *item, *job;
	struct dq_runner_heartbeat check;
	const struct dq_heartbeat_device *d;
	size_t i;
	int rc;

	dq_jb_u64(&b, root, "schemaVersion", DQ_SCHEMA_VERSION);
	dq_jb_str(&b, root, "runnerId", hb->runner_id, sizeof(hb->runner_id));
	dq_jb_str(&b, root, "time", hb->time, sizeof(hb->time));
	dq_jb_u64(&b, root, "intervalMs", hb->interval_ms);
	dq_jb_str(&b, root, "runnerVersion", hb->runner_version, sizeof(hb->runner_version));
	if (hb->has_hostname) {
		dq_jb_str(&b, root, "hostname", hb->hostname, sizeof(hb->hostname));
	}
	array = dq_jb_array(&b, root, "engines");
	for (i = 0; i < hb->engine_count && i < DQ_ENGINE_COUNT - 1; i++) {
		dq_jb_append_enum(&b, array, &g_dq_engine_names, hb->engines[i]);
	}
	array = dq_jb_array(&b, root, "devices");
	for (i = 0; i < hb->device_count && b.rc == 0; i++) {
		d = &hb->devices[i];
		item = dq_jb_append_object(&b, array);
		dq_device_encode(&b, dq_jb_object(&b, item, "device"), &d->device);
		dq_jb_bool(&b, item, "allowlisted", d->allowlisted);
		dq_jb_enum(&b, item, "state", &device_state_names, d->state);
		if (d->interlock != DQ_INTERLOCK_NONE) {
			dq_jb_enum(&b, item, "interlock", &interlock_names, d->interlock);
		}
		if (d->capabilities.probed) {
			dq_capabilities_encode(&b, dq_jb_array(&b, item, "capabilities"),
					       &d->capabilities);
		}
	}
	array = dq_jb_array(&b, root, "activeJobs");
	for (i = 0; i < hb->active_job_count && b.rc == 0; i++) {
		job = dq_jb_append_object(&b, array);
		dq_jb_str(&b, job, "jobId", hb->active_jobs[i].job_id,
			  sizeof(hb->active_jobs[i].job_id));
		dq_jb_str(&b, job, "deviceSerial", hb->active_jobs[i].device_serial,
			  sizeof(hb->active_jobs[i].device_serial));
		dq_jb_u64(&b, job, "phaseIndex", hb->active_jobs[i].phase_index);
	}
	rc = dq_jb_finish(&b, root, json, len);
	if (rc != 0) {
		return rc;
	}
	/* Never hand out a message the service would reject. */
	rc = dq_runner_heartbeat_decode(*json, *len, &check, err, err_len);
	dq_runner_heartbeat_fini(&check);
	if (rc != 0) {
		free(*json);
		*json = NULL;
		*len = 0;
	}
	return rc;
}
