/*
 * Parsing `drivequal-runner run`'s command line (fio's option names; the engine's options join
 * the table).
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_run_args.h"
#include "cmd_run_streams.h"
#include "contract/msg_job_command.h"
#include "contract/phase_rules.h"
#include "contract/strutil.h"
#include "contract/units.h"

#define RUN_MAX_OPTIONS 64

enum run_option {
	OPT_ENGINE = 256,
	OPT_FILENAME,
	OPT_RW,
	OPT_BS,
	OPT_IODEPTH,
	OPT_RUNTIME,
	OPT_SIZE,
	OPT_RANGE,
	OPT_RWMIXREAD,
	OPT_DIRECT,
	OPT_SERIAL,
	OPT_ALLOWLIST,
	OPT_JOB_ID,
	OPT_RUNNER_ID,
	OPT_DATA_PATTERN,
	OPT_PRECONDITION,
	OPT_PURGE,
	OPT_PURGE_FALLBACK,
	OPT_OUTPUT_FORMAT,
	OPT_NAME,
	OPT_SEED,
	OPT_SMART,
	OPT_VERIFY,
	OPT_JOB,
	OPT_HEALTH_POLL_INTERVAL,
	OPT_STREAM,
	OPT_HELP,
	OPT_ENGINE_OPTION, /* the engine's own options follow */
};

static void print_usage(FILE *out, const struct dq_io_engine_ops *ops)
{
	fprintf(out,
		"usage: drivequal-runner run --filename TARGET [options]\n\n"
		"Runs one job (optional purge, optional precondition, one workload) on TARGET and\n"
		"prints one sample per second plus the job's events. Option names follow fio.\n\n"
		"  --engine, --ioengine NAME  uring (default; io_uring is accepted), null, spdk, sim\n"
		"  --filename TARGET          the engine's target (see below)\n"
		"  --rw PATTERN               read, write, rw, randread, randwrite, randrw (default "
		"read)\n"
		"  --bs SIZE                  block size (default 4k)\n"
		"  --iodepth N                queue depth, 1.." DQ_STRINGIFY(
			DQ_QUEUE_DEPTH_MAX) " (default 1)\n"
					    "  --runtime SECONDS          timed workload (suffixes s, m, h); with --size, the first reached ends it\n"
					    "  --size SIZE                sized workload: bytes to transfer (default: the range "
					    "once)\n"
					    "  --range PERCENT            share of the LBAs addressed from LBA 0 (default 100%%)\n"
					    "  --rwmixread PERCENT        reads in rw/randrw (default 50)\n"
					    "  --direct 0|1               O_DIRECT (default 1)\n"
					    "  --data-pattern P           random (default, fresh data per write) or zeros\n"
					    "  --precondition PASSES      first write the range sequentially (128k, QD32)\n"
					    "  --purge METHOD             first erase: auto (sanitize, else format), deallocate,\n"
					    "                             format-user-data, ...; refused when the device cannot\n"
					    "  --purge-fallback deallocate  accept a TRIM when it cannot (not a SNIA PTS purge)\n"
					    "  --smart                    SMART snapshots before and after the workload\n"
					    "  --verify                   then read the range back: every block written\n"
					    "                             must carry its header, LBA and CRC32C\n"
					    "  --health-poll-interval S   seconds between health polls during the job\n"
					    "                             (default 10, 0: none; else a --job file's)\n"
					    "  --serial SERIAL            refuse unless the device reports this serial\n"
					    "  --allowlist FILE           devices destructive phases may touch (JSON)\n"
					    "  --job-id ID, --runner-id ID, --name PHASE-NAME, --seed N\n"
					    "  --output-format json|normal  JSON lines (default unless stdout is a terminal)\n"
					    "  --stream SPEC              one stream of a multi-stream workload (repeat, up to 8),\n"
					    "                             fio's names: rw=randread,bs=4k,iodepth=8,\n"
					    "                             rate_iops=20000[,rate_process=poisson]; also rw=trim|\n"
					    "                             randtrim, rwmixread, rwmixtrim, percentage_random,\n"
					    "                             bssplit=4k/50:64k/50, offset, size (bytes or N%%),\n"
					    "                             rate (bytes/s), thinktime, thinktime_blocks,\n"
					    "                             startdelay, name, fdp_pli=N (FDP placement handle\n"
					    "                             of its writes); replaces --rw/--bs/--iodepth/\n"
					    "                             --rwmixread/--range; needs --runtime\n"
					    "  --job FILE                 run a job-command (start) message's phases instead;\n"
					    "                             its deviceSerial is required to match\n\n"
					    "Writes, precondition and purge need the device in the allowlist and pass the\n"
					    "interlocks (not mounted, no partition table, no signature).\n"
					    "Exit status: 0 completed, 1 failed or cancelled, 2 usage, 3 refused.\n\n");
	if (ops != NULL) {
		dq_engine_options_print(ops, out);
	}
}

