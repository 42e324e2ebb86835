/*
 * The job a `drivequal-runner run` command line describes: purge?, precondition?, one workload
 * (fio's default size: the range once), or the phases of a job-command file given with --job.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_run_args.h"
#include "cmd_run_spec.h"
#include "contract/clock.h"
#include "contract/msg_job_command.h"
#include "contract/strutil.h"
#include "io/phase.h"

#define PRECONDITION_BLOCK_BYTES (128u * 1024u)
#define PRECONDITION_QUEUE_DEPTH 32u

static void default_runner_id(char *out, size_t len)
{
	char host[256];
	size_t i, n = 0;

	if (gethostname(host, sizeof(host)) != 0) {
		host[0] = '\0';
	}
	host[sizeof(host) - 1] = '\0';
	for (i = 0; host[i] != '\0' && n + 1 < len && n < DQ_ID_MAX_LEN; i++) {
		char c = host[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || (n > 0 && (c == '.' || c == '_' || c == '-'));

		out[n++] = ok ? c : '-';
	}
	out[n] = '\0';
	if (n == 0) {
		snprintf(out, len, "local");
	}
}

/* purge?, precondition?, workload: the phases of a command-line job. */
static int build_phases(struct dq_run_args *a)
{
	struct dq_phase_spec *p;
	size_t n = 0;

	if (a->purge != DQ_PURGE_METHOD_NONE) {
		p = &a->phases[n];
		*p = (struct dq_phase_spec){ .index = (uint32_t)n, .name = "purge" };
		p->kind = DQ_PHASE_KIND_PURGE;
		p->purge_method = a->purge;
		p->purge_fallback = a->purge_fallback;
		n++;
	}
	if (a->precondition_passes > 0) {
		p = &a->phases[n];
		*p = (struct dq_phase_spec){ .index = (uint32_t)n, .name = "precondition" };
		p->kind = DQ_PHASE_KIND_PRECONDITION;
		p->rw = DQ_RW_WRITE;
		p->has_block_size_bytes = true;
		p->block_size_bytes = PRECONDITION_BLOCK_BYTES;
		p->has_queue_depth = true;
		p->queue_depth = PRECONDITION_QUEUE_DEPTH;
		p->has_range_percent = true;
		p->range_percent = a->range_percent;
		p->has_passes = true;
		p->passes = a->precondition_passes;
		p->data_pattern = a->data_pattern;
		n++;
	}
	p = &a->phases[n];
	*p = (struct dq_phase_spec){ .index = (uint32_t)n };
	if (a->name != NULL) {
		dq_strlcpy(p->name, a->name, sizeof(p->name));
	} else {
		snprintf(p->name, sizeof(p->name), "%s-%uk-qd%u", dq_rw_to_str(a->rw),
			 a->block_size / 1024, a->queue_depth);
	}
	p->kind = DQ_PHASE_KIND_WORKLOAD;
	if (a->stream_count > 0) {
		if (a->name == NULL) {
			snprintf(p->name, sizeof(p->name), "streams-%zu", a->stream_count);
		}
		memcpy(p->streams, a->streams, sizeof(a->streams));
		p->stream_count = a->stream_count;
		p->data_pattern = a->data_pattern;
		p->has_smart_snapshot = a->smart;
		p->smart_snapshot = a->smart;
		p->has_runtime_s = true;
		p->runtime_s = a->runtime_s;
		n++;
		goto verify;
	}
	p->rw = a->rw;
	p->has_read_percent = a->rw == DQ_RW_RW || a->rw == DQ_RW_RANDRW;
	p->read_percent = a->has_read_percent ? a->read_percent : 50;
	p->has_block_size_bytes = true;
	p->block_size_bytes = a->block_size;
	p->has_queue_depth = true;
	p->queue_depth = a->queue_depth;
	p->has_range_percent = true;
	p->range_percent = a->range_percent;
	p->data_pattern = a->data_pattern;
	p->has_smart_snapshot = a->smart;
	p->smart_snapshot = a->smart;
	if (a->runtime_s > 0) {
		p->has_runtime_s = true;
		p->runtime_s = a->runtime_s;
	}
	if (a->size_bytes > 0) { /* with --runtime as fio: whichever limit comes first */
		p->has_size_bytes = true;
		p->size_bytes = a->size_bytes;
	} else if (a->runtime_s == 0) {
		/* fio's default: the range once (resolved against the device in resolve_size) */
		p->has_size_bytes = true;
		p->size_bytes = 0;
	}
	n++;
verify:
	if (a->verify) {
		p = &a->phases[n];
		*p = (struct dq_phase_spec){ .index = (uint32_t)n, .name = "verify" };
		p->kind = DQ_PHASE_KIND_VERIFY;
		p->has_range_percent = true;
		p->range_percent = a->range_percent;
		n++;
	}
	a->spec.phases = a->phases;
	a->spec.phase_count = n;
	return 0;
}

