/*
 * The closed-loop IO core (as spdk_nvme_perf): a fixed queue depth where each completion submits
 * the next IO, one sample per second in which an IO counts in the second it completed in (t is
 * the end of the interval, t=1 covers [0 s, 1 s)), and fio's `lat` for every IO: from its own
 * submission (the clock read right before the call that submits it, its buffer long ready) to
 * its own completion (the clock read right after the call that reaped it). Independently of the
 * latencies, the IOs outstanding are integrated over time: the effective queue depth, which by
 * Little's law must equal mean latency x IOPS. A timed phase stops issuing at its end and counts
 * the IOs it drains then in its last second, so its totals are every IO the device was sent. A
 * phase with both a time and a size ends at whichever it reaches first, and says which.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "contract/clock.h"
#include "contract/strutil.h"
#include "interval_phase.h"
#include "worker.h"

/* A device that completes nothing for this long fails the phase (its IOs cannot be drained). */
#define STALL_LIMIT_NS (120ULL * DQ_NS_PER_S)

static int worker_fail(struct io_worker *w, enum dq_fail_reason reason, const char *what, int err)
{
	if (w->stats->fail_reason == DQ_FAIL_NONE) {
		w->stats->fail_reason = reason;
		snprintf(w->stats->message, sizeof(w->stats->message), "%s: %s", what,
			 strerror(err < 0 ? -err : err));
	}
	w->stopping = true;
	return 0;
}

uint64_t dq_io_queue_depth_milli(uint64_t outstanding_io_ns, uint64_t interval_ns)
{
	__extension__ unsigned __int128 milli;

	if (interval_ns == 0) {
		return 0;
	}
	milli = (unsigned __int128)outstanding_io_ns * 1000u / interval_ns;
	return milli > DQ_EFFECTIVE_QUEUE_DEPTH_MILLI_MAX ? DQ_EFFECTIVE_QUEUE_DEPTH_MILLI_MAX :
							    (uint64_t)milli;
}

/* Add the IOs outstanding since the last change up to t (through a timed phase's drain too: the
 * drained IOs' latencies count, so their time outstanding must). */
static void integrate(struct io_worker *w, uint64_t t)
{
	if (t > w->integrated_ns) {
		w->second->outstanding_io_ns += (uint64_t)w->outstanding * (t - w->integrated_ns);
		w->integrated_ns = t;
	}
}

/*
 * Emit the open second's sample, interval_end_ns its end (the boundary, or the phase's end for a
 * last partial second), unless the sink failed before; then open the next one.
 */
static void close_second(struct io_worker *w, uint64_t interval_end_ns)
{
	const struct dq_phase_env *env = w->env;
	struct second *sec = w->second;
	struct dq_sample sample;
	struct dq_direction_stats *dir[2] = { &w->stats->read, &w->stats->write };
	struct dq_sample_direction *out[2] = { &sample.read, &sample.write };
	uint64_t sample_end_ns;
	int op, rc;

	integrate(w, interval_end_ns);
	memset(&sample, 0, sizeof(sample));
	dq_strlcpy(sample.job_id, env->job_id, sizeof(sample.job_id));
	dq_strlcpy(sample.runner_id, env->runner_id, sizeof(sample.runner_id));
	dq_strlcpy(sample.device_serial, env->serial, sizeof(sample.device_serial));
	sample.phase_index = w->params->phase_index;
	dq_strlcpy(sample.phase_name, w->params->phase_name, sizeof(sample.phase_name));
	sample.t = w->t + w->params->t_offset_s;
	sample_end_ns = w->next_boundary_ns;
	sample.time_ms = dq_phase_env_epoch_ms(env, sample_end_ns);
	sample.has_effective_queue_depth_milli = true;
	sample.effective_queue_depth_milli = dq_io_queue_depth_milli(
		sec->outstanding_io_ns, interval_end_ns - (w->next_boundary_ns - DQ_NS_PER_S));
	w->stats->outstanding_io_ns += sec->outstanding_io_ns;
	sec->outstanding_io_ns = 0;
	for (op = 0; op < 2; op++) {
		out[op]->ios = sec->ios[op];
		out[op]->bytes = sec->bytes[op];
		if (sec->ios[op] > 0) {
			dq_histogram_sample_percentiles(&sec->histogram[op], &out[op]->latency_ns);
			dq_histogram_merge(&dir[op]->histogram, &sec->histogram[op]);
			dq_histogram_reset(&sec->histogram[op]);
		}
		dir[op]->ios += sec->ios[op];
		dir[op]->bytes += sec->bytes[op];
		sec->ios[op] = 0;
		sec->bytes[op] = 0;
	}
	w->t++;
	w->next_boundary_ns += DQ_NS_PER_S;
	if (w->sink_rc != 0) {
		return;
	}
	w->stats->samples++;
	rc = env->sink->sample(env->sink->arg, &sample);
	if (rc != 0) {
		w->sink_rc = rc;
		w->stopping = true;
	}
	if (env->second_tick != NULL) {
		env->second_tick(env->second_tick_arg, sample_end_ns);
	}
}