static int parse_runtime(const char *text, uint32_t *seconds)
{
	uint32_t multiplier = 1, value;
	char buffer[32];
	size_t len = strlen(text);

	if (len == 0 || len >= sizeof(buffer)) {
		return -EINVAL;
	}
	memcpy(buffer, text, len + 1);
	switch (buffer[len - 1]) {
	case 's':
		buffer[len - 1] = '\0';
		break;
	case 'm':
		multiplier = 60;
		buffer[len - 1] = '\0';
		break;
	case 'h':
		multiplier = 3600;
		buffer[len - 1] = '\0';
		break;
	default:
		break;
	}
	if (dq_parse_u32(buffer, 1, DQ_RUNTIME_S_MAX, &value) != 0 ||
	    (uint64_t)value * multiplier > DQ_RUNTIME_S_MAX) {
		return -EINVAL;
	}
	*seconds = value * multiplier;
	return 0;
}

static int parse_enum(const char *text, const char *(*to_str)(int), int *value)
{
	int i;

	for (i = 1; to_str(i) != NULL; i++) {
		if (strcmp(to_str(i), text) == 0) {
			*value = i;
			return 0;
		}
	}
	return -EINVAL;
}

static const char *rw_name(int value)
{
	return dq_rw_to_str((enum dq_rw)value);
}

static const char *purge_name(int value)
{
	return dq_purge_method_to_str((enum dq_purge_method)value);
}

static const char *pattern_name(int value)
{
	return dq_data_pattern_to_str((enum dq_data_pattern)value);
}

/* The engine named on the command line (NULL: none), before getopt: its options join the table. */
static const char *prescan_engine(int argc, char **argv)
{
	const char *name = NULL;
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			break;
		}
		if ((strcmp(argv[i], "--engine") == 0 || strcmp(argv[i], "--ioengine") == 0) &&
		    i + 1 < argc) {
			name = argv[i + 1];
		} else if (strncmp(argv[i], "--engine=", 9) == 0) {
			name = argv[i] + 9;
		} else if (strncmp(argv[i], "--ioengine=", 11) == 0) {
			name = argv[i] + 11;
		}
	}
	return name;
}

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
	va_list args;

	fprintf(stderr, "drivequal-runner run: ");
	va_start(args, fmt);
	vfprintf(stderr, fmt, args);
	va_end(args);
	fprintf(stderr, "\n");
	return -EINVAL;
}

