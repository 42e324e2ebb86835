/*
 * Health polling during a job (job-event type health), through dq_job_run:
 * - off the IO path on a real clock: a drive whose SMART read blocks until the IO thread has
 *   completed thousands more IOs; it runs on another thread than the IOs, and IOs go on meanwhile
 *   (polled on the IO path, the job would deadlock and the guard would report it);
 * - on the sim's virtual clock: readings exactly at each phase's start and every interval of it,
 *   none while a purge runs, the temperature rising under load and falling when idle, and the
 *   per-second samples identical with polling on and off;
 * - interval 0, an engine without SMART (null), a target without a health log (a regular file:
 *   one reading saying why, then no more).
 * Every message is encoded by the codecs, so all of it is schema-valid. No wall-clock thresholds:
 * the only timeout is a deadlock guard.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "job/job_runner.h"
#include "test_encode.h"

#define MAX_SAMPLES 512
#define MAX_EVENTS 256
/* IOs the IO thread must complete while one health read is in flight */
#define IOS_DURING_POLL 5000u
#define DEADLOCK_GUARD_S 60

/* Set when the (real-clock) test's workload reported phase-completed: its IO has stopped. */
static atomic_int g_phase_done;

struct capture {
	struct test_ctx *t;
	pthread_mutex_t lock;
	size_t samples, events, health;
	uint64_t sample_ios[MAX_SAMPLES];
	uint32_t next_seq;
	struct dq_job_event health_events[MAX_EVENTS];
	enum dq_job_event_type last_type;
};

static int capture_sample(void *arg, const struct dq_sample *sample)
{
	struct capture *c = arg;

	test_encode_sample(c->t, sample);
	pthread_mutex_lock(&c->lock);
	if (c->samples < MAX_SAMPLES) {
		c->sample_ios[c->samples] = sample->read.ios + sample->write.ios;
	}
	c->samples++;
	pthread_mutex_unlock(&c->lock);
	return 0;
}

static int capture_event(void *arg, const struct dq_job_event *event)
{
	struct capture *c = arg;

	free(test_encode_event(c->t, event));
	pthread_mutex_lock(&c->lock);
	CHECK(c->t, event->seq == c->next_seq, "seq %u after %u", event->seq, c->next_seq);
	c->next_seq = event->seq + 1;
	c->events++;
	c->last_type = event->type;
	if (event->type == DQ_JOB_EVENT_PHASE_COMPLETED) {
		atomic_store(&g_phase_done, 1);
	}
	if (event->type == DQ_JOB_EVENT_HEALTH && c->health < MAX_EVENTS) {
		c->health_events[c->health++] = *event;
	}
	pthread_mutex_unlock(&c->lock);
	return 0;
}

static struct dq_phase_spec phase(uint32_t index, enum dq_phase_kind kind, uint32_t seconds)
{
	struct dq_phase_spec p = { .index = index, .kind = kind };

	snprintf(p.name, sizeof(p.name), "p%u", index);
	if (kind == DQ_PHASE_KIND_WORKLOAD) {
		p.rw = DQ_RW_RANDWRITE;
		p.has_block_size_bytes = true;
		p.block_size_bytes = 4096;
		p.has_queue_depth = true;
		p.queue_depth = 32;
		p.has_range_percent = true;
		p.range_percent = 100;
		p.has_runtime_s = true;
		p.runtime_s = seconds;
	} else if (kind == DQ_PHASE_KIND_IDLE) {
		p.has_idle_s = true;
		p.idle_s = seconds;
	} else if (kind == DQ_PHASE_KIND_PURGE) {
		p.purge_method = DQ_PURGE_METHOD_AUTO;
	}
	return p;
}

static int run_job(struct capture *c, struct test_ctx *t, const char *engine,
		   const struct dq_io_engine_ops *ops, const char *target,
		   const struct dq_phase_spec *phases, size_t count, uint32_t interval_s,
		   struct dq_job_outcome *outcome)
{
	static atomic_int cancel;
	struct dq_job_spec spec = { .job_id = "job-h",
				    .runner_id = "runner-h",
				    .engine_name = engine,
				    .engine_ops = ops,
				    .target = target,
				    .direct = false,
				    .seed = 99,
				    .health_poll_interval_s = interval_s,
				    .phases = phases,
				    .phase_count = count };
	struct dq_sink sink = { .sample = capture_sample, .event = capture_event, .arg = c };

	pthread_mutex_destroy(&c->lock);
	memset(c, 0, sizeof(*c));
	pthread_mutex_init(&c->lock, NULL);
	c->t = t;
	atomic_store(&cancel, 0);
	return dq_job_run(&spec, NULL, &sink, &cancel, outcome);
}

/* ---- a real-clock drive whose SMART read is slow: the null engine plus a blocking smart() ---- */