/* Close every second that ended at or before now_ns (a timed phase's last second stays open for
 * the IOs drained after it: dq_io_phase_run closes it), then integrate up to now_ns: what any
 * change of the outstanding count must come after. */
static void advance_to(struct io_worker *w, uint64_t now_ns)
{
	while (now_ns >= w->next_boundary_ns &&
	       (w->end_ns == 0 || w->next_boundary_ns < w->end_ns)) {
		close_second(w, w->next_boundary_ns);
	}
	integrate(w, now_ns);
}

/* Put the next prepared IO into the free slot tag and stage it; false when there is none. */
static bool issue(struct io_worker *w, uint32_t tag)
{
	struct io_slot *slot = &w->slots[tag];
	struct prepared_io next;
	struct dq_io io;
	int rc;

	if (w->stopping || !worker_take_prepared(w, &next)) {
		return false;
	}
	io = (struct dq_io){ .offset = next.offset,
			     .length = next.length,
			     .tag = tag,
			     .buf = worker_buffer(w, next.buffer),
			     .buf_index = (uint16_t)next.buffer,
			     .op = next.op };
	rc = w->engine->ops->queue(w->engine->data, &io);
	if (rc != 0) {
		worker_release_buffer(w, next.buffer);
		worker_fail(w, DQ_FAIL_ENGINE_ERROR, "queueing an IO", rc);
		return false;
	}
	if (next.op == DQ_IO_WRITE) {
		/* The medium now holds this write's headers (or, with zeros, none of the job's). */
		if (w->fill_data) {
			dq_block_ledger_record(w->ledger, next.offset, next.length, next.ambiguous);
		} else {
			dq_block_ledger_forget(w->ledger, next.offset, next.length);
		}
	}
	*slot = (struct io_slot){ .offset = next.offset,
				  .length = next.length,
				  .buffer = next.buffer,
				  .op = next.op,
				  .in_flight = true };
	w->inflight++;
	if (w->own_latency) {
		/* An engine that times its own IOs submits in queue(): it is outstanding from here,
		 * not from the batch's commit, so the outstanding-IO integral spans what its latency
		 * spans (Little's law holds between the two). */
		uint64_t now = dq_phase_env_now(w->env);

		advance_to(w, now);
		slot->submit_ns = now;
		w->outstanding++;
		return true;
	}
	w->batch[w->batch_count++] = tag;
	return true;
}

/* Stamp what was staged since the last commit, right before the call that submits it. */
static void commit(struct io_worker *w)
{
	uint64_t now;
	uint32_t i;
	int rc;

	if (w->batch_count == 0) {
		return;
	}
	now = dq_phase_env_now(w->env);
	advance_to(w, now);
	for (i = 0; i < w->batch_count; i++) {
		w->slots[w->batch[i]].submit_ns = now;
	}
	w->outstanding += w->batch_count;
	w->batch_count = 0;
	if (!w->submit_early) {
		return; /* getevents() submits and reaps in one call */
	}
	rc = w->engine->ops->commit(w->engine->data);
	if (rc != 0) {
		w->broken = true;
		worker_fail(w, DQ_FAIL_ENGINE_ERROR, "submitting IOs", rc);
	}
}

/* Submit what was staged and prepare the IOs to come without timing the preparation: after the
 * commit when it submits (the next buffers fill while these IOs fly), before it when getevents()
 * is the submitting call (the stamp is then the last thing before it). */
static void commit_and_prepare(struct io_worker *w)
{
	if (!w->submit_early) {
		worker_prepare(w);
	}
	commit(w);
	if (w->submit_early) {
		worker_prepare(w);
	}
}

