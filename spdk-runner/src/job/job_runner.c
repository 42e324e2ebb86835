/*
 * A job from start to its final event: open the engine, refuse unless every interlock passes, then
 * run each phase with phase-started / smart-snapshot / phase-completed events around it, and the
 * drive's health polled meanwhile (health_monitor.c). Events are numbered per job (seq) so the
 * service can index them idempotently; health polls may come from another thread, so events and
 * samples reach the sink under one lock.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "contract/clock.h"
#include "contract/phase_rules.h"
#include "contract/strutil.h"
#include "device/nvme_admin.h"
#include "io/phase.h"
#include "io/power_cycle.h"
#include "io/prng.h"
#include "health_monitor.h"
#include "job_internal.h"
#include "job/job_runner.h"
#include "rounds_phase.h"

/* Fill the envelope and deliver; the first sink error sticks and silences the rest. */
static int emit(struct job *job, struct dq_job_event *event)
{
	int rc;

	pthread_mutex_lock(&job->sink_lock);
	rc = job->sink_rc;
	if (rc == 0) {
		dq_strlcpy(event->job_id, job->spec->job_id, sizeof(event->job_id));
		dq_strlcpy(event->runner_id, job->spec->runner_id, sizeof(event->runner_id));
		event->seq = job->seq++;
		snprintf(event->event_id, sizeof(event->event_id), "%s:%u", job->spec->job_id,
			 event->seq);
		dq_clock_format_timestamp(dq_clock_wall_ms(), event->time);
		rc = job->sink->event(job->sink->arg, event);
		job->sink_rc = rc;
	}
	pthread_mutex_unlock(&job->sink_lock);
	return rc;
}

static int emit_health(void *arg, struct dq_job_event *event)
{
	return emit(arg, event);
}

/*
 * The phases' samples, serialized with the events (a health poll may emit meanwhile). On a
 * simulated clock each is stamped with the wall time it leaves at and the clock's measured rate.
 */
static int locked_sample(void *arg, const struct dq_sample *sample)
{
	struct job *job = arg;
	struct dq_sample stamped;
	int rc;

	pthread_mutex_lock(&job->sink_lock);
	rc = job->sink_rc;
	if (rc == 0 && job->env.virtual_clock) {
		stamped = *sample;
		stamped.has_wall_ms = true;
		stamped.wall_ms = dq_clock_wall_ms();
		stamped.has_clock_rate_milli =
			dq_clock_rate_update(&job->clock_rate, sample->phase_index, sample->t,
					     dq_clock_monotonic_ns(), &stamped.clock_rate_milli);
		sample = &stamped;
	}
	if (rc == 0) {
		rc = job->sink->sample(job->sink->arg, sample);
		job->sink_rc = rc;
	}
	pthread_mutex_unlock(&job->sink_lock);
	return rc;
}

static int sink_error(struct job *job)
{
	int rc;

	pthread_mutex_lock(&job->sink_lock);
	rc = job->sink_rc;
	pthread_mutex_unlock(&job->sink_lock);
	return rc;
}

static void set_sink_error(struct job *job, int rc)
{
	pthread_mutex_lock(&job->sink_lock);
	if (job->sink_rc == 0) {
		job->sink_rc = rc;
	}
	pthread_mutex_unlock(&job->sink_lock);
}

int job_refuse(struct job *job, enum dq_refuse_reason reason, const char *fmt, ...)
{
	struct dq_job_event event = { .type = DQ_JOB_EVENT_REFUSED };
	va_list args;

	event.refused.reason = reason;
	va_start(args, fmt);
	vsnprintf(event.refused.message, sizeof(event.refused.message), fmt, args);
	va_end(args);
	if (job->engine.ops != NULL && job->engine.target.device.serial[0] != '\0') {
		event.refused.has_device_serial = true;
		dq_strlcpy(event.refused.device_serial, job->engine.target.device.serial,
			   sizeof(event.refused.device_serial));
	}
	job->outcome->type = DQ_JOB_EVENT_REFUSED;
	job->outcome->refuse_reason = reason;
	dq_strlcpy(job->outcome->message, event.refused.message, sizeof(job->outcome->message));
	return emit(job, &event);
}