static int parse_option(struct dq_run_args *a, const struct dq_io_engine_ops *ops, int opt,
			const char *name, const char *value)
{
	uint64_t size;
	char err[256];
	int parsed;

	switch (opt) {
	case OPT_ENGINE:
		a->engine_name = value;
		return 0;
	case OPT_FILENAME:
		a->filename = value;
		return 0;
	case OPT_RW:
		if (parse_enum(value, rw_name, &parsed) != 0) {
			return usage_error("--rw: '%s' is not read, write, rw, randread, randwrite "
					   "or randrw",
					   value);
		}
		a->rw = (enum dq_rw)parsed;
		if (a->rw == DQ_RW_TRIM || a->rw == DQ_RW_RANDTRIM) {
			return usage_error("--rw %s: trims run in a stream (--stream rw=%s,...)",
					   value, value);
		}
		return 0;
	case OPT_BS:
		if (dq_parse_size(value, &size) != 0 || size < DQ_BLOCK_SIZE_MIN_BYTES ||
		    size > DQ_BLOCK_SIZE_MAX_BYTES || size % DQ_BLOCK_SIZE_ALIGN_BYTES != 0) {
			return usage_error("--bs: '%s' is not a multiple of %d in %d..16m", value,
					   DQ_BLOCK_SIZE_ALIGN_BYTES, DQ_BLOCK_SIZE_MIN_BYTES);
		}
		a->block_size = (uint32_t)size;
		return 0;
	case OPT_IODEPTH:
		return dq_parse_u32(value, DQ_QUEUE_DEPTH_MIN, DQ_QUEUE_DEPTH_MAX,
				    &a->queue_depth) == 0 ?
			       0 :
			       usage_error("--iodepth: '%s' is not %d..%d", value,
					   DQ_QUEUE_DEPTH_MIN, DQ_QUEUE_DEPTH_MAX);
	case OPT_RUNTIME:
		return parse_runtime(value, &a->runtime_s) == 0 ?
			       0 :
			       usage_error("--runtime: '%s' is not 1..%d seconds", value,
					   DQ_RUNTIME_S_MAX);
	case OPT_SIZE:
		return dq_parse_size(value, &a->size_bytes) == 0 ?
			       0 :
			       usage_error("--size: '%s' is not a size (e.g. 10g)", value);
	case OPT_RANGE: {
		char *end;

		a->range_percent = strtod(value, &end);
		if (end == value || (*end != '\0' && strcmp(end, "%") != 0) ||
		    !(a->range_percent > 0 && a->range_percent <= DQ_RANGE_PERCENT_MAX)) {
			return usage_error("--range: '%s' is not a percentage in (0, %d]", value,
					   DQ_RANGE_PERCENT_MAX);
		}
		return 0;
	}
	case OPT_RWMIXREAD:
		a->has_read_percent = true;
		return dq_parse_u32(value, 0, DQ_READ_PERCENT_MAX, &a->read_percent) == 0 ?
			       0 :
			       usage_error("--rwmixread: '%s' is not 0..%d", value,
					   DQ_READ_PERCENT_MAX);
	case OPT_DIRECT:
		if (strcmp(value, "0") != 0 && strcmp(value, "1") != 0) {
			return usage_error("--direct: '%s' is not 0 or 1", value);
		}
		a->direct = value[0] == '1';
		return 0;
	case OPT_SERIAL:
		a->serial = value;
		return 0;
	case OPT_ALLOWLIST:
		a->allowlist_path = value;
		return 0;
	case OPT_JOB_ID:
	case OPT_RUNNER_ID: {
		char *field = opt == OPT_JOB_ID ? a->spec.job_id : a->spec.runner_id;

		if (strlen(value) > DQ_ID_MAX_LEN || value[0] == '\0' ||
		    strspn(value, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._"
				  "-") != strlen(value) ||
		    strchr("._-", value[0]) != NULL) {
			return usage_error("'%s' is not an id ([A-Za-z0-9][A-Za-z0-9._-]{0,63})",
					   value);
		}
		dq_strlcpy(field, value, DQ_ID_MAX_LEN + 1);
		return 0;
	}
	case OPT_DATA_PATTERN:
		if (parse_enum(value, pattern_name, &parsed) != 0) {
			return usage_error("--data-pattern: '%s' is not random or zeros", value);
		}
		a->data_pattern = (enum dq_data_pattern)parsed;
		return 0;
	case OPT_PRECONDITION:
		return dq_parse_u32(value, 1, DQ_PASSES_MAX, &a->precondition_passes) == 0 ?
			       0 :
			       usage_error("--precondition: '%s' is not 1..%d passes", value,
					   DQ_PASSES_MAX);
	case OPT_PURGE:
		if (parse_enum(value, purge_name, &parsed) != 0) {
			return usage_error("--purge: '%s' is not a purge method (auto, deallocate, "
					   "format-user-data, format-crypto, sanitize-block, "
					   "sanitize-crypto, sanitize-overwrite)",
					   value);
		}
		a->purge = (enum dq_purge_method)parsed;
		return 0;
	case OPT_PURGE_FALLBACK:
		if (strcmp(value, "deallocate") != 0) {
			return usage_error("--purge-fallback: '%s' is not deallocate (the only "
					   "substitute for a purge)",
					   value);
		}
		a->purge_fallback = DQ_PURGE_METHOD_DEALLOCATE;
		return 0;
	case OPT_OUTPUT_FORMAT:
		if (strcmp(value, "json") == 0) {
			a->format = DQ_OUTPUT_JSON;
		} else if (strcmp(value, "normal") == 0) {
			a->format = DQ_OUTPUT_NORMAL;
		} else {
			return usage_error("--output-format: '%s' is not json or normal", value);
		}
		return 0;
	case OPT_NAME:
		a->name = value;
		return 0;
	case OPT_SEED: {
		char *end;

		errno = 0;
		a->seed = strtoull(value, &end, 0);
		return errno == 0 && end != value && *end == '\0' ?
			       0 :
			       usage_error("--seed: '%s' is not a number", value);
	}
	case OPT_SMART:
		a->smart = true;
		return 0;
	case OPT_VERIFY:
		a->verify = true;
		return 0;
	case OPT_STREAM:
		if (a->stream_count == DQ_STREAMS_MAX) {
			return usage_error("--stream: at most %d streams", DQ_STREAMS_MAX);
		}
		if (dq_run_stream_parse(value, &a->streams[a->stream_count], err, sizeof(err)) !=
		    0) {
			return usage_error("--stream '%s': %s", value, err);
		}
		a->stream_count++;
		return 0;
	case OPT_JOB:
		a->job_path = value;
		return 0;
	case OPT_HEALTH_POLL_INTERVAL: {
		char *end;
		unsigned long seconds;

		errno = 0;
		seconds = strtoul(value, &end, 10);
		if (errno != 0 || end == value || *end != '\0' ||
		    seconds > DQ_HEALTH_POLL_INTERVAL_MAX_S) {
			return usage_error("--health-poll-interval: '%s' is not 0..%d seconds",
					   value, DQ_HEALTH_POLL_INTERVAL_MAX_S);
		}
		a->health_poll_interval_s = (uint32_t)seconds;
		a->health_poll_given = true;
		return 0;
	}
	default:
		if (ops == NULL || a->engine_options == NULL) {
			return usage_error("unknown option --%s", name);
		}
		if (dq_engine_options_set(ops, a->engine_options, name, value, err, sizeof(err)) !=
		    0) {
			return usage_error("%s", err);
		}
		return 0;
	}
}

