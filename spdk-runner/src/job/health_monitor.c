/*
 * The health monitor (health_monitor.h): when to poll, on which thread, and what a reading says.
 * The thread sleeps on a monotonic condition variable between polls and never touches the IO
 * path; the job's thread only publishes which phase runs, so a slow admin command (a drive
 * taking seconds to answer Get Log Page) delays nothing but the next reading.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "contract/clock.h"
#include "contract/strutil.h"
#include "health_monitor.h"

struct dq_health_monitor {
	const struct dq_phase_env *env;
	uint64_t interval_ns;
	dq_health_emit_fn emit;
	void *emit_arg;
	bool threaded;

	pthread_mutex_t lock;
	pthread_cond_t wake; /* the thread: a phase started, or stop */
	pthread_cond_t idle; /* the job: the poll in flight ended */
	pthread_t thread;
	bool in_phase; /* a phase runs (set at the first phase) */
	bool pollable;
	bool poll_now;
	bool polling;
	bool stop;
	bool final_poll;
	bool given_up; /* the device has no health to read: said once, not asked again */
	uint64_t polls;
	uint64_t last_poll_ns; /* job-thread mode: a final poll right after it adds nothing */
	uint32_t phase_index;
	uint64_t phase_start_ns;
	uint64_t next_ns; /* the next poll, phase clock */
};

/*
 * Read and deliver one reading for the phase that ran at now_ns. Called without the lock (the
 * admin command may take long). Returns false when the device had no health to give.
 */
static bool poll_once(struct dq_health_monitor *m, uint32_t phase_index, uint64_t phase_start_ns,
		      uint64_t now_ns)
{
	struct dq_io_engine *engine = m->env->engine;
	struct dq_job_event event = { .type = DQ_JOB_EVENT_HEALTH };
	struct dq_smart_snapshot *smart = &event.health.smart;
	int rc;

	event.health.phase_index = phase_index;
	event.health.elapsed_ms = (now_ns - phase_start_ns) / DQ_NS_PER_MS;
	event.health.time_ms = dq_phase_env_epoch_ms(m->env, now_ns);
	rc = engine->ops->smart(engine->data, smart);
	if (rc != 0) {
		/* never invented: say why there is nothing */
		memset(smart, 0, sizeof(*smart));
		smart->source = DQ_SMART_SOURCE_UNAVAILABLE;
		smart->has_reason = true;
		dq_strlcpy(smart->reason, strerror(-rc), sizeof(smart->reason));
	}
	m->emit(m->emit_arg, &event);
	return smart->available;
}

/* After a poll, under the lock: a device whose very first poll had no health log (a file, a
 * loop device) said so once and is not asked again. */
static void polled(struct dq_health_monitor *m, bool available)
{
	if (!available && m->polls == 0) {
		m->given_up = true;
	}
	m->polls++;
}

static uint64_t next_after(const struct dq_health_monitor *m, uint64_t now_ns)
{
	/* on the phase's grid (0, interval, 2 x interval, ...), strictly after now */
	return m->phase_start_ns +
	       ((now_ns - m->phase_start_ns) / m->interval_ns + 1) * m->interval_ns;
}

static void wait_until(struct dq_health_monitor *m, uint64_t deadline_ns)
{
	struct timespec at = { .tv_sec = (time_t)(deadline_ns / DQ_NS_PER_S),
			       .tv_nsec = (long)(deadline_ns % DQ_NS_PER_S) };

	pthread_cond_timedwait(&m->wake, &m->lock, &at);
}

static void *monitor_thread(void *arg)
{
	struct dq_health_monitor *m = arg;
	uint32_t phase_index;
	uint64_t start_ns, now_ns;
	bool available;

	pthread_mutex_lock(&m->lock);
	while (!m->stop) {
		now_ns = dq_clock_monotonic_ns();
		if (!m->in_phase || !m->pollable || m->given_up) {
			pthread_cond_wait(&m->wake, &m->lock);
			continue;
		}
		if (!m->poll_now && now_ns < m->next_ns) {
			wait_until(m, m->next_ns);
			continue;
		}
		m->poll_now = false;
		m->polling = true;
		phase_index = m->phase_index;
		start_ns = m->phase_start_ns;
		pthread_mutex_unlock(&m->lock);
		available = poll_once(m, phase_index, start_ns, now_ns);
		pthread_mutex_lock(&m->lock);
		polled(m, available);
		m->next_ns = next_after(m, dq_clock_monotonic_ns());
		m->polling = false;
		pthread_cond_broadcast(&m->idle);
	}
	if (m->final_poll && m->in_phase && !m->given_up) {
		pthread_mutex_unlock(&m->lock);
		poll_once(m, m->phase_index, m->phase_start_ns, dq_clock_monotonic_ns());
		pthread_mutex_lock(&m->lock);
	}
	pthread_mutex_unlock(&m->lock);
	return NULL;
}