static int smart_event(struct job *job, uint32_t phase_index, enum dq_smart_when when)
{
	struct dq_job_event event = { .type = DQ_JOB_EVENT_SMART_SNAPSHOT };
	struct dq_smart_snapshot *smart = &event.smart_snapshot.smart;
	int rc = -EOPNOTSUPP;

	event.smart_snapshot.phase_index = phase_index;
	event.smart_snapshot.when = when;
	if (job->engine.ops->smart != NULL) {
		rc = job->engine.ops->smart(job->engine.data, smart);
	}
	if (rc != 0) {
		/* Never invent counters: say why there are none. */
		memset(smart, 0, sizeof(*smart));
		smart->source = DQ_SMART_SOURCE_UNAVAILABLE;
		smart->has_reason = true;
		dq_strlcpy(smart->reason,
			   rc == -EOPNOTSUPP ? "this engine reads no SMART data" : strerror(-rc),
			   sizeof(smart->reason));
	}
	return emit(job, &event);
}

static void totals_from(struct dq_direction_totals *totals, const struct dq_direction_stats *dir,
			bool io_phase)
{
	totals->ios = dir->ios;
	totals->bytes = dir->bytes;
	totals->has_errors = io_phase;
	totals->errors = dir->errors;
	totals->has_latency_histogram = false;
	totals->has_mean_latency_ns = io_phase && dir->ios > 0;
	totals->mean_latency_ns = dq_histogram_mean_ns(&dir->histogram);
	if (dir->ios > 0 && dq_histogram_export(&dir->histogram, &totals->latency_histogram) == 0) {
		totals->has_latency_histogram = true;
	}
}

/* A multi-stream phase's streams: each direction the stream issues, with response time for an
 * open loop. */
static void streams_from(struct dq_job_event_phase_completed *done,
			 const struct dq_phase_stats *stats)
{
	size_t i;
	int d;

	done->has_trim = stats->has_trim;
	if (stats->has_trim) {
		totals_from(&done->trim, &stats->trim, true);
	}
	done->stream_count = stats->stream_count;
	for (i = 0; i < stats->stream_count; i++) {
		const struct dq_stream_phase_stats *ss = &stats->streams[i];
		struct dq_stream_totals *t = &done->streams[i];

		t->index = (uint32_t)i;
		dq_strlcpy(t->name, ss->name, sizeof(t->name));
		t->has_offered_ios = ss->open_loop;
		t->offered_ios = ss->offered_ios;
		t->has_max_backlog = ss->open_loop;
		t->max_backlog = ss->max_backlog;
		for (d = 0; d < 3; d++) {
			t->has_direction[d] = ss->issues[d];
			if (!ss->issues[d]) {
				continue;
			}
			totals_from(&t->direction[d], &ss->dir[d], true);
			t->direction[d].has_response_time = ss->open_loop && ss->dir[d].ios > 0;
			if (t->direction[d].has_response_time) {
				t->direction[d].response_mean_latency_ns =
					dq_histogram_mean_ns(&ss->response[d]);
				if (dq_histogram_export(&ss->response[d],
							&t->direction[d].response_histogram) != 0) {
					t->direction[d].has_response_time = false;
				}
			}
		}
	}
}

static void streams_export_fini(struct dq_job_event_phase_completed *done)
{
	size_t i;
	int d;

	dq_histogram_export_fini(&done->trim.latency_histogram);
	for (i = 0; i < done->stream_count; i++) {
		for (d = 0; d < 3; d++) {
			dq_histogram_export_fini(&done->streams[i].direction[d].latency_histogram);
			dq_histogram_export_fini(&done->streams[i].direction[d].response_histogram);
		}
	}
}

