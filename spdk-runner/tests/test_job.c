/*
 * The job runner and IO core on the null engine: event order and numbering, one sample per second
 * with t consecutive from 1, samples adding up to the phase totals, exact sized and precondition
 * byte counts, every phase kind, cancellation, sink failure, a resumed job and the refusals that
 * need no device.
 * The same rules hold for the sim engine's fluid model (one interval per second instead of one
 * IO at a time), and a paced drive never runs ahead of the wall clock.
 * Every message is encoded with the codecs, so all of it is schema-valid.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "contract/clock.h"
#include "contract/strutil.h"
#include "io/engine.h"
#include "job/job_runner.h"
#include "test_util.h"

#define MAX_MESSAGES 4096

struct captured_event {
	enum dq_job_event_type type;
	uint32_t seq;
	struct dq_job_event event; /* histograms dropped */
	uint64_t read_histogram_count, write_histogram_count;
};

struct capture {
	struct test_ctx *t;
	size_t sample_count, event_count;
	struct dq_sample samples[MAX_MESSAGES];
	struct captured_event events[64];
	int fail_sample_at; /* return -EIO on this sample (1-based); 0 never */
	int cancel_at_sample; /* set *cancel at this sample; 0 never */
	atomic_int *cancel;
};

static int capture_sample(void *arg, const struct dq_sample *sample)
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

static int capture_event(void *arg, const struct dq_job_event *event)
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

static struct dq_phase_spec workload(uint32_t index, enum dq_rw rw, uint32_t bs, uint32_t qd)
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

/* The engine options run() passes (NULL: the engine's defaults). */
static void *g_engine_options;

/* The resume point run() gives the job (all 0: a fresh start). */
static struct {
	uint32_t first_phase, from_s, first_seq;
} g_resume;

