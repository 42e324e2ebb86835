/*
 * The agent's heartbeat: who this runner is, which engines it has, the devices it owns (identity,
 * allowlisted, idle/busy/refused and the interlock that would refuse) and its running jobs. The
 * service's runner registry and scheduler live on it; silence for 30 s interrupts the jobs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent_internal.h"
#include "contract/clock.h"
#include "contract/strutil.h"
#include "io/engine.h"

/* Say what changed about a device, once, rather than every heartbeat. */
static void log_change(const struct dq_agent_slot *slot, bool was_identified,
		       const char *old_serial, const char *old_message)
{
	if (slot->identified &&
	    (!was_identified || strcmp(old_serial, slot->entry.device.serial))) {
		DQ_AGENT_LOG("device %s %s: serial %s, %s%s%s\n", slot->config->engine,
			     slot->config->target, slot->entry.device.serial,
			     dq_device_state_to_str(slot->entry.state),
			     slot->message[0] != '\0' ? ": " : "", slot->message);
	} else if (!slot->identified && (was_identified || strcmp(old_message, slot->message))) {
		DQ_AGENT_LOG("device %s %s: %s (left out of heartbeats until it opens)\n",
			     slot->config->engine, slot->config->target, slot->message);
	}
}

void dq_agent_slot_identify(struct dq_agent_slot *slot, const struct dq_allowlist *allowlist)
{
	struct dq_io_engine_open_args args = { .target = slot->config->target,
					       .queue_depth = 1,
					       .direct = slot->config->direct,
					       .options = slot->config->options };
	char err[512], old_serial[DQ_SERIAL_MAX_LEN + 1], old_message[sizeof(slot->message)];
	struct dq_interlock_verdict verdict = { 0 };
	const struct dq_allowlist_entry *entry;
	const struct dq_io_engine_ops *ops;
	struct dq_io_engine engine;
	bool was_identified = slot->identified;
	int rc;

	dq_strlcpy(old_serial, slot->entry.device.serial, sizeof(old_serial));
	dq_strlcpy(old_message, slot->message, sizeof(old_message));
	slot->message[0] = '\0';
	rc = dq_io_engine_find(slot->config->engine, &ops, err, sizeof(err));
	if (rc == 0) {
		rc = dq_io_engine_open(&engine, ops, &args, err, sizeof(err));
		if (rc == -EINVAL && args.direct) {
			args.direct =
				false; /* a file system without O_DIRECT still has an identity */
			rc = dq_io_engine_open(&engine, ops, &args, err, sizeof(err));
		}
	}
	if (rc != 0) {
		slot->identified = false;
		snprintf(slot->message, sizeof(slot->message), "cannot open: %s", err);
		log_change(slot, was_identified, old_serial, old_message);
		return;
	}
	slot->identified = true;
	slot->entry.device = engine.target.device;
	slot->entry.capabilities = engine.target.capabilities;
	slot->entry.state = DQ_DEVICE_STATE_IDLE;
	slot->entry.interlock = DQ_INTERLOCK_NONE;
	entry = dq_allowlist_match(allowlist, &engine.target.device);
	/* A diskless engine has nothing to destroy: jobs need no allowlist entry there. */
	slot->needs_allowlist = !dq_io_engine_has(&engine, DQ_ENGINE_DISKLESS);
	slot->entry.allowlisted = entry != NULL || !slot->needs_allowlist;
	if (!slot->entry.allowlisted) {
		slot->entry.interlock = DQ_INTERLOCK_NOT_ALLOWLISTED;
		slot->entry.state = DQ_DEVICE_STATE_REFUSED;
		snprintf(slot->message, sizeof(slot->message), "not in the allowlist");
	} else if (entry != NULL &&
		   (dq_interlock_probe_device(&engine.target, entry, &verdict) != 0 ||
		    verdict.reason != DQ_REFUSE_NONE)) {
		slot->entry.interlock = dq_interlock_from_refusal(verdict.reason);
		slot->entry.state = DQ_DEVICE_STATE_REFUSED;
		dq_strlcpy(slot->message, verdict.message, sizeof(slot->message));
	}
	dq_io_engine_close(&engine);
	log_change(slot, was_identified, old_serial, old_message);
}

