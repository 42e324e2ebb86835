/*
 * The runner's Kafka producer on librdkafka: idempotent, acks=all, never gives up on a message
 * (a broker restart mid-job must not lose samples), and counts deliveries from the delivery reports.
 */
#ifndef DRIVEQUAL_KAFKA_PRODUCER_H
#define DRIVEQUAL_KAFKA_PRODUCER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dq_kafka_producer;

/* How long a produce waits for room in a full local queue unless the options say otherwise. */
#define DQ_KAFKA_PRODUCER_QUEUE_FULL_TIMEOUT_MS 10000

struct dq_kafka_producer_opts {
	const char *brokers; /* bootstrap.servers */
	/* Extra librdkafka properties "key=value" (kcat's -X), applied after the defaults. */
	const char *const *properties;
	size_t property_count;
	/* How long produce waits for room when the local queue is full; 0 means
	 * DQ_KAFKA_PRODUCER_QUEUE_FULL_TIMEOUT_MS. */
	int queue_full_timeout_ms;
};

struct dq_kafka_producer_stats {
	uint64_t produced; /* accepted into the local queue */
	uint64_t delivered; /* acknowledged by the brokers */
	uint64_t failed; /* delivery reports with an error (including purged at destroy) */
	bool fatal; /* a fatal error stopped the producer */
};

/* Returns 0 and *producer, or -EINVAL (bad property, err says which) or -ENOMEM. */
int dq_kafka_producer_create(const struct dq_kafka_producer_opts *opts,
			     struct dq_kafka_producer **producer, char *err, size_t err_len);

/*
 * Queue one message (copied). On a full queue polls and retries for up to queue_full_timeout_ms.
 * Returns 0, -EAGAIN (still full), -ENOTRECOVERABLE (fatal error seen), -EINVAL or -EIO.
 */
int dq_kafka_producer_produce(struct dq_kafka_producer *producer, const char *topic,
			      const void *key, size_t key_len, const void *value, size_t value_len);

/* Serve delivery reports and errors; call once per tick. Returns the number of events served. */
int dq_kafka_producer_poll(struct dq_kafka_producer *producer, int timeout_ms);

/*
 * Wait up to timeout_ms (-1: forever) until every queued message has a delivery report. Returns 0,
 * -ETIMEDOUT (messages still outstanding) or -ENOTRECOVERABLE (fatal error).
 */
int dq_kafka_producer_flush(struct dq_kafka_producer *producer, int timeout_ms);

void dq_kafka_producer_get_stats(const struct dq_kafka_producer *producer,
				 struct dq_kafka_producer_stats *stats);

/* The fatal error's text, or NULL when there was none. */
const char *dq_kafka_producer_fatal_reason(const struct dq_kafka_producer *producer);

/*
 * Give up on what is still queued or in flight: the purged messages are counted as failed.
 * Returns how many were outstanding.
 */
int dq_kafka_producer_purge(struct dq_kafka_producer *producer);

/*
 * Flush for up to timeout_ms, purge what is still outstanding (counted as failed) and destroy.
 * Accepts NULL.
 */
void dq_kafka_producer_destroy(struct dq_kafka_producer *producer, int timeout_ms);

#endif /* DRIVEQUAL_KAFKA_PRODUCER_H */
