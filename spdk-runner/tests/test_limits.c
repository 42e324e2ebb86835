/*
 * A workload phase with both a time and a size limit (SNIA's write saturation test: 4x the user
 * capacity or 24 h, whichever comes first) ends at the first it reaches, and its phase-completed
 * says which. Run on the simulated drive in both of its models, the closed loop of single IOs and
 * the fluid model of whole seconds, with each limit in turn the nearer one:
 * - size first: every byte of sizeBytes transferred, the phase shorter than runtimeS, ending with
 *   its partial last second, limitReached sizeBytes;
 * - time first: exactly runtimeS samples, fewer bytes than sizeBytes, limitReached runtimeS.
 * In both the samples add up to the phase's totals; the simulated clock keeps it fast.
 */
#include <inttypes.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "contract/clock.h"
#include "contract/msg_job_event.h"
#include "job/job_runner.h"
#include "test_encode.h"

#define RUNTIME_S 5u

struct capture {
	struct test_ctx *t;
	uint64_t samples, sample_bytes;
	uint32_t last_t;
	bool completed;
	struct dq_job_event_phase_completed done; /* histograms dropped */
	bool json_names_limit; /* the encoded event carries the limit by name */
};

static int capture_sample(void *arg, const struct dq_sample *sample)
{
	struct capture *c = arg;

	c->samples++;
	c->sample_bytes += sample->read.bytes + sample->write.bytes;
	c->last_t = sample->t;
	return 0;
}

static int capture_event(void *arg, const struct dq_job_event *event)
{
	struct capture *c = arg;
	char *json = test_encode_event(c->t, event);

	if (event->type == DQ_JOB_EVENT_PHASE_COMPLETED && json != NULL) {
		const char *name = dq_phase_limit_to_str(event->phase_completed.limit_reached);
		char member[64];

		snprintf(member, sizeof(member), "\"limitReached\":\"%s\"", name ? name : "?");
		c->json_names_limit = name != NULL && strstr(json, member) != NULL;
		c->completed = true;
		c->done = event->phase_completed;
		c->done.read.latency_histogram.buckets = NULL;
		c->done.write.latency_histogram.buckets = NULL;
	}
	free(json);
	return 0;
}

/* One 4KiB random-write QD32 phase with both limits on the 8 GB simulated enterprise drive. */
static void run(struct test_ctx *t, struct capture *c, const char *model, uint64_t size_bytes)
{
	static atomic_int cancel;
	const struct dq_io_engine_ops *ops = NULL;
	struct dq_phase_spec phase = { .index = 0,
				       .name = "wsat",
				       .kind = DQ_PHASE_KIND_WORKLOAD,
				       .rw = DQ_RW_RANDWRITE,
				       .has_block_size_bytes = true,
				       .block_size_bytes = 4096,
				       .has_queue_depth = true,
				       .queue_depth = 32,
				       .has_range_percent = true,
				       .range_percent = 100,
				       .has_runtime_s = true,
				       .runtime_s = RUNTIME_S,
				       .has_size_bytes = true,
				       .size_bytes = size_bytes };
	struct dq_job_spec spec = { .job_id = "job-limits",
				    .runner_id = "runner-l",
				    .engine_name = "sim",
				    .target = "sim:test-enterprise-eager",
				    .seed = 3,
				    .phases = &phase,
				    .phase_count = 1 };
	struct dq_sink sink = { .sample = capture_sample, .event = capture_event, .arg = c };
	struct dq_job_outcome outcome;
	void *options = NULL;
	char err[256];

	CHECK(t, dq_io_engine_find("sim", &ops, err, sizeof(err)) == 0, "sim engine: %s", err);
	CHECK(t, ops != NULL && dq_engine_options_new(ops, &options) == 0, "sim options");
	CHECK(t, dq_engine_options_set(ops, options, "sim_model", model, err, sizeof(err)) == 0,
	      "sim_model %s: %s", model, err);
	spec.engine_options = options;
	memset(c, 0, sizeof(*c));
	c->t = t;
	atomic_store(&cancel, 0);
	CHECK(t, dq_job_run(&spec, NULL, &sink, &cancel, &outcome) == 0, "job ran");
	CHECK(t, outcome.type == DQ_JOB_EVENT_COMPLETED, "%s: completed: %s", model,
	      outcome.message);
	CHECK(t, c->completed && c->json_names_limit, "%s: phase-completed names its limit", model);
	CHECK(t, c->samples == c->done.samples && c->sample_bytes == c->done.write.bytes,
	      "%s: %" PRIu64 " samples of %" PRIu64 " bytes add up to the totals", model,
	      c->samples, c->sample_bytes);
	free(options);
}

static void size_first(struct test_ctx *t, struct capture *c, const char *model)
{
	const uint64_t size = 64ull << 20;

	run(t, c, model, size);
	printf("%s, 64 MiB or %u s: %s after %.3f s, %" PRIu64 " bytes, %" PRIu64 " samples\n",
	       model, RUNTIME_S, dq_phase_limit_to_str(c->done.limit_reached),
	       c->done.duration_ns / 1e9, c->done.write.bytes, c->done.samples);
	CHECK(t, c->done.limit_reached == DQ_PHASE_LIMIT_SIZE, "%s: the size ended it", model);
	CHECK(t, c->done.write.bytes == size, "%s: every byte of sizeBytes written", model);
	CHECK(t, c->done.duration_ns < (uint64_t)RUNTIME_S * DQ_NS_PER_S && c->last_t < RUNTIME_S,
	      "%s: before the time limit (%u samples)", model, c->last_t);
}

static void time_first(struct test_ctx *t, struct capture *c, const char *model)
{
	const uint64_t size = 4ull << 40; /* 4 TiB: far beyond 5 s of writes */

	run(t, c, model, size);
	printf("%s, 4 TiB or %u s: %s after %.3f s, %" PRIu64 " bytes, %" PRIu64 " samples\n",
	       model, RUNTIME_S, dq_phase_limit_to_str(c->done.limit_reached),
	       c->done.duration_ns / 1e9, c->done.write.bytes, c->done.samples);
	CHECK(t, c->done.limit_reached == DQ_PHASE_LIMIT_RUNTIME, "%s: the time ended it", model);
	CHECK(t, c->done.samples == RUNTIME_S && c->last_t == RUNTIME_S,
	      "%s: exactly runtimeS samples", model);
	CHECK(t, c->done.write.bytes > 0 && c->done.write.bytes < size,
	      "%s: fewer bytes than sizeBytes", model);
}

int main(void)
{
	static struct capture c;
	struct test_ctx t = { 0 };
	const char *const models[] = { "ftl", "fluid" };

	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++) {
		size_first(&t, &c, models[i]);
		time_first(&t, &c, models[i]);
	}
	return test_report(&t, "limits");
}
