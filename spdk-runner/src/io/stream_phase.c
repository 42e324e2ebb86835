/*
 * The multi-stream core: up to DQ_STREAMS_MAX streams share one engine and one thread, each a
 * closed loop at its queue depth or an open loop at its rate. An open loop's IOs are due at their
 * intended issue times whatever the drive does; one that finds the stream's slots all busy waits
 * for one, and its response time runs from when it was due, not from when it could be sent, so a
 * drive that stalls cannot slow the load down and look fast (coordinated omission). Every IO
 * also has its service time, fio's `lat`: from the clock read right before the call that submits
 * it to the one right after the call that reaped it. Seconds, totals and the drain at the end
 * follow the closed-loop core (worker.c): t is the end of the interval, an IO counts in the
 * second it completed in, and a timed phase's last second holds the IOs drained after its end.
 * On a virtual clock the loop moves the engine's clock itself (advance()), so open loops run in
 * simulated time too.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "contract/clock.h"
#include "contract/strutil.h"
#include "io/block_header.h"
#include "stream_phase.h"

#define STALL_LIMIT_NS (120ULL * DQ_NS_PER_S)

static void loop_fail(struct stream_loop *l, enum dq_fail_reason reason, const char *what, int err)
{
	if (l->stats->fail_reason == DQ_FAIL_NONE) {
		l->stats->fail_reason = reason;
		snprintf(l->stats->message, sizeof(l->stats->message), "%s: %s", what,
			 strerror(err < 0 ? -err : err));
	}
	l->stopping = true;
}

static uint64_t loop_now(const struct stream_loop *l)
{
	return dq_phase_env_now(l->env);
}

static void integrate(struct stream_loop *l, uint64_t t)
{
	if (t > l->integrated_ns) {
		l->outstanding_second += (uint64_t)l->outstanding * (t - l->integrated_ns);
		l->integrated_ns = t;
	}
}

/* Count an open loop's arrivals intended before until_ns as offered (in the open second). */
static void count_offers(struct stream_loop *l, uint64_t until_ns)
{
	size_t i;

	for (i = 0; i < l->count; i++) {
		struct stream *st = &l->streams[i];

		while (st->open_loop && st->offer.next_ns < until_ns &&
		       st->offer.next_ns < l->end_ns) {
			st->offered_second++;
			st->offered_total++;
			stream_arrivals_step(st, &st->offer);
		}
	}
}

static void acc_reset(struct stream_direction_acc *a)
{
	a->ios = 0;
	a->bytes = 0;
	dq_histogram_reset(&a->service);
	dq_histogram_reset(&a->response);
}

static void direction_out(const struct stream_direction_acc *a, struct dq_sample_direction *out)
{
	out->ios = a->ios;
	out->bytes = a->bytes;
	if (a->ios > 0) {
		dq_histogram_sample_percentiles(&a->service, &out->latency_ns);
	}
}

