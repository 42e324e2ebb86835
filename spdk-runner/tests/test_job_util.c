/*
 * The job runner tests' shared capture sink, job run and checks (declared in test_job_util.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "contract/clock.h"
#include "contract/strutil.h"
#include "io/engine.h"
#include "job/job_runner.h"
#include "test_job_util.h"

int capture_sample(void *arg, const struct dq_sample *sample)
{
	struct capture *c = arg;
	char err[256], *json = NULL;
	size_t len;
	int rc = dq_sample_encode(sample, &json, &len, err, sizeof(err));

	CHECK(c->t, rc == 0, "sample t=%u does not encode: %s", sample->t, err);
	free(json);
	if (c->sample_count < MAX_MESSAGES) {
		c->samples[c->sample_count] = *sample;
	}
	c->sample_count++;
	if (c->cancel_at_sample != 0 && c->sample_count == (size_t)c->cancel_at_sample) {
		atomic_store(c->cancel, 1);
	}
	if (c->fail_sample_at != 0 && c->sample_count == (size_t)c->fail_sample_at) {
		return -EIO;
	}
	return 0;
}

int capture_event(void *arg, const struct dq_job_event *event)
{
	struct capture *c = arg;
	struct captured_event *e;
	char err[256], *json = NULL;
	size_t len;
	int rc = dq_job_event_encode(event, &json, &len, err, sizeof(err));

	CHECK(c->t, rc == 0, "event %s does not encode: %s", dq_job_event_type_to_str(event->type),
	      err);
	free(json);
	if (c->event_count < 64) {
		e = &c->events[c->event_count];
		e->type = event->type;
		e->seq = event->seq;
		e->event = *event;
		if (event->type == DQ_JOB_EVENT_PHASE_COMPLETED) {
			e->read_histogram_count =
				event->phase_completed.read.latency_histogram.total_count;
			e->write_histogram_count =
				event->phase_completed.write.latency_histogram.total_count;
			e->event.phase_completed.read.latency_histogram.buckets = NULL;
			e->event.phase_completed.write.latency_histogram.buckets = NULL;
		}
	}
	c->event_count++;
	return 0;
}

struct dq_phase_spec workload(uint32_t index, enum dq_rw rw, uint32_t bs, uint32_t qd)
{
	struct dq_phase_spec p = { .index = index, .kind = DQ_PHASE_KIND_WORKLOAD, .rw = rw };

	snprintf(p.name, sizeof(p.name), "w%u", index);
	p.has_block_size_bytes = true;
	p.block_size_bytes = bs;
	p.has_queue_depth = true;
	p.queue_depth = qd;
	p.has_range_percent = true;
	p.range_percent = 100;
	return p;
}

void *g_engine_options;

struct job_resume g_resume;

int run(struct capture *c, struct test_ctx *t, const char *engine, const char *target,
	const struct dq_phase_spec *phases, size_t count, struct dq_job_outcome *outcome)
{
	static atomic_int cancel;
	struct dq_job_spec spec = { .job_id = "job-1",
				    .runner_id = "runner-1",
				    .engine_name = engine,
				    .target = target,
				    .direct = true,
				    .seed = 12345,
				    .engine_options = g_engine_options,
				    .phases = phases,
				    .phase_count = count,
				    .first_phase = g_resume.first_phase,
				    .first_phase_from_s = g_resume.from_s,
				    .first_seq = g_resume.first_seq };
	struct dq_sink sink = { .sample = capture_sample, .event = capture_event, .arg = c };
	int fail_at = c->fail_sample_at, cancel_at = c->cancel_at_sample;

	memset(c, 0, sizeof(*c));
	c->t = t;
	c->fail_sample_at = fail_at;
	c->cancel_at_sample = cancel_at;
	c->cancel = &cancel;
	atomic_store(&cancel, 0);
	return dq_job_run(&spec, NULL, &sink, &cancel, outcome);
}

const struct dq_job_event_phase_completed *check_phase(struct test_ctx *t, const struct capture *c,
						       uint32_t index)
{
	const struct dq_job_event_phase_completed *done = NULL;
	uint64_t ios[2] = { 0 }, bytes[2] = { 0 }, n = 0;
	size_t i;

	for (i = 0; i < c->event_count; i++) {
		if (c->events[i].type == DQ_JOB_EVENT_PHASE_COMPLETED &&
		    c->events[i].event.phase_completed.phase_index == index) {
			done = &c->events[i].event.phase_completed;
			CHECK(t,
			      c->events[i].read_histogram_count == done->read.ios &&
				      c->events[i].write_histogram_count == done->write.ios,
			      "histogram counts equal ios");
		}
	}
	for (i = 0; i < c->sample_count && i < MAX_MESSAGES; i++) {
		if (c->samples[i].phase_index != index) {
			continue;
		}
		n++;
		CHECK(t, c->samples[i].t == n, "phase %u sample %" PRIu64 " has t=%u", index, n,
		      c->samples[i].t);
		ios[0] += c->samples[i].read.ios;
		ios[1] += c->samples[i].write.ios;
		bytes[0] += c->samples[i].read.bytes;
		bytes[1] += c->samples[i].write.bytes;
	}
	CHECK(t, done != NULL, "phase %u completed", index);
	if (done != NULL) {
		CHECK(t, done->samples == n, "samples %" PRIu64 " vs %" PRIu64, done->samples, n);
		CHECK(t, done->read.ios == ios[0] && done->write.ios == ios[1],
		      "ios add up: %" PRIu64 "/%" PRIu64 " vs %" PRIu64 "/%" PRIu64, ios[0], ios[1],
		      done->read.ios, done->write.ios);
		CHECK(t, done->read.bytes == bytes[0] && done->write.bytes == bytes[1],
		      "bytes add up");
	}
	return done;
}

void check_sequence(struct test_ctx *t, const struct capture *c,
		    const enum dq_job_event_type *expected, size_t count)
{
	size_t i;

	CHECK(t, c->event_count == count, "%zu events, expected %zu", c->event_count, count);
	for (i = 0; i < c->event_count && i < count; i++) {
		CHECK(t, c->events[i].type == expected[i] && c->events[i].seq == i,
		      "event %zu is %s seq %u, expected %s", i,
		      dq_job_event_type_to_str(c->events[i].type), c->events[i].seq,
		      dq_job_event_type_to_str(expected[i]));
	}
}

void expect_refused(struct test_ctx *t, struct capture *c, const char *engine, const char *target,
		    const struct dq_phase_spec *phases, size_t count, enum dq_refuse_reason reason,
		    const char *message_part)
{
	struct dq_job_outcome outcome;
	int rc = run(c, t, engine, target, phases, count, &outcome);

	CHECK(t, rc == 0 && outcome.type == DQ_JOB_EVENT_REFUSED && outcome.refuse_reason == reason,
	      "%s %s: expected refused %s, got %s %s: %s", engine, target,
	      dq_refuse_reason_to_str(reason), dq_job_event_type_to_str(outcome.type),
	      dq_refuse_reason_to_str(outcome.refuse_reason), outcome.message);
	CHECK(t, strstr(outcome.message, message_part) != NULL, "message '%s' lacks '%s'",
	      outcome.message, message_part);
	CHECK(t,
	      c->event_count == 1 && c->events[0].type == DQ_JOB_EVENT_REFUSED &&
		      c->sample_count == 0,
	      "a refusal is the only event");
}

void *sim_options(struct test_ctx *t, const char *model, const char *time_scale)
{
	const struct dq_io_engine_ops *ops = NULL;
	void *options = NULL;
	char err[256];

	CHECK(t, dq_io_engine_find("sim", &ops, err, sizeof(err)) == 0, "sim engine: %s", err);
	CHECK(t, ops != NULL && dq_engine_options_new(ops, &options) == 0, "sim options");
	CHECK(t,
	      dq_engine_options_set(ops, options, "sim_model", model, err, sizeof(err)) == 0 &&
		      dq_engine_options_set(ops, options, "sim_time_scale", time_scale, err,
					    sizeof(err)) == 0,
	      "set: %s", err);
	return options;
}
