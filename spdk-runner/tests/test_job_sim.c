/*
 * The job runner's rules on the sim engine's fluid model (one interval per second instead of one
 * IO at a time): every phase kind, exact sizes, sums that add up; and a paced drive (either model)
 * never runs ahead of the wall clock.
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

int main(void)
{
	struct test_ctx t = { 0 };
	struct capture *c = calloc(1, sizeof(*c));

	if (c == NULL) {
		return 1;
	}
	test_fluid(&t, c);
	test_pacing(&t, c, "fluid", "1", 2);
	test_pacing(&t, c, "ftl", "2", 2);
	free(c);
	return test_report(&t, "job-sim");
}