static int parse_args(int argc, char **argv, struct dq_run_args *a,
		      const struct dq_io_engine_ops *ops)
{
	static const struct option core_options[] = {
		{ "engine", required_argument, NULL, OPT_ENGINE },
		{ "ioengine", required_argument, NULL, OPT_ENGINE },
		{ "filename", required_argument, NULL, OPT_FILENAME },
		{ "rw", required_argument, NULL, OPT_RW },
		{ "readwrite", required_argument, NULL, OPT_RW },
		{ "bs", required_argument, NULL, OPT_BS },
		{ "blocksize", required_argument, NULL, OPT_BS },
		{ "iodepth", required_argument, NULL, OPT_IODEPTH },
		{ "runtime", required_argument, NULL, OPT_RUNTIME },
		{ "size", required_argument, NULL, OPT_SIZE },
		{ "range", required_argument, NULL, OPT_RANGE },
		{ "rwmixread", required_argument, NULL, OPT_RWMIXREAD },
		{ "direct", required_argument, NULL, OPT_DIRECT },
		{ "serial", required_argument, NULL, OPT_SERIAL },
		{ "allowlist", required_argument, NULL, OPT_ALLOWLIST },
		{ "job-id", required_argument, NULL, OPT_JOB_ID },
		{ "runner-id", required_argument, NULL, OPT_RUNNER_ID },
		{ "data-pattern", required_argument, NULL, OPT_DATA_PATTERN },
		{ "precondition", required_argument, NULL, OPT_PRECONDITION },
		{ "purge", required_argument, NULL, OPT_PURGE },
		{ "purge-fallback", required_argument, NULL, OPT_PURGE_FALLBACK },
		{ "output-format", required_argument, NULL, OPT_OUTPUT_FORMAT },
		{ "name", required_argument, NULL, OPT_NAME },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "smart", no_argument, NULL, OPT_SMART },
		{ "verify", no_argument, NULL, OPT_VERIFY },
		{ "stream", required_argument, NULL, OPT_STREAM },
		{ "job", required_argument, NULL, OPT_JOB },
		{ "health-poll-interval", required_argument, NULL, OPT_HEALTH_POLL_INTERVAL },
		{ "help", no_argument, NULL, OPT_HELP },
	};
	const size_t core_count = sizeof(core_options) / sizeof(core_options[0]);
	struct option options[RUN_MAX_OPTIONS + 1];
	const struct dq_engine_option *engine_option;
	size_t n = 0;
	int opt, index, rc;

	memcpy(options, core_options, sizeof(core_options));
	n = core_count;
	for (engine_option = ops != NULL ? ops->options : NULL;
	     engine_option != NULL && engine_option->name != NULL && n < RUN_MAX_OPTIONS;
	     engine_option++) {
		options[n++] = (struct option){ engine_option->name,
						engine_option->type == DQ_ENGINE_OPTION_BOOL ?
							optional_argument :
							required_argument,
						NULL, OPT_ENGINE_OPTION };
	}
	memset(&options[n], 0, sizeof(options[n]));
	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", options, &index)) != -1) {
		if (opt == 'h' || opt == OPT_HELP) {
			print_usage(stdout, ops);
			return 1;
		}
		if (opt == '?') {
			return -EINVAL;
		}
		rc = parse_option(a, ops, opt, options[index].name, optarg);
		if (rc != 0) {
			return rc;
		}
	}
	if (optind != argc) {
		return usage_error("unexpected argument '%s'", argv[optind]);
	}
	if (a->filename == NULL && a->job_path == NULL) {
		return usage_error("%s", "--filename is required");
	}
	if (a->stream_count > 0 && a->runtime_s == 0) {
		return usage_error("%s", "--stream needs --runtime (the streams run side by side "
					 "for that long)");
	}
	if (a->stream_count > 0 && a->size_bytes > 0) {
		return usage_error("%s", "--stream: give each stream's range as size= in the "
					 "stream, not --size");
	}
	if (a->has_read_percent && a->rw != DQ_RW_RW && a->rw != DQ_RW_RANDRW) {
		return usage_error("%s", "--rwmixread applies to --rw rw and randrw only");
	}
	return 0;
}

