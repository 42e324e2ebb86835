/*
 * From a command record to a running job: decode, decide with the ledger (repeat, refuse, start,
 * cancel), and run each accepted job in its own thread through a Kafka sink, so several devices
 * are qualified in parallel while the agent's loop keeps consuming and heartbeating.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "agent_internal.h"
#include "contract/clock.h"
#include "contract/strutil.h"

/* An event the agent itself sends for a job (not through dq_job_run): envelope filled here. */
static void event_envelope(struct dq_agent *agent, struct dq_job_event *event, const char *job_id,
			   uint32_t seq)
{
	dq_strlcpy(event->job_id, job_id, sizeof(event->job_id));
	dq_strlcpy(event->runner_id, agent->config->runner_id, sizeof(event->runner_id));
	event->seq = seq;
	snprintf(event->event_id, sizeof(event->event_id), "%s:%u", job_id, seq);
	dq_clock_format_timestamp(dq_clock_wall_ms(), event->time);
}

/* A refusal before any job ran: the job's first and only event, seq 0. */
static void send_refused(struct dq_agent *agent, const char *job_id, enum dq_refuse_reason reason,
			 const char *message, const char *serial)
{
	struct dq_job_event event = { .type = DQ_JOB_EVENT_REFUSED };
	char err[512];

	event_envelope(agent, &event, job_id, 0);
	event.refused.reason = reason;
	dq_strlcpy(event.refused.message, message, sizeof(event.refused.message));
	if (serial != NULL) {
		event.refused.has_device_serial = true;
		dq_strlcpy(event.refused.device_serial, serial,
			   sizeof(event.refused.device_serial));
	}
	DQ_AGENT_LOG("job %s refused (%s): %s\n", job_id, dq_refuse_reason_to_str(reason), message);
	if (dq_kafka_event_send(&agent->producer, agent->config->topic_events, &event, err,
				sizeof(err)) != 0) {
		DQ_AGENT_LOG("job %s: %s\n", job_id, err);
	}
}

/*
 * The job's sink failed (the local queue stayed full through a long broker outage, or an encoding
 * bug): the job ended without its final event, so send one. A full queue drains once the brokers
 * are back, so keep trying (the device stays busy meanwhile) until the agent stops.
 */
static void send_sink_failure(struct dq_agent_job *job)
{
	struct dq_job_event event = { .type = DQ_JOB_EVENT_FAILED };
	char err[512];
	int rc;

	event_envelope(job->agent, &event, job->spec.job_id, job->sink.next_seq);
	event.failed.reason = DQ_FAIL_INTERNAL;
	event.failed.has_phase_index = job->sink.phase_started;
	event.failed.phase_index = atomic_load(&job->sink.phase_index);
	snprintf(event.failed.message, sizeof(event.failed.message),
		 "the runner could not publish the job's messages: %s",
		 job->sink.error_message[0] != '\0' ? job->sink.error_message : strerror(-job->rc));
	for (;;) {
		rc = dq_kafka_event_send(&job->agent->producer, job->agent->config->topic_events,
					 &event, err, sizeof(err));
		if (rc != -EAGAIN || atomic_load(&job->agent->stopping)) {
			break;
		}
		DQ_AGENT_LOG("job %s: the local queue is still full; retrying its final event\n",
			     job->spec.job_id);
	}
	if (rc != 0) {
		DQ_AGENT_LOG("job %s: its final event (failed) is lost: %s\n", job->spec.job_id,
			     err);
	}
}

