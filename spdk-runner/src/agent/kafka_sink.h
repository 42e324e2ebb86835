/*
 * Where an agent job's samples and events go: one producer shared by every job thread and the
 * agent's loop (behind a lock, because the producer wrapper counts deliveries unlocked), and a
 * dq_sink per job that publishes samples to drivequal.samples and events to drivequal.job-events,
 * both keyed by jobId so each job's messages stay in order on one partition.
 */
#ifndef DRIVEQUAL_KAFKA_SINK_H
#define DRIVEQUAL_KAFKA_SINK_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "agent/kafka_producer.h"
#include "job/job_runner.h"

/*
 * The local queue the agent asks librdkafka for. Messages never time out, so during a broker
 * outage everything waits here: a sample is about 0.5 KiB, so 1,000,000 messages (<= 1 GiB) hold
 * a 2-hour outage for ~130 devices sampling at 1/s, or ~5 days for two.
 */
#define DQ_KAFKA_SINK_QUEUE_MAX_MESSAGES 1000000
#define DQ_KAFKA_SINK_QUEUE_MAX_KBYTES 1048576

struct dq_locked_producer {
	pthread_mutex_t lock;
	struct dq_kafka_producer *producer;
};

/*
 * Create the shared producer (opts as dq_kafka_producer_create(), whose queue-full timeout is how
 * long a sample or event waits for room before its job fails). Returns 0, -EINVAL (err says why)
 * or -ENOMEM.
 */
int dq_locked_producer_init(struct dq_locked_producer *lp,
			    const struct dq_kafka_producer_opts *opts, char *err, size_t err_len);

/* As dq_kafka_producer_produce(), from any thread: 0, -EAGAIN, -ENOTRECOVERABLE, -EINVAL, -EIO. */
int dq_locked_producer_produce(struct dq_locked_producer *lp, const char *topic, const char *key,
			       const char *value, size_t value_len);

/* Serve delivery reports once (the agent's tick); skipped while another thread produces. */
void dq_locked_producer_poll(struct dq_locked_producer *lp);

/* As dq_kafka_producer_flush(): 0, -ETIMEDOUT or -ENOTRECOVERABLE. */
int dq_locked_producer_flush(struct dq_locked_producer *lp, int timeout_ms);

/* true (and the reason in out) once a fatal error stopped the producer; false while busy. */
bool dq_locked_producer_fatal(struct dq_locked_producer *lp, char *out, size_t out_len);

void dq_locked_producer_get_stats(struct dq_locked_producer *lp,
				  struct dq_kafka_producer_stats *stats);

/* Flush for up to timeout_ms, purge the rest and destroy (see dq_kafka_producer_destroy()). */
void dq_locked_producer_fini(struct dq_locked_producer *lp, int timeout_ms);

/* Encode an event and produce it to topic keyed by its jobId: 0 or -errno (err says). */
int dq_kafka_event_send(struct dq_locked_producer *lp, const char *topic,
			const struct dq_job_event *event, char *err, size_t err_len);

/* One job's sink. Only the job's thread calls it; phase_index is read by the heartbeat. */
struct dq_kafka_sink {
	struct dq_locked_producer *producer;
	const char *samples_topic;
	const char *events_topic;
	atomic_uint phase_index; /* the phase last started */
	bool phase_started;
	uint32_t next_seq; /* the seq after the last event queued */
	uint64_t samples; /* queued */
	uint64_t events; /* queued */
	int error; /* the first error returned to the job */
	char error_message[512];
};

void dq_kafka_sink_init(struct dq_kafka_sink *sink, struct dq_locked_producer *producer,
			const char *samples_topic, const char *events_topic);

/* The dq_sink the job runs with; its callbacks return 0 or the produce error. */
struct dq_sink dq_kafka_sink_get(struct dq_kafka_sink *sink);

#endif /* DRIVEQUAL_KAFKA_SINK_H */