int dq_run_args_parse(struct dq_run_args *a, int argc, char **argv)
{
	char err[256];

	*a = (struct dq_run_args){ .engine_name = prescan_engine(argc, argv),
				   .engine_given = true,
				   .rw = DQ_RW_READ,
				   .block_size = 4096,
				   .queue_depth = 1,
				   .range_percent = 100,
				   .direct = true,
				   .data_pattern = DQ_DATA_PATTERN_RANDOM,
				   .health_poll_interval_s = DQ_HEALTH_POLL_INTERVAL_DEFAULT_S,
				   .format = isatty(STDOUT_FILENO) ? DQ_OUTPUT_NORMAL :
								     DQ_OUTPUT_JSON };
	if (a->engine_name == NULL) {
		a->engine_name = "uring";
		a->engine_given = false;
	}
	/* An engine this build lacks still parses (the job then refuses, saying why). */
	if (dq_io_engine_find(a->engine_name, &a->ops, err, sizeof(err)) == 0 &&
	    dq_engine_options_new(a->ops, &a->engine_options) != 0) {
		return -ENOMEM;
	}
	return parse_args(argc, argv, a, a->ops);
}

void dq_run_args_fini(struct dq_run_args *a)
{
	free(a->engine_options);
	a->engine_options = NULL;
}