static int run(struct capture *c, struct test_ctx *t, const char *engine, const char *target,
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

/* Samples of phase index: t = 1..n consecutive; their sums equal the phase-completed totals. */
static const struct dq_job_event_phase_completed *
check_phase(struct test_ctx *t, const struct capture *c, uint32_t index)
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

static void check_sequence(struct test_ctx *t, const struct capture *c,
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

static void test_sized_and_timed(struct test_ctx *t, struct capture *c)
{
	static const enum dq_job_event_type sequence[] = {
		DQ_JOB_EVENT_ACCEPTED,	      DQ_JOB_EVENT_PHASE_STARTED,
		DQ_JOB_EVENT_PHASE_COMPLETED, DQ_JOB_EVENT_PHASE_STARTED,
		DQ_JOB_EVENT_PHASE_COMPLETED, DQ_JOB_EVENT_COMPLETED,
	};
	struct dq_phase_spec phases[2] = { workload(0, DQ_RW_RANDWRITE, 4096, 16),
					   workload(1, DQ_RW_RANDRW, 8192, 32) };
	const struct dq_job_event_phase_completed *done;
	struct dq_job_outcome outcome;
	int rc;

	phases[0].has_size_bytes = true;
	phases[0].size_bytes = 64 << 20;
	phases[1].has_runtime_s = true;
	phases[1].runtime_s = 2;
	phases[1].has_read_percent = true;
	phases[1].read_percent = 70;
	rc = run(c, t, "null", "null:1g", phases, 2, &outcome);
	CHECK(t, rc == 0 && outcome.type == DQ_JOB_EVENT_COMPLETED, "rc %d outcome %s: %s", rc,
	      dq_job_event_type_to_str(outcome.type), outcome.message);
	check_sequence(t, c, sequence, sizeof(sequence) / sizeof(sequence[0]));
	CHECK(t,
	      c->events[0].event.accepted.phase_count == 2 &&
		      strcmp(c->events[0].event.accepted.device.serial,
			     "NULL-ENGINE-FAKE-SERIAL") == 0,
	      "accepted names the device");
	done = check_phase(t, c, 0);
	if (done != NULL) {
		CHECK(t,
		      done->write.ios == 16384 && done->write.bytes == 64 << 20 &&
			      done->read.ios == 0,
		      "sized: exactly 64 MiB in 4 KiB writes, got %" PRIu64, done->write.bytes);
	}
	done = check_phase(t, c, 1);
	if (done != NULL) {
		uint64_t total = done->read.ios + done->write.ios;

		CHECK(t, done->samples == 2, "timed 2 s: 2 samples, got %" PRIu64, done->samples);
		/* the runtime, plus the drain of the IOs in flight at its end (counted) */
		CHECK(t, done->duration_ns >= 2000000000ULL, "duration %" PRIu64,
		      done->duration_ns);
		CHECK(t,
		      done->read.bytes == done->read.ios * 8192 &&
			      done->write.bytes == done->write.ios * 8192,
		      "bytes = ios * bs");
		CHECK(t,
		      total > 100000 && done->read.ios * 1000 / total >= 690 &&
			      done->read.ios * 1000 / total <= 710,
		      "rwmixread 70: %" PRIu64 " of %" PRIu64 " reads", done->read.ios, total);
	}
}

static void test_precondition_and_other_phases(struct test_ctx *t, struct capture *c)
{
	static const enum dq_job_event_type sequence[] = {
		DQ_JOB_EVENT_ACCEPTED,	      DQ_JOB_EVENT_PHASE_STARTED,
		DQ_JOB_EVENT_PHASE_COMPLETED, DQ_JOB_EVENT_PHASE_STARTED,
		DQ_JOB_EVENT_PHASE_COMPLETED, DQ_JOB_EVENT_PHASE_STARTED,
		DQ_JOB_EVENT_PHASE_COMPLETED, DQ_JOB_EVENT_PHASE_STARTED,
		DQ_JOB_EVENT_PHASE_COMPLETED, DQ_JOB_EVENT_PHASE_STARTED,
		DQ_JOB_EVENT_SMART_SNAPSHOT,  DQ_JOB_EVENT_PHASE_COMPLETED,
		DQ_JOB_EVENT_COMPLETED,
	};
	struct dq_phase_spec phases[5] = {
		{ .index = 0, .name = "purge", .kind = DQ_PHASE_KIND_PURGE },
		{ .index = 1, .name = "fill", .kind = DQ_PHASE_KIND_PRECONDITION },
		{ .index = 2, .name = "trim", .kind = DQ_PHASE_KIND_DEALLOCATE },
		{ .index = 3, .name = "rest", .kind = DQ_PHASE_KIND_IDLE },
		{ .index = 4, .name = "smart", .kind = DQ_PHASE_KIND_SMART },
	};
	const struct dq_job_event_phase_completed *done;
	struct dq_job_outcome outcome;
	/* 4100 KiB: 32 whole 128 KiB writes and one of 4 KiB per pass */
	const uint64_t capacity = 4100 * 1024;
	int rc;

	phases[0].purge_method = DQ_PURGE_METHOD_AUTO;
	phases[0].purge_fallback = DQ_PURGE_METHOD_DEALLOCATE; /* null offers no real purge */
	phases[1].has_block_size_bytes = true;
	phases[1].block_size_bytes = 128 * 1024;
	phases[1].has_queue_depth = true;
	phases[1].queue_depth = 8;
	phases[1].has_range_percent = true;
	phases[1].range_percent = 100;
	phases[1].has_passes = true;
	phases[1].passes = 3;
	phases[2].has_range_percent = true;
	phases[2].range_percent = 50;
	phases[3].has_idle_s = true;
	phases[3].idle_s = 1;
	rc = run(c, t, "null", "null:4100k", phases, 5, &outcome);
	CHECK(t, rc == 0 && outcome.type == DQ_JOB_EVENT_COMPLETED, "rc %d outcome %s: %s", rc,
	      dq_job_event_type_to_str(outcome.type), outcome.message);
	check_sequence(t, c, sequence, sizeof(sequence) / sizeof(sequence[0]));
	done = check_phase(t, c, 0);
	CHECK(t, done != NULL && done->has_deallocated_bytes && done->deallocated_bytes == capacity,
	      "purge auto with fallback deallocate on null deallocates everything");
	done = check_phase(t, c, 1);
	CHECK(t, done != NULL && done->write.bytes == 3 * capacity && done->write.ios == 3 * 33,
	      "precondition writes passes * range exactly: %" PRIu64 " bytes in %" PRIu64 " IOs",
	      done ? done->write.bytes : 0, done ? done->write.ios : 0);
	done = check_phase(t, c, 2);
	CHECK(t, done != NULL && done->deallocated_bytes == capacity / 2 && done->samples == 0,
	      "deallocate covers the range");
	done = check_phase(t, c, 3);
	CHECK(t, done != NULL && done->duration_ns >= 1000000000ULL && done->write.ios == 0,
	      "idle lasts idleS");
	CHECK(t,
	      !c->events[10].event.smart_snapshot.smart.available &&
		      c->events[10].event.smart_snapshot.smart.has_reason,
	      "SMART on null is unavailable, with a reason");
}

static void test_cancel_and_sink_failure(struct test_ctx *t, struct capture *c)
{
	struct dq_phase_spec phase = workload(0, DQ_RW_RANDWRITE, 4096, 32);
	struct dq_job_outcome outcome;
	int rc;

	phase.has_runtime_s = true;
	phase.runtime_s = 60;
	c->cancel_at_sample = 1;
	rc = run(c, t, "null", "null", &phase, 1, &outcome);
	CHECK(t, rc == 0 && outcome.type == DQ_JOB_EVENT_CANCELLED, "cancelled: rc %d %s", rc,
	      dq_job_event_type_to_str(outcome.type));
	CHECK(t, c->sample_count <= 2, "stopped within a tick: %zu samples", c->sample_count);
	CHECK(t, c->events[c->event_count - 1].type == DQ_JOB_EVENT_CANCELLED,
	      "the last event says cancelled");

	c->cancel_at_sample = 0;
	c->fail_sample_at = 2;
	rc = run(c, t, "null", "null", &phase, 1, &outcome);
	CHECK(t, rc == -EIO, "a failing sink ends the job with its error: %d", rc);
	CHECK(t, c->sample_count == 2, "no samples after the sink failed: %zu", c->sample_count);
	c->fail_sample_at = 0;
}

static void expect_refused(struct test_ctx *t, struct capture *c, const char *engine,
			   const char *target, const struct dq_phase_spec *phases, size_t count,
			   enum dq_refuse_reason reason, const char *message_part)
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

static void test_refusals(struct test_ctx *t, struct capture *c)
{
	struct dq_phase_spec phase = workload(0, DQ_RW_RANDWRITE, 4096, 32);
	struct dq_phase_spec bad = phase;
	struct dq_job_outcome outcome;
	struct dq_job_spec spec;

	phase.has_runtime_s = true;
	phase.runtime_s = 1;
	expect_refused(t, c, "spdk", "trtype:TCP", &phase, 1, DQ_REFUSE_ENGINE_UNAVAILABLE,
#if DRIVEQUAL_SPDK_ENABLED
		       ""
#else
		       "built without the SPDK engine"
#endif
	);
	expect_refused(t, c, "bogus", "x", &phase, 1, DQ_REFUSE_ENGINE_UNAVAILABLE, "no engine");
	expect_refused(t, c, "null", "nullx", &phase, 1, DQ_REFUSE_DEVICE_NOT_FOUND, "null");
	expect_refused(t, c, "uring", "/dev/drivequal-no-such-device", &phase, 1,
		       DQ_REFUSE_DEVICE_NOT_FOUND, "No such file");
	expect_refused(t, c, "null", "null", &bad, 1, DQ_REFUSE_INVALID_COMMAND,
		       "runtimeS, sizeBytes or both");
	bad = phase;
	bad.block_size_bytes = 1000;
	expect_refused(t, c, "null", "null", &bad, 1, DQ_REFUSE_INVALID_COMMAND, "multiple of 512");
	bad = phase;
	bad.kind = DQ_PHASE_KIND_PURGE;
	bad.purge_method = DQ_PURGE_METHOD_SANITIZE_CRYPTO;
	expect_refused(t, c, "null", "null", &bad, 1, DQ_REFUSE_INVALID_COMMAND, "cannot purge");
	/* auto never degrades to a TRIM on its own: refused, with why and the way out named. */
	bad.purge_method = DQ_PURGE_METHOD_AUTO;
	expect_refused(
		t, c, "null", "null", &bad, 1, DQ_REFUSE_INVALID_COMMAND,
		"cannot purge with auto: it lacks Sanitize and Format NVM [format-user-data: "
		"engine-cannot (the null engine has no device to erase)] (the device offers: "
		"deallocate); purgeFallback deallocate would accept a TRIM instead");
	/* With the fallback an explicit method the device lacks runs as a deallocate. */
	bad.purge_method = DQ_PURGE_METHOD_SANITIZE_CRYPTO;
	bad.purge_fallback = DQ_PURGE_METHOD_DEALLOCATE;
	{
		const struct dq_job_event_phase_completed *done;

		CHECK(t,
		      run(c, t, "null", "null", &bad, 1, &outcome) == 0 &&
			      outcome.type == DQ_JOB_EVENT_COMPLETED,
		      "sanitize-crypto with fallback on null: %s", outcome.message);
		done = check_phase(t, c, 0);
		CHECK(t,
		      done != NULL && done->has_purge_verification &&
			      done->purge_verification.method == DQ_PURGE_METHOD_DEALLOCATE,
		      "the fallback's purge reports the deallocate that ran");
	}

	/* The job names a serial: the wrong device is refused even for reads. */
	phase.rw = DQ_RW_RANDREAD;
	spec = (struct dq_job_spec){ .job_id = "job-2",
				     .runner_id = "r",
				     .engine_name = "null",
				     .target = "null",
				     .expected_serial = "S6CKNE0T801234",
				     .phases = &phase,
				     .phase_count = 1 };
	{
		atomic_int cancel = 0;
		struct dq_sink sink = { .sample = capture_sample,
					.event = capture_event,
					.arg = c };

		memset(c, 0, sizeof(*c));
		c->t = t;
		CHECK(t,
		      dq_job_run(&spec, NULL, &sink, &cancel, &outcome) == 0 &&
			      outcome.type == DQ_JOB_EVENT_REFUSED &&
			      outcome.refuse_reason == DQ_REFUSE_SERIAL_MISMATCH,
		      "serial mismatch: %s", outcome.message);
	}
}

/*
 * FDP placement per stream (a hot and a cold stream on two handles): runs on a simulated drive with
 * FDP; refused before any IO, naming why, on a drive without FDP, with a handle beyond the drive's,
 * and on an engine that cannot send the directive.
 */
static void test_placement(struct test_ctx *t, struct capture *c)
{
	struct dq_phase_spec phase = { .index = 0, .kind = DQ_PHASE_KIND_WORKLOAD };
	const struct dq_job_event_phase_completed *done;
	struct dq_job_outcome outcome;
	int rc;

	snprintf(phase.name, sizeof(phase.name), "hot-cold");
	phase.has_runtime_s = true;
	phase.runtime_s = 2;
	phase.stream_count = 2;
	for (size_t i = 0; i < 2; i++) {
		struct dq_stream_spec *s = &phase.streams[i];

		snprintf(s->name, sizeof(s->name), i == 0 ? "hot" : "cold");
		s->rw = DQ_RW_RANDWRITE;
		s->block_size_bytes = 4096;
		s->queue_depth = i == 0 ? 8 : 2;
		s->has_range_percent = true;
		s->range_percent = i == 0 ? 10 : 90;
		s->has_offset_percent = i == 1;
		s->offset_percent = 10;
		s->has_placement_handle = true;
		s->placement_handle = i == 0 ? 1 : 0;
	}
	rc = run(c, t, "sim", "sim:test-fdp-enterprise@36", &phase, 1, &outcome);
	CHECK(t, rc == 0 && outcome.type == DQ_JOB_EVENT_COMPLETED, "placed: rc %d outcome %s: %s",
	      rc, dq_job_event_type_to_str(outcome.type), outcome.message);
	done = check_phase(t, c, 0);
	CHECK(t, done != NULL && done->write.ios > 0 && done->read.ios == 0,
	      "placed streams write");

	expect_refused(t, c, "sim", "sim:test-client-7pct@36", &phase, 1, DQ_REFUSE_INVALID_COMMAND,
		       "stream 'hot': placementHandle 1: the drive has no Flexible Data Placement "
		       "(the simulated drive's profile has no FDP section)");
	phase.streams[0].placement_handle = 8;
	expect_refused(t, c, "sim", "sim:test-fdp-enterprise@36", &phase, 1,
		       DQ_REFUSE_INVALID_COMMAND,
		       "stream 'hot': placementHandle 8 is out of range: the drive has 8 reclaim "
		       "unit handles (0..7)");
	phase.streams[0].placement_handle = 1;
	expect_refused(t, c, "null", "null", &phase, 1, DQ_REFUSE_INVALID_COMMAND,
		       "the null engine cannot send the FDP placement directive");
}

/* Configuring the OCP latency monitor changes the drive's state: bad thresholds, a drive not
 * allowlisted, a job without the drive's serial and an engine that cannot send Set Features C5h
 * are each refused before any IO, naming why. */
static void test_latency_monitor_refusals(struct test_ctx *t, struct capture *c)
{
	struct dq_phase_spec phase = workload(0, DQ_RW_RANDWRITE, 4096, 32);
	struct dq_allowlist_entry entry = { .has_serial = true };
	struct dq_allowlist allowlist = { .count = 1, .entries = &entry };
	static const struct {
		uint32_t thresholds_ms[4];
		bool allowlisted;
		const char *serial;
		enum dq_refuse_reason reason;
		const char *message_part;
	} cases[] = {
		{ { 5, 5, 20, 50 },
		  true,
		  "NULL-ENGINE-FAKE-SERIAL",
		  DQ_REFUSE_INVALID_COMMAND,
		  "threshold B = 5 ms is not above threshold A" },
		{ { 5, 10, 20, 50 },
		  false,
		  "NULL-ENGINE-FAKE-SERIAL",
		  DQ_REFUSE_NOT_ALLOWLISTED,
		  "configuring its latency monitor (Set Features C5h)" },
		{ { 5, 10, 20, 50 },
		  true,
		  NULL,
		  DQ_REFUSE_SERIAL_MISMATCH,
		  "the job names no device serial" },
		{ { 5, 10, 20, 50 },
		  true,
		  "NULL-ENGINE-FAKE-SERIAL",
		  DQ_REFUSE_ENGINE_UNAVAILABLE,
		  "the null engine cannot configure an OCP latency monitor" },
	};
	size_t i;

	phase.has_runtime_s = true;
	phase.runtime_s = 1;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct dq_job_spec spec = { .job_id = "job-lm",
					    .runner_id = "r",
					    .engine_name = "null",
					    .target = "null",
					    .expected_serial = cases[i].serial,
					    .has_latency_monitor = true,
					    .phases = &phase,
					    .phase_count = 1 };
		struct dq_sink sink = { .sample = capture_sample,
					.event = capture_event,
					.arg = c };
		struct dq_job_outcome outcome;
		atomic_int cancel = 0;
		int rc;

		memcpy(spec.latency_monitor.thresholds_ms, cases[i].thresholds_ms,
		       sizeof(spec.latency_monitor.thresholds_ms));
		dq_strlcpy(entry.serial, "NULL-ENGINE-FAKE-SERIAL", sizeof(entry.serial));
		memset(c, 0, sizeof(*c));
		c->t = t;
		rc = dq_job_run(&spec, cases[i].allowlisted ? &allowlist : NULL, &sink, &cancel,
				&outcome);
		CHECK(t,
		      rc == 0 && outcome.type == DQ_JOB_EVENT_REFUSED &&
			      outcome.refuse_reason == cases[i].reason &&
			      strstr(outcome.message, cases[i].message_part) != NULL,
		      "case %zu: expected refused %s '%s', got %s %s: %s", i,
		      dq_refuse_reason_to_str(cases[i].reason), cases[i].message_part,
		      dq_job_event_type_to_str(outcome.type),
		      dq_refuse_reason_to_str(outcome.refuse_reason), outcome.message);
		CHECK(t, c->event_count == 1 && c->sample_count == 0,
		      "case %zu: a refusal is the only event (%zu events, %zu samples)", i,
		      c->event_count, c->sample_count);
	}
}

/* The sim engine's options, with the given model and time scale. */
static void *sim_options(struct test_ctx *t, const char *model, const char *time_scale)
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

/* The fluid model through the job runner: every phase kind, exact sizes, sums that add up. */
static void test_fluid(struct test_ctx *t, struct capture *c)
{
	struct dq_phase_spec phases[6] = {
		{ .index = 0, .name = "purge", .kind = DQ_PHASE_KIND_PURGE },
		{ .index = 1, .name = "fill", .kind = DQ_PHASE_KIND_PRECONDITION },
		workload(2, DQ_RW_RANDWRITE, 4096, 32),
		{ .index = 3, .name = "trim", .kind = DQ_PHASE_KIND_DEALLOCATE },
		{ .index = 4, .name = "rest", .kind = DQ_PHASE_KIND_IDLE },
		workload(5, DQ_RW_RANDRW, 8192, 16),
	};
	const struct dq_job_event_phase_completed *done;
	struct dq_job_outcome outcome;
	int rc;

	phases[0].purge_method = DQ_PURGE_METHOD_AUTO;
	phases[1].has_block_size_bytes = true;
	phases[1].block_size_bytes = 128 * 1024;
	phases[1].has_queue_depth = true;
	phases[1].queue_depth = 32;
	phases[1].has_range_percent = true;
	phases[1].range_percent = 100;
	phases[1].has_passes = true;
	phases[1].passes = 1;
	phases[2].has_runtime_s = true;
	phases[2].runtime_s = 300;
	phases[3].has_range_percent = true;
	phases[3].range_percent = 50;
	phases[4].has_idle_s = true;
	phases[4].idle_s = 60;
	phases[5].has_size_bytes = true;
	phases[5].size_bytes = 64 << 20;
	phases[5].has_read_percent = true;
	phases[5].read_percent = 70;
	g_engine_options = sim_options(t, "fluid", "0");
	rc = run(c, t, "sim", "sim:test-client-7pct@3", phases, 6, &outcome);
	CHECK(t, rc == 0 && outcome.type == DQ_JOB_EVENT_COMPLETED, "rc %d outcome %s: %s", rc,
	      dq_job_event_type_to_str(outcome.type), outcome.message);
	CHECK(t, c->events[1].event.phase_started.clock == DQ_CLOCK_SIMULATED,
	      "a fluid drive keeps simulated time");
	done = check_phase(t, c, 1);
	CHECK(t, done != NULL && done->write.bytes == 8000000000ULL && done->write.ios == 61036,
	      "the fill writes the capacity exactly: %" PRIu64 " bytes in %" PRIu64 " IOs",
	      done ? done->write.bytes : 0, done ? done->write.ios : 0);
	done = check_phase(t, c, 2);
	CHECK(t, done != NULL && done->samples == 300 && done->duration_ns == 300000000000ULL,
	      "timed 300 s: 300 samples");
	CHECK(t, done != NULL && done->write.bytes == done->write.ios * 4096 && done->read.ios == 0,
	      "random writes only");
	/* Little's law: a closed loop at QD32 keeps 32 IOs outstanding over the phase; a second
	 * holding part of a GC stall counts what completed in it, never more than 32 */
	CHECK(t,
	      done != NULL && done->has_effective_queue_depth_milli &&
		      done->effective_queue_depth_milli >= 31680 &&
		      done->effective_queue_depth_milli <= 32000,
	      "phase effective queue depth %" PRIu64 " milli",
	      done ? done->effective_queue_depth_milli : 0);
	for (size_t i = 0; i < c->sample_count && i < MAX_MESSAGES; i++) {
		const struct dq_sample *s = &c->samples[i];

		if (s->phase_index == 2 &&
		    (!s->has_effective_queue_depth_milli || s->effective_queue_depth_milli == 0 ||
		     s->effective_queue_depth_milli > 32000)) {
			CHECK(t, false, "t=%u: effective queue depth %" PRIu64 " milli", s->t,
			      s->effective_queue_depth_milli);
			break;
		}
	}
	done = check_phase(t, c, 5);
	CHECK(t, done != NULL && done->read.bytes + done->write.bytes == 64 << 20,
	      "sized: exactly the bytes asked, got %" PRIu64,
	      done ? done->read.bytes + done->write.bytes : 0);
	CHECK(t, done != NULL && done->read.ios * 10 > (done->read.ios + done->write.ios) * 6,
	      "rwmixread 70");
	free(g_engine_options);
	g_engine_options = sim_options(t, "bogus", "0");
	expect_refused(t, c, "sim", "sim:test-client-7pct", &phases[2], 1,
		       DQ_REFUSE_ENGINE_UNAVAILABLE, "ftl or fluid");
	free(g_engine_options);
	g_engine_options = NULL;
}

/* A paced drive never runs ahead of the wall clock: a lower bound only, never a speed limit. */
static void test_pacing(struct test_ctx *t, struct capture *c, const char *model, const char *scale,
			uint32_t runtime_s)
{
	struct dq_phase_spec phase = workload(0, DQ_RW_RANDWRITE, 4096, 32);
	struct dq_job_outcome outcome;
	uint64_t start, elapsed, floor_ns = runtime_s * DQ_NS_PER_S / (uint64_t)atoi(scale);
	int rc;

	phase.has_runtime_s = true;
	phase.runtime_s = runtime_s;
	g_engine_options = sim_options(t, model, scale);
	start = dq_clock_monotonic_ns();
	rc = run(c, t, "sim", "sim:test-client-7pct@4", &phase, 1, &outcome);
	elapsed = dq_clock_monotonic_ns() - start;
	CHECK(t, rc == 0 && outcome.type == DQ_JOB_EVENT_COMPLETED && c->sample_count == runtime_s,
	      "paced %s: %s, %zu samples", model, outcome.message, c->sample_count);
	CHECK(t, elapsed + 20 * DQ_NS_PER_MS >= floor_ns,
	      "%s at scale %s: %u simulated s took %" PRIu64 " ms of wall time", model, scale,
	      runtime_s, (uint64_t)(elapsed / DQ_NS_PER_MS));
	free(g_engine_options);
	g_engine_options = NULL;
}

/*
 * A resumed job (the agent's start command with resume): the phases before first_phase are
 * skipped, the resumed timed phase runs its remaining seconds numbered on after from_s, events are
 * numbered from first_seq; a resume inside a phase that cannot resume there is refused.
 */
static void test_resume(struct test_ctx *t, struct capture *c)
{
	struct dq_phase_spec phases[2] = { workload(0, DQ_RW_RANDWRITE, 4096, 8),
					   workload(1, DQ_RW_RANDWRITE, 4096, 8) };
	struct dq_job_outcome outcome;
	size_t i, phase0_events = 0;
	int rc;

	phases[0].has_size_bytes = true;
	phases[0].size_bytes = 64 << 20;
	phases[1].has_runtime_s = true;
	phases[1].runtime_s = 5;
	g_resume.first_phase = 1;
	g_resume.from_s = 3;
	g_resume.first_seq = 100000000;
	rc = run(c, t, "null", "null:1g", phases, 2, &outcome);
	CHECK(t, rc == 0 && outcome.type == DQ_JOB_EVENT_COMPLETED, "resumed: rc %d outcome %s: %s",
	      rc, dq_job_event_type_to_str(outcome.type), outcome.message);
	CHECK(t, c->event_count > 0 && c->events[0].seq == 100000000,
	      "the resumed run's first event is seq %u", c->events[0].seq);
	for (i = 0; i < c->event_count && i < 64; i++) {
		phase0_events += c->events[i].type == DQ_JOB_EVENT_PHASE_STARTED &&
				 c->events[i].event.phase_started.phase_index == 0;
	}
	CHECK(t, phase0_events == 0, "the completed phase 0 ran again");
	CHECK(t,
	      c->sample_count == 2 && c->samples[0].phase_index == 1 && c->samples[0].t == 4 &&
		      c->samples[1].t == 5,
	      "resumed after second 3 of 5: %zu samples, first t=%u", c->sample_count,
	      c->sample_count > 0 ? c->samples[0].t : 0);

	g_resume.first_phase = 0; /* inside a sized phase: refused */
	rc = run(c, t, "null", "null:1g", phases, 2, &outcome);
	CHECK(t,
	      rc == 0 && outcome.type == DQ_JOB_EVENT_REFUSED &&
		      outcome.refuse_reason == DQ_REFUSE_INVALID_COMMAND,
	      "resume inside a sized phase: %s: %s", dq_job_event_type_to_str(outcome.type),
	      outcome.message);
	memset(&g_resume, 0, sizeof(g_resume));
}

int main(void)
{
	struct test_ctx t = { 0 };
	struct capture *c = calloc(1, sizeof(*c));

	if (c == NULL) {
		return 1;
	}
	test_sized_and_timed(&t, c);
	test_precondition_and_other_phases(&t, c);
	test_cancel_and_sink_failure(&t, c);
	test_refusals(&t, c);
	test_resume(&t, c);
	test_latency_monitor_refusals(&t, c);
	test_placement(&t, c);
	test_fluid(&t, c);
	test_pacing(&t, c, "fluid", "1", 2);
	test_pacing(&t, c, "ftl", "2", 2);
	free(c);
	return test_report(&t, "job");
}
