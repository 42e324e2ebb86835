/*
 * The subcommands of drivequal-runner: each lives in its own cmd_*.c and main.c only dispatches,
 * so main stays small as the runner grows.
 */
#ifndef DRIVEQUAL_CLI_H
#define DRIVEQUAL_CLI_H

#include <errno.h>
#include <stddef.h>
#include <stdio.h>

/* Exit statuses of every subcommand. */
#define DQ_EXIT_OK 0
#define DQ_EXIT_FAILURE 1 /* the work failed: invalid input, undelivered messages */
#define DQ_EXIT_USAGE 2 /* the command line is wrong */
#define DQ_EXIT_REFUSED 3 /* run: the interlocks refused the job */

struct dq_cli_command {
	const char *name;
	const char *args;
	const char *summary;
	/* argv[0] is the subcommand's name; returns a DQ_EXIT_* status. */
	int (*run)(int argc, char **argv);
};

/*
 * One -X key=value (kcat's librdkafka property) into a command's bounded list. Returns 0, or
 * -EINVAL after saying on stderr that command has too many.
 */
static inline int dq_cli_add_property(const char *command, const char **list, size_t *count,
				      size_t max, const char *property)
{
	if (*count == max) {
		fprintf(stderr, "drivequal-runner %s: too many -X properties\n", command);
		return -EINVAL;
	}
	list[(*count)++] = property;
	return 0;
}

int dq_cmd_agent_main(int argc, char **argv);
int dq_cmd_devices_main(int argc, char **argv);
int dq_cmd_replay_main(int argc, char **argv);
int dq_cmd_run_main(int argc, char **argv);
int dq_cmd_validate_main(int argc, char **argv);

#endif /* DRIVEQUAL_CLI_H */
