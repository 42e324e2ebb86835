/*
 * The agent's command rules without a broker: repeats are ignored (same commandId, or a start for
 * a job already seen), a start lands on the idle device with the named serial (transportAddress
 * preferred, engine honoured) or is refused device-busy / device-not-found / engine-unavailable /
 * invalid-command, and cancel reaches only a running job.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "agent_ledger.h"
#include "test_util.h"

#define SERIAL_A "S6CKNE0T801234"
#define SERIAL_NULL "NULL-ENGINE-FAKE-SERIAL"

static const char g_phases[] =
	"\"phases\":[{\"index\":0,\"name\":\"w\",\"kind\":\"workload\",\"rw\":\"randwrite\","
	"\"blockSizeBytes\":4096,\"queueDepth\":32,\"rangePercent\":100,\"runtimeS\":5}]";

static void command_start(struct test_ctx *t, struct dq_job_command *command,
			  const char *command_id, const char *job_id, const char *runner_id,
			  const char *device_extra)
{
	char json[2048], err[512] = "";
	int rc;

	snprintf(json, sizeof(json),
		 "{\"schemaVersion\":1,\"type\":\"start\",\"commandId\":\"%s\",\"jobId\":\"%s\","
		 "\"runnerId\":\"%s\",\"issuedAt\":\"2026-11-22T21:00:00.000Z\",%s,%s}",
		 command_id, job_id, runner_id, device_extra, g_phases);
	rc = dq_job_command_decode(json, strlen(json), command, err, sizeof(err));
	CHECK(t, rc == 0, "test command does not decode: %s", err);
}

static void command_cancel(struct test_ctx *t, struct dq_job_command *command,
			   const char *command_id, const char *job_id)
{
	char json[512], err[512] = "";
	int rc;

	snprintf(json, sizeof(json),
		 "{\"schemaVersion\":1,\"type\":\"cancel\",\"commandId\":\"%s\",\"jobId\":\"%s\","
		 "\"runnerId\":\"r1\",\"issuedAt\":\"2026-11-22T21:00:00.000Z\"}",
		 command_id, job_id);
	rc = dq_job_command_decode(json, strlen(json), command, err, sizeof(err));
	CHECK(t, rc == 0, "test cancel does not decode: %s", err);
}

/* Three devices: a uring drive (SERIAL_A), and two null devices sharing the null serial. */
static void setup(struct test_ctx *t, struct dq_agent_config *config,
		  struct dq_agent_ledger *ledger)
{
	static const char *const targets[][2] = {
		{ "uring", "/dev/nvme0n1" },
		{ "null", "null:16g" },
		{ "null", "null:1g" },
	};
	static const char *const serials[] = { SERIAL_A, SERIAL_NULL, SERIAL_NULL };
	static const char *const addresses[] = { "/dev/nvme0n1", "null:17179869184",
						 "null:1073741824" };
	size_t i;

	dq_agent_config_init(config);
	config->devices = calloc(3, sizeof(*config->devices));
	for (i = 0; i < 3; i++) {
		snprintf(config->devices[i].engine, sizeof(config->devices[i].engine), "%s",
			 targets[i][0]);
		config->devices[i].target = strdup(targets[i][1]);
		config->devices[i].direct = true;
	}
	config->device_count = 3;
	CHECK(t, dq_agent_ledger_init(ledger, config, 8) == 0, "ledger init");
	for (i = 0; i < 3; i++) {
		struct dq_agent_slot *slot = &ledger->slots[i];

		slot->identified = true;
		snprintf(slot->entry.device.serial, sizeof(slot->entry.device.serial), "%s",
			 serials[i]);
		snprintf(slot->entry.device.transport_address,
			 sizeof(slot->entry.device.transport_address), "%s", addresses[i]);
	}
	CHECK(t,
	      ledger->slots[0].engine == DQ_ENGINE_URING &&
		      ledger->slots[1].engine == DQ_ENGINE_NULL,
	      "slot engines from the config");
}