static void complete(struct io_worker *w, const struct dq_io_completion *event, uint64_t done_ns)
{
	struct io_slot *slot = &w->slots[event->tag];
	struct second *sec = w->second;

	advance_to(w, done_ns);
	w->inflight--;
	w->outstanding -= w->outstanding > 0;
	slot->in_flight = false;
	worker_release_buffer(w, slot->buffer);
	if (done_ns > w->progress_ns) {
		w->progress_ns = done_ns;
	}
	if (event->result < 0) {
		char what[96];

		(slot->op == DQ_IO_READ ? &w->stats->read : &w->stats->write)->errors++;
		snprintf(what, sizeof(what), "a %u-byte %s at offset %llu failed", slot->length,
			 slot->op == DQ_IO_READ ? "read" : "write",
			 (unsigned long long)slot->offset);
		worker_fail(w, DQ_FAIL_IO_ERROR, what, event->result);
		return;
	}
	/* An IO completing after a timed phase's end (drained) counts in its last second, still open:
	 * the totals are what the device was sent, as its own counters (SMART) see them. */
	sec->ios[slot->op]++;
	sec->bytes[slot->op] += slot->length;
	dq_histogram_record(&sec->histogram[slot->op], w->own_latency ? event->latency_ns :
						       done_ns > slot->submit_ns ?
									done_ns - slot->submit_ns :
									0);
	if (done_ns > w->last_ns) {
		w->last_ns = done_ns;
	}
}

static void run_loop(struct io_worker *w)
{
	const bool virtual_clock = w->env->virtual_clock;
	uint32_t qd = w->queue_depth, i;
	uint64_t now;
	int n;

	worker_prepare(w);
	for (i = 0; i < qd && issue(w, i); i++) {
	}
	commit_and_prepare(w);
	while (w->inflight > 0 && !w->broken) {
		n = w->engine->ops->getevents(w->engine->data, w->events, qd, DQ_TICK_NS);
		now = dq_phase_env_now(w->env); /* the completion stamp of what was reaped */
		if (n < 0) {
			if (n == -EINTR) {
				continue;
			}
			w->broken = true;
			worker_fail(w, DQ_FAIL_ENGINE_ERROR, "reaping completions", n);
			return;
		}
		if (w->end_ns != 0 && now >= w->end_ns && !w->stopping) {
			/* the time is up before the size (if any) was all transferred */
			w->stopping = true;
			w->time_up = true;
		}
		if (atomic_load_explicit(w->env->cancel, memory_order_relaxed) != 0 &&
		    !w->stopping) {
			w->stopping = true;
			w->stats->cancelled = true;
		}
		for (i = 0; i < (uint32_t)n; i++) {
			complete(w, &w->events[i], virtual_clock ? w->events[i].done_ns : now);
		}
		for (i = 0; i < (uint32_t)n; i++) {
			issue(w, w->events[i].tag);
		}
		/* A stalled device still gets its (empty) samples on time, and fails in the end. */
		advance_to(w, now);
		if (!virtual_clock && n == 0 && now - w->progress_ns > STALL_LIMIT_NS) {
			w->broken = true;
			worker_fail(w, DQ_FAIL_IO_ERROR, "no IO completed for 120 s", ETIMEDOUT);
			return;
		}
		commit_and_prepare(w);
	}
}

static void worker_fini(struct io_worker *w)
{
	worker_prep_fini(w);
	free(w->second);
	free(w->batch);
	free(w->events);
	free(w->slots);
}

static int register_buffers(struct io_worker *w)
{
	struct iovec *iov = calloc(w->buffer_count, sizeof(*iov));
	uint32_t i;
	int rc;

	if (iov == NULL) {
		return -ENOMEM;
	}
	for (i = 0; i < w->buffer_count; i++) {
		iov[i].iov_base = worker_buffer(w, i);
		iov[i].iov_len = w->buffer_stride;
	}
	rc = w->engine->ops->register_buffers(w->engine->data, iov, w->buffer_count);
	free(iov);
	if (rc != 0) {
		snprintf(w->stats->message, sizeof(w->stats->message), "registering IO buffers: %s",
			 strerror(-rc));
		w->stats->fail_reason = DQ_FAIL_ENGINE_ERROR;
	}
	return rc;
}