static int phase_completed_event(struct job *job, const struct dq_phase_spec *spec,
				 const struct dq_phase_stats *stats, bool io_phase)
{
	/* ~37 KiB with the rounds and their window latency: on the heap, not the stack */
	struct dq_job_event *event = calloc(1, sizeof(*event));
	struct dq_job_event_phase_completed *done;
	int rc;

	if (event == NULL) {
		return -ENOMEM;
	}
	event->type = DQ_JOB_EVENT_PHASE_COMPLETED;
	done = &event->phase_completed;
	done->phase_index = spec->index;
	dq_strlcpy(done->phase_name, spec->name, sizeof(done->phase_name));
	done->kind = spec->kind;
	done->duration_ns = stats->duration_ns;
	done->samples = stats->samples;
	totals_from(&done->read, &stats->read, io_phase);
	totals_from(&done->write, &stats->write, io_phase);
	done->has_deallocated_bytes = stats->has_deallocated_bytes;
	done->deallocated_bytes = stats->deallocated_bytes;
	done->has_effective_queue_depth_milli = io_phase && stats->has_effective_queue_depth;
	done->effective_queue_depth_milli = stats->effective_queue_depth_milli;
	done->has_purge_verification = stats->has_purge_verification;
	done->purge_verification = stats->purge_verification;
	done->has_verify = stats->has_verify;
	done->verify = stats->verify;
	done->has_power_cycle = stats->has_power_cycle;
	done->power_cycle = stats->power_cycle;
	done->has_rounds = spec->has_rounds;
	if (spec->has_rounds) {
		done->rounds = job->rounds;
	} else if (spec->kind == DQ_PHASE_KIND_WORKLOAD) {
		done->limit_reached = stats->limit_reached;
	}
	streams_from(done, stats);
	rc = emit(job, event);
	dq_histogram_export_fini(&done->read.latency_histogram);
	dq_histogram_export_fini(&done->write.latency_histogram);
	streams_export_fini(done);
	free(event);
	return rc;
}

/* A phase the runner does not run: phase-completed with skipped, no IO and no phase-started. */
static int phase_skipped_event(struct job *job, const struct dq_phase_spec *spec,
			       const struct dq_phase_skipped *skipped)
{
	struct dq_job_event *event = calloc(1, sizeof(*event));
	int rc;

	if (event == NULL) {
		return -ENOMEM;
	}
	event->type = DQ_JOB_EVENT_PHASE_COMPLETED;
	event->phase_completed.phase_index = spec->index;
	dq_strlcpy(event->phase_completed.phase_name, spec->name,
		   sizeof(event->phase_completed.phase_name));
	event->phase_completed.kind = spec->kind;
	event->phase_completed.skipped = *skipped;
	rc = emit(job, event);
	free(event);
	return rc;
}

/* The closed-loop parameters of a workload or precondition phase. */
static void io_params_from(const struct job *job, const struct dq_phase_spec *spec,
			   struct dq_io_phase_params *params)
{
	const struct dq_device *device = &job->engine.target.device;
	uint64_t range = dq_phase_range_bytes(spec, device);

	memset(params, 0, sizeof(*params));
	params->phase_index = spec->index;
	params->phase_name = spec->name;
	params->block_size = spec->block_size_bytes;
	params->queue_depth = spec->queue_depth;
	params->data_pattern = spec->data_pattern;
	if (spec->kind == DQ_PHASE_KIND_PRECONDITION) {
		params->read_percent = 0;
		params->sequential = true;
		params->range_bytes = range; /* each pass ends with a shorter IO if it must */
		params->total_bytes = range * spec->passes;
		return;
	}
	params->range_bytes = range - range % spec->block_size_bytes;
	switch (spec->rw) {
	case DQ_RW_READ:
	case DQ_RW_RANDREAD:
		params->read_percent = 100;
		break;
	case DQ_RW_RW:
	case DQ_RW_RANDRW:
		params->read_percent = spec->read_percent;
		break;
	default:
		params->read_percent = 0;
		break;
	}
	params->sequential = spec->rw == DQ_RW_READ || spec->rw == DQ_RW_WRITE ||
			     spec->rw == DQ_RW_RW;
	/* one limit or both: the phase ends at the first it reaches */
	if (spec->has_runtime_s) {
		params->runtime_ns = (uint64_t)spec->runtime_s * DQ_NS_PER_S;
	}
	if (spec->index == job->spec->first_phase && job->spec->first_phase_from_s > 0) {
		/* resumed at a round boundary: the rest of its time, its seconds numbered on */
		params->t_offset_s = job->spec->first_phase_from_s;
		params->runtime_ns -= (uint64_t)params->t_offset_s * DQ_NS_PER_S;
	}
	if (spec->has_size_bytes) {
		params->total_bytes = spec->size_bytes - spec->size_bytes % spec->block_size_bytes;
	}
}

