/*
 * The rules of the runner-commands topic on the runner's side: commands are idempotent by
 * commandId (the contract says so), a job runs at most once per runner, one job per device, and
 * a start lands on the device whose serial the service named, or is refused with the reason.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "agent_ledger.h"
#include "contract/phase_rules.h"
#include "contract/strutil.h"
#include "io/engine.h"
#include "job/job_runner.h"

static int recent_init(struct dq_agent_recent *recent, size_t capacity)
{
	memset(recent, 0, sizeof(*recent));
	recent->ids = calloc(capacity, sizeof(*recent->ids));
	if (recent->ids == NULL) {
		return -ENOMEM;
	}
	recent->capacity = capacity;
	return 0;
}

bool dq_agent_recent_contains(const struct dq_agent_recent *recent, const char *id)
{
	size_t i;

	for (i = 0; i < recent->count; i++) {
		if (strcmp(recent->ids[i], id) == 0) {
			return true;
		}
	}
	return false;
}

void dq_agent_recent_add(struct dq_agent_recent *recent, const char *id)
{
	if (recent->capacity == 0 || dq_agent_recent_contains(recent, id)) {
		return;
	}
	dq_strlcpy(recent->ids[recent->next], id, sizeof(recent->ids[0]));
	recent->next = (recent->next + 1) % recent->capacity;
	if (recent->count < recent->capacity) {
		recent->count++;
	}
}

int dq_agent_ledger_init(struct dq_agent_ledger *ledger, const struct dq_agent_config *config,
			 size_t recent_capacity)
{
	const struct dq_io_engine_ops *ops;
	char err[256];
	size_t i;

	memset(ledger, 0, sizeof(*ledger));
	ledger->slots =
		calloc(config->device_count > 0 ? config->device_count : 1, sizeof(*ledger->slots));
	if (ledger->slots == NULL || recent_init(&ledger->commands, recent_capacity) != 0 ||
	    recent_init(&ledger->jobs, recent_capacity) != 0) {
		dq_agent_ledger_fini(ledger);
		return -ENOMEM;
	}
	ledger->slot_count = config->device_count;
	for (i = 0; i < config->device_count; i++) {
		ledger->slots[i].config = &config->devices[i];
		if (dq_io_engine_find(config->devices[i].engine, &ops, err, sizeof(err)) == 0) {
			ledger->slots[i].engine = ops->engine;
		}
		snprintf(ledger->slots[i].message, sizeof(ledger->slots[i].message),
			 "not identified yet");
	}
	return 0;
}

void dq_agent_ledger_fini(struct dq_agent_ledger *ledger)
{
	free(ledger->slots);
	free(ledger->commands.ids);
	free(ledger->jobs.ids);
	memset(ledger, 0, sizeof(*ledger));
}

size_t dq_agent_ledger_revoked(const struct dq_agent_ledger *ledger,
			       const struct dq_allowlist *previous,
			       const struct dq_allowlist *current, size_t *slots, size_t max)
{
	const struct dq_agent_slot *slot;
	size_t i, count = 0;

	for (i = 0; i < ledger->slot_count && count < max; i++) {
		slot = &ledger->slots[i];
		if (slot->job_id[0] == '\0' || !slot->identified || !slot->needs_allowlist) {
			continue;
		}
		if (dq_allowlist_match(previous, &slot->entry.device) != NULL &&
		    dq_allowlist_match(current, &slot->entry.device) == NULL) {
			slots[count++] = i;
		}
	}
	return count;
}

int dq_agent_ledger_find_job(const struct dq_agent_ledger *ledger, const char *job_id)
{
	size_t i;

	for (i = 0; i < ledger->slot_count; i++) {
		if (ledger->slots[i].job_id[0] != '\0' &&
		    strcmp(ledger->slots[i].job_id, job_id) == 0) {
			return (int)i;
		}
	}
	return -ENOENT;
}

static void decision_set(struct dq_agent_decision *decision, enum dq_agent_action action,
			 enum dq_refuse_reason reason, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void decision_set(struct dq_agent_decision *decision, enum dq_agent_action action,
			 enum dq_refuse_reason reason, const char *fmt, ...)
{
	va_list args;

	decision->action = action;
	decision->reason = reason;
	va_start(args, fmt);
	vsnprintf(decision->message, sizeof(decision->message), fmt, args);
	va_end(args);
}

/* "SERIAL at TARGET, ..." for a device-not-found message; bounded by the message size. */
static void list_devices(const struct dq_agent_ledger *ledger, char *out, size_t out_len)
{
	const struct dq_agent_slot *slot;
	size_t i, used = 0;
	int n;

	out[0] = '\0';
	for (i = 0; i < ledger->slot_count && used < out_len; i++) {
		slot = &ledger->slots[i];
		n = slot->identified ?
			    snprintf(out + used, out_len - used, "%s%s at %s", i > 0 ? ", " : "",
				     slot->entry.device.serial, slot->config->target) :
			    snprintf(out + used, out_len - used, "%s%s (%s)", i > 0 ? ", " : "",
				     slot->config->target, slot->message);
		used += n > 0 ? (size_t)n : 0;
	}
	if (ledger->slot_count == 0) {
		snprintf(out, out_len, "none configured");
	}
}

