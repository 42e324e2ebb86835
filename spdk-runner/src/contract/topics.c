/*
 * The runner's topic table, kept next to the names in topics.h so a test can compare both the
 * names and what flows on them with schemas/topics.json.
 */
#include "contract/topics.h"

static const struct dq_topic_default g_topic_defaults[] = {
	{ .name = DQ_TOPIC_RUNNER_COMMANDS,
	  .key = "runnerId",
	  .schema = "messages/job-command.schema.json",
	  .role = "consumer" },
	{ .name = DQ_TOPIC_SAMPLES,
	  .key = "jobId",
	  .schema = "messages/sample.schema.json",
	  .role = "producer" },
	{ .name = DQ_TOPIC_JOB_EVENTS,
	  .key = "jobId",
	  .schema = "messages/job-event.schema.json",
	  .role = "producer" },
	{ .name = DQ_TOPIC_RUNNER_HEARTBEATS,
	  .key = "runnerId",
	  .schema = "messages/runner-heartbeat.schema.json",
	  .role = "producer" },
};

const struct dq_topic_default *dq_topic_defaults_get(size_t *count)
{
	*count = sizeof(g_topic_defaults) / sizeof(g_topic_defaults[0]);
	return g_topic_defaults;
}