static struct dq_io_engine_ops g_slow_ops;
static const struct dq_io_engine_ops *g_null_ops;
static atomic_uint_fast64_t g_queued;
static pthread_t g_io_thread;
static atomic_int g_io_thread_known, g_smart_on_io_thread, g_smart_timeouts, g_smart_calls;
static atomic_int g_reads_during_io;

static int slow_queue(void *data, const struct dq_io *io)
{
	if (!atomic_exchange(&g_io_thread_known, 1)) {
		g_io_thread = pthread_self();
	}
	atomic_fetch_add(&g_queued, 1);
	return g_null_ops->queue(data, io);
}

static int slow_smart(void *data, struct dq_smart_snapshot *out)
{
	uint64_t target = atomic_load(&g_queued) + IOS_DURING_POLL;
	struct timespec pause = { .tv_nsec = 1000000 }, start, now;

	(void)data;
	atomic_fetch_add(&g_smart_calls, 1);
	if (atomic_load(&g_io_thread_known) && pthread_equal(pthread_self(), g_io_thread)) {
		atomic_fetch_add(&g_smart_on_io_thread, 1);
	}
	/* wait for the IO thread to complete more IOs, until its phase has ended */
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (!atomic_load(&g_phase_done)) {
		if (atomic_load(&g_queued) >= target) {
			atomic_fetch_add(&g_reads_during_io, 1);
			break;
		}
		nanosleep(&pause, NULL);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec > DEADLOCK_GUARD_S) {
			atomic_fetch_add(&g_smart_timeouts, 1);
			break;
		}
	}
	memset(out, 0, sizeof(*out));
	out->available = true;
	out->source = DQ_SMART_SOURCE_NVME_LOG_02H;
	out->has_data_units_written = true;
	out->data_units_written = atomic_load(&g_queued);
	out->has_data_units_read = true;
	out->has_temperature_k = true;
	out->temperature_k = 318;
	out->has_critical_warning = true;
	return 0;
}

static void test_real_clock_off_the_io_path(struct test_ctx *t)
{
	static struct capture c;
	struct dq_phase_spec phases[1] = { phase(0, DQ_PHASE_KIND_WORKLOAD, 4) };
	struct dq_job_outcome outcome;
	char err[256];
	size_t i;

	CHECK(t, dq_io_engine_find("null", &g_null_ops, err, sizeof(err)) == 0, "null: %s", err);
	g_slow_ops = *g_null_ops;
	g_slow_ops.flags |= DQ_ENGINE_HAS_SMART | DQ_ENGINE_SMART_CONCURRENT;
	g_slow_ops.queue = slow_queue;
	g_slow_ops.smart = slow_smart;
	phases[0].rw = DQ_RW_RANDREAD;
	CHECK(t,
	      run_job(&c, t, NULL, &g_slow_ops, "null:1g", phases, 1, 1, &outcome) == 0 &&
		      outcome.type == DQ_JOB_EVENT_COMPLETED,
	      "the job completes: %s", outcome.message);
	printf("real clock: %zu health events, %d reads (%d saw %u IOs complete while in flight), "
	       "%d on the IO thread, %d guard trips\n",
	       c.health, atomic_load(&g_smart_calls), atomic_load(&g_reads_during_io),
	       IOS_DURING_POLL, atomic_load(&g_smart_on_io_thread), atomic_load(&g_smart_timeouts));
	CHECK(t, atomic_load(&g_reads_during_io) >= 2, "reads overlapped with IO: %d",
	      atomic_load(&g_reads_during_io));
	CHECK(t, atomic_load(&g_smart_timeouts) == 0,
	      "IOs stopped while a health read was in flight: it ran on the IO path");
	CHECK(t, atomic_load(&g_smart_on_io_thread) == 0, "smart() ran on the IO thread");
	CHECK(t, c.health >= 3, "a reading at the start, then every second: %zu", c.health);
	CHECK(t, c.last_type == DQ_JOB_EVENT_COMPLETED, "the final event comes last");
	for (i = 0; i < c.health; i++) {
		CHECK(t, c.health_events[i].health.smart.available, "reading %zu available", i);
		CHECK(t, c.health_events[i].health.phase_index == 0, "reading %zu phase", i);
	}
	CHECK(t, c.samples == 4, "4 samples, %zu", c.samples);
}

/* ---- the sim's virtual clock: readings on the phase's grid ---- */

