/*
 * The core on an engine with its own clock (DQ_ENGINE_VIRTUAL_CLOCK, as the sim engine): a test
 * engine serves every IO in exactly 1 ms of virtual time, so a 2000 s phase runs in well under a
 * second of real time and every per-second number is known exactly: IOs counted in the second
 * they completed in, timeMs on the virtual clock, idle advancing virtual time without sleeping.
 * Each second is stamped with the wall time it left and, once the phase has run a tenth of a wall
 * second, the clock's rate (job/clock_rate.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/engine.h"
#include "job/job_runner.h"
#include "test_util.h"

#define SERVICE_NS 1000000ULL /* every IO takes 1 ms */
#define QUEUE_DEPTH 4
#define RUNTIME_S 2000
#define IDLE_S 1800

struct vclock_engine {
	uint64_t now_ns;
	uint64_t idle_ns;
	uint64_t written_bytes;
	uint32_t head, count, capacity;
	struct dq_io_completion *fifo; /* equal service times: completions in submission order */
};

static int vclock_open(const struct dq_io_engine_open_args *args, void **data,
		       struct dq_device_target *target, char *err, size_t err_len)
{
	struct vclock_engine *engine = calloc(1, sizeof(*engine));

	(void)err;
	(void)err_len;
	if (engine == NULL) {
		return -ENOMEM;
	}
	engine->capacity = args->queue_depth;
	engine->fifo = calloc(engine->capacity, sizeof(*engine->fifo));
	engine->now_ns = 1000 * SERVICE_NS; /* the clock does not start at 0 */
	snprintf(target->device.serial, sizeof(target->device.serial), "VCLOCK-1");
	snprintf(target->device.model, sizeof(target->device.model), "virtual clock test engine");
	snprintf(target->device.firmware, sizeof(target->device.firmware), "1");
	target->device.capacity_bytes = 1ULL << 30;
	target->device.lba_size_bytes = 4096;
	snprintf(target->device.transport_address, sizeof(target->device.transport_address),
		 "vclock:%s", args->target);
	*data = engine;
	return engine->fifo == NULL ? -ENOMEM : 0;
}

static int vclock_queue(void *data, const struct dq_io *io)
{
	struct vclock_engine *engine = data;
	struct dq_io_completion *slot;

	if (engine->count == engine->capacity) {
		return -EBUSY;
	}
	slot = &engine->fifo[(engine->head + engine->count) % engine->capacity];
	slot->tag = io->tag;
	slot->result = 0;
	slot->done_ns = engine->now_ns + SERVICE_NS;
	engine->written_bytes += io->op == DQ_IO_WRITE ? io->length : 0;
	engine->count++;
	return 0;
}

static int vclock_commit(void *data)
{
	(void)data;
	return 0;
}

/* Advance to the earliest completion and return every IO done by then. */
static int vclock_getevents(void *data, struct dq_io_completion *out, unsigned max,
			    uint64_t timeout_ns)
{
	struct vclock_engine *engine = data;
	unsigned n = 0;
	uint64_t first;

	(void)timeout_ns;
	if (engine->count == 0) {
		return 0;
	}
	first = engine->fifo[engine->head].done_ns;
	while (n < max && engine->count > 0 && engine->fifo[engine->head].done_ns == first) {
		out[n++] = engine->fifo[engine->head];
		engine->head = (engine->head + 1) % engine->capacity;
		engine->count--;
	}
	engine->now_ns = first;
	return (int)n;
}

static uint64_t vclock_now(void *data)
{
	return ((struct vclock_engine *)data)->now_ns;
}

static int vclock_idle(void *data, uint64_t duration_ns)
{
	struct vclock_engine *engine = data;

	engine->now_ns += duration_ns;
	engine->idle_ns += duration_ns;
	return 0;
}

static int vclock_smart(void *data, struct dq_smart_snapshot *out)
{
	struct vclock_engine *engine = data;

	memset(out, 0, sizeof(*out));
	out->available = true;
	out->source = DQ_SMART_SOURCE_SIM;
	out->has_data_units_written = true;
	out->data_units_written = engine->written_bytes / 512000;
	out->has_data_units_read = true;
	return 0;
}

