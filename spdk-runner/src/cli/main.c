/*
 * drivequal-runner's entry point: the global options (--help, --version) and the dispatch to
 * one subcommand per source file.
 */
#include <stdio.h>
#include <string.h>

#include <json-c/json_c_version.h>
#include <librdkafka/rdkafka.h>

#include "cli.h"

static const struct dq_cli_command g_commands[] = {
	{
		.name = "run",
		.args = "--filename TARGET [--engine E] [--rw RW] [--bs N] [--iodepth N] ...",
		.summary = "run one job on a device: one sample per second, the job's events",
		.run = dq_cmd_run_main,
	},
	{
		.name = "devices",
		.args = "[--allowlist FILE] [--output-format normal|json]",
		.summary =
			"list the devices this host sees and whether destructive work is allowed",
		.run = dq_cmd_devices_main,
	},
	{
		.name = "agent",
		.args = "--config FILE [--brokers HOST:PORT] [--runner-id ID] [-X key=value]...",
		.summary = "run as this host's runner: job commands from Kafka, samples, events "
			   "and heartbeats to it",
		.run = dq_cmd_agent_main,
	},
	{
		.name = "replay",
		.args = "--brokers HOST:PORT [--topic T] [-X key=value]... FILE|-",
		.summary = "publish saved JSON-lines samples to Kafka (all validated first)",
		.run = dq_cmd_replay_main,
	},
	{
		.name = "validate",
		.args = "TYPE FILE...",
		.summary = "check messages against the contract "
			   "(sample, job-command, job-event, runner-heartbeat)",
		.run = dq_cmd_validate_main,
	},
};

static void print_usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: drivequal-runner [--help] [--version] COMMAND [ARGS]\n\ncommands:\n");
	for (i = 0; i < sizeof(g_commands) / sizeof(g_commands[0]); i++) {
		fprintf(out, "  %-9s %s\n  %-9s   %s\n", g_commands[i].name, g_commands[i].args, "",
			g_commands[i].summary);
	}
	fprintf(out, "\n'drivequal-runner COMMAND --help' describes a command's options.\n");
}

static void print_version(void)
{
	printf("drivequal-runner %s (librdkafka %s, json-c %s, SPDK engine %s)\n",
	       DRIVEQUAL_VERSION, rd_kafka_version_str(), json_c_version(),
	       DRIVEQUAL_SPDK_ENABLED ? "on" : "off");
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		print_usage(stderr);
		return DQ_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		print_usage(stdout);
		return DQ_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		print_version();
		return DQ_EXIT_OK;
	}
	for (i = 0; i < sizeof(g_commands) / sizeof(g_commands[0]); i++) {
		if (strcmp(argv[1], g_commands[i].name) == 0) {
			return g_commands[i].run(argc - 1, argv + 1);
		}
	}
	fprintf(stderr, "drivequal-runner: unknown %s '%s'\n\n",
		argv[1][0] == '-' ? "option" : "command", argv[1]);
	print_usage(stderr);
	return DQ_EXIT_USAGE;
}