static void test_virtual_clock_grid(struct test_ctx *t)
{
	static struct capture c;
	const struct dq_phase_spec phases[3] = { phase(0, DQ_PHASE_KIND_PURGE, 0),
						 phase(1, DQ_PHASE_KIND_WORKLOAD, 40),
						 phase(2, DQ_PHASE_KIND_IDLE, 30) };
	static const uint32_t expected_phase[] = { 1, 1, 1, 1, 1, 2, 2, 2, 2 };
	static const uint64_t expected_ms[] = { 0, 10000, 20000, 30000, 40000,
						0, 10000, 20000, 30000 };
	const struct dq_smart_snapshot *s;
	struct dq_job_outcome outcome;
	size_t i;

	CHECK(t,
	      run_job(&c, t, "sim", NULL, "sim:test-thermal-throttle", phases, 3, 10, &outcome) ==
			      0 &&
		      outcome.type == DQ_JOB_EVENT_COMPLETED,
	      "the sim job completes: %s", outcome.message);
	CHECK(t, c.health == 9, "9 readings (none during the purge, no duplicate at the end): %zu",
	      c.health);
	for (i = 0; i < c.health && i < 9; i++) {
		s = &c.health_events[i].health.smart;
		printf("  phase %u +%6llu ms: %u K, throttled %llu s\n",
		       c.health_events[i].health.phase_index,
		       (unsigned long long)c.health_events[i].health.elapsed_ms, s->temperature_k,
		       (unsigned long long)s->thermal_management_temp1_time_s);
		CHECK(t,
		      c.health_events[i].health.phase_index == expected_phase[i] &&
			      c.health_events[i].health.elapsed_ms == expected_ms[i],
		      "reading %zu at phase %u +%llu ms", i, c.health_events[i].health.phase_index,
		      (unsigned long long)c.health_events[i].health.elapsed_ms);
		CHECK(t,
		      s->available && s->source == DQ_SMART_SOURCE_SIM &&
			      s->has_thermal_management && s->has_thermal_management_temp1_k,
		      "reading %zu carries the thermal fields", i);
	}
	if (c.health == 9) {
		CHECK(t,
		      c.health_events[4].health.smart.temperature_k >
			      c.health_events[0].health.smart.temperature_k + 15,
		      "the load heats the drive");
		CHECK(t,
		      c.health_events[8].health.smart.temperature_k <
			      c.health_events[5].health.smart.temperature_k,
		      "idle cools it");
		CHECK(t, c.health_events[4].health.smart.thermal_management_temp1_time_s > 0,
		      "it throttled under load");
	}
}

/* The samples are the same with polling every second and with no polling. */
static void test_virtual_clock_samples_unchanged(struct test_ctx *t)
{
	static struct capture quiet, polled;
	const struct dq_phase_spec phases[1] = { phase(0, DQ_PHASE_KIND_WORKLOAD, 60) };
	struct dq_job_outcome outcome;

	run_job(&quiet, t, "sim", NULL, "sim:test-thermal-throttle", phases, 1, 0, &outcome);
	CHECK(t, outcome.type == DQ_JOB_EVENT_COMPLETED && quiet.health == 0,
	      "interval 0: no readings (%zu)", quiet.health);
	run_job(&polled, t, "sim", NULL, "sim:test-thermal-throttle", phases, 1, 1, &outcome);
	CHECK(t, outcome.type == DQ_JOB_EVENT_COMPLETED && polled.health == 61,
	      "every second: 61 readings (%zu)", polled.health);
	CHECK(t,
	      quiet.samples == 60 && polled.samples == 60 &&
		      memcmp(quiet.sample_ios, polled.sample_ios, sizeof(quiet.sample_ios)) == 0,
	      "per-second IOs differ with polling on");
}

static void test_nothing_to_poll(struct test_ctx *t)
{
	static struct capture c;
	const struct dq_phase_spec phases[2] = { phase(0, DQ_PHASE_KIND_WORKLOAD, 2),
						 phase(1, DQ_PHASE_KIND_WORKLOAD, 1) };
	struct dq_phase_spec reads[2];
	struct dq_job_outcome outcome;
	char path[] = "/tmp/dq-health-XXXXXX";
	int fd;

	run_job(&c, t, "null", NULL, "null:1g", phases, 2, 1, &outcome);
	CHECK(t, outcome.type == DQ_JOB_EVENT_COMPLETED && c.health == 0,
	      "the null engine reads no SMART: no readings (%zu)", c.health);
	fd = mkstemp(path);
	CHECK(t, fd >= 0 && ftruncate(fd, 64 << 20) == 0, "a scratch file");
	reads[0] = phases[0];
	reads[1] = phases[1];
	reads[0].rw = reads[1].rw = DQ_RW_RANDREAD;
	run_job(&c, t, "uring", NULL, path, reads, 2, 1, &outcome);
	CHECK(t, outcome.type == DQ_JOB_EVENT_COMPLETED, "file job: %s", outcome.message);
	CHECK(t,
	      c.health == 1 && !c.health_events[0].health.smart.available &&
		      strstr(c.health_events[0].health.smart.reason, "regular file") != NULL,
	      "a file: one reading saying why there is none (%zu)", c.health);
	if (fd >= 0) {
		close(fd);
	}
	unlink(path);
}

int main(void)
{
	struct test_ctx t = { 0 };

	test_real_clock_off_the_io_path(&t);
	test_virtual_clock_grid(&t);
	test_virtual_clock_samples_unchanged(&t);
	test_nothing_to_poll(&t);
	return test_report(&t, "health");
}