static void vclock_close(void *data)
{
	struct vclock_engine *engine = data;

	if (engine != NULL) {
		free(engine->fifo);
		free(engine);
	}
}

static const struct dq_io_engine_ops vclock_ops = {
	.name = "vclock",
	.version = DQ_IO_ENGINE_OPS_VERSION,
	.engine = DQ_ENGINE_SIM,
	.flags = DQ_ENGINE_VIRTUAL_CLOCK | DQ_ENGINE_DISKLESS | DQ_ENGINE_HAS_SMART,
	.target_help = "anything",
	.open = vclock_open,
	.queue = vclock_queue,
	.commit = vclock_commit,
	.getevents = vclock_getevents,
	.now_ns = vclock_now,
	.idle = vclock_idle,
	.smart = vclock_smart,
	.close = vclock_close,
};

struct record {
	struct test_ctx *t;
	uint32_t samples;
	uint64_t first_time_ms, last_time_ms, ios;
	uint32_t bad_ios, bad_latency;
	uint64_t first_wall_ms, last_wall_ms;
	uint32_t unstamped, wall_backwards, early_rates, rates;
	bool simulated;
	bool smart_available;
	uint64_t workload_duration_ns, idle_duration_ns;
	enum dq_job_event_type last;
};

static int record_sample(void *arg, const struct dq_sample *sample)
{
	struct record *r = arg;
	/* the first second lacks the 1 ms before the first completions; the last also holds the QD
	 * IOs drained at the phase's end (submitted 1 ms before it, completing exactly then) */
	uint64_t expected = sample->t == 1	   ? (1000 - 1) * QUEUE_DEPTH :
			    sample->t == RUNTIME_S ? (1000 + 1) * QUEUE_DEPTH :
						     1000 * QUEUE_DEPTH;

	r->samples++;
	CHECK(r->t, sample->t == r->samples, "t=%u after %u samples", sample->t, r->samples - 1);
	if (sample->t == 1) {
		r->first_time_ms = sample->time_ms;
	} else {
		CHECK(r->t, sample->time_ms == r->last_time_ms + 1000, "timeMs steps by 1000");
	}
	r->last_time_ms = sample->time_ms;
	r->unstamped += !sample->has_wall_ms;
	if (sample->t == 1) {
		r->first_wall_ms = sample->wall_ms;
	}
	r->wall_backwards += sample->wall_ms < r->last_wall_ms;
	r->last_wall_ms = sample->wall_ms;
	if (sample->has_clock_rate_milli) {
		r->rates++;
		/* wallMs is in whole ms: a rate is due 100 ms after the first sample, give or take 1 */
		r->early_rates += sample->wall_ms + 1 < r->first_wall_ms + 100 ||
				  sample->clock_rate_milli < 1;
	}
	r->bad_ios += sample->write.ios != expected;
	r->bad_latency += sample->write.latency_ns.p50 != SERVICE_NS ||
			  sample->write.latency_ns.p999 != SERVICE_NS ||
			  sample->write.latency_ns.max != SERVICE_NS;
	r->ios += sample->write.ios;
	return 0;
}

static int record_event(void *arg, const struct dq_job_event *event)
{
	struct record *r = arg;

	r->last = event->type;
	if (event->type == DQ_JOB_EVENT_PHASE_STARTED) {
		r->simulated = event->phase_started.clock == DQ_CLOCK_SIMULATED;
	} else if (event->type == DQ_JOB_EVENT_SMART_SNAPSHOT) {
		r->smart_available = event->smart_snapshot.smart.available;
	} else if (event->type == DQ_JOB_EVENT_PHASE_COMPLETED) {
		if (event->phase_completed.kind == DQ_PHASE_KIND_WORKLOAD) {
			r->workload_duration_ns = event->phase_completed.duration_ns;
			CHECK(r->t, event->phase_completed.write.ios == r->ios, "totals = samples");
		} else {
			r->idle_duration_ns = event->phase_completed.duration_ns;
		}
	}
	return 0;
}