static void mark_running(struct dq_agent_ledger *ledger, size_t slot, const char *job_id)
{
	snprintf(ledger->slots[slot].job_id, sizeof(ledger->slots[slot].job_id), "%s", job_id);
}

static void test_start_and_repeats(struct test_ctx *t)
{
	struct dq_agent_config config;
	struct dq_agent_ledger ledger;
	struct dq_agent_decision d;
	struct dq_job_command *c = malloc(sizeof(*c));

	setup(t, &config, &ledger);
	command_start(t, c, "cmd-1", "job-1", "r1", "\"device\":{\"serial\":\"" SERIAL_A "\"}");
	dq_agent_ledger_decide(&ledger, "r1", c, &d);
	CHECK(t, d.action == DQ_AGENT_ACTION_START && d.slot == 0, "start on slot 0: %d %zu",
	      d.action, d.slot);
	dq_agent_ledger_remember(&ledger, c);
	mark_running(&ledger, 0, "job-1");

	dq_agent_ledger_decide(&ledger, "r1", c, &d);
	CHECK(t, d.action == DQ_AGENT_ACTION_IGNORE && strstr(d.message, "already acted on"),
	      "same commandId: %s", d.message);
	command_start(t, c, "cmd-1-again", "job-1", "r1",
		      "\"device\":{\"serial\":\"" SERIAL_A "\"}");
	dq_agent_ledger_decide(&ledger, "r1", c, &d);
	CHECK(t, d.action == DQ_AGENT_ACTION_IGNORE && strstr(d.message, "already running"),
	      "start of a running job: %s", d.message);

	command_start(t, c, "cmd-2", "job-2", "r1", "\"device\":{\"serial\":\"" SERIAL_A "\"}");
	dq_agent_ledger_decide(&ledger, "r1", c, &d);
	CHECK(t,
	      d.action == DQ_AGENT_ACTION_REFUSE && d.reason == DQ_REFUSE_DEVICE_BUSY &&
		      strstr(d.message, "job-1") != NULL,
	      "busy device: %d %s", d.action, d.message);
	dq_agent_ledger_remember(&ledger, c);

	/* job-1 ends: a start naming it again is still a repeat. */
	ledger.slots[0].job_id[0] = '\0';
	command_start(t, c, "cmd-1-late", "job-1", "r1",
		      "\"device\":{\"serial\":\"" SERIAL_A "\"}");
	dq_agent_ledger_decide(&ledger, "r1", c, &d);
	CHECK(t, d.action == DQ_AGENT_ACTION_IGNORE && strstr(d.message, "already started"),
	      "start of a finished job: %s", d.message);
	/* job-2 was refused: the same job is not retried here either. */
	command_start(t, c, "cmd-2-retry", "job-2", "r1",
		      "\"device\":{\"serial\":\"" SERIAL_A "\"}");
	dq_agent_ledger_decide(&ledger, "r1", c, &d);
	CHECK(t, d.action == DQ_AGENT_ACTION_IGNORE, "start of a refused job: %s", d.message);
	free(c);
	dq_agent_ledger_fini(&ledger);
	dq_agent_config_fini(&config);
}

