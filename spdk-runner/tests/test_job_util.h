/*
 * What the job runner's unit tests (test_job.c, test_job_refusals.c, test_job_sim.c) share: a sink
 * that captures every sample and event (encoding each with the codecs, so all of it is
 * schema-valid), a job run with the engine options and resume point the test sets, and the checks
 * that phases add up, events come in order and a refusal is the only event.
 */
#ifndef DRIVEQUAL_TEST_JOB_UTIL_H
#define DRIVEQUAL_TEST_JOB_UTIL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

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

/* The sink's callbacks (arg: a struct capture), for a test that builds its own job spec. */
int capture_sample(void *arg, const struct dq_sample *sample);
int capture_event(void *arg, const struct dq_job_event *event);

/* The engine options run() passes (NULL: the engine's defaults). */
extern void *g_engine_options;

/* The resume point run() gives the job (all 0: a fresh start). */
struct job_resume {
	uint32_t first_phase, from_s, first_seq;
};
extern struct job_resume g_resume;

/* A workload phase over the whole range, named w<index>. */
struct dq_phase_spec workload(uint32_t index, enum dq_rw rw, uint32_t bs, uint32_t qd);

/* Runs the job into c (emptied first, keeping fail_sample_at and cancel_at_sample). */
int run(struct capture *c, struct test_ctx *t, const char *engine, const char *target,
	const struct dq_phase_spec *phases, size_t count, struct dq_job_outcome *outcome);

/* Samples of phase index: t = 1..n consecutive; their sums equal the phase-completed totals. */
const struct dq_job_event_phase_completed *check_phase(struct test_ctx *t, const struct capture *c,
						       uint32_t index);

/* The events are exactly expected, numbered from 0. */
void check_sequence(struct test_ctx *t, const struct capture *c,
		    const enum dq_job_event_type *expected, size_t count);

/* The job is refused for reason, its message holds message_part, and nothing else is sent. */
void expect_refused(struct test_ctx *t, struct capture *c, const char *engine, const char *target,
		    const struct dq_phase_spec *phases, size_t count, enum dq_refuse_reason reason,
		    const char *message_part);

/* The sim engine's options, with the given model and time scale (the caller frees them). */
void *sim_options(struct test_ctx *t, const char *model, const char *time_scale);

#endif /* DRIVEQUAL_TEST_JOB_UTIL_H */