/* Emit the open second's sample; interval_end_ns is its end (a last partial second's too). */
static void close_second(struct stream_loop *l, uint64_t interval_end_ns)
{
	const struct dq_phase_env *env = l->env;
	struct dq_direction_stats *phase_dir[3] = { &l->stats->read, &l->stats->write,
						    &l->stats->trim };
	struct dq_sample *sample = calloc(1, sizeof(*sample));
	uint64_t sample_end_ns = l->next_boundary_ns;
	size_t i;
	int d, rc;

	count_offers(l, l->next_boundary_ns);
	integrate(l, interval_end_ns);
	if (sample == NULL) {
		l->sink_rc = -ENOMEM;
		l->stopping = true;
		return;
	}
	dq_strlcpy(sample->job_id, env->job_id, sizeof(sample->job_id));
	dq_strlcpy(sample->runner_id, env->runner_id, sizeof(sample->runner_id));
	dq_strlcpy(sample->device_serial, env->serial, sizeof(sample->device_serial));
	sample->phase_index = l->spec->index;
	dq_strlcpy(sample->phase_name, l->spec->name, sizeof(sample->phase_name));
	sample->t = l->t;
	sample->time_ms = dq_phase_env_epoch_ms(env, sample_end_ns);
	sample->has_effective_queue_depth_milli = true;
	sample->effective_queue_depth_milli = dq_io_queue_depth_milli(
		l->outstanding_second, interval_end_ns - (l->next_boundary_ns - DQ_NS_PER_S));
	l->stats->outstanding_io_ns += l->outstanding_second;
	l->outstanding_second = 0;
	sample->has_trim = l->has_trim;
	sample->stream_count = l->count;
	for (i = 0; i < l->count; i++) {
		struct stream *st = &l->streams[i];
		struct dq_stream_phase_stats *ss = &l->stats->streams[i];
		struct dq_sample_stream *out = &sample->streams[i];

		out->index = st->index;
		out->has_offered_ios = st->open_loop;
		out->offered_ios = st->offered_second;
		st->offered_second = 0;
		for (d = 0; d < STREAM_DIRECTIONS; d++) {
			struct stream_direction_acc *a = &st->second[d];
			struct dq_sample_stream_direction *od = &out->direction[d];

			od->ios = a->ios;
			od->bytes = a->bytes;
			if (a->ios > 0) {
				dq_histogram_sample_percentiles(&a->service, &od->latency_ns);
				od->has_response_latency_ns = st->open_loop;
				if (st->open_loop) {
					dq_histogram_sample_percentiles(&a->response,
									&od->response_latency_ns);
				}
				dq_histogram_merge(&ss->dir[d].histogram, &a->service);
				dq_histogram_merge(&ss->response[d], &a->response);
				dq_histogram_merge(&l->phase_second[d].service, &a->service);
				l->phase_second[d].ios += a->ios;
				l->phase_second[d].bytes += a->bytes;
			}
			ss->dir[d].ios += a->ios;
			ss->dir[d].bytes += a->bytes;
			acc_reset(a);
		}
	}
	direction_out(&l->phase_second[STREAM_READ], &sample->read);
	direction_out(&l->phase_second[STREAM_WRITE], &sample->write);
	direction_out(&l->phase_second[STREAM_TRIM], &sample->trim);
	for (d = 0; d < STREAM_DIRECTIONS; d++) {
		if (l->phase_second[d].ios > 0) {
			dq_histogram_merge(&phase_dir[d]->histogram, &l->phase_second[d].service);
		}
		phase_dir[d]->ios += l->phase_second[d].ios;
		phase_dir[d]->bytes += l->phase_second[d].bytes;
		acc_reset(&l->phase_second[d]);
	}
	l->t++;
	l->next_boundary_ns += DQ_NS_PER_S;
	if (l->sink_rc == 0) {
		l->stats->samples++;
		rc = env->sink->sample(env->sink->arg, sample);
		if (rc != 0) {
			l->sink_rc = rc;
			l->stopping = true;
		}
		if (env->second_tick != NULL) {
			env->second_tick(env->second_tick_arg, sample_end_ns);
		}
	}
	free(sample);
}

static void advance_to(struct stream_loop *l, uint64_t now_ns)
{
	while (now_ns >= l->next_boundary_ns && l->next_boundary_ns < l->end_ns) {
		close_second(l, l->next_boundary_ns);
	}
	integrate(l, now_ns);
}

/* Make the write's buffer: headers and fresh random data, or zeros. */
static void fill_write(struct stream_loop *l, uint32_t tag, uint64_t offset, uint32_t length)
{
	struct dq_block_ledger *ledger = l->env->ledger;
	struct dq_block_header header;

	if (!l->fill_data) {
		return; /* zeros: the buffers are only ever written by reads into them */
	}
	memset(&header, 0, sizeof(header));
	header.job_hash = ledger->job_hash;
	header.lba = offset / ledger->lba_bytes;
	header.sequence = ledger->next_sequence++;
	header.lba_bytes = ledger->lba_bytes;
	header.phase_index = (uint16_t)l->spec->index;
	dq_block_fill(l->datagen, stream_tag_buffer(l, tag), length, ledger->unit_bytes, &header,
		      NULL);
}

/* Whether the stream has an IO to send at now_ns: its intended time for an open loop. */
static bool stream_due(struct stream_loop *l, struct stream *st, uint64_t now_ns,
		       uint64_t *intended_ns, uint32_t *length_hint)
{
	if (l->stopping || st->free_count == 0 || now_ns < st->start_ns || now_ns >= l->end_ns) {
		return false;
	}
	if (st->open_loop) {
		if (st->issue.next_ns > now_ns || st->issue.next_ns >= l->end_ns) {
			return false;
		}
		*intended_ns = st->issue.next_ns;
		*length_hint = st->issue.next_length;
		return true;
	}
	if (st->quiescing || now_ns < st->resume_ns) {
		return false;
	}
	*intended_ns = now_ns;
	*length_hint = stream_draw_length(st, &st->size_rng);
	return true;
}