/*
 * The eligibility input of later rounds, as the service's analysis counts it: a purge, fill or
 * deallocation resets it; a workload writing at random adds its writes (a phase with rounds the
 * writes of its random steps only). The history is always "reset" for the runner: a job either
 * purges, fills or deallocates before its rounds, or is taken as starting fresh (the rule's
 * "unknown" history is for imported logs, which the runner never produces).
 */
static void count_random_writes(struct job *job, const struct dq_phase_spec *spec,
				const struct dq_phase_stats *stats)
{
	uint32_t read_percent = spec->has_read_percent ? spec->read_percent : 0;
	uint64_t random;

	if (spec->kind == DQ_PHASE_KIND_PURGE || spec->kind == DQ_PHASE_KIND_PRECONDITION ||
	    spec->kind == DQ_PHASE_KIND_DEALLOCATE) {
		job->random_write_bytes_since_reset = 0;
		return;
	}
	if (spec->kind != DQ_PHASE_KIND_WORKLOAD) {
		return;
	}
	random = spec->has_rounds			       ? job->rounds_random_write_bytes :
		 dq_rw_is_random_write(spec->rw, read_percent) ? stats->write.bytes :
								 0;
	job->random_write_bytes_since_reset += random;
}

static int run_phase(struct job *job, const struct dq_phase_spec *spec,
		     struct dq_phase_stats *stats)
{
	struct dq_job_event event = { .type = DQ_JOB_EVENT_PHASE_STARTED };
	struct dq_io_phase_params params;
	bool snapshots = spec->has_smart_snapshot && spec->smart_snapshot;
	struct dq_rounds_history history;
	int rc;

