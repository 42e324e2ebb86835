/*
 * The agent's book of devices, running jobs and recent commands, and the decision what to do with
 * one command (start on which device, refuse why, cancel, or ignore a repeat). Pure bookkeeping
 * with no Kafka and no threads, so the rules that keep commands idempotent are unit-tested.
 */
#ifndef DRIVEQUAL_AGENT_LEDGER_H
#define DRIVEQUAL_AGENT_LEDGER_H

#include <stdbool.h>
#include <stddef.h>

#include "agent/agent_config.h"
#include "contract/msg_job_command.h"
#include "contract/msg_job_event.h"
#include "contract/msg_runner_heartbeat.h"
#include "device/interlock.h"

#define DQ_AGENT_RECENT_DEFAULT 4096

/* A configured device and what the agent last learned of it. */
struct dq_agent_slot {
	const struct dq_agent_device_config *config;
	enum dq_engine engine; /* the configured engine */
	bool identified; /* entry.device holds the device's identity */
	bool needs_allowlist; /* destructive work there needs an allowlist entry (not diskless) */
	struct dq_heartbeat_device entry; /* identity, allowlisted, state (idle/refused), interlock */
	char message[DQ_UTF8_BUF(DQ_MESSAGE_MAX_CHARS)]; /* why it did not open / is refused */
	char job_id[DQ_ID_MAX_LEN + 1]; /* the job running on it; empty when idle */
	void *job; /* the agent's record of that job */
};

/* The last `capacity` ids seen, oldest forgotten first. */
struct dq_agent_recent {
	size_t capacity;
	size_t count;
	size_t next;
	char (*ids)[DQ_ID_MAX_LEN + 1];
};

struct dq_agent_ledger {
	size_t slot_count;
	struct dq_agent_slot *slots;
	struct dq_agent_recent commands; /* commandIds acted on */
	struct dq_agent_recent jobs; /* jobIds started, refused or cancelled here */
};

enum dq_agent_action {
	DQ_AGENT_ACTION_IGNORE, /* a repeat or nothing to act on: message says which */
	DQ_AGENT_ACTION_START, /* start the job on slot */
	DQ_AGENT_ACTION_CANCEL, /* cancel the job running on slot */
	DQ_AGENT_ACTION_REFUSE, /* emit refused with reason and message */
};

struct dq_agent_decision {
	enum dq_agent_action action;
	size_t slot;
	enum dq_refuse_reason reason;
	char message[DQ_UTF8_BUF(DQ_MESSAGE_MAX_CHARS)];
};

/* One slot per configured device; recent_capacity ids of each kind remembered. 0 or -ENOMEM. */
int dq_agent_ledger_init(struct dq_agent_ledger *ledger, const struct dq_agent_config *config,
			 size_t recent_capacity);
void dq_agent_ledger_fini(struct dq_agent_ledger *ledger);

/*
 * What to do with a decoded command addressed (by key) to runner_id. Repeats (same commandId, or
 * a start for a job already seen here) are ignored; a start picks the configured device whose
 * serial matches (preferring the command's transportAddress, honouring its engine): none is
 * device-not-found, only busy ones device-busy. Changes nothing: see dq_agent_ledger_remember().
 */
void dq_agent_ledger_decide(const struct dq_agent_ledger *ledger, const char *runner_id,
			    const struct dq_job_command *command,
			    struct dq_agent_decision *decision);

/*
 * A command that did not decode but names job_id: refuse it as invalid-command, unless that job
 * is known here (a refusal would overwrite a real job's events).
 */
void dq_agent_ledger_decide_invalid(const struct dq_agent_ledger *ledger, const char *job_id,
				    const char *reason, struct dq_agent_decision *decision);

/* Record that command was acted on (its commandId, and its jobId for starts and cancels). */
void dq_agent_ledger_remember(struct dq_agent_ledger *ledger, const struct dq_job_command *command);

/*
 * After an allowlist reload: the slots running a job on a device that needs an allowlist entry
 * (not a diskless engine's, which the interlocks never ask for one), which the previous allowlist
 * matched and the new one does not, written to slots (at most max). Returns how many.
 */
size_t dq_agent_ledger_revoked(const struct dq_agent_ledger *ledger,
			       const struct dq_allowlist *previous,
			       const struct dq_allowlist *current, size_t *slots, size_t max);

/* The slot running job_id, or -ENOENT. */
int dq_agent_ledger_find_job(const struct dq_agent_ledger *ledger, const char *job_id);

bool dq_agent_recent_contains(const struct dq_agent_recent *recent, const char *id);
void dq_agent_recent_add(struct dq_agent_recent *recent, const char *id);

#endif /* DRIVEQUAL_AGENT_LEDGER_H */
