/*
 * The runner's default Kafka topic names. schemas/topics.json is the source of truth; a ctest
 * (tests/test_topics.c) fails when these drift from it.
 */
#ifndef DRIVEQUAL_TOPICS_H
#define DRIVEQUAL_TOPICS_H

#include <stddef.h>

#define DQ_TOPIC_RUNNER_COMMANDS "drivequal.runner-commands"
#define DQ_TOPIC_SAMPLES "drivequal.samples"
#define DQ_TOPIC_JOB_EVENTS "drivequal.job-events"
#define DQ_TOPIC_RUNNER_HEARTBEATS "drivequal.runner-heartbeats"

/* A topic the runner uses: its default name, message key and schema (paths as in topics.json). */
struct dq_topic_default {
	const char *name;
	const char *key;
	const char *schema;
	const char *role; /* "producer" or "consumer": what the runner is on this topic */
};

/* The runner's topics; *count receives their number. */
const struct dq_topic_default *dq_topic_defaults_get(size_t *count);

#endif /* DRIVEQUAL_TOPICS_H */