	dq_phase_stats_release(stats);
	dq_phase_stats_init(stats);
	event.phase_started.phase_index = spec->index;
	dq_strlcpy(event.phase_started.phase_name, spec->name,
		   sizeof(event.phase_started.phase_name));
	event.phase_started.kind = spec->kind;
	event.phase_started.clock = job->env.virtual_clock ? DQ_CLOCK_SIMULATED : DQ_CLOCK_REAL;
	event.phase_started.start_time_ms =
		dq_phase_env_epoch_ms(&job->env, dq_phase_env_now(&job->env));
	if (emit(job, &event) != 0 ||
	    (snapshots && smart_event(job, spec->index, DQ_SMART_WHEN_BEFORE) != 0)) {
		return sink_error(job);
	}
	/* Format and Sanitize own the controller while they run: no polls meanwhile. */
	dq_health_monitor_phase(job->health, spec->index, dq_phase_env_now(&job->env),
				spec->kind != DQ_PHASE_KIND_PURGE);
	switch (spec->kind) {
	case DQ_PHASE_KIND_WORKLOAD:
		if (spec->stream_count > 0) {
			rc = dq_stream_phase_run(&job->env, spec, stats);
			break;
		}
		if (spec->has_rounds) {
			history = (struct dq_rounds_history){
				.history = DQ_SS_HISTORY_RESET,
				.random_write_bytes_since_reset =
					job->random_write_bytes_since_reset,
			};
			rc = dq_rounds_phase_run(&job->env, spec, &job->engine.target.device,
						 &history, stats, &job->rounds,
						 &job->rounds_random_write_bytes);
			break;
		}
		/* fall through */
	case DQ_PHASE_KIND_PRECONDITION:
		io_params_from(job, spec, &params);
		rc = dq_io_phase_run(&job->env, &params, stats);
		break;
	case DQ_PHASE_KIND_PURGE:
		rc = dq_purge_phase_run(&job->env, spec, stats);
		break;
	case DQ_PHASE_KIND_DEALLOCATE:
		rc = dq_deallocate_phase_run(&job->env, spec, stats);
		break;
	case DQ_PHASE_KIND_IDLE:
		rc = dq_idle_phase_run(&job->env, spec, stats);
		break;
	case DQ_PHASE_KIND_SMART:
		rc = smart_event(job, spec->index, DQ_SMART_WHEN_AFTER);
		break;
	case DQ_PHASE_KIND_VERIFY:
		rc = dq_verify_phase_run(&job->env, spec, stats);
		break;
	case DQ_PHASE_KIND_POWER_CYCLE:
		rc = dq_power_cycle_phase_run(&job->env, spec, stats);
		break;
	default:
		rc = -EINVAL;
		break;
	}
	if (rc != 0) {
		set_sink_error(job, rc);
		return rc;
	}
	if (stats->cancelled || stats->fail_reason != DQ_FAIL_NONE) {
		return 0; /* the job's final event says what happened */
	}
	count_random_writes(job, spec, stats);
	dq_sweep_stops_note(&job->sweep_stops, spec, stats);
	rc = phase_completed_event(job, spec, stats,
				   spec->kind == DQ_PHASE_KIND_WORKLOAD ||
					   spec->kind == DQ_PHASE_KIND_PRECONDITION);
	if (rc == 0 && snapshots) {
		rc = smart_event(job, spec->index, DQ_SMART_WHEN_AFTER);
	}
	return rc;
}

/* The job's final event after its phases: completed, cancelled or failed. */
static int finish(struct job *job, const struct dq_phase_spec *last,
		  const struct dq_phase_stats *stats, uint64_t start_ns)
{
	struct dq_job_event event = { 0 };
	struct dq_job_outcome *outcome = job->outcome;

	if (stats->cancelled) {
		event.type = DQ_JOB_EVENT_CANCELLED;
		event.cancelled.has_phase_index = true;
		event.cancelled.phase_index = last->index;
		event.cancelled.has_message = true;
		snprintf(event.cancelled.message, sizeof(event.cancelled.message),
			 "cancelled during phase %s%s%.200s", last->name,
			 job->spec->cancel_reason != NULL && job->spec->cancel_reason[0] != '\0' ?
				 ": " :
				 "",
			 job->spec->cancel_reason != NULL ? job->spec->cancel_reason : "");
		dq_strlcpy(outcome->message, event.cancelled.message, sizeof(outcome->message));
	} else if (stats->fail_reason != DQ_FAIL_NONE) {
		event.type = DQ_JOB_EVENT_FAILED;
		event.failed.has_phase_index = true;
		event.failed.phase_index = last->index;
		event.failed.reason = stats->fail_reason;
		snprintf(event.failed.message, sizeof(event.failed.message), "phase %s: %.3900s",
			 last->name, stats->message);
		outcome->fail_reason = stats->fail_reason;
		dq_strlcpy(outcome->message, event.failed.message, sizeof(outcome->message));
	} else {
		event.type = DQ_JOB_EVENT_COMPLETED;
		event.completed.duration_ns = dq_phase_env_now(&job->env) - start_ns;
	}
	outcome->type = event.type;
	return emit(job, &event);
}

/* Health polls for the job's length, when asked for and the engine reads health at all. */
static int start_health(struct job *job)
{
	int rc;

	if (job->spec->health_poll_interval_s == 0 ||
	    !dq_io_engine_has(&job->engine, DQ_ENGINE_HAS_SMART) ||
	    job->engine.ops->smart == NULL) {
		return 0;
	}
	rc = dq_health_monitor_start(&job->env, job->spec->health_poll_interval_s, emit_health, job,
				     &job->health);
	if (rc != 0) {
		return rc;
	}
	/* In simulated time the job's thread polls between seconds; a real-clock engine whose
	 * smart() cannot run beside its IO is read only between phases, never inside the IO loop. */
	if (dq_health_monitor_on_job_thread(job->health) && job->env.virtual_clock) {
		job->env.second_tick = dq_health_monitor_tick;
		job->env.second_tick_arg = job->health;
	}
	return 0;
}

