/*
 * `drivequal-runner run`: one job from the command line, printed as JSON lines (samples and
 * events, exactly what the agent would publish) or as human progress. The same job runner and
 * interlocks as the agent: the command line is not a way around them.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_run_args.h"
#include "cmd_run_output.h"
#include "cmd_run_spec.h"
#include "job/job_runner.h"

static atomic_int g_cancel;

static void on_signal(int signo)
{
	(void)signo;
	atomic_store(&g_cancel, 1);
}

int dq_cmd_run_main(int argc, char **argv)
{
	struct dq_run_args *a = calloc(1, sizeof(*a));
	struct dq_allowlist allowlist = { 0 };
	struct dq_job_outcome outcome;
	struct dq_output output;
	struct dq_sink sink;
	struct sigaction action = { .sa_handler = on_signal };
	char err[512];
	int rc, status = DQ_EXIT_USAGE;

	if (a == NULL) {
		return DQ_EXIT_FAILURE;
	}
	rc = dq_run_args_parse(a, argc, argv);
	if (rc != 0) {
		status = rc > 0 ? DQ_EXIT_OK : rc == -ENOMEM ? DQ_EXIT_FAILURE : DQ_EXIT_USAGE;
		goto out;
	}
	if (dq_run_spec_build(a) != 0) {
		goto out;
	}
	if (a->allowlist_path != NULL &&
	    dq_allowlist_load(a->allowlist_path, &allowlist, err, sizeof(err)) != 0) {
		fprintf(stderr, "drivequal-runner run: %s\n", err);
		goto out;
	}
	status = DQ_EXIT_FAILURE;
	if (dq_output_init(&output, a->format, stdout, a->phases, a->spec.phase_count) != 0) {
		goto out_allowlist;
	}
	sink = dq_output_sink(&output);
	sigaction(SIGINT, &action, NULL);
	sigaction(SIGTERM, &action, NULL);
	signal(SIGPIPE, SIG_IGN); /* a closed stdout ends the job with EPIPE, cleanly */
	rc = dq_job_run(&a->spec, &allowlist, &sink, &g_cancel, &outcome);
	if (rc != 0) {
		fprintf(stderr, "drivequal-runner run: writing output failed: %s\n", strerror(-rc));
	} else if (outcome.type == DQ_JOB_EVENT_COMPLETED) {
		status = DQ_EXIT_OK;
	} else if (outcome.type == DQ_JOB_EVENT_REFUSED) {
		fprintf(stderr, "drivequal-runner run: refused (%s): %s\n",
			dq_refuse_reason_to_str(outcome.refuse_reason), outcome.message);
		status = DQ_EXIT_REFUSED;
	} else {
		fprintf(stderr, "drivequal-runner run: %s: %s\n",
			outcome.type == DQ_JOB_EVENT_CANCELLED ? "cancelled" : "failed",
			outcome.message);
	}
	dq_output_fini(&output);
out_allowlist:
	dq_allowlist_fini(&allowlist);
out:
	dq_run_args_fini(a);
	free(a);
	return status;
}
