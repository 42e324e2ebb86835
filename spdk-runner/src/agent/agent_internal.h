/*
 * The agent's context, shared by its parts: the loop (agent.c), command handling and job threads
 * (agent_jobs.c) and heartbeats (agent_heartbeat.c). Only the agent's main thread touches the
 * ledger; a job thread touches its own dq_agent_job and the locked producer.
 */
#ifndef DRIVEQUAL_AGENT_INTERNAL_H
#define DRIVEQUAL_AGENT_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "agent/agent_config.h"
#include "agent_allowlist.h"
#include "agent_ledger.h"
#include "device/interlock.h"
#include "job/job_runner.h"
#include "kafka_consumer.h"
#include "kafka_sink.h"

/* The reason a reload's cancel gives, in the job's cancelled event and so in the job's message. */
#define DQ_AGENT_ALLOWLIST_REMOVED "drive removed from the allowlist"

#define DQ_AGENT_LOG(...) fprintf(stderr, "drivequal-runner agent: " __VA_ARGS__)

/* One job running on one device, in its own thread. */
struct dq_agent_job {
	struct dq_agent *agent;
	size_t slot;
	pthread_t thread;
	atomic_int cancel;
	atomic_bool finished; /* set last by the job thread: the main thread may join */
	char cancel_reason[128]; /* spec.cancel_reason: written before cancel is set */
	struct dq_allowlist allowlist; /* the job's own copy: a reload never changes it under admit */
	struct dq_job_spec spec;
	struct dq_phase_spec phases[DQ_MAX_PHASES];
	char serial[DQ_SERIAL_MAX_LEN + 1];
	struct dq_kafka_sink sink;
	struct dq_job_outcome outcome;
	int rc; /* dq_job_run()'s result */
};

struct dq_agent {
	const struct dq_agent_config *config;
	struct dq_allowlist_watch
		allowlist; /* .current is in force; reloaded when the file changes */
	uint64_t next_allowlist_poll_ms; /* monotonic */
	struct dq_agent_ledger ledger;
	struct dq_locked_producer producer;
	struct dq_kafka_consumer *consumer;
	char client_id[DQ_ID_MAX_LEN + 32];
	uint64_t next_heartbeat_ms; /* monotonic */
	atomic_bool stopping; /* shutdown began: jobs stop retrying their final event */
	bool fatal; /* a fatal Kafka error: stop */
	char fatal_reason[512];
};

/* agent_jobs.c: act on one consumed record (its offset is stored by the caller). */
void dq_agent_handle_record(struct dq_agent *agent, const struct dq_kafka_record *record);

/* agent_jobs.c: join the jobs that finished and free their devices. Returns how many still run. */
size_t dq_agent_reap_jobs(struct dq_agent *agent);

/* agent_jobs.c: set every running job's cancel flag. */
void dq_agent_cancel_jobs(struct dq_agent *agent);

/* agent_jobs.c: cancel one job, saying why in its cancelled event (reason may be NULL). */
void dq_agent_job_cancel(struct dq_agent_job *job, const char *reason);

/* agent_jobs.c: reload the allowlist if its file changed; cancel the jobs of drives it removed. */
void dq_agent_allowlist_poll(struct dq_agent *agent);

/* agent_heartbeat.c: open a configured device read-only for its identity and interlock state. */
void dq_agent_slot_identify(struct dq_agent_slot *slot, const struct dq_allowlist *allowlist);

/* agent_heartbeat.c: identify the idle devices again (devices come and go). */
void dq_agent_identify_idle(struct dq_agent *agent);

/* agent_heartbeat.c: build and queue one heartbeat. Returns 0 or -errno (logged). */
int dq_agent_heartbeat_send(struct dq_agent *agent);

#endif /* DRIVEQUAL_AGENT_INTERNAL_H */