/* Stage one IO of the stream (due at intended_ns); false when the engine refused it. */
static bool issue(struct stream_loop *l, struct stream *st, uint64_t intended_ns,
		  uint32_t length_hint)
{
	uint32_t tag = st->free_tags[--st->free_count], length;
	struct stream_tag *slot = &l->tag[tag];
	uint64_t offset;
	uint8_t direction;
	struct dq_io io;
	int rc;

	stream_choose(st, length_hint, &direction, &length, &offset);
	if (direction == STREAM_WRITE) {
		fill_write(l, tag, offset, length);
	}
	io = (struct dq_io){ .offset = offset,
			     .length = length,
			     .tag = tag,
			     .buf = direction == STREAM_TRIM ? NULL : stream_tag_buffer(l, tag),
			     .buf_index = (uint16_t)tag,
			     .op = direction == STREAM_READ  ? DQ_IO_READ :
				   direction == STREAM_WRITE ? DQ_IO_WRITE :
							       DQ_IO_TRIM,
			     .placed = direction == STREAM_WRITE && st->placed,
			     .placement_handle = st->placement_handle };
	rc = l->engine->ops->queue(l->engine->data, &io);
	if (rc != 0) {
		st->free_tags[st->free_count++] = tag;
		loop_fail(l, DQ_FAIL_ENGINE_ERROR, "queueing an IO", rc);
		return false;
	}
	if (direction == STREAM_WRITE) {
		if (l->fill_data) {
			/* concurrent streams may overlap: never verified unit by unit */
			dq_block_ledger_record(l->env->ledger, offset, length, true);
		} else {
			dq_block_ledger_forget(l->env->ledger, offset, length);
		}
	} else if (direction == STREAM_TRIM) {
		dq_block_ledger_forget(l->env->ledger, offset, length);
	}
	*slot = (struct stream_tag){ .offset = offset,
				     .intended_ns = intended_ns,
				     .length = length,
				     .direction = direction,
				     .in_flight = true };
	st->inflight++;
	l->inflight++;
	l->batch[l->batch_count++] = tag;
	if (st->open_loop) {
		stream_arrivals_step(st, &st->issue);
	} else if (st->think_blocks > 0 && ++st->issued_since_think >= st->think_blocks) {
		st->issued_since_think = 0;
		st->quiescing = true; /* as fio: the IOs in flight complete, then the pause */
	}
	return true;
}

/* The open loops' backlog: arrivals due and not yet sent, its peak per stream. */
static void note_backlog(struct stream_loop *l, uint64_t now_ns)
{
	size_t i;

	count_offers(l, now_ns + 1);
	for (i = 0; i < l->count; i++) {
		struct stream *st = &l->streams[i];
		uint64_t backlog;

		if (st->open_loop) {
			backlog = st->offer.count - st->issue.count;
			if (backlog > st->max_backlog) {
				st->max_backlog = backlog;
			}
		}
	}
}

/* Issue what every stream has due, then stamp the batch and submit it. */
static void issue_due(struct stream_loop *l)
{
	uint64_t now = loop_now(l), intended;
	uint32_t length_hint, i;
	size_t s;
	int rc;

	advance_to(l, now); /* arrivals count in the second they were due in */
	for (s = 0; s < l->count; s++) {
		struct stream *st = &l->streams[s];

		while (stream_due(l, st, now, &intended, &length_hint)) {
			if (!issue(l, st, intended, length_hint)) {
				break;
			}
		}
	}
	if (l->batch_count == 0) {
		return;
	}
	note_backlog(l, now);
	now = loop_now(l);
	advance_to(l, now);
	for (i = 0; i < l->batch_count; i++) {
		struct stream_tag *slot = &l->tag[l->batch[i]];

		slot->submit_ns = now;
		if (slot->intended_ns > now) {
			slot->intended_ns = now;
		}
	}
	l->outstanding += l->batch_count;
	l->batch_count = 0;
	rc = l->engine->ops->commit(l->engine->data);
	if (rc != 0) {
		l->broken = true;
		loop_fail(l, DQ_FAIL_ENGINE_ERROR, "submitting IOs", rc);
	}
}