/* --job FILE: a start command's phases, serial, engine and target (--filename overrides it). */
static int load_job(struct dq_run_args *a)
{
	struct dq_job_command *command = calloc(1, sizeof(*command));
	char err[512], *json = NULL;
	size_t len = 0, capacity = 0, n;
	FILE *file;
	int rc = -EINVAL;

	file = fopen(a->job_path, "r");
	if (command == NULL || file == NULL) {
		fprintf(stderr, "drivequal-runner run: %s: %s\n", a->job_path, strerror(errno));
		goto out;
	}
	do {
		if (len + 4096 > capacity) {
			char *grown = realloc(json, capacity = capacity * 2 + 8192);

			if (grown == NULL) {
				goto out;
			}
			json = grown;
		}
		n = fread(json + len, 1, capacity - len, file);
		len += n;
	} while (n > 0);
	if (dq_job_command_decode(json, len, command, err, sizeof(err)) != 0) {
		fprintf(stderr, "drivequal-runner run: %s: %s\n", a->job_path, err);
		goto out;
	}
	if (command->type != DQ_JOB_COMMAND_START) {
		fprintf(stderr, "drivequal-runner run: %s: not a start command\n", a->job_path);
		goto out;
	}
	memcpy(a->phases, command->start.phases, command->start.phase_count * sizeof(a->phases[0]));
	a->spec.phases = a->phases;
	a->spec.phase_count = command->start.phase_count;
	if (a->spec.job_id[0] == '\0') {
		dq_strlcpy(a->spec.job_id, command->job_id, sizeof(a->spec.job_id));
	}
	if (a->spec.runner_id[0] == '\0') {
		dq_strlcpy(a->spec.runner_id, command->runner_id, sizeof(a->spec.runner_id));
	}
	dq_strlcpy(a->job_serial, command->start.device_serial, sizeof(a->job_serial));
	a->serial = a->job_serial;
	if (a->filename == NULL && command->start.has_transport_address) {
		dq_strlcpy(a->job_target, command->start.transport_address, sizeof(a->job_target));
		a->filename = a->job_target;
	}
	if (!a->health_poll_given && command->start.has_health_poll_interval_s) {
		a->health_poll_interval_s = command->start.health_poll_interval_s;
	}
	a->spec.has_latency_monitor = command->start.has_latency_monitor;
	a->spec.latency_monitor = command->start.latency_monitor;
	if (!a->engine_given && command->start.engine != DQ_ENGINE_NONE) {
		a->engine_name = dq_engine_to_str(command->start.engine);
	}
	if (a->filename == NULL) {
		fprintf(stderr,
			"drivequal-runner run: %s names no transportAddress: give --filename\n",
			a->job_path);
		goto out;
	}
	rc = 0;
out:
	if (file != NULL) {
		fclose(file);
	}
	free(json);
	free(command);
	return rc;
}

/* fio's default size is one pass over the range: ask the device its capacity (read-only). */
static void resolve_size(struct dq_run_args *a, const struct dq_io_engine_ops *ops)
{
	struct dq_phase_spec *workload = &a->phases[a->spec.phase_count - 1 - (a->verify ? 1 : 0)];
	struct dq_io_engine_open_args args = { .target = a->filename,
					       .options = a->engine_options,
					       .queue_depth = 1,
					       .direct = a->direct };
	struct dq_io_engine engine;
	char err[256];
	uint64_t range;

	if (!workload->has_size_bytes || workload->size_bytes != 0) {
		return;
	}
	workload->size_bytes = a->block_size; /* the job reports why the device cannot open */
	if (ops == NULL || dq_io_engine_open(&engine, ops, &args, err, sizeof(err)) != 0) {
		return;
	}
	range = dq_phase_range_bytes(workload, &engine.target.device);
	if (range >= a->block_size) {
		workload->size_bytes = range - range % a->block_size;
	}
	dq_io_engine_close(&engine);
}

int dq_run_spec_build(struct dq_run_args *a)
{
	const char *engine_before = a->engine_name;
	char err[256];

	if (a->job_path != NULL) {
		if (load_job(a) != 0) {
			return -EINVAL;
		}
		if (a->engine_name != engine_before) {
			/* The job names another engine: its options are the defaults. */
			free(a->engine_options);
			a->engine_options = NULL;
			if (dq_io_engine_find(a->engine_name, &a->ops, err, sizeof(err)) == 0 &&
			    dq_engine_options_new(a->ops, &a->engine_options) != 0) {
				return -ENOMEM;
			}
		}
	}
	if (a->spec.job_id[0] == '\0') {
		snprintf(a->spec.job_id, sizeof(a->spec.job_id), "run-%llu-%d",
			 (unsigned long long)dq_clock_wall_ms(), (int)getpid());
	}
	if (a->spec.runner_id[0] == '\0') {
		default_runner_id(a->spec.runner_id, sizeof(a->spec.runner_id));
	}
	a->spec.engine_name = a->engine_name;
	a->spec.target = a->filename;
	a->spec.engine_options = a->engine_options;
	a->spec.direct = a->direct;
	a->spec.expected_serial = a->serial;
	a->spec.seed = a->seed;
	a->spec.health_poll_interval_s = a->health_poll_interval_s;
	if (a->job_path == NULL) {
		build_phases(a);
		resolve_size(a, a->ops);
	}
	return 0;
}
