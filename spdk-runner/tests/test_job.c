/*
 * The job runner and IO core on the null engine: event order and numbering, one sample per second
 * with t consecutive from 1, samples adding up to the phase totals, exact sized and precondition
 * byte counts, every phase kind, cancellation, sink failure and a resumed job.
 * The refusals that need no device are in test_job_refusals.c, the sim engine's fluid model and
 * pacing in test_job_sim.c. Every message is encoded with the codecs, so all of it is schema-valid.
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
	test_resume(&t, c);
	free(c);
	return test_report(&t, "job");
}
