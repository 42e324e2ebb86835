/*
 * `drivequal-runner agent --config FILE`: the command line of the long-running agent (config file
 * plus --brokers, --runner-id and -X overrides), its signals (first: graceful stop, second: stop
 * waiting for jobs) and its exit status.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "agent/agent.h"
#include "cli.h"

static atomic_int g_agent_stop;

static void on_signal(int signo)
{
	(void)signo;
	atomic_fetch_add(&g_agent_stop, 1);
}

static void print_usage(FILE *out)
{
	fprintf(out,
		"usage: drivequal-runner agent --config FILE [--brokers HOST:PORT] [--runner-id ID]\n"
		"                              [-X key=value]... [--check]\n\n"
		"Runs this host's runner: consumes job commands keyed to the runner id, runs each job\n"
		"on its device (one job per device, devices in parallel), publishes samples, events\n"
		"and heartbeats. The config file is described in spdk-runner/README.md.\n\n"
		"options:\n"
		"  -c, --config FILE      the agent's JSON configuration (required)\n"
		"  -b, --brokers LIST     Kafka bootstrap servers (overrides \"brokers\")\n"
		"  -r, --runner-id ID     this runner's id (overrides \"runnerId\"; default hostname)\n"
		"  -X key=value           a librdkafka property (overrides \"kafka\"); the value may\n"
		"                         be @file:PATH or @env:NAME; repeatable\n"
		"      --check            load and check the configuration, print it (secrets\n"
		"                         hidden) and exit\n"
		"  -h, --help             this help\n\n"
		"SIGINT/SIGTERM stop it: running jobs are cancelled and their final events delivered;\n"
		"a second signal stops waiting for them.\n"
		"Exit status: 0 clean stop, 1 fatal Kafka error or undelivered messages, 2 usage or\n"
		"configuration error.\n");
}

struct agent_args {
	const char *config_path;
	const char *brokers;
	const char *runner_id;
	const char *properties[DQ_AGENT_MAX_PROPERTIES];
	size_t property_count;
	bool check;
};

/* Returns 0, 1 (--help was printed) or -EINVAL. */
static int parse_args(int argc, char **argv, struct agent_args *args)
{
	static const struct option options[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "brokers", required_argument, NULL, 'b' },
		{ "runner-id", required_argument, NULL, 'r' },
		{ "check", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "c:b:r:X:h", options, NULL)) != -1) {
		switch (opt) {
		case 'c':
			args->config_path = optarg;
			break;
		case 'b':
			args->brokers = optarg;
			break;
		case 'r':
			args->runner_id = optarg;
			break;
		case 'X':
			if (dq_cli_add_property("agent", args->properties, &args->property_count,
						DQ_AGENT_MAX_PROPERTIES, optarg) != 0) {
				return -EINVAL;
			}
			break;
		case 'C':
			args->check = true;
			break;
		case 'h':
			print_usage(stdout);
			return 1;
		default:
			return -EINVAL;
		}
	}
	if (optind != argc || args->config_path == NULL) {
		fprintf(stderr, "drivequal-runner agent: %s\n",
			optind != argc ? "unexpected arguments" : "--config FILE is required");
		return -EINVAL;
	}
	return 0;
}

/* The file, then the command line's overrides, then the defaults and checks. */
static int build_config(const struct agent_args *args, struct dq_agent_config *config)
{
	char err[1024];
	size_t i;
	int rc;

	rc = dq_agent_config_load(config, args->config_path, err, sizeof(err));
	if (rc == 0 && args->brokers != NULL) {
		rc = dq_agent_config_set_brokers(config, args->brokers, err, sizeof(err));
	}
	if (rc == 0 && args->runner_id != NULL) {
		rc = dq_agent_config_set_runner_id(config, args->runner_id, err, sizeof(err));
	}
	for (i = 0; rc == 0 && i < args->property_count; i++) {
		rc = dq_agent_config_set_property(config, args->properties[i], err, sizeof(err));
	}
	rc = rc != 0 ? rc : dq_agent_config_finish(config, err, sizeof(err));
	if (rc != 0) {
		fprintf(stderr, "drivequal-runner agent: %s\n",
			rc == -ENOMEM ? strerror(ENOMEM) : err);
	}
	return rc;
}

int dq_cmd_agent_main(int argc, char **argv)
{
	struct sigaction action = { .sa_handler = on_signal };
	struct agent_args args = { 0 };
	struct dq_agent_config config;
	int rc, status = DQ_EXIT_USAGE;

	rc = parse_args(argc, argv, &args);
	if (rc != 0) {
		return rc > 0 ? DQ_EXIT_OK : DQ_EXIT_USAGE;
	}
	dq_agent_config_init(&config);
	if (build_config(&args, &config) != 0) {
		goto out;
	}
	if (args.check) {
		dq_agent_config_describe(&config, stdout);
		status = DQ_EXIT_OK;
		goto out;
	}
	dq_agent_config_describe(&config, stderr);
	sigemptyset(&action.sa_mask);
	sigaction(SIGINT, &action, NULL);
	sigaction(SIGTERM, &action, NULL);
	signal(SIGPIPE, SIG_IGN);
	rc = dq_agent_run(&config, &g_agent_stop);
	switch (rc) {
	case 0:
		status = DQ_EXIT_OK;
		break;
	case -EINVAL:
		status = DQ_EXIT_USAGE;
		break;
	case -EINTR:
		return DQ_EXIT_FAILURE; /* jobs still run on the config: do not free it */
	default:
		status = DQ_EXIT_FAILURE;
		break;
	}
out:
	dq_agent_config_fini(&config);
	return status;
}