static void *job_thread(void *arg)
{
	struct dq_agent_job *job = arg;
	struct dq_sink sink = dq_kafka_sink_get(&job->sink);
	struct dq_job_outcome *outcome = &job->outcome;

	job->rc = dq_job_run(&job->spec, &job->allowlist, &sink, &job->cancel, outcome);
	if (job->rc == -ENOTRECOVERABLE) {
		DQ_AGENT_LOG("job %s stopped: the Kafka producer hit a fatal error\n",
			     job->spec.job_id);
	} else if (job->rc != 0) {
		DQ_AGENT_LOG("job %s failed: %s\n", job->spec.job_id, job->sink.error_message);
		send_sink_failure(job);
	} else if (outcome->type == DQ_JOB_EVENT_REFUSED) {
		DQ_AGENT_LOG("job %s refused (%s): %s\n", job->spec.job_id,
			     dq_refuse_reason_to_str(outcome->refuse_reason), outcome->message);
	} else {
		DQ_AGENT_LOG("job %s %s%s%s (%llu samples, %llu events queued)\n", job->spec.job_id,
			     dq_job_event_type_to_str(outcome->type),
			     outcome->message[0] != '\0' ? ": " : "", outcome->message,
			     (unsigned long long)job->sink.samples,
			     (unsigned long long)job->sink.events);
	}
	atomic_store(&job->finished, true);
	return NULL;
}

