/*
 * The closed-loop IO core (as spdk_nvme_perf): a fixed queue depth where each completion submits
 * the next IO, per-IO latency on the phase clock, and one sample per second in which an IO counts
 * in the second it completed in (t is the end of the interval, t=1 covers [0 s, 1 s)).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "contract/clock.h"
#include "contract/strutil.h"
#include "interval_phase.h"
#include "io/phase.h"
#include "io/prng.h"

/* Random offsets drawn this many IOs early, so the engine can warm what they touch. */
#define OFFSET_AHEAD 32u

/* A device that completes nothing for this long fails the phase (its IOs cannot be drained). */
#define STALL_LIMIT_NS (120ULL * DQ_NS_PER_S)

struct io_slot {
	void *buf;
	uint64_t offset;
	uint64_t submit_ns;
	uint32_t length;
	uint8_t op;
	bool holds_read_data; /* a read landed here: a zeros write must clear it first */
};

/* One open second: what completed in [next_boundary_ns - 1 s, next_boundary_ns). */
struct second {
	uint64_t ios[2];
	uint64_t bytes[2];
	struct dq_histogram histogram[2];
};

struct io_worker {
	const struct dq_phase_env *env;
	const struct dq_io_phase_params *params;
	struct dq_phase_stats *stats;
	struct dq_io_engine *engine;
	bool fill_data; /* random pattern on an engine with a medium */
	bool own_latency; /* the engine times IOs (DQ_ENGINE_OWN_LATENCY) */

	struct io_slot *slots;
	struct dq_io_completion *events;
	uint32_t *batch; /* slots queued since the last commit */
	uint32_t batch_count;
	void *buffers;
	uint32_t buffer_stride;
	struct dq_rng rng;
	struct dq_datagen *datagen;

	uint64_t range_blocks; /* random offsets: range_bytes / block_size */
	/* Random offsets of an all-read or all-write phase, drawn OFFSET_AHEAD IOs before their IO
	 * (the same draws in the same order as on demand) so the engine's prefetch() hides the
	 * memory stall of a simulated drive's mapping table; NULL: drawn on demand. */
	uint64_t *ahead;
	uint32_t ahead_pos;
	uint64_t cursor; /* sequential offset */
	uint64_t issued_bytes;
	uint32_t inflight;
	bool stopping;
	bool broken; /* the engine failed to submit or reap: IOs cannot be drained */
	int sink_rc; /* the first sink error: later samples are dropped, IOs still drained */

	uint64_t start_ns;
	uint64_t end_ns; /* timed: IOs completing at or after it are drained, not counted */
	uint64_t last_ns; /* latest completion counted */
	uint64_t progress_ns; /* latest completion of any kind, or the start */
	uint64_t next_boundary_ns;
	uint32_t t; /* the open second's t */
	struct second *second;
};

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

/* Emit the open second's sample (unless the sink failed before) and open the next one. */
static void close_second(struct io_worker *w)
{
	const struct dq_phase_env *env = w->env;
	struct second *sec = w->second;
	struct dq_sample sample;
	struct dq_direction_stats *dir[2] = { &w->stats->read, &w->stats->write };
	struct dq_sample_direction *out[2] = { &sample.read, &sample.write };
	int op, rc;

	memset(&sample, 0, sizeof(sample));
	dq_strlcpy(sample.job_id, env->job_id, sizeof(sample.job_id));
	dq_strlcpy(sample.runner_id, env->runner_id, sizeof(sample.runner_id));
	dq_strlcpy(sample.device_serial, env->serial, sizeof(sample.device_serial));
	sample.phase_index = w->params->phase_index;
	dq_strlcpy(sample.phase_name, w->params->phase_name, sizeof(sample.phase_name));
	sample.t = w->t;
	sample.time_ms = dq_phase_env_epoch_ms(env, w->next_boundary_ns);
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
}

/* Close every second that ended at or before now_ns (timed phases: never past runtime). */
static void close_seconds_until(struct io_worker *w, uint64_t now_ns)
{
	while (now_ns >= w->next_boundary_ns &&
	       (w->end_ns == 0 || w->next_boundary_ns <= w->end_ns)) {
		close_second(w);
	}
}

static bool can_issue(const struct io_worker *w)
{
	return !w->stopping &&
	       (w->params->runtime_ns > 0 || w->issued_bytes < w->params->total_bytes);
}