void dq_agent_identify_idle(struct dq_agent *agent)
{
	size_t i;

	for (i = 0; i < agent->ledger.slot_count; i++) {
		if (agent->ledger.slots[i].job == NULL) {
			dq_agent_slot_identify(&agent->ledger.slots[i], &agent->allowlist.current);
		}
	}
}

static void fill_engines(struct dq_runner_heartbeat *heartbeat)
{
	const struct dq_io_engine_slot *slots;
	size_t count, i;

	slots = dq_io_engine_slots(&count);
	for (i = 0; i < count && heartbeat->engine_count < DQ_ENGINE_COUNT - 1; i++) {
		if (slots[i].get_ops != NULL) {
			heartbeat->engines[heartbeat->engine_count++] = slots[i].engine;
		}
	}
}

int dq_agent_heartbeat_send(struct dq_agent *agent)
{
	const struct dq_agent_config *config = agent->config;
	struct dq_runner_heartbeat heartbeat = { .interval_ms = config->heartbeat_interval_ms };
	struct dq_heartbeat_active_job *active;
	const struct dq_agent_slot *slot;
	const struct dq_agent_job *job;
	char err[512], host[256] = "", *json = NULL;
	size_t i, len;
	int rc = -ENOMEM;

	heartbeat.devices = calloc(agent->ledger.slot_count + 1, sizeof(*heartbeat.devices));
	heartbeat.active_jobs =
		calloc(agent->ledger.slot_count + 1, sizeof(*heartbeat.active_jobs));
	if (heartbeat.devices == NULL || heartbeat.active_jobs == NULL) {
		goto out;
	}
	dq_strlcpy(heartbeat.runner_id, config->runner_id, sizeof(heartbeat.runner_id));
	dq_clock_format_timestamp(dq_clock_wall_ms(), heartbeat.time);
	dq_strlcpy(heartbeat.runner_version, DRIVEQUAL_VERSION, sizeof(heartbeat.runner_version));
	if (gethostname(host, sizeof(host) - 1) == 0 && host[0] != '\0') {
		heartbeat.has_hostname = true;
		dq_strlcpy(heartbeat.hostname, host, sizeof(heartbeat.hostname));
	}
	fill_engines(&heartbeat);
	for (i = 0; i < agent->ledger.slot_count; i++) {
		slot = &agent->ledger.slots[i];
		if (!slot->identified) {
			continue;
		}
		heartbeat.devices[heartbeat.device_count] = slot->entry;
		if (slot->job == NULL) {
			heartbeat.device_count++;
			continue;
		}
		heartbeat.devices[heartbeat.device_count++].state = DQ_DEVICE_STATE_BUSY;
		job = slot->job;
		active = &heartbeat.active_jobs[heartbeat.active_job_count++];
		dq_strlcpy(active->job_id, slot->job_id, sizeof(active->job_id));
		dq_strlcpy(active->device_serial, job->serial, sizeof(active->device_serial));
		active->phase_index = atomic_load(&job->sink.phase_index);
	}
	rc = dq_runner_heartbeat_encode(&heartbeat, &json, &len, err, sizeof(err));
	if (rc != 0) {
		DQ_AGENT_LOG("cannot encode a heartbeat: %s\n", err);
		goto out;
	}
	rc = dq_locked_producer_produce(&agent->producer, config->topic_heartbeats,
					config->runner_id, json, len);
	if (rc != 0) {
		DQ_AGENT_LOG("cannot queue a heartbeat: %s\n", strerror(-rc));
	}
out:
	free(json);
	free(heartbeat.devices);
	free(heartbeat.active_jobs);
	return rc;
}
