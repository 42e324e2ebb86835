/*
 * The agent's allowlist reload on real files: a drive added or removed is in force after the next
 * poll; a malformed, misspelt or vanished file keeps the previous allowlist and says why (never
 * widens); and a reload that removes a drive cancels the real job running on it with that reason,
 * leaving the job on the other drive running.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agent_internal.h"
#include "test_util.h"

#define SERIAL_A "S6CKNE0T80000A"
#define SERIAL_B "S6CKNE0T80000B"

static char g_dir[] = "/tmp/dq-allowlist-XXXXXX";
static char g_path[256];

/* Replace the file as the kubelet does (a new inode), or in place (same inode, new size). */
static void write_allowlist(const char *text, bool in_place)
{
	char tmp[300];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", g_path);
	f = fopen(in_place ? g_path : tmp, "w");
	fputs(text, f);
	fclose(f);
	if (!in_place) {
		rename(tmp, g_path);
	}
}

static struct dq_device device(const char *serial, const char *address)
{
	struct dq_device d;

	memset(&d, 0, sizeof(d));
	snprintf(d.serial, sizeof(d.serial), "%s", serial);
	snprintf(d.transport_address, sizeof(d.transport_address), "%s", address);
	return d;
}

static bool allowed(const struct dq_allowlist *list, const char *serial)
{
	struct dq_device d = device(serial, "/dev/nvme9n1");

	return dq_allowlist_match(list, &d) != NULL;
}

static void test_reload(struct test_ctx *t)
{
	struct dq_allowlist_watch watch;
	struct dq_allowlist previous;
	char err[512] = "";
	int rc;

	write_allowlist("{\"devices\": [{\"serial\": \"" SERIAL_A "\"}]}", false);
	rc = dq_allowlist_watch_init(&watch, g_path, err, sizeof(err));
	CHECK(t, rc == 0 && watch.current.count == 1, "init: rc %d %s", rc, err);
	CHECK(t, dq_allowlist_watch_poll(&watch, &previous) == 0, "an unchanged file reloads");

	/* added */
	write_allowlist("{\"devices\": [{\"serial\": \"" SERIAL_A "\"}, {\"serial\": \"" SERIAL_B
			"\"}]}",
			false);
	rc = dq_allowlist_watch_poll(&watch, &previous);
	CHECK(t, rc == 1 && allowed(&watch.current, SERIAL_A) && allowed(&watch.current, SERIAL_B),
	      "an added drive: rc %d, %zu entries", rc, watch.current.count);
	CHECK(t, previous.count == 1 && !allowed(&previous, SERIAL_B), "previous: %zu entries",
	      previous.count);
	dq_allowlist_fini(&previous);
	CHECK(t, dq_allowlist_watch_poll(&watch, &previous) == 0, "reloaded twice");

	/* malformed: kept, said once */
	write_allowlist("{\"devices\": [{\"serial\": ", true);
	rc = dq_allowlist_watch_poll(&watch, &previous);
	CHECK(t,
	      rc == -EINVAL && strstr(watch.error, "not valid JSON") != NULL &&
		      strstr(watch.error, g_path) != NULL,
	      "malformed: rc %d, error '%s'", rc, watch.error);
	CHECK(t, watch.current.count == 2 && allowed(&watch.current, SERIAL_A),
	      "malformed: the previous allowlist stays in force (%zu entries)",
	      watch.current.count);
	CHECK(t, dq_allowlist_watch_poll(&watch, &previous) == 0, "the same bad file said twice");

	/* misspelt override: refused whole, never half-applied (nothing widens) */
	write_allowlist("{\"devices\": [{\"serial\": \"S0WIDER\", \"allowEverything\": true}]}",
			false);
	rc = dq_allowlist_watch_poll(&watch, &previous);
	CHECK(t,
	      rc == -EINVAL && strstr(watch.error, "allowEverything") != NULL &&
		      !allowed(&watch.current, "S0WIDER") && watch.current.count == 2,
	      "misspelt: rc %d, error '%s'", rc, watch.error);

	/* vanished: kept */
	unlink(g_path);
	rc = dq_allowlist_watch_poll(&watch, &previous);
	CHECK(t, rc == -ENOENT && watch.current.count == 2, "vanished: rc %d", rc);
	CHECK(t, dq_allowlist_watch_poll(&watch, &previous) == 0, "still gone, said twice");

	/* removed */
	write_allowlist("{\"devices\": [{\"serial\": \"" SERIAL_B "\"}]}", false);
	rc = dq_allowlist_watch_poll(&watch, &previous);
	CHECK(t, rc == 1 && !allowed(&watch.current, SERIAL_A) && allowed(&watch.current, SERIAL_B),
	      "a removed drive: rc %d, %zu entries", rc, watch.current.count);
	CHECK(t, watch.error[0] == '\0', "a good file clears the error: '%s'", watch.error);
	dq_allowlist_fini(&previous);
	dq_allowlist_watch_fini(&watch);
}

static int sink_sample(void *arg, const struct dq_sample *sample)
{
	(void)arg;
	(void)sample;
	return 0;
}

static int sink_event(void *arg, const struct dq_job_event *event)
{
	(void)arg;
	(void)event;
	return 0;
}

static void *job_thread(void *arg)
{
	struct dq_agent_job *job = arg;
	struct dq_sink sink = { .sample = sink_sample, .event = sink_event, .arg = job };

	job->rc = dq_job_run(&job->spec, &job->allowlist, &sink, &job->cancel, &job->outcome);
	atomic_store(&job->finished, true);
	return NULL;
}