/* Choose the slot's next IO, fill its data and stage it. */
static int issue(struct io_worker *w, uint32_t index)
{
	const struct dq_io_phase_params *p = w->params;
	struct io_slot *slot = &w->slots[index];
	struct dq_io io;
	uint64_t offset;
	uint32_t length = p->block_size;
	int rc;

	if (p->read_percent == 100) {
		slot->op = DQ_IO_READ;
	} else if (p->read_percent == 0) {
		slot->op = DQ_IO_WRITE;
	} else {
		slot->op = dq_rng_below(&w->rng, 100) < p->read_percent ? DQ_IO_READ : DQ_IO_WRITE;
	}
	if (p->sequential) {
		offset = w->cursor;
		if (p->range_bytes - offset < length) {
			length = (uint32_t)(p->range_bytes -
					    offset); /* the pass's last, shorter IO */
		}
		w->cursor = offset + length == p->range_bytes ? 0 : offset + length;
	} else if (w->ahead != NULL) {
		offset = w->ahead[w->ahead_pos];
		w->ahead[w->ahead_pos] = dq_rng_below(&w->rng, w->range_blocks) * p->block_size;
		w->engine->ops->prefetch(w->engine->data, w->ahead[w->ahead_pos]);
		w->ahead_pos = (w->ahead_pos + 1) % OFFSET_AHEAD;
	} else {
		offset = dq_rng_below(&w->rng, w->range_blocks) * p->block_size;
	}
	if (p->runtime_ns == 0 && p->total_bytes - w->issued_bytes < length) {
		length = (uint32_t)(p->total_bytes - w->issued_bytes);
	}
	if (slot->op == DQ_IO_WRITE) {
		if (w->fill_data) {
			dq_datagen_fill(w->datagen, slot->buf, (length + 63) & ~63u);
		} else if (slot->holds_read_data) {
			memset(slot->buf, 0, w->buffer_stride);
		}
		slot->holds_read_data = false;
	} else {
		slot->holds_read_data = true;
	}
	slot->length = length;
	slot->offset = offset;
	io = (struct dq_io){ .offset = offset,
			     .length = length,
			     .tag = index,
			     .buf = slot->buf,
			     .buf_index = (uint16_t)index,
			     .op = slot->op };
	rc = w->engine->ops->queue(w->engine->data, &io);
	if (rc != 0) {
		return worker_fail(w, DQ_FAIL_ENGINE_ERROR, "queueing an IO", rc);
	}
	w->issued_bytes += length;
	w->inflight++;
	w->batch[w->batch_count++] = index;
	return 0;
}

/* Stamp what was staged since the last commit and submit it. */
static int commit(struct io_worker *w)
{
	uint64_t now;
	uint32_t i;
	int rc;

	if (w->batch_count == 0) {
		return 0;
	}
	now = dq_phase_env_now(w->env);
	for (i = 0; i < w->batch_count; i++) {
		w->slots[w->batch[i]].submit_ns = now;
	}
	w->batch_count = 0;
	rc = w->engine->ops->commit(w->engine->data);
	if (rc != 0) {
		w->broken = true;
		return worker_fail(w, DQ_FAIL_ENGINE_ERROR, "submitting IOs", rc);
	}
	return 0;
}

static int complete(struct io_worker *w, const struct dq_io_completion *event, uint64_t done_ns)
{
	struct io_slot *slot = &w->slots[event->tag];
	struct second *sec = w->second;

	w->inflight--;
	close_seconds_until(w, done_ns);
	if (done_ns > w->progress_ns) {
		w->progress_ns = done_ns;
	}
	if (event->result < 0) {
		char what[96];

		(slot->op == DQ_IO_READ ? &w->stats->read : &w->stats->write)->errors++;
		snprintf(what, sizeof(what), "a %u-byte %s at offset %llu failed", slot->length,
			 slot->op == DQ_IO_READ ? "read" : "write",
			 (unsigned long long)slot->offset);
		return worker_fail(w, DQ_FAIL_IO_ERROR, what, event->result);
	}
	if (w->end_ns != 0 && done_ns >= w->end_ns) {
		return 0; /* completed after the phase's last second: drained, not counted */
	}
	sec->ios[slot->op]++;
	sec->bytes[slot->op] += slot->length;
	dq_histogram_record(&sec->histogram[slot->op], w->own_latency ? event->latency_ns :
						       done_ns > slot->submit_ns ?
									done_ns - slot->submit_ns :
									0);
	if (done_ns > w->last_ns) {
		w->last_ns = done_ns;
	}
	return 0;
}

static void run_loop(struct io_worker *w)
{
	const bool virtual_clock = w->env->virtual_clock;
	uint32_t qd = w->params->queue_depth, i;
	uint64_t now;
	int n;

	for (i = 0; i < qd && can_issue(w); i++) {
		issue(w, i);
	}
	commit(w);
	while (w->inflight > 0 && !w->broken) {
		n = w->engine->ops->getevents(w->engine->data, w->events, qd, DQ_TICK_NS);
		if (n < 0) {
			if (n == -EINTR) {
				continue;
			}
			w->broken = true;
			worker_fail(w, DQ_FAIL_ENGINE_ERROR, "reaping completions", n);
			return;
		}
		now = dq_phase_env_now(w->env);
		if (w->end_ns != 0 && now >= w->end_ns) {
			w->stopping = true;
		}
		if (atomic_load_explicit(w->env->cancel, memory_order_relaxed) != 0 &&
		    !w->stopping) {
			w->stopping = true;
			w->stats->cancelled = true;
		}
		for (i = 0; i < (uint32_t)n; i++) {
			complete(w, &w->events[i], virtual_clock ? w->events[i].done_ns : now);
			if (can_issue(w)) {
				issue(w, w->events[i].tag);
			}
		}
		/* A stalled device still gets its (empty) samples on time, and fails in the end. */
		close_seconds_until(w, now);
		if (!virtual_clock && n == 0 && now - w->progress_ns > STALL_LIMIT_NS) {
			w->broken = true;
			worker_fail(w, DQ_FAIL_IO_ERROR, "no IO completed for 120 s", ETIMEDOUT);
			return;
		}
		commit(w);
	}
}