static struct stream *stream_of(struct stream_loop *l, uint32_t tag)
{
	size_t i;

	for (i = l->count; i-- > 1;) {
		if (tag >= l->streams[i].tag_base) {
			return &l->streams[i];
		}
	}
	return &l->streams[0];
}

static void complete(struct stream_loop *l, const struct dq_io_completion *event, uint64_t done_ns)
{
	struct stream_tag *slot = &l->tag[event->tag];
	struct stream *st = stream_of(l, event->tag);
	struct stream_direction_acc *a = &st->second[slot->direction];

	advance_to(l, done_ns);
	l->inflight--;
	st->inflight--;
	l->outstanding -= l->outstanding > 0;
	slot->in_flight = false;
	st->free_tags[st->free_count++] = event->tag;
	if (done_ns > l->progress_ns) {
		l->progress_ns = done_ns;
	}
	if (st->quiescing && st->inflight == 0) {
		st->quiescing = false;
		st->resume_ns = done_ns + st->think_ns;
	}
	if (event->result < 0) {
		char what[128];
		static const char *const names[] = { "read", "write", "trim" };

		l->stats->streams[st->index].dir[slot->direction].errors++;
		(slot->direction == STREAM_READ	 ? &l->stats->read :
		 slot->direction == STREAM_WRITE ? &l->stats->write :
						   &l->stats->trim)
			->errors++;
		snprintf(what, sizeof(what), "stream %u: a %u-byte %s at offset %llu failed",
			 st->index, slot->length, names[slot->direction],
			 (unsigned long long)slot->offset);
		loop_fail(l, DQ_FAIL_IO_ERROR, what, event->result);
		return;
	}
	a->ios++;
	a->bytes += slot->length;
	dq_histogram_record(&a->service, done_ns > slot->submit_ns ? done_ns - slot->submit_ns : 0);
	if (st->open_loop) {
		dq_histogram_record(&a->response,
				    done_ns > slot->intended_ns ? done_ns - slot->intended_ns : 0);
	}
	if (done_ns > l->last_ns) {
		l->last_ns = done_ns;
	}
}

/* When the loop next has something to do without a completion: an arrival, a pause's end, a
 * stream's start, a second's end or the phase's. */
static uint64_t next_wake(const struct stream_loop *l, uint64_t now_ns)
{
	uint64_t wake = l->next_boundary_ns < l->end_ns ? l->next_boundary_ns : l->end_ns;
	size_t i;

	if (l->stopping) {
		return UINT64_MAX; /* draining: only completions matter */
	}
	for (i = 0; i < l->count && !l->stopping; i++) {
		const struct stream *st = &l->streams[i];
		uint64_t due;

		if (st->free_count == 0) {
			continue;
		}
		due = st->open_loop		   ? st->issue.next_ns :
		      st->quiescing		   ? UINT64_MAX :
		      st->resume_ns > st->start_ns ? st->resume_ns :
						     st->start_ns;
		if (due < wake) {
			wake = due;
		}
	}
	return wake > now_ns ? wake : now_ns;
}

static void sleep_until(uint64_t clock_ns, uint64_t now_ns)
{
	uint64_t wait = clock_ns - now_ns;
	struct timespec pause = { .tv_sec = (time_t)(wait / DQ_NS_PER_S),
				  .tv_nsec = (long)(wait % DQ_NS_PER_S) };

	nanosleep(&pause, NULL);
}

