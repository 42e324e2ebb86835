/*
 * The agent's life: set up the producer, the command consumer and the devices, then tick (one
 * command, one producer poll, one commit, reap finished jobs, look at the allowlist file once a
 * second, heartbeat when due) until a signal
 * or a fatal Kafka error, and shut down in the order that loses nothing: cancel jobs, wait for
 * their final events, commit, close the consumer, flush the producer (bounded) and check it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "agent/agent.h"
#include "agent_internal.h"
#include "contract/clock.h"
#include "contract/strutil.h"

#define AGENT_TICK_MS 100
#define AGENT_WAIT_LOG_MS 5000
#define AGENT_ALLOWLIST_POLL_MS 1000 /* a changed allowlist is in force within about a second */
#define AGENT_MAX_PRODUCER_PROPERTIES (DQ_AGENT_MAX_PROPERTIES + 3)

static uint64_t monotonic_ms(void)
{
	return dq_clock_monotonic_ns() / DQ_NS_PER_MS;
}

static int producer_setup(struct dq_agent *agent)
{
	const struct dq_agent_config *config = agent->config;
	const char *properties[AGENT_MAX_PRODUCER_PROPERTIES];
	char client[sizeof(agent->client_id) + 16], queue_messages[64], queue_kbytes[64];
	struct dq_kafka_producer_opts opts = { .brokers = config->brokers,
					       .properties = properties };
	char err[512];
	size_t i;
	int rc;

	/* Defaults first: the configuration's properties may override them. */
	snprintf(client, sizeof(client), "client.id=%s", agent->client_id);
	snprintf(queue_messages, sizeof(queue_messages), "queue.buffering.max.messages=%d",
		 DQ_KAFKA_SINK_QUEUE_MAX_MESSAGES);
	snprintf(queue_kbytes, sizeof(queue_kbytes), "queue.buffering.max.kbytes=%d",
		 DQ_KAFKA_SINK_QUEUE_MAX_KBYTES);
	properties[opts.property_count++] = client;
	properties[opts.property_count++] = queue_messages;
	properties[opts.property_count++] = queue_kbytes;
	for (i = 0; i < config->property_count; i++) {
		properties[opts.property_count++] = config->properties[i];
	}
	rc = dq_locked_producer_init(&agent->producer, &opts, err, sizeof(err));
	if (rc != 0) {
		/* The properties were checked (and secrets redacted) by the config already. */
		DQ_AGENT_LOG("%s\n", rc == -ENOMEM ? strerror(ENOMEM) : err);
	}
	return rc;
}

static int consumer_setup(struct dq_agent *agent)
{
	const struct dq_agent_config *config = agent->config;
	char group[DQ_ID_MAX_LEN + 32], err[512];
	struct dq_kafka_consumer_opts opts = {
		.brokers = config->brokers,
		.properties = (const char *const *)config->properties,
		.property_count = config->property_count,
		.group_id = group,
		.client_id = agent->client_id,
		.topic = config->topic_commands,
	};
	int rc;

	snprintf(group, sizeof(group), "drivequal-runner-%s", config->runner_id);
	rc = dq_kafka_consumer_create(&opts, &agent->consumer, err, sizeof(err));
	if (rc != 0) {
		DQ_AGENT_LOG("%s\n", rc == -ENOMEM ? strerror(ENOMEM) : err);
	}
	return rc;
}

static int agent_setup(struct dq_agent *agent, const struct dq_agent_config *config)
{
	char err[512];
	size_t i;
	int rc;

	agent->config = config;
	snprintf(agent->client_id, sizeof(agent->client_id), "drivequal-runner-%s",
		 config->runner_id);
	rc = dq_allowlist_watch_init(&agent->allowlist, config->allowlist_path, err, sizeof(err));
	if (rc != 0) {
		DQ_AGENT_LOG("%s\n", rc == -ENOMEM ? strerror(ENOMEM) : err);
		return rc == -ENOMEM ? rc : -EINVAL;
	}
	rc = dq_agent_ledger_init(&agent->ledger, config, DQ_AGENT_RECENT_DEFAULT);
	rc = rc != 0 ? rc : producer_setup(agent);
	rc = rc != 0 ? rc : consumer_setup(agent);
	if (rc != 0) {
		return rc;
	}
	for (i = 0; i < agent->ledger.slot_count; i++) {
		dq_agent_slot_identify(&agent->ledger.slots[i], &agent->allowlist.current);
	}
	if (config->device_count == 0) {
		DQ_AGENT_LOG("no devices configured: heartbeats only, every start is refused\n");
	}
	return 0;
}

static void check_fatal(struct dq_agent *agent)
{
	if (!agent->fatal && dq_locked_producer_fatal(&agent->producer, agent->fatal_reason,
						      sizeof(agent->fatal_reason))) {
		agent->fatal = true;
	}
}

static void heartbeat_if_due(struct dq_agent *agent)
{
	uint64_t now = monotonic_ms();

	if (!dq_kafka_consumer_ready(agent->consumer) || now < agent->next_heartbeat_ms) {
		return;
	}
	if (agent->next_heartbeat_ms == 0) {
		DQ_AGENT_LOG("runner %s: listening on %s; first heartbeat\n",
			     agent->config->runner_id, agent->config->topic_commands);
	}
	dq_agent_identify_idle(agent);
	dq_agent_heartbeat_send(agent);
	agent->next_heartbeat_ms = now + agent->config->heartbeat_interval_ms;
}