static void decide_start(const struct dq_agent_ledger *ledger, const char *runner_id,
			 const struct dq_job_command *command, struct dq_agent_decision *decision)
{
	const struct dq_job_command_start *start = &command->start;
	const struct dq_agent_slot *slot, *busy = NULL, *other_engine = NULL;
	char err[512], devices[2048];
	size_t i;
	int best = -1, best_score = 0, score;

	if (dq_phase_list_check(start->phases, start->phase_count, err, sizeof(err)) != 0) {
		decision_set(decision, DQ_AGENT_ACTION_REFUSE, DQ_REFUSE_INVALID_COMMAND, "%s",
			     err);
		return;
	}
	for (i = 0; i < ledger->slot_count; i++) {
		slot = &ledger->slots[i];
		if (!slot->identified || strcmp(slot->entry.device.serial, start->device_serial)) {
			continue;
		}
		if (start->engine != DQ_ENGINE_NONE && slot->engine != start->engine) {
			other_engine = slot;
			continue;
		}
		if (slot->job_id[0] != '\0') {
			busy = slot;
			continue;
		}
		score = 1;
		if (start->has_transport_address &&
		    (strcmp(slot->entry.device.transport_address, start->transport_address) == 0 ||
		     strcmp(slot->config->target, start->transport_address) == 0)) {
			score = 2;
		}
		if (score > best_score) {
			best = (int)i;
			best_score = score;
		}
	}
	if (best >= 0) {
		decision->action = DQ_AGENT_ACTION_START;
		decision->slot = (size_t)best;
		return;
	}
	if (busy != NULL) {
		decision_set(decision, DQ_AGENT_ACTION_REFUSE, DQ_REFUSE_DEVICE_BUSY,
			     "device %s (%s) on runner %s is running job %s", start->device_serial,
			     busy->config->target, runner_id, busy->job_id);
	} else if (other_engine != NULL) {
		decision_set(decision, DQ_AGENT_ACTION_REFUSE, DQ_REFUSE_ENGINE_UNAVAILABLE,
			     "device %s (%s) on runner %s is configured for engine %s, the command "
			     "asks for %s",
			     start->device_serial, other_engine->config->target, runner_id,
			     other_engine->config->engine, dq_engine_to_str(start->engine));
	} else {
		list_devices(ledger, devices, sizeof(devices));
		decision_set(decision, DQ_AGENT_ACTION_REFUSE, DQ_REFUSE_DEVICE_NOT_FOUND,
			     "runner %s has no device with serial %s (its devices: %.3000s)",
			     runner_id, start->device_serial, devices);
	}
}

static bool job_known(const struct dq_agent_ledger *ledger, const char *job_id)
{
	return dq_agent_ledger_find_job(ledger, job_id) >= 0 ||
	       dq_agent_recent_contains(&ledger->jobs, job_id);
}

void dq_agent_ledger_decide(const struct dq_agent_ledger *ledger, const char *runner_id,
			    const struct dq_job_command *command,
			    struct dq_agent_decision *decision)
{
	int slot;

	memset(decision, 0, sizeof(*decision));
	if (dq_agent_recent_contains(&ledger->commands, command->command_id)) {
		decision_set(decision, DQ_AGENT_ACTION_IGNORE, DQ_REFUSE_NONE,
			     "command %s was already acted on", command->command_id);
		return;
	}
	if (strcmp(command->runner_id, runner_id) != 0) {
		dq_agent_ledger_decide_invalid(ledger, command->job_id, "", decision);
		if (decision->action == DQ_AGENT_ACTION_REFUSE) {
			decision_set(decision, DQ_AGENT_ACTION_REFUSE, DQ_REFUSE_INVALID_COMMAND,
				     "the command names runner %s but was sent to runner %s",
				     command->runner_id, runner_id);
		}
		return;
	}
	if (command->type == DQ_JOB_COMMAND_CANCEL) {
		slot = dq_agent_ledger_find_job(ledger, command->job_id);
		if (slot >= 0) {
			decision->action = DQ_AGENT_ACTION_CANCEL;
			decision->slot = (size_t)slot;
		} else {
			decision_set(decision, DQ_AGENT_ACTION_IGNORE, DQ_REFUSE_NONE,
				     "cancel of job %s: not running here (%s)", command->job_id,
				     dq_agent_recent_contains(&ledger->jobs, command->job_id) ?
					     "it already ended" :
					     "never started here");
		}
		return;
	}
	if (job_known(ledger, command->job_id)) {
		decision_set(decision, DQ_AGENT_ACTION_IGNORE, DQ_REFUSE_NONE,
			     "start of job %s: the job is %s here", command->job_id,
			     dq_agent_ledger_find_job(ledger, command->job_id) >= 0 ?
				     "already running" :
				     "already started (or refused, or cancelled)");
		return;
	}
	decide_start(ledger, runner_id, command, decision);
}

void dq_agent_ledger_decide_invalid(const struct dq_agent_ledger *ledger, const char *job_id,
				    const char *reason, struct dq_agent_decision *decision)
{
	memset(decision, 0, sizeof(*decision));
	if (job_known(ledger, job_id)) {
		decision_set(decision, DQ_AGENT_ACTION_IGNORE, DQ_REFUSE_NONE,
			     "an invalid command names job %s, which is known here: ignored (%s)",
			     job_id, reason);
		return;
	}
	decision_set(decision, DQ_AGENT_ACTION_REFUSE, DQ_REFUSE_INVALID_COMMAND,
		     "invalid command: %.3900s", reason);
}

void dq_agent_ledger_remember(struct dq_agent_ledger *ledger, const struct dq_job_command *command)
{
	dq_agent_recent_add(&ledger->commands, command->command_id);
	dq_agent_recent_add(&ledger->jobs, command->job_id);
}