static void test_selection(struct test_ctx *t)
{
	struct dq_agent_config config;
	struct dq_agent_ledger ledger;
	struct dq_agent_decision d;
	struct dq_job_command *c = malloc(sizeof(*c));

	setup(t, &config, &ledger);
	/* Two devices share a serial: the first idle one, or the one at transportAddress. */
	command_start(t, c, "c1", "j1", "r1", "\"device\":{\"serial\":\"" SERIAL_NULL "\"}");
	dq_agent_ledger_decide(&ledger, "r1", c, &d);
	CHECK(t, d.action == DQ_AGENT_ACTION_START && d.slot == 1, "first idle: %zu", d.slot);
	command_start(t, c, "c2", "j2", "r1",
		      "\"device\":{\"serial\":\"" SERIAL_NULL
		      "\",\"transportAddress\":\"null:1g\"}");
	dq_agent_ledger_decide(&ledger, "r1", c, &d);
	CHECK(t, d.action == DQ_AGENT_ACTION_START && d.slot == 2, "by target: %zu", d.slot);
	command_start(t, c, "c3", "j3", "r1",
		      "\"device\":{\"serial\":\"" SERIAL_NULL
		      "\",\"transportAddress\":\"null:1073741824\"}");
	dq_agent_ledger_decide(&ledger, "r1", c, &d);
	CHECK(t, d.action == DQ_AGENT_ACTION_START && d.slot == 2, "by address: %zu", d.slot);
	mark_running(&ledger, 1, "j-running");
	command_start(t, c, "c4", "j4", "r1", "\"device\":{\"serial\":\"" SERIAL_NULL "\"}");
	dq_agent_ledger_decide(&ledger, "r1", c, &d);
	CHECK(t, d.action == DQ_AGENT_ACTION_START && d.slot == 2, "the other idle: %zu", d.slot);

	/* Engine named by the command. */
	command_start(t, c, "c5", "j5", "r1",
		      "\"device\":{\"serial\":\"" SERIAL_A "\"},\"engine\":\"spdk\"");
	dq_agent_ledger_decide(&ledger, "r1", c, &d);
	CHECK(t,
	      d.action == DQ_AGENT_ACTION_REFUSE && d.reason == DQ_REFUSE_ENGINE_UNAVAILABLE &&
		      strstr(d.message, "uring") != NULL,
	      "other engine: %s", d.message);
	command_start(t, c, "c6", "j6", "r1",
		      "\"device\":{\"serial\":\"" SERIAL_A "\"},\"engine\":\"uring\"");
	dq_agent_ledger_decide(&ledger, "r1", c, &d);
	CHECK(t, d.action == DQ_AGENT_ACTION_START && d.slot == 0, "same engine");

	/* Unknown serial; an unidentified device never matches. */
	command_start(t, c, "c7", "j7", "r1", "\"device\":{\"serial\":\"NOPE\"}");
	dq_agent_ledger_decide(&ledger, "r1", c, &d);
	CHECK(t,
	      d.action == DQ_AGENT_ACTION_REFUSE && d.reason == DQ_REFUSE_DEVICE_NOT_FOUND &&
		      strstr(d.message, SERIAL_A " at /dev/nvme0n1") != NULL,
	      "not found lists the devices: %s", d.message);
	ledger.slots[0].identified = false;
	command_start(t, c, "c8", "j8", "r1", "\"device\":{\"serial\":\"" SERIAL_A "\"}");
	dq_agent_ledger_decide(&ledger, "r1", c, &d);
	CHECK(t, d.action == DQ_AGENT_ACTION_REFUSE && d.reason == DQ_REFUSE_DEVICE_NOT_FOUND,
	      "unidentified: %s", d.message);

	/* Phases the runner cannot run, addressed to another runner. */
	command_start(t, c, "c9", "j9", "r1", "\"device\":{\"serial\":\"" SERIAL_NULL "\"}");
	c->start.phases[0].queue_depth = 0;
	dq_agent_ledger_decide(&ledger, "r1", c, &d);
	CHECK(t, d.action == DQ_AGENT_ACTION_REFUSE && d.reason == DQ_REFUSE_INVALID_COMMAND,
	      "bad phases: %s", d.message);
	command_start(t, c, "c10", "j10", "r2", "\"device\":{\"serial\":\"" SERIAL_NULL "\"}");
	dq_agent_ledger_decide(&ledger, "r1", c, &d);
	CHECK(t,
	      d.action == DQ_AGENT_ACTION_REFUSE && d.reason == DQ_REFUSE_INVALID_COMMAND &&
		      strstr(d.message, "names runner r2") != NULL,
	      "other runner: %s", d.message);
	command_start(t, c, "c11", "j-running", "r2",
		      "\"device\":{\"serial\":\"" SERIAL_NULL "\"}");
	dq_agent_ledger_decide(&ledger, "r1", c, &d);
	CHECK(t, d.action == DQ_AGENT_ACTION_IGNORE, "other runner, known job: %s", d.message);
	free(c);
	dq_agent_ledger_fini(&ledger);
	dq_agent_config_fini(&config);
}