int dq_job_run(const struct dq_job_spec *spec, const struct dq_allowlist *allowlist,
	       const struct dq_sink *sink, atomic_int *cancel, struct dq_job_outcome *outcome)
{
	struct job job = { .spec = spec, .sink = sink, .outcome = outcome };
	struct dq_job_event accepted = { .type = DQ_JOB_EVENT_ACCEPTED };
	struct dq_phase_stats *stats = NULL;
	uint64_t start_ns;
	size_t i;
	int rc;

	memset(outcome, 0, sizeof(*outcome));
	job.seq = spec->first_seq;
	pthread_mutex_init(&job.sink_lock, NULL);
	job.locked_sink = (struct dq_sink){ .sample = locked_sample, .event = NULL, .arg = &job };
	rc = job_admit(&job, allowlist);
	if (rc <= 0) {
		goto out_close;
	}
	job.env = (struct dq_phase_env){
		.engine = &job.engine,
		.sink = &job.locked_sink,
		.cancel = cancel,
		.job_id = spec->job_id,
		.runner_id = spec->runner_id,
		.serial = job.engine.target.device.serial,
		.power_site = &job.power_site,
		.seed = spec->seed != 0 ? spec->seed : dq_random_seed(),
		.virtual_clock = dq_io_engine_has(&job.engine, DQ_ENGINE_VIRTUAL_CLOCK),
		.ledger = &job.ledger,
	};
	job.env.wall_origin_ms = dq_clock_wall_ms();
	job.env.clock_origin_ns = dq_phase_env_now(&job.env);
	stats = malloc(sizeof(*stats));
	if (stats == NULL) {
		rc = -ENOMEM;
		goto out_close;
	}
	dq_phase_stats_init(stats);
	accepted.accepted.device = job.engine.target.device;
	accepted.accepted.phase_count = (uint32_t)spec->phase_count;
	rc = emit(&job, &accepted);
	if (rc != 0) {
		goto out_free;
	}
	rc = start_health(&job);
	if (rc != 0) {
		stats->fail_reason = DQ_FAIL_INTERNAL;
		snprintf(stats->message, sizeof(stats->message), "starting the health monitor: %s",
			 strerror(-rc));
	}
	start_ns = dq_phase_env_now(&job.env);
	for (i = spec->first_phase; i < spec->phase_count && stats->fail_reason == DQ_FAIL_NONE;
	     i++) {
		struct dq_phase_skipped skipped = { 0 };

		if (atomic_load(cancel) != 0) {
			stats->cancelled = true;
		} else if (dq_sweep_stops_skip(&job.sweep_stops, &spec->phases[i], &skipped)) {
			rc = phase_skipped_event(&job, &spec->phases[i], &skipped);
			if (rc != 0) {
				goto out_free;
			}
		} else {
			rc = run_phase(&job, &spec->phases[i], stats);
			if (rc != 0) {
				goto out_free;
			}
		}
		if (stats->cancelled || stats->fail_reason != DQ_FAIL_NONE) {
			break;
		}
	}
	/* the last reading, then the final event: no health event follows it */
	dq_health_monitor_stop(job.health, true);
	job.health = NULL;
	rc = finish(&job, &spec->phases[i < spec->phase_count ? i : spec->phase_count - 1], stats,
		    start_ns);
out_free:
	dq_health_monitor_stop(job.health, false);
	if (stats != NULL) {
		dq_phase_stats_release(stats);
	}
	free(stats);
out_close:
	dq_block_ledger_fini(&job.ledger);
	dq_io_engine_close(&job.engine);
	pthread_mutex_destroy(&job.sink_lock);
	return rc < 0 ? rc : 0;
}
