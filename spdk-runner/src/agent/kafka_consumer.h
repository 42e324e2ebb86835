/*
 * The agent's consumer of drivequal.runner-commands on librdkafka: its own consumer group per
 * runner (so it reads every partition and keeps its own offsets), offsets committed only after a
 * command was acted on, and a first start pinned to the partitions' ends before the runner
 * announces itself, so no command sent after its first heartbeat can be skipped.
 */
#ifndef DRIVEQUAL_KAFKA_CONSUMER_H
#define DRIVEQUAL_KAFKA_CONSUMER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dq_kafka_consumer;

struct dq_kafka_consumer_opts {
	const char *brokers;
	const char *const *properties; /* extra "key=value" librdkafka properties */
	size_t property_count;
	const char *group_id;
	const char *client_id;
	const char *topic;
};

/* One consumed record; valid until dq_kafka_consumer_done(). */
struct dq_kafka_record {
	const char *key; /* not NUL-terminated; NULL when the record has none */
	size_t key_len;
	const char *value; /* not NUL-terminated; NULL for a tombstone */
	size_t value_len;
	int32_t partition;
	int64_t offset;
	void *message; /* the rd_kafka_message_t */
};

/* Create and subscribe. Returns 0, -EINVAL (err says why) or -ENOMEM. */
int dq_kafka_consumer_create(const struct dq_kafka_consumer_opts *opts,
			     struct dq_kafka_consumer **consumer, char *err, size_t err_len);

/*
 * Wait up to timeout_ms for one record (serving rebalances and errors). Returns 1 with record
 * filled (hand it back with dq_kafka_consumer_done()), 0 when none came, or -ENOTRECOVERABLE.
 */
int dq_kafka_consumer_poll(struct dq_kafka_consumer *consumer, int timeout_ms,
			   struct dq_kafka_record *record);

/* The record was acted on: store its offset for the next commit and release it. */
void dq_kafka_consumer_done(struct dq_kafka_consumer *consumer, struct dq_kafka_record *record);

/* Commit the stored offsets, asynchronously, when any were stored since the last commit. */
void dq_kafka_consumer_commit(struct dq_kafka_consumer *consumer);

/* Has the consumer had its partitions assigned (and their start offsets fixed) at least once? */
bool dq_kafka_consumer_ready(const struct dq_kafka_consumer *consumer);

/* Commit synchronously, leave the group and destroy. Returns 0 or -EIO (commit failed). */
int dq_kafka_consumer_close(struct dq_kafka_consumer *consumer);

#endif /* DRIVEQUAL_KAFKA_CONSUMER_H */