static void test_cancel_and_invalid(struct test_ctx *t)
{
	struct dq_agent_config config;
	struct dq_agent_ledger ledger;
	struct dq_agent_decision d;
	struct dq_job_command *c = malloc(sizeof(*c));

	setup(t, &config, &ledger);
	mark_running(&ledger, 2, "job-run");
	command_cancel(t, c, "x1", "job-run");
	dq_agent_ledger_decide(&ledger, "r1", c, &d);
	CHECK(t, d.action == DQ_AGENT_ACTION_CANCEL && d.slot == 2, "cancel running");
	dq_agent_ledger_remember(&ledger, c);
	dq_agent_ledger_decide(&ledger, "r1", c, &d);
	CHECK(t, d.action == DQ_AGENT_ACTION_IGNORE, "repeated cancel: %s", d.message);
	command_cancel(t, c, "x2", "job-never");
	dq_agent_ledger_decide(&ledger, "r1", c, &d);
	CHECK(t, d.action == DQ_AGENT_ACTION_IGNORE && strstr(d.message, "never started"),
	      "cancel unknown: %s", d.message);
	dq_agent_recent_add(&ledger.jobs, "job-done");
	command_cancel(t, c, "x3", "job-done");
	dq_agent_ledger_decide(&ledger, "r1", c, &d);
	CHECK(t, d.action == DQ_AGENT_ACTION_IGNORE && strstr(d.message, "already ended"),
	      "cancel ended: %s", d.message);

	dq_agent_ledger_decide_invalid(&ledger, "job-new", "issuedAt: is required", &d);
	CHECK(t,
	      d.action == DQ_AGENT_ACTION_REFUSE && d.reason == DQ_REFUSE_INVALID_COMMAND &&
		      strstr(d.message, "issuedAt") != NULL,
	      "invalid, new job: %s", d.message);
	dq_agent_ledger_decide_invalid(&ledger, "job-run", "x", &d);
	CHECK(t, d.action == DQ_AGENT_ACTION_IGNORE, "invalid, running job: %s", d.message);
	dq_agent_ledger_decide_invalid(&ledger, "job-done", "x", &d);
	CHECK(t, d.action == DQ_AGENT_ACTION_IGNORE, "invalid, ended job: %s", d.message);
	CHECK(t,
	      dq_agent_ledger_find_job(&ledger, "job-run") == 2 &&
		      dq_agent_ledger_find_job(&ledger, "job-done") == -ENOENT,
	      "find_job");
	free(c);
	dq_agent_ledger_fini(&ledger);
	dq_agent_config_fini(&config);
}

static void test_recent(struct test_ctx *t)
{
	struct dq_agent_config config;
	struct dq_agent_ledger ledger;
	char id[16];
	int i;

	dq_agent_config_init(&config);
	CHECK(t, dq_agent_ledger_init(&ledger, &config, 3) == 0, "init without devices");
	for (i = 0; i < 4; i++) {
		snprintf(id, sizeof(id), "id-%d", i);
		dq_agent_recent_add(&ledger.commands, id);
		dq_agent_recent_add(&ledger.commands, id); /* a repeat takes no room */
	}
	CHECK(t, ledger.commands.count == 3, "bounded: %zu", ledger.commands.count);
	CHECK(t, !dq_agent_recent_contains(&ledger.commands, "id-0"), "oldest forgotten");
	CHECK(t,
	      dq_agent_recent_contains(&ledger.commands, "id-1") &&
		      dq_agent_recent_contains(&ledger.commands, "id-3"),
	      "newest kept");
	dq_agent_ledger_fini(&ledger);
}

int main(void)
{
	struct test_ctx t = { 0 };

	test_start_and_repeats(&t);
	test_selection(&t);
	test_cancel_and_invalid(&t);
	test_recent(&t);
	return test_report(&t, "test_agent_ledger");
}