/* Wait for completions or the next wake, and count what completed. */
static void wait_and_reap(struct stream_loop *l)
{
	uint64_t now = loop_now(l), wake = next_wake(l, now), timeout;
	int n = 0, i, due;

	if (l->virtual_clock) {
		due = l->engine->ops->advance(l->engine->data, wake);
		if (due > 0) {
			n = l->engine->ops->getevents(l->engine->data, l->events, l->tags, 0);
		}
	} else if (l->inflight == 0) {
		if (wake > now) {
			sleep_until(wake - now > DQ_TICK_NS ? now + DQ_TICK_NS : wake, now);
		}
	} else {
		timeout = wake - now > DQ_TICK_NS ? DQ_TICK_NS : wake - now;
		n = l->engine->ops->getevents(l->engine->data, l->events, l->tags, timeout);
	}
	now = loop_now(l);
	if (n < 0) {
		if (n != -EINTR) {
			l->broken = true;
			loop_fail(l, DQ_FAIL_ENGINE_ERROR, "reaping completions", n);
		}
		return;
	}
	for (i = 0; i < n; i++) {
		complete(l, &l->events[i], l->virtual_clock ? l->events[i].done_ns : now);
	}
	advance_to(l, now);
	if (!l->virtual_clock && n == 0 && l->inflight > 0 &&
	    now - l->progress_ns > STALL_LIMIT_NS) {
		l->broken = true;
		loop_fail(l, DQ_FAIL_IO_ERROR, "no IO completed for 120 s", ETIMEDOUT);
	}
}

static void run_loop(struct stream_loop *l)
{
	for (;;) {
		if (atomic_load_explicit(l->env->cancel, memory_order_relaxed) != 0 &&
		    !l->stopping) {
			l->stopping = true;
			l->stats->cancelled = true;
		}
		if (l->broken) {
			return;
		}
		if (loop_now(l) >= l->end_ns) {
			l->stopping = true;
		}
		if (l->stopping && l->inflight == 0) {
			return;
		}
		issue_due(l);
		wait_and_reap(l);
	}
}

int dq_stream_phase_run(const struct dq_phase_env *env, const struct dq_phase_spec *spec,
			struct dq_phase_stats *stats)
{
	struct stream_loop *l = calloc(1, sizeof(*l));
	char why[256] = "";
	uint64_t end;
	size_t i;
	int rc;

	if (l == NULL) {
		stats->fail_reason = DQ_FAIL_INTERNAL;
		snprintf(stats->message, sizeof(stats->message), "setting up the streams: %s",
			 strerror(ENOMEM));
		return 0;
	}
	rc = dq_stream_phase_check(env->engine, spec, why, sizeof(why));
	if (rc == 0) {
		l->start_ns = dq_phase_env_now(env);
		rc = stream_loop_init(l, env, spec, stats, why, sizeof(why));
	}
	if (rc != 0) {
		stats->fail_reason = rc == -ENOMEM ? DQ_FAIL_INTERNAL : DQ_FAIL_ENGINE_ERROR;
		snprintf(stats->message, sizeof(stats->message), "setting up the streams: %s",
			 why[0] != '\0' ? why : strerror(-rc));
		stream_loop_fini(l);
		free(l);
		return 0;
	}
	if (!l->virtual_clock) {
		/* wake-ups on time: the default 50 us of timer slack would delay every arrival */
		prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	}
	stats->start_ns = l->start_ns;
	l->last_ns = l->start_ns;
	l->progress_ns = l->start_ns;
	l->integrated_ns = l->start_ns;
	l->end_ns = l->start_ns + (uint64_t)spec->runtime_s * DQ_NS_PER_S;
	l->next_boundary_ns = l->start_ns + DQ_NS_PER_S;
	l->t = 1;
	run_loop(l);
	if (!stats->cancelled && stats->fail_reason == DQ_FAIL_NONE && l->sink_rc == 0) {
		/* exactly runtimeS samples; the last holds the IOs drained after the end */
		end = l->last_ns > l->end_ns ? l->last_ns : l->end_ns;
		advance_to(l, end);
		close_second(l, end);
		stats->limit_reached = DQ_PHASE_LIMIT_RUNTIME;
	} else {
		end = loop_now(l);
		advance_to(l, end);
		stats->outstanding_io_ns += l->outstanding_second;
	}
	for (i = 0; i < l->count; i++) {
		stats->streams[i].offered_ios = l->streams[i].offered_total;
		stats->streams[i].max_backlog = l->streams[i].max_backlog;
	}
	if (!l->virtual_clock) {
		prctl(PR_SET_TIMERSLACK, 0UL, 0, 0, 0); /* back to the thread's default */
	}
	stats->duration_ns = end - l->start_ns;
	stats->has_effective_queue_depth = true;
	stats->effective_queue_depth_milli =
		dq_io_queue_depth_milli(stats->outstanding_io_ns, stats->duration_ns);
	rc = l->sink_rc;
	stream_loop_fini(l);
	free(l);
	return rc;
}