static void tick(struct dq_agent *agent)
{
	struct dq_kafka_record record;
	int rc;

	rc = dq_kafka_consumer_poll(agent->consumer, AGENT_TICK_MS, &record);
	if (rc > 0) {
		dq_agent_handle_record(agent, &record);
		dq_kafka_consumer_done(agent->consumer, &record);
	} else if (rc < 0) {
		agent->fatal = true;
		snprintf(agent->fatal_reason, sizeof(agent->fatal_reason),
			 "the commands consumer hit a fatal error");
	}
	dq_locked_producer_poll(&agent->producer);
	dq_kafka_consumer_commit(agent->consumer);
	check_fatal(agent);
	dq_agent_reap_jobs(agent);
	if (monotonic_ms() >= agent->next_allowlist_poll_ms) {
		dq_agent_allowlist_poll(agent);
		agent->next_allowlist_poll_ms = monotonic_ms() + AGENT_ALLOWLIST_POLL_MS;
	}
	if (!agent->fatal) {
		heartbeat_if_due(agent);
	}
}

/* Cancel and wait for every job's final event; a second signal stops waiting. */
static bool wait_for_jobs(struct dq_agent *agent, atomic_int *stop)
{
	struct timespec slice = { .tv_nsec = AGENT_TICK_MS * 1000000L };
	uint64_t next_log = monotonic_ms() + AGENT_WAIT_LOG_MS;
	size_t running = dq_agent_reap_jobs(agent);

	if (running > 0) {
		DQ_AGENT_LOG("cancelling %zu running job(s); a second signal stops waiting\n",
			     running);
	}
	atomic_store(&agent->stopping, true);
	dq_agent_cancel_jobs(agent);
	while ((running = dq_agent_reap_jobs(agent)) > 0) {
		if (atomic_load(stop) >= 2) {
			DQ_AGENT_LOG(
				"second signal: leaving %zu job(s) without their final event\n",
				running);
			return false;
		}
		if (monotonic_ms() >= next_log) {
			DQ_AGENT_LOG("waiting for %zu job(s) to end (a purge cannot be "
				     "interrupted)\n",
				     running);
			next_log = monotonic_ms() + AGENT_WAIT_LOG_MS;
		}
		dq_locked_producer_poll(&agent->producer);
		nanosleep(&slice, NULL);
	}
	return true;
}

static int agent_shutdown(struct dq_agent *agent, atomic_int *stop)
{
	struct dq_kafka_producer_stats stats;
	bool jobs_ended = wait_for_jobs(agent, stop);
	int rc = 0, flush_rc;

	if (agent->consumer != NULL && dq_kafka_consumer_close(agent->consumer) != 0) {
		rc = -EIO;
	}
	agent->consumer = NULL;
	if (agent->producer.producer == NULL) {
		return rc;
	}
	if (!agent->fatal && jobs_ended && agent->next_heartbeat_ms != 0) {
		dq_agent_heartbeat_send(agent); /* the devices idle, no active jobs */
	}
	flush_rc = dq_locked_producer_flush(&agent->producer, (int)agent->config->flush_timeout_ms);
	dq_locked_producer_get_stats(&agent->producer, &stats);
	DQ_AGENT_LOG("producer: %" PRIu64 " messages queued, %" PRIu64 " delivered, %" PRIu64
		     " failed\n",
		     stats.produced, stats.delivered, stats.failed);
	if (flush_rc == -ETIMEDOUT) {
		DQ_AGENT_LOG("%" PRIu64
			     " message(s) still undelivered after %u ms (flushTimeoutMs): "
			     "they are lost\n",
			     stats.produced - stats.delivered - stats.failed,
			     agent->config->flush_timeout_ms);
		rc = -EIO;
	} else if (stats.failed > 0) {
		rc = -EIO;
	}
	if (jobs_ended) {
		dq_locked_producer_fini(&agent->producer, 0);
	} /* else a job thread may still produce: the process exits with the producer alive */
	if (agent->fatal || flush_rc == -ENOTRECOVERABLE) {
		return -ENOTRECOVERABLE;
	}
	return jobs_ended ? rc : -EINTR;
}

int dq_agent_run(const struct dq_agent_config *config, atomic_int *stop)
{
	struct dq_agent *agent = calloc(1, sizeof(*agent));
	int rc;

	if (agent == NULL) {
		return -ENOMEM;
	}
	rc = agent_setup(agent, config);
	if (rc != 0) {
		goto cleanup;
	}
	DQ_AGENT_LOG("runner %s: waiting for the partition assignment of %s before the first "
		     "heartbeat\n",
		     config->runner_id, config->topic_commands);
	while (atomic_load(stop) == 0 && !agent->fatal) {
		tick(agent);
	}
	if (agent->fatal) {
		DQ_AGENT_LOG("stopping: fatal Kafka error: %s\n", agent->fatal_reason);
	} else {
		DQ_AGENT_LOG("stopping on signal\n");
	}
	rc = agent_shutdown(agent, stop);
	if (rc == -EINTR) {
		return rc; /* jobs still run: nothing may be freed under them */
	}
cleanup:
	if (agent->consumer != NULL) {
		dq_kafka_consumer_close(agent->consumer);
	}
	dq_locked_producer_fini(&agent->producer, 0);
	dq_agent_ledger_fini(&agent->ledger);
	dq_allowlist_watch_fini(&agent->allowlist);
	free(agent);
	return rc;
}