int dq_health_monitor_start(const struct dq_phase_env *env, uint32_t interval_s,
			    dq_health_emit_fn emit, void *emit_arg, struct dq_health_monitor **out)
{
	struct dq_health_monitor *m;
	pthread_condattr_t attr;
	int rc;

	*out = NULL;
	if (interval_s == 0 || env->engine->ops->smart == NULL) {
		return -EINVAL;
	}
	m = calloc(1, sizeof(*m));
	if (m == NULL) {
		return -ENOMEM;
	}
	m->env = env;
	m->interval_ns = (uint64_t)interval_s * DQ_NS_PER_S;
	m->emit = emit;
	m->emit_arg = emit_arg;
	m->threaded = !env->virtual_clock &&
		      dq_io_engine_has(env->engine, DQ_ENGINE_SMART_CONCURRENT);
	pthread_mutex_init(&m->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&m->wake, &attr);
	pthread_condattr_destroy(&attr);
	pthread_cond_init(&m->idle, NULL);
	if (m->threaded) {
		rc = pthread_create(&m->thread, NULL, monitor_thread, m);
		if (rc != 0) {
			pthread_cond_destroy(&m->idle);
			pthread_cond_destroy(&m->wake);
			pthread_mutex_destroy(&m->lock);
			free(m);
			return -rc;
		}
	}
	*out = m;
	return 0;
}

bool dq_health_monitor_on_job_thread(const struct dq_health_monitor *monitor)
{
	return monitor != NULL && !monitor->threaded;
}

void dq_health_monitor_phase(struct dq_health_monitor *m, uint32_t phase_index, uint64_t start_ns,
			     bool pollable)
{
	if (m == NULL) {
		return;
	}
	pthread_mutex_lock(&m->lock);
	while (m->polling) {
		pthread_cond_wait(&m->idle, &m->lock);
	}
	m->in_phase = true;
	m->pollable = pollable;
	m->phase_index = phase_index;
	m->phase_start_ns = start_ns;
	m->poll_now = pollable;
	pthread_cond_broadcast(&m->wake);
	pthread_mutex_unlock(&m->lock);
	if (!m->threaded && pollable && !m->given_up) {
		polled(m, poll_once(m, phase_index, start_ns, start_ns));
		m->last_poll_ns = start_ns;
		m->poll_now = false;
		m->next_ns = start_ns + m->interval_ns;
	}
}

void dq_health_monitor_tick(void *arg, uint64_t now_ns)
{
	struct dq_health_monitor *m = arg;

	if (m == NULL || m->threaded || !m->in_phase || !m->pollable || m->given_up ||
	    now_ns < m->next_ns) {
		return;
	}
	polled(m, poll_once(m, m->phase_index, m->phase_start_ns, now_ns));
	m->last_poll_ns = now_ns;
	m->next_ns = next_after(m, now_ns);
}

void dq_health_monitor_stop(struct dq_health_monitor *m, bool final_poll)
{
	if (m == NULL) {
		return;
	}
	if (m->threaded) {
		pthread_mutex_lock(&m->lock);
		m->stop = true;
		m->final_poll = final_poll;
		pthread_cond_broadcast(&m->wake);
		pthread_mutex_unlock(&m->lock);
		pthread_join(m->thread, NULL);
	} else if (final_poll && m->in_phase && !m->given_up &&
		   (m->polls == 0 || dq_phase_env_now(m->env) >= m->last_poll_ns + DQ_NS_PER_S)) {
		/* a reading less than a second old already describes the end */
		poll_once(m, m->phase_index, m->phase_start_ns, dq_phase_env_now(m->env));
	}
	pthread_cond_destroy(&m->idle);
	pthread_cond_destroy(&m->wake);
	pthread_mutex_destroy(&m->lock);
	free(m);
}
