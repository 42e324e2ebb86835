/*
 * `drivequal-runner validate TYPE FILE...`: the runner's own verdict on messages, for operators and
 * for the Java side to cross-check its validator against the C codecs.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "contract/msg_job_command.h"
#include "contract/msg_job_event.h"
#include "contract/msg_runner_heartbeat.h"
#include "contract/msg_sample.h"

typedef int (*validate_fn)(const char *json, size_t len, char *err, size_t err_len);

static int validate_sample(const char *json, size_t len, char *err, size_t err_len)
{
	struct dq_sample msg;

	return dq_sample_decode(json, len, &msg, err, err_len);
}

static int validate_job_command(const char *json, size_t len, char *err, size_t err_len)
{
	struct dq_job_command *msg = malloc(sizeof(*msg));
	int rc;

	if (msg == NULL) {
		return -ENOMEM;
	}
	rc = dq_job_command_decode(json, len, msg, err, err_len);
	free(msg);
	return rc;
}

static int validate_job_event(const char *json, size_t len, char *err, size_t err_len)
{
	struct dq_job_event msg;
	int rc = dq_job_event_decode(json, len, &msg, err, err_len);

	dq_job_event_fini(&msg);
	return rc;
}

static int validate_runner_heartbeat(const char *json, size_t len, char *err, size_t err_len)
{
	struct dq_runner_heartbeat msg;
	int rc = dq_runner_heartbeat_decode(json, len, &msg, err, err_len);

	dq_runner_heartbeat_fini(&msg);
	return rc;
}

static const struct {
	const char *type;
	validate_fn validate;
} g_validators[] = {
	{ "sample", validate_sample },
	{ "job-command", validate_job_command },
	{ "job-event", validate_job_event },
	{ "runner-heartbeat", validate_runner_heartbeat },
};

static void print_usage(FILE *out)
{
	fprintf(out,
		"usage: drivequal-runner validate TYPE FILE...\n\n"
		"Decodes each FILE (one JSON message; - for stdin) as TYPE: sample, job-command,\n"
		"job-event or runner-heartbeat. Prints FILE: OK or FILE: INVALID: reason.\n"
		"Exit status: 0 all valid, 1 any invalid or unreadable, 2 usage error.\n");
}

static int read_stream(FILE *f, char **data, size_t *len)
{
	char *buf = NULL, *grown;
	size_t size = 0, used = 0, n;

	do {
		if (size - used < 4096) {
			size = size == 0 ? 65536 : size * 2;
			grown = realloc(buf, size);
			if (grown == NULL) {
				free(buf);
				return -ENOMEM;
			}
			buf = grown;
		}
		n = fread(buf + used, 1, size - used - 1, f);
		used += n;
	} while (n > 0);
	if (ferror(f)) {
		free(buf);
		return -EIO;
	}
	buf[used] = '\0';
	*data = buf;
	*len = used;
	return 0;
}

static int validate_file(validate_fn validate, const char *path)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	char err[1024] = "", *data = NULL;
	size_t len = 0;
	int rc;

	if (f == NULL) {
		rc = -errno;
		printf("%s: UNREADABLE: %s\n", path, strerror(-rc));
		return rc;
	}
	rc = read_stream(f, &data, &len);
	if (f != stdin) {
		fclose(f);
	}
	if (rc != 0) {
		printf("%s: UNREADABLE: %s\n", path, strerror(-rc));
		return rc;
	}
	rc = validate(data, len, err, sizeof(err));
	if (rc == 0) {
		printf("%s: OK\n", path);
	} else {
		printf("%s: INVALID: %s\n", path, rc == -EINVAL ? err : strerror(-rc));
	}
	free(data);
	return rc;
}

int dq_cmd_validate_main(int argc, char **argv)
{
	static const struct option long_options[] = { { "help", no_argument, NULL, 'h' },
						      { NULL, 0, NULL, 0 } };
	validate_fn validate = NULL;
	int opt, i, status = DQ_EXIT_OK;
	size_t t;

	while ((opt = getopt_long(argc, argv, "h", long_options, NULL)) != -1) {
		switch (opt) {
		case 'h':
			print_usage(stdout);
			return DQ_EXIT_OK;
		default:
			print_usage(stderr);
			return DQ_EXIT_USAGE;
		}
	}
	if (argc - optind < 2) {
		fprintf(stderr, "drivequal-runner validate: need a TYPE and at least one FILE\n");
		print_usage(stderr);
		return DQ_EXIT_USAGE;
	}
	for (t = 0; t < sizeof(g_validators) / sizeof(g_validators[0]); t++) {
		if (strcmp(argv[optind], g_validators[t].type) == 0) {
			validate = g_validators[t].validate;
		}
	}
	if (validate == NULL) {
		fprintf(stderr, "drivequal-runner validate: unknown TYPE '%s'\n", argv[optind]);
		print_usage(stderr);
		return DQ_EXIT_USAGE;
	}
	for (i = optind + 1; i < argc; i++) {
		if (validate_file(validate, argv[i]) != 0) {
			status = DQ_EXIT_FAILURE;
		}
	}
	return status;
}