static int start_job(struct dq_agent *agent, size_t slot_index,
		     const struct dq_job_command *command)
{
	struct dq_agent_slot *slot = &agent->ledger.slots[slot_index];
	const struct dq_job_command_start *start = &command->start;
	struct dq_agent_job *job = calloc(1, sizeof(*job));
	sigset_t block, previous;
	int rc;

	if (job == NULL) {
		return -ENOMEM;
	}
	if (dq_allowlist_copy(&job->allowlist, &agent->allowlist.current) != 0) {
		free(job);
		return -ENOMEM;
	}
	job->agent = agent;
	job->slot = slot_index;
	atomic_init(&job->cancel, 0);
	job->spec.cancel_reason = job->cancel_reason;
	atomic_init(&job->finished, false);
	memcpy(job->phases, start->phases, start->phase_count * sizeof(start->phases[0]));
	dq_strlcpy(job->serial, start->device_serial, sizeof(job->serial));
	dq_strlcpy(job->spec.job_id, command->job_id, sizeof(job->spec.job_id));
	dq_strlcpy(job->spec.runner_id, agent->config->runner_id, sizeof(job->spec.runner_id));
	job->spec.engine_name = slot->config->engine;
	job->spec.target = slot->config->target;
	job->spec.direct = slot->config->direct;
	job->spec.engine_options = slot->config->options;
	job->spec.expected_serial = job->serial;
	job->spec.require_serial = true;
	job->spec.health_poll_interval_s = start->has_health_poll_interval_s ?
						   start->health_poll_interval_s :
						   agent->config->health_poll_interval_s;
	job->spec.has_latency_monitor = start->has_latency_monitor;
	job->spec.latency_monitor = start->latency_monitor;
	job->spec.phase_count = start->phase_count;
	job->spec.phases = job->phases;
	if (start->has_resume) {
		job->spec.first_phase = start->resume_phase_index;
		job->spec.first_phase_from_s = start->resume_from_s;
		job->spec.first_seq = start->resume_event_seq;
	}
	dq_kafka_sink_init(&job->sink, &agent->producer, agent->config->topic_samples,
			   agent->config->topic_events);
	/* Signals are the main thread's business: the job thread inherits a mask without them. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &previous);
	rc = -pthread_create(&job->thread, NULL, job_thread, job);
	pthread_sigmask(SIG_SETMASK, &previous, NULL);
	if (rc != 0) {
		dq_allowlist_fini(&job->allowlist);
		free(job);
		return rc;
	}
	slot->job = job;
	dq_strlcpy(slot->job_id, command->job_id, sizeof(slot->job_id));
	DQ_AGENT_LOG("job %s: %s on %s (%s %s), %zu phase(s)\n", command->job_id,
		     start->has_resume ? "resuming" : "starting", start->device_serial,
		     slot->config->engine, slot->config->target, start->phase_count);
	if (start->has_resume) {
		DQ_AGENT_LOG("job %s: resumes at phase %u, second %u; events from seq %u\n",
			     command->job_id, start->resume_phase_index, start->resume_from_s,
			     start->resume_event_seq);
	}
	return 0;
}

/* The jobId of an undecodable command, if it has a usable one. */
static bool read_job_id(const struct dq_kafka_record *record, char *job_id, size_t job_id_len)
{
	struct json_tokener *tokener = json_tokener_new();
	struct json_object *root = NULL, *value;
	bool found = false;

	if (tokener == NULL || record->value_len > INT32_MAX) {
		json_tokener_free(tokener);
		return false;
	}
	root = json_tokener_parse_ex(tokener, record->value, (int)record->value_len);
	if (root != NULL && json_object_object_get_ex(root, "jobId", &value) &&
	    json_object_is_type(value, json_type_string) &&
	    dq_agent_id_valid(json_object_get_string(value))) {
		dq_strlcpy(job_id, json_object_get_string(value), job_id_len);
		found = true;
	}
	json_object_put(root);
	json_tokener_free(tokener);
	return found;
}

static void handle_invalid(struct dq_agent *agent, const struct dq_kafka_record *record,
			   const char *reason)
{
	struct dq_agent_decision decision;
	char job_id[DQ_ID_MAX_LEN + 1];

	if (!read_job_id(record, job_id, sizeof(job_id))) {
		DQ_AGENT_LOG("skipped an invalid command without a usable jobId (partition %d, "
			     "offset %lld): %s\n",
			     (int)record->partition, (long long)record->offset, reason);
		return;
	}
	dq_agent_ledger_decide_invalid(&agent->ledger, job_id, reason, &decision);
	if (decision.action != DQ_AGENT_ACTION_REFUSE) {
		DQ_AGENT_LOG("%s\n", decision.message);
		return;
	}
	send_refused(agent, job_id, decision.reason, decision.message, NULL);
	dq_agent_recent_add(&agent->ledger.jobs, job_id);
}

static void act(struct dq_agent *agent, const struct dq_job_command *command,
		struct dq_agent_decision *decision)
{
	struct dq_agent_job *job;
	char message[128];
	int rc;

	switch (decision->action) {
	case DQ_AGENT_ACTION_IGNORE:
		DQ_AGENT_LOG("%s command %s ignored: %s\n",
			     dq_job_command_type_to_str(command->type), command->command_id,
			     decision->message);
		break;
	case DQ_AGENT_ACTION_REFUSE:
		send_refused(agent, command->job_id, decision->reason, decision->message,
			     command->type == DQ_JOB_COMMAND_START ? command->start.device_serial :
								     NULL);
		break;
	case DQ_AGENT_ACTION_START:
		rc = start_job(agent, decision->slot, command);
		if (rc != 0) {
			snprintf(message, sizeof(message),
				 "the runner cannot start a job thread: %s", strerror(-rc));
			send_refused(agent, command->job_id, DQ_REFUSE_ENGINE_UNAVAILABLE, message,
				     command->start.device_serial);
		}
		break;
	case DQ_AGENT_ACTION_CANCEL:
		job = agent->ledger.slots[decision->slot].job;
		dq_agent_job_cancel(job, NULL);
		DQ_AGENT_LOG("job %s: cancelling (command %s%s%s)\n", command->job_id,
			     command->command_id, command->cancel.has_reason ? ": " : "",
			     command->cancel.has_reason ? command->cancel.reason : "");
		break;
	}
}

void dq_agent_handle_record(struct dq_agent *agent, const struct dq_kafka_record *record)
{
	const char *runner_id = agent->config->runner_id;
	struct dq_agent_decision decision;
	struct dq_job_command *command;
	char err[512];
	int rc;

	/* Every runner reads every partition: act only on what is keyed to this one. */
	if (record->key == NULL || record->key_len != strlen(runner_id) ||
	    memcmp(record->key, runner_id, record->key_len) != 0) {
		return;
	}
	if (record->value == NULL) {
		DQ_AGENT_LOG("skipped an empty command record (partition %d, offset %lld)\n",
			     (int)record->partition, (long long)record->offset);
		return;
	}
	command = malloc(sizeof(*command));
	if (command == NULL) {
		DQ_AGENT_LOG("out of memory decoding a command (partition %d, offset %lld)\n",
			     (int)record->partition, (long long)record->offset);
		return;
	}
	rc = dq_job_command_decode(record->value, record->value_len, command, err, sizeof(err));
	if (rc != 0) {
		handle_invalid(agent, record, err);
		free(command);
		return;
	}
	dq_agent_ledger_decide(&agent->ledger, runner_id, command, &decision);
	if (decision.action == DQ_AGENT_ACTION_REFUSE &&
	    decision.reason == DQ_REFUSE_DEVICE_NOT_FOUND) {
		/* Devices come and go: look again before saying it is not here. */
		dq_agent_identify_idle(agent);
		dq_agent_ledger_decide(&agent->ledger, runner_id, command, &decision);
	}
	act(agent, command, &decision);
	dq_agent_ledger_remember(&agent->ledger, command);
	free(command);
}

size_t dq_agent_reap_jobs(struct dq_agent *agent)
{
	struct dq_agent_slot *slot;
	struct dq_agent_job *job;
	size_t i, running = 0;

	for (i = 0; i < agent->ledger.slot_count; i++) {
		slot = &agent->ledger.slots[i];
		job = slot->job;
		if (job == NULL) {
			continue;
		}
		if (!atomic_load(&job->finished)) {
			running++;
			continue;
		}
		pthread_join(job->thread, NULL);
		slot->job = NULL;
		slot->job_id[0] = '\0';
		dq_allowlist_fini(&job->allowlist);
		free(job);
	}
	return running;
}

void dq_agent_job_cancel(struct dq_agent_job *job, const char *reason)
{
	if (atomic_load(&job->cancel) != 0) {
		return; /* the first cancel's reason stands */
	}
	dq_strlcpy(job->cancel_reason, reason != NULL ? reason : "", sizeof(job->cancel_reason));
	atomic_store(&job->cancel, 1); /* seq_cst: the reason is visible before the flag */
}

void dq_agent_allowlist_poll(struct dq_agent *agent)
{
	struct dq_allowlist previous;
	struct dq_agent_job *job;
	size_t revoked[DQ_AGENT_MAX_DEVICES], count, i;
	int rc = dq_allowlist_watch_poll(&agent->allowlist, &previous);

	if (rc < 0) {
		DQ_AGENT_LOG("%s; keeping the previous allowlist (%zu entries)\n",
			     agent->allowlist.error, agent->allowlist.current.count);
		return;
	}
	if (rc == 0) {
		return;
	}
	DQ_AGENT_LOG("allowlist %s reloaded: %zu entries (was %zu)\n", agent->allowlist.path,
		     agent->allowlist.current.count, previous.count);
	count = dq_agent_ledger_revoked(&agent->ledger, &previous, &agent->allowlist.current,
					revoked, DQ_AGENT_MAX_DEVICES);
	for (i = 0; i < count; i++) {
		job = agent->ledger.slots[revoked[i]].job;
		DQ_AGENT_LOG("job %s: cancelling: drive %s removed from the allowlist\n",
			     agent->ledger.slots[revoked[i]].job_id, job->serial);
		dq_agent_job_cancel(job, DQ_AGENT_ALLOWLIST_REMOVED);
	}
	dq_allowlist_fini(&previous);
	dq_agent_identify_idle(agent); /* the next heartbeat says allowlisted or not */
}

void dq_agent_cancel_jobs(struct dq_agent *agent)
{
	struct dq_agent_job *job;
	size_t i;

	for (i = 0; i < agent->ledger.slot_count; i++) {
		job = agent->ledger.slots[i].job;
		if (job != NULL) {
			atomic_store(&job->cancel, 1);
		}
	}
}