static void worker_fini(struct io_worker *w)
{
	free(w->ahead);
	free(w->second);
	free(w->datagen);
	if (!w->broken) {
		free(w->buffers); /* else the engine may still DMA into them: leak, never reuse */
	}
	free(w->batch);
	free(w->events);
	free(w->slots);
}

static int worker_init(struct io_worker *w, const struct dq_phase_env *env,
		       const struct dq_io_phase_params *params, struct dq_phase_stats *stats)
{
	uint32_t qd = params->queue_depth, align = env->engine->target.buffer_align, i;
	struct iovec *iov = NULL;
	int rc = -ENOMEM;

	memset(w, 0, sizeof(*w));
	w->env = env;
	w->params = params;
	w->stats = stats;
	w->engine = env->engine;
	w->fill_data = params->data_pattern != DQ_DATA_PATTERN_ZEROS &&
		       !dq_io_engine_has(env->engine, DQ_ENGINE_DISKLESS);
	w->own_latency = dq_io_engine_has(env->engine, DQ_ENGINE_OWN_LATENCY);
	w->range_blocks = params->range_bytes / params->block_size;
	w->buffer_stride = (params->block_size + 4095) & ~4095u;
	if (align < 64) {
		align = 64;
	}
	w->slots = calloc(qd, sizeof(*w->slots));
	w->events = calloc(qd, sizeof(*w->events));
	w->batch = calloc(qd, sizeof(*w->batch));
	w->second = calloc(1, sizeof(*w->second));
	if (w->slots == NULL || w->events == NULL || w->batch == NULL || w->second == NULL ||
	    posix_memalign((void **)&w->datagen, 64, sizeof(*w->datagen)) != 0 ||
	    posix_memalign(&w->buffers, align, (size_t)w->buffer_stride * qd) != 0) {
		goto fail;
	}
	memset(w->buffers, 0, (size_t)w->buffer_stride * qd);
	dq_histogram_init(&w->second->histogram[0]);
	dq_histogram_init(&w->second->histogram[1]);
	dq_rng_seed(&w->rng, env->seed ^ ((uint64_t)params->phase_index << 56));
	dq_datagen_seed(w->datagen, dq_splitmix64(&w->rng.s[0]));
	for (i = 0; i < qd; i++) {
		w->slots[i].buf = (char *)w->buffers + (size_t)i * w->buffer_stride;
	}
	/* Only where no op draw interleaves with the offset draws: the sequence must not change. */
	if (w->engine->ops->prefetch != NULL && !params->sequential &&
	    (params->read_percent == 0 || params->read_percent == 100)) {
		w->ahead = calloc(OFFSET_AHEAD, sizeof(*w->ahead));
		if (w->ahead == NULL) {
			goto fail;
		}
		for (i = 0; i < OFFSET_AHEAD; i++) {
			w->ahead[i] = dq_rng_below(&w->rng, w->range_blocks) * params->block_size;
			w->engine->ops->prefetch(w->engine->data, w->ahead[i]);
		}
	}
	if (w->engine->ops->register_buffers != NULL) {
		iov = calloc(qd, sizeof(*iov));
		if (iov == NULL) {
			goto fail;
		}
		for (i = 0; i < qd; i++) {
			iov[i].iov_base = w->slots[i].buf;
			iov[i].iov_len = w->buffer_stride;
		}
		rc = w->engine->ops->register_buffers(w->engine->data, iov, qd);
		free(iov);
		if (rc != 0) {
			snprintf(stats->message, sizeof(stats->message),
				 "registering IO buffers: %s", strerror(-rc));
			stats->fail_reason = DQ_FAIL_ENGINE_ERROR;
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
	w.end_ns = params->runtime_ns > 0 ? w.start_ns + params->runtime_ns : 0;
	w.next_boundary_ns = w.start_ns + DQ_NS_PER_S;
	w.t = 1;
	run_loop(&w);
	if (w.end_ns != 0 && !stats->cancelled && stats->fail_reason == DQ_FAIL_NONE) {
		/* A timed phase has exactly runtimeS samples, idle seconds at the end included. */
		close_seconds_until(&w, w.end_ns);
		end = w.end_ns;
	} else {
		/* Sized, cancelled or failed: the last, partial second counts when IOs completed in
		 * it, so the samples always add up to the phase's totals. */
		if (w.second->ios[0] + w.second->ios[1] > 0) {
			close_second(&w);
		}
		end = w.end_ns != 0 || stats->cancelled || stats->fail_reason != DQ_FAIL_NONE ?
			      dq_phase_env_now(env) :
			      w.last_ns;
		if (w.end_ns != 0 && end > w.end_ns) {
			end = w.end_ns;
		}
	}
	stats->duration_ns = end - w.start_ns;
	rc = w.sink_rc;
	worker_fini(&w);
	return rc;
}