static int worker_init(struct io_worker *w, const struct dq_phase_env *env,
		       const struct dq_io_phase_params *params, struct dq_phase_stats *stats)
{
	uint32_t qd = params->queue_depth;
	int rc = -ENOMEM;

	memset(w, 0, sizeof(*w));
	w->env = env;
	w->params = params;
	w->stats = stats;
	w->engine = env->engine;
	w->ledger = env->ledger;
	w->queue_depth = qd;
	w->fill_data = params->data_pattern != DQ_DATA_PATTERN_ZEROS &&
		       env->engine->target.keeps_data;
	w->track = w->fill_data && dq_block_ledger_tracks(env->ledger);
	/* Submit in its own call, then reap: when there are write buffers to fill meanwhile, and
	 * whenever other IOs are in flight. At QD32 randread on a loop device, submitting and
	 * waiting in one io_uring_enter gave 0.93x the IOPS of two calls (docs/benchmarks.md); at
	 * QD1 one call saves a system call per IO and nothing waits behind it. */
	w->submit_early = (w->fill_data && params->read_percent < 100) || qd > 1;
	w->own_latency = dq_io_engine_has(env->engine, DQ_ENGINE_OWN_LATENCY);
	w->range_blocks = params->range_bytes / params->block_size;
	w->slots = calloc(qd, sizeof(*w->slots));
	w->events = calloc(qd, sizeof(*w->events));
	w->batch = calloc(qd, sizeof(*w->batch));
	w->second = calloc(1, sizeof(*w->second));
	if (w->slots == NULL || w->events == NULL || w->batch == NULL || w->second == NULL) {
		goto fail;
	}
	dq_histogram_init(&w->second->histogram[0]);
	dq_histogram_init(&w->second->histogram[1]);
	dq_rng_seed(&w->rng, env->seed ^ ((uint64_t)params->phase_index << 56));
	rc = worker_prep_init(w);
	if (rc != 0) {
		goto fail;
	}
	if (w->engine->ops->register_buffers != NULL) {
		rc = register_buffers(w);
		if (rc != 0) {
			goto fail;
		}
	}
	return 0;
fail:
	worker_fini(w);
	return rc;
}

int dq_io_phase_run(const struct dq_phase_env *env, const struct dq_io_phase_params *params,
		    struct dq_phase_stats *stats)
{
	struct io_worker w;
	uint64_t end;
	int rc;

	if (env->engine->ops->models_intervals != NULL &&
	    env->engine->ops->models_intervals(env->engine->data)) {
		return dq_interval_phase_run(env, params, stats);
	}
	rc = worker_init(&w, env, params, stats);
	if (rc != 0) {
		if (stats->fail_reason == DQ_FAIL_NONE) {
			stats->fail_reason = DQ_FAIL_INTERNAL;
			snprintf(stats->message, sizeof(stats->message),
				 "setting up the IO phase: %s", strerror(-rc));
		}
		return 0;
	}
	w.start_ns = dq_phase_env_now(env);
	stats->start_ns = w.start_ns;
	w.last_ns = w.start_ns;
	w.progress_ns = w.start_ns;
	w.integrated_ns = w.start_ns;
	w.end_ns = params->runtime_ns > 0 ? w.start_ns + params->runtime_ns : 0;
	w.next_boundary_ns = w.start_ns + DQ_NS_PER_S;
	w.t = 1;
	run_loop(&w);
	if (w.time_up && !stats->cancelled && stats->fail_reason == DQ_FAIL_NONE) {
		/* A timed phase has exactly runtimeS samples, idle seconds at the end included; it
		 * lasts until its last drained IO completed, and its last second holds those IOs. */
		end = w.last_ns > w.end_ns ? w.last_ns : w.end_ns;
		advance_to(&w, end);
		close_second(&w, end);
		stats->limit_reached = DQ_PHASE_LIMIT_RUNTIME;
	} else {
		end = stats->cancelled || stats->fail_reason != DQ_FAIL_NONE || w.sink_rc != 0 ?
			      dq_phase_env_now(env) :
			      w.last_ns;
		/* Sized (every byte transferred before any time limit), cancelled or failed: the
		 * last, partial second counts when IOs completed in it, so the samples always add
		 * up to the phase's totals. */
		if (!stats->cancelled && stats->fail_reason == DQ_FAIL_NONE && w.sink_rc == 0 &&
		    params->total_bytes > 0 && w.planned_bytes >= params->total_bytes) {
			stats->limit_reached = DQ_PHASE_LIMIT_SIZE;
		}
		advance_to(&w, end);
		if (w.second->ios[0] + w.second->ios[1] > 0) {
			close_second(&w, end);
		} else {
			stats->outstanding_io_ns += w.second->outstanding_io_ns;
		}
	}
	stats->duration_ns = end - w.start_ns;
	stats->has_effective_queue_depth = true;
	stats->effective_queue_depth_milli =
		dq_io_queue_depth_milli(stats->outstanding_io_ns, stats->duration_ns);
	rc = w.sink_rc;
	worker_fini(&w);
	return rc;
}