int main(void)
{
	struct test_ctx t = { 0 };
	struct record r = { .t = &t };
	struct dq_phase_spec phases[2] = {
		{ .index = 0, .name = "randwrite", .kind = DQ_PHASE_KIND_WORKLOAD },
		{ .index = 1, .name = "rest", .kind = DQ_PHASE_KIND_IDLE },
	};
	struct dq_job_spec spec = { .job_id = "vjob",
				    .runner_id = "r",
				    .engine_ops = &vclock_ops,
				    .target = "a",
				    .seed = 1,
				    .phases = phases,
				    .phase_count = 2 };
	struct dq_sink sink = { .sample = record_sample, .event = record_event, .arg = &r };
	struct dq_job_outcome outcome;
	struct timespec start, end;
	atomic_int cancel = 0;
	double real_s;
	int rc;

	phases[0].rw = DQ_RW_RANDWRITE;
	phases[0].has_block_size_bytes = true;
	phases[0].block_size_bytes = 4096;
	phases[0].has_queue_depth = true;
	phases[0].queue_depth = QUEUE_DEPTH;
	phases[0].has_range_percent = true;
	phases[0].range_percent = 100;
	phases[0].has_runtime_s = true;
	phases[0].runtime_s = RUNTIME_S;
	phases[0].has_smart_snapshot = true;
	phases[0].smart_snapshot = true;
	phases[1].has_idle_s = true;
	phases[1].idle_s = IDLE_S;
	clock_gettime(CLOCK_MONOTONIC, &start);
	rc = dq_job_run(&spec, NULL, &sink, &cancel, &outcome);
	clock_gettime(CLOCK_MONOTONIC, &end);
	real_s = (double)(end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9;
	CHECK(&t, rc == 0 && outcome.type == DQ_JOB_EVENT_COMPLETED, "%d %s", rc, outcome.message);
	CHECK(&t, r.simulated, "phase-started says clock simulated");
	CHECK(&t, r.samples == RUNTIME_S, "%u samples for a %d s phase", r.samples, RUNTIME_S);
	CHECK(&t, r.bad_ios == 0, "%u seconds without exactly QD/latency IOs", r.bad_ios);
	CHECK(&t, r.bad_latency == 0, "%u seconds with latency != 1 ms", r.bad_latency);
	CHECK(&t, r.ios == (uint64_t)RUNTIME_S * 1000 * QUEUE_DEPTH,
	      "every IO issued is counted, the QD drained at the end included: %" PRIu64, r.ios);
	CHECK(&t, r.last_time_ms - r.first_time_ms == (RUNTIME_S - 1) * 1000ULL,
	      "timeMs spans the virtual runtime");
	CHECK(&t, r.workload_duration_ns == RUNTIME_S * 1000000000ULL, "duration %" PRIu64,
	      r.workload_duration_ns);
	CHECK(&t, r.idle_duration_ns == IDLE_S * 1000000000ULL, "idle %" PRIu64,
	      r.idle_duration_ns);
	CHECK(&t, r.smart_available, "SMART snapshots from the engine");
	CHECK(&t, r.unstamped == 0, "%u seconds of a simulated clock without wallMs", r.unstamped);
	CHECK(&t, r.wall_backwards == 0, "%u seconds whose wallMs went back", r.wall_backwards);
	CHECK(&t, r.early_rates == 0, "%u clock rates before 100 ms of wall time (or < 1)",
	      r.early_rates);
	printf("%u of %u seconds stamped with a clock rate over %" PRIu64 " ms of wall time\n",
	       r.rates, r.samples, r.last_wall_ms - r.first_wall_ms);
	/* no assertion on real time: the ctest timeout (far below 3800 s) proves no sleeping */
	printf("%d s workload + %d s idle of virtual time in %.2f s of real time\n", RUNTIME_S,
	       IDLE_S, real_s);
	return test_report(&t, "vclock");
}