static struct dq_agent_job *start_job(struct dq_agent *agent, struct dq_agent_slot *slot,
				      const char *job_id, const char *serial)
{
	struct dq_agent_job *job = calloc(1, sizeof(*job));

	job->agent = agent;
	job->phases[0] = (struct dq_phase_spec){ .index = 0,
						 .name = "randwrite",
						 .kind = DQ_PHASE_KIND_WORKLOAD,
						 .rw = DQ_RW_RANDWRITE,
						 .has_block_size_bytes = true,
						 .block_size_bytes = 4096,
						 .has_queue_depth = true,
						 .queue_depth = 4,
						 .has_range_percent = true,
						 .range_percent = 100,
						 .has_runtime_s = true,
						 .runtime_s = 60 };
	snprintf(job->spec.job_id, sizeof(job->spec.job_id), "%s", job_id);
	snprintf(job->spec.runner_id, sizeof(job->spec.runner_id), "r1");
	job->spec.engine_name = "null";
	job->spec.target = "null:1g";
	job->spec.phase_count = 1;
	job->spec.phases = job->phases;
	job->spec.cancel_reason = job->cancel_reason;
	dq_allowlist_copy(&job->allowlist, &agent->allowlist.current);
	snprintf(job->serial, sizeof(job->serial), "%s", serial);
	slot->identified = true;
	slot->needs_allowlist =
		true; /* as for a drive; a diskless engine's slot is never revoked */
	slot->entry.device = device(serial, "/dev/nvme9n1");
	snprintf(slot->job_id, sizeof(slot->job_id), "%s", job_id);
	slot->job = job;
	pthread_create(&job->thread, NULL, job_thread, job);
	return job;
}

static bool wait_finished(struct dq_agent_job *job, int timeout_ms)
{
	struct timespec slice = { .tv_nsec = 10 * 1000000L };
	int waited;

	for (waited = 0; waited < timeout_ms && !atomic_load(&job->finished); waited += 10) {
		nanosleep(&slice, NULL);
	}
	return atomic_load(&job->finished);
}

static void test_cancel_on_removal(struct test_ctx *t)
{
	struct dq_agent *agent = calloc(1, sizeof(*agent));
	struct dq_agent_slot slots[2];
	struct dq_agent_job *a, *b;
	struct timespec settle = { .tv_nsec = 300 * 1000000L };
	char err[512] = "";

	memset(slots, 0, sizeof(slots));
	write_allowlist("{\"devices\": [{\"serial\": \"" SERIAL_A "\"}, {\"serial\": \"" SERIAL_B
			"\"}]}",
			false);
	CHECK(t, dq_allowlist_watch_init(&agent->allowlist, g_path, err, sizeof(err)) == 0, "%s",
	      err);
	agent->ledger.slot_count = 2;
	agent->ledger.slots = slots;
	a = start_job(agent, &slots[0], "q-on-a", SERIAL_A);
	b = start_job(agent, &slots[1], "q-on-b", SERIAL_B);
	nanosleep(&settle, NULL);
	CHECK(t, !atomic_load(&a->finished) && !atomic_load(&b->finished), "both jobs run");

	/* a malformed reload cancels nothing */
	write_allowlist("not json", true);
	dq_agent_allowlist_poll(agent);
	nanosleep(&settle, NULL);
	CHECK(t, !atomic_load(&a->finished) && !atomic_load(&b->finished),
	      "a malformed allowlist cancelled a job");

	write_allowlist("{\"devices\": [{\"serial\": \"" SERIAL_B "\"}]}", false);
	dq_agent_allowlist_poll(agent);
	CHECK(t, wait_finished(a, 5000), "the removed drive's job did not end");
	CHECK(t,
	      a->outcome.type == DQ_JOB_EVENT_CANCELLED &&
		      strstr(a->outcome.message, "drive removed from the allowlist") != NULL,
	      "removed drive's job: %s '%s'", dq_job_event_type_to_str(a->outcome.type),
	      a->outcome.message);
	nanosleep(&settle, NULL);
	CHECK(t, !atomic_load(&b->finished), "the other drive's job was touched");

	dq_agent_job_cancel(b, NULL); /* as a cancel command does */
	CHECK(t, wait_finished(b, 5000), "the other job did not end on its cancel");
	CHECK(t,
	      b->outcome.type == DQ_JOB_EVENT_CANCELLED &&
		      strstr(b->outcome.message, "allowlist") == NULL,
	      "other job: %s '%s'", dq_job_event_type_to_str(b->outcome.type), b->outcome.message);
	printf("removed drive's job: %s\nother drive's job: %s\n", a->outcome.message,
	       b->outcome.message);
	pthread_join(a->thread, NULL);
	pthread_join(b->thread, NULL);
	dq_allowlist_fini(&a->allowlist);
	dq_allowlist_fini(&b->allowlist);
	free(a);
	free(b);
	dq_allowlist_watch_fini(&agent->allowlist);
	free(agent);
}

int main(void)
{
	struct test_ctx t = { 0 };

	if (mkdtemp(g_dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(g_path, sizeof(g_path), "%s/allowlist.json", g_dir);
	test_reload(&t);
	test_cancel_on_removal(&t);
	unlink(g_path);
	rmdir(g_dir);
	return test_report(&t, "agent_allowlist");
}
