/*
 * What the job runner refuses before any IO, naming why, with no device needed: an engine not
 * built or unknown, a target it cannot open, bad phases, the OCP latency monitor's bad settings
 * and interlocks; and FDP placement per stream, run on a simulated drive with FDP and refused
 * where it cannot be honoured. A refusal is the job's only event.
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

int main(void)
{
	struct test_ctx t = { 0 };
	struct capture *c = calloc(1, sizeof(*c));

	if (c == NULL) {
		return 1;
	}
	test_refusals(&t, c);
	test_latency_monitor_refusals(&t, c);
	test_placement(&t, c);
	free(c);
	return test_report(&t, "job-refusals");
}
