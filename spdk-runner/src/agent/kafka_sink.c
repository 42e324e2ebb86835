/*
 * Publishes an agent job's samples and events through the one shared producer. The producer
 * wrapper is not thread-safe (its delivery counters), so every call goes through one mutex; the
 * agent's per-tick poll only tries the lock, so a job waiting on a full queue never stalls the
 * command consumer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contract/strutil.h"
#include "kafka_sink.h"

int dq_locked_producer_init(struct dq_locked_producer *lp,
			    const struct dq_kafka_producer_opts *opts, char *err, size_t err_len)
{
	int rc;

	memset(lp, 0, sizeof(*lp));
	rc = pthread_mutex_init(&lp->lock, NULL);
	if (rc != 0) {
		return -rc;
	}
	rc = dq_kafka_producer_create(opts, &lp->producer, err, err_len);
	if (rc != 0) {
		pthread_mutex_destroy(&lp->lock);
	}
	return rc;
}

int dq_locked_producer_produce(struct dq_locked_producer *lp, const char *topic, const char *key,
			       const char *value, size_t value_len)
{
	int rc;

	pthread_mutex_lock(&lp->lock);
	rc = dq_kafka_producer_produce(lp->producer, topic, key, strlen(key), value, value_len);
	pthread_mutex_unlock(&lp->lock);
	return rc;
}

void dq_locked_producer_poll(struct dq_locked_producer *lp)
{
	if (pthread_mutex_trylock(&lp->lock) == 0) {
		dq_kafka_producer_poll(lp->producer, 0);
		pthread_mutex_unlock(&lp->lock);
	}
}

int dq_locked_producer_flush(struct dq_locked_producer *lp, int timeout_ms)
{
	int rc;

	pthread_mutex_lock(&lp->lock);
	rc = dq_kafka_producer_flush(lp->producer, timeout_ms);
	pthread_mutex_unlock(&lp->lock);
	return rc;
}

bool dq_locked_producer_fatal(struct dq_locked_producer *lp, char *out, size_t out_len)
{
	const char *reason;

	if (pthread_mutex_trylock(&lp->lock) != 0) {
		return false; /* a job is producing: asked again next tick */
	}
	reason = dq_kafka_producer_fatal_reason(lp->producer);
	if (reason != NULL) {
		dq_strlcpy(out, reason, out_len);
	}
	pthread_mutex_unlock(&lp->lock);
	return reason != NULL;
}

void dq_locked_producer_get_stats(struct dq_locked_producer *lp,
				  struct dq_kafka_producer_stats *stats)
{
	pthread_mutex_lock(&lp->lock);
	dq_kafka_producer_get_stats(lp->producer, stats);
	pthread_mutex_unlock(&lp->lock);
}

void dq_locked_producer_fini(struct dq_locked_producer *lp, int timeout_ms)
{
	if (lp->producer == NULL) {
		return;
	}
	dq_kafka_producer_destroy(lp->producer, timeout_ms);
	lp->producer = NULL;
	pthread_mutex_destroy(&lp->lock);
}

int dq_kafka_event_send(struct dq_locked_producer *lp, const char *topic,
			const struct dq_job_event *event, char *err, size_t err_len)
{
	char *json = NULL;
	size_t len;
	int rc;

	rc = dq_job_event_encode(event, &json, &len, err, err_len);
	if (rc != 0) {
		return rc;
	}
	rc = dq_locked_producer_produce(lp, topic, event->job_id, json, len);
	if (rc != 0) {
		snprintf(err, err_len, "cannot queue event %s (%s): %s", event->event_id,
			 dq_job_event_type_to_str(event->type),
			 rc == -EAGAIN ? "the producer's local queue stayed full" : strerror(-rc));
	}
	free(json);
	return rc;
}

static int sink_fail(struct dq_kafka_sink *sink, int rc, const char *what)
{
	if (sink->error == 0) {
		sink->error = rc;
		snprintf(sink->error_message, sizeof(sink->error_message), "%s", what);
	}
	return rc;
}

static int sink_sample(void *arg, const struct dq_sample *sample)
{
	struct dq_kafka_sink *sink = arg;
	char err[512], *json = NULL;
	size_t len;
	int rc;

	rc = dq_sample_encode(sample, &json, &len, err, sizeof(err));
	if (rc != 0) {
		return sink_fail(sink, rc, err);
	}
	rc = dq_locked_producer_produce(sink->producer, sink->samples_topic, sample->job_id, json,
					len);
	free(json);
	if (rc != 0) {
		snprintf(err, sizeof(err), "cannot queue the sample of phase %u t=%u: %s",
			 sample->phase_index, sample->t,
			 rc == -EAGAIN ? "the producer's local queue stayed full" : strerror(-rc));
		return sink_fail(sink, rc, err);
	}
	sink->samples++;
	return 0;
}

static int sink_event(void *arg, const struct dq_job_event *event)
{
	struct dq_kafka_sink *sink = arg;
	char err[512];
	int rc;

	rc = dq_kafka_event_send(sink->producer, sink->events_topic, event, err, sizeof(err));
	if (rc != 0) {
		return sink_fail(sink, rc, err);
	}
	sink->events++;
	sink->next_seq = event->seq + 1;
	if (event->type == DQ_JOB_EVENT_PHASE_STARTED) {
		atomic_store(&sink->phase_index, event->phase_started.phase_index);
		sink->phase_started = true;
	}
	return 0;
}

void dq_kafka_sink_init(struct dq_kafka_sink *sink, struct dq_locked_producer *producer,
			const char *samples_topic, const char *events_topic)
{
	memset(sink, 0, sizeof(*sink));
	sink->producer = producer;
	sink->samples_topic = samples_topic;
	sink->events_topic = events_topic;
	atomic_init(&sink->phase_index, 0);
}

struct dq_sink dq_kafka_sink_get(struct dq_kafka_sink *sink)
{
	return (struct dq_sink){ .sample = sink_sample, .event = sink_event, .arg = sink };
}
