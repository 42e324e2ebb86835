/*
 * `drivequal-runner replay`: feed a saved run into Kafka. The JSON lines `run --output-format json`
 * and `devices --output-format json` print (samples, job events, runner heartbeats: the very messages
 * the agent would have published) go to their topics, keyed as the agent keys them, so a run made
 * where no broker was reachable (a test guest without network, an isolated lab host) reaches the
 * service afterwards. Every line is validated before anything is produced, so a bad file never
 * half-lands; the Java integration tests publish their samples this way.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "agent/kafka_producer.h"
#include "cli.h"
#include "contract/msg_job_event.h"
#include "contract/msg_runner_heartbeat.h"
#include "contract/msg_sample.h"
#include "contract/strutil.h"
#include "contract/topics.h"

#define REPLAY_DEFAULT_TIMEOUT_S 60
#define REPLAY_MAX_REPORTED_ERRORS 20
#define REPLAY_MAX_PROPERTIES 64

/* The message types replay carries, each to its own topic. */
enum replay_kind { REPLAY_SAMPLE, REPLAY_JOB_EVENT, REPLAY_HEARTBEAT, REPLAY_KIND_COUNT };

/* How a bad line names its type; a sample is the default and needs no name. */
static const char *const g_line_prefixes[REPLAY_KIND_COUNT] = { "", "job event: ", "heartbeat: " };

static const char *const g_kind_names[REPLAY_KIND_COUNT] = { "samples", "job events",
							     "heartbeats" };

struct replay_opts {
	const char *brokers;
	const char *topics[REPLAY_KIND_COUNT];
	const char *path;
	int timeout_s; /* waiting for delivery reports; 0 = forever */
	const char *properties[REPLAY_MAX_PROPERTIES];
	size_t property_count;
};

/* One validated message: its kind, its key (jobId; runnerId for heartbeats), its canonical
 * encoding. */
struct replay_record {
	enum replay_kind kind;
	char key[DQ_ID_MAX_LEN + 1];
	char *json;
	size_t len;
};

struct replay_ctx {
	struct replay_opts opts;
	const char *display_name;
	struct replay_record *records;
	size_t record_count;
	size_t record_capacity;
	size_t bad_lines;
	size_t kind_counts[REPLAY_KIND_COUNT];
};

static void print_usage(FILE *out)
{
	fprintf(out,
		"usage: drivequal-runner replay --brokers HOST:PORT [options] FILE|-\n\n"
		"Validates every line of FILE (- for stdin): samples, job events and runner heartbeats\n"
		"in any mix, as `run` and `devices` print them with --output-format json. Then produces\n"
		"each, in file order, to its topic with the canonical encoding as value (key: jobId;\n"
		"runnerId for heartbeats), waits for delivery and prints\n"
		"{\"produced\":N,\"delivered\":N,\"failed\":N}.\n\n"
		"options:\n"
		"  -b, --brokers HOST:PORT  Kafka bootstrap servers (required)\n"
		"  -t, --topic TOPIC        samples topic (default %s)\n"
		"  -e, --events-topic TOPIC      job events topic (default %s)\n"
		"      --heartbeats-topic TOPIC  runner heartbeats topic (default %s)\n"
		"  -X key=value             a librdkafka property (TLS, SASL, ...); repeatable\n"
		"      --timeout SECONDS    how long to wait for delivery (default %d; 0 = forever)\n"
		"  -h, --help               this help\n\n"
		"Exit status: 0 all delivered, 1 invalid input or undelivered messages, 2 usage error.\n",
		DQ_TOPIC_SAMPLES, DQ_TOPIC_JOB_EVENTS, DQ_TOPIC_RUNNER_HEARTBEATS,
		REPLAY_DEFAULT_TIMEOUT_S);
}

static int parse_args(int argc, char **argv, struct replay_opts *opts)
{
	static const struct option long_options[] = {
		{ "brokers", required_argument, NULL, 'b' },
		{ "topic", required_argument, NULL, 't' },
		{ "events-topic", required_argument, NULL, 'e' },
		{ "heartbeats-topic", required_argument, NULL, 'H' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	long value;
	int opt, kind;

	opts->topics[REPLAY_SAMPLE] = DQ_TOPIC_SAMPLES;
	opts->topics[REPLAY_JOB_EVENT] = DQ_TOPIC_JOB_EVENTS;
	opts->topics[REPLAY_HEARTBEAT] = DQ_TOPIC_RUNNER_HEARTBEATS;
	opts->timeout_s = REPLAY_DEFAULT_TIMEOUT_S;
	while ((opt = getopt_long(argc, argv, "b:t:e:X:h", long_options, NULL)) != -1) {
		switch (opt) {
		case 'b':
			opts->brokers = optarg;
			break;
		case 't':
			opts->topics[REPLAY_SAMPLE] = optarg;
			break;
		case 'e':
			opts->topics[REPLAY_JOB_EVENT] = optarg;
			break;
		case 'H':
			opts->topics[REPLAY_HEARTBEAT] = optarg;
			break;
		case 'X':
			if (dq_cli_add_property("replay", opts->properties, &opts->property_count,
						REPLAY_MAX_PROPERTIES, optarg) != 0) {
				return -EINVAL;
			}
			break;
		case 'T':
			errno = 0;
			value = strtol(optarg, &end, 10);
			if (errno != 0 || end == optarg || *end != '\0' || value < 0 ||
			    value > 86400) {
				fprintf(stderr,
					"drivequal-runner replay: --timeout must be 0..86400 seconds\n");
				return -EINVAL;
			}
			opts->timeout_s = (int)value;
			break;
		case 'h':
			print_usage(stdout);
			return 1;
		default:
			return -EINVAL;
		}
	}
	if (opts->brokers == NULL || opts->brokers[0] == '\0') {
		fprintf(stderr, "drivequal-runner replay: --brokers is required\n");
		return -EINVAL;
	}
	for (kind = 0; kind < REPLAY_KIND_COUNT; kind++) {
		if (opts->topics[kind][0] == '\0') {
			fprintf(stderr, "drivequal-runner replay: the %s topic must not be empty\n",
				g_kind_names[kind]);
			return -EINVAL;
		}
	}
	if (argc - optind != 1) {
		fprintf(stderr, "drivequal-runner replay: need exactly one FILE (or -)\n");
		return -EINVAL;
	}
	opts->path = argv[optind];
	return 0;
}

static bool is_blank(const char *line, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (line[i] != ' ' && line[i] != '\t' && line[i] != '\r' && line[i] != '\n') {
			return false;
		}
	}
	return true;
}

static int record_add(struct replay_ctx *ctx, enum replay_kind kind, const char *key, char *json,
		      size_t len)
{
	struct replay_record *grown;
	size_t capacity;

	if (ctx->record_count == ctx->record_capacity) {
		capacity = ctx->record_capacity == 0 ? 256 : ctx->record_capacity * 2;
		grown = realloc(ctx->records, capacity * sizeof(*grown));
		if (grown == NULL) {
			return -ENOMEM;
		}
		ctx->records = grown;
		ctx->record_capacity = capacity;
	}
	ctx->records[ctx->record_count].kind = kind;
	dq_strlcpy(ctx->records[ctx->record_count].key, key, sizeof(ctx->records[0].key));
	ctx->records[ctx->record_count].json = json;
	ctx->records[ctx->record_count].len = len;
	ctx->record_count++;
	return 0;
}

/*
 * Which message a line is, by the members only that type has: a job event's "type", a heartbeat's
 * "devices". Anything else (unparsable lines too) is decoded as a sample, whose decoder then
 * names what is wrong with it.
 */
static enum replay_kind replay_classify(const char *line, size_t len)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *root = NULL;
	enum replay_kind kind = REPLAY_SAMPLE;

	if (tok == NULL || len > INT32_MAX) {
		json_tokener_free(tok);
		return kind;
	}
	root = json_tokener_parse_ex(tok, line, (int)len);
	if (json_object_is_type(root, json_type_object)) {
		if (json_object_object_get_ex(root, "type", NULL)) {
			kind = REPLAY_JOB_EVENT;
		} else if (json_object_object_get_ex(root, "devices", NULL)) {
			kind = REPLAY_HEARTBEAT;
		}
	}
	json_object_put(root);
	json_tokener_free(tok);
	return kind;
}

/* Decode with the kind's codec and re-encode canonically; *key is the message's Kafka key. */
static int replay_transcode(enum replay_kind kind, const char *line, size_t len, char *key,
			    size_t key_len, char **json, size_t *json_len, char *err,
			    size_t err_len)
{
	struct dq_runner_heartbeat heartbeat;
	struct dq_job_event event;
	struct dq_sample sample;
	int rc;

	switch (kind) {
	case REPLAY_JOB_EVENT:
		rc = dq_job_event_decode(line, len, &event, err, err_len);
		if (rc == 0) {
			rc = dq_job_event_encode(&event, json, json_len, err, err_len);
			dq_strlcpy(key, event.job_id, key_len);
		}
		dq_job_event_fini(&event);
		return rc;
	case REPLAY_HEARTBEAT:
		rc = dq_runner_heartbeat_decode(line, len, &heartbeat, err, err_len);
		if (rc == 0) {
			rc = dq_runner_heartbeat_encode(&heartbeat, json, json_len, err, err_len);
			dq_strlcpy(key, heartbeat.runner_id, key_len);
		}
		dq_runner_heartbeat_fini(&heartbeat);
		return rc;
	default:
		rc = dq_sample_decode(line, len, &sample, err, err_len);
		if (rc == 0) {
			rc = dq_sample_encode(&sample, json, json_len, err, err_len);
			dq_strlcpy(key, sample.job_id, key_len);
		}
		return rc;
	}
}

/* Validate and encode one line; a bad line is reported as FILE:LINE: reason and counted. */
static int replay_line(struct replay_ctx *ctx, const char *line, size_t len, size_t line_no)
{
	enum replay_kind kind = replay_classify(line, len);
	char err[1024], key[DQ_ID_MAX_LEN + 1] = "", *json = NULL;
	size_t json_len = 0;
	int rc;

	rc = replay_transcode(kind, line, len, key, sizeof(key), &json, &json_len, err,
			      sizeof(err));
	if (rc == -EINVAL) {
		if (ctx->bad_lines < REPLAY_MAX_REPORTED_ERRORS) {
			fprintf(stderr, "%s:%zu: %s%s\n", ctx->display_name, line_no,
				g_line_prefixes[kind], err);
		}
		ctx->bad_lines++;
		return 0;
	}
	if (rc == 0) {
		rc = record_add(ctx, kind, key, json, json_len);
	}
	if (rc == 0) {
		ctx->kind_counts[kind]++;
	} else {
		free(json);
	}
	return rc;
}

static int replay_read(struct replay_ctx *ctx)
{
	bool from_stdin = strcmp(ctx->opts.path, "-") == 0;
	FILE *f = from_stdin ? stdin : fopen(ctx->opts.path, "rb");
	size_t line_no = 0, capacity = 0;
	char *line = NULL;
	ssize_t len;
	int rc = 0;

	if (f == NULL) {
		rc = -errno;
		fprintf(stderr, "drivequal-runner replay: %s: %s\n", ctx->opts.path, strerror(-rc));
		return rc;
	}
	while ((len = getline(&line, &capacity, f)) >= 0) {
		line_no++;
		if (is_blank(line, (size_t)len)) {
			continue;
		}
		rc = replay_line(ctx, line, (size_t)len, line_no);
		if (rc != 0) {
			break;
		}
	}
	if (rc == 0 && ferror(f)) {
		rc = -EIO;
	}
	if (rc != 0) {
		fprintf(stderr, "drivequal-runner replay: %s: %s\n", ctx->display_name,
			strerror(-rc));
	}
	free(line);
	if (!from_stdin) {
		fclose(f);
	}
	return rc;
}

/* Produce every record and wait for their delivery reports; returns the exit status. */
static int replay_produce(struct replay_ctx *ctx)
{
	struct dq_kafka_producer_opts popts = {
		.brokers = ctx->opts.brokers,
		.properties = ctx->opts.properties,
		.property_count = ctx->opts.property_count,
	};
	struct dq_kafka_producer_stats stats = { 0 };
	struct dq_kafka_producer *producer = NULL;
	char err[1024];
	size_t i;
	int rc;

	rc = dq_kafka_producer_create(&popts, &producer, err, sizeof(err));
	if (rc != 0) {
		fprintf(stderr, "drivequal-runner replay: %s\n", err);
		return rc == -EINVAL ? DQ_EXIT_USAGE : DQ_EXIT_FAILURE;
	}
	for (i = 0; i < ctx->record_count; i++) {
		const struct replay_record *r = &ctx->records[i];

		rc = dq_kafka_producer_produce(producer, ctx->opts.topics[r->kind], r->key,
					       strlen(r->key), r->json, r->len);
		if (rc != 0) {
			fprintf(stderr, "drivequal-runner replay: stopped at message %zu: %s\n",
				i + 1, strerror(-rc));
			break;
		}
		dq_kafka_producer_poll(producer, 0);
	}
	rc = dq_kafka_producer_flush(producer,
				     ctx->opts.timeout_s > 0 ? ctx->opts.timeout_s * 1000 : -1);
	if (rc == -ETIMEDOUT) {
		fprintf(stderr, "drivequal-runner replay: not all messages delivered within %d s\n",
			ctx->opts.timeout_s);
	}
	dq_kafka_producer_purge(producer);
	dq_kafka_producer_get_stats(producer, &stats);
	dq_kafka_producer_destroy(producer, 0);
	/* Whatever was not acknowledged counts as failed, purged or not. */
	printf("{\"produced\":%" PRIu64 ",\"delivered\":%" PRIu64 ",\"failed\":%" PRIu64 "}\n",
	       stats.produced, stats.delivered, stats.produced - stats.delivered);
	fflush(stdout);
	return stats.delivered == ctx->record_count ? DQ_EXIT_OK : DQ_EXIT_FAILURE;
}

int dq_cmd_replay_main(int argc, char **argv)
{
	struct replay_ctx ctx = { 0 };
	int rc, status;
	size_t i;

	rc = parse_args(argc, argv, &ctx.opts);
	if (rc != 0) {
		if (rc < 0) {
			print_usage(stderr);
		}
		return rc > 0 ? DQ_EXIT_OK : DQ_EXIT_USAGE;
	}
	ctx.display_name = strcmp(ctx.opts.path, "-") == 0 ? "<stdin>" : ctx.opts.path;
	rc = replay_read(&ctx);
	if (rc != 0) {
		status = DQ_EXIT_FAILURE;
		goto cleanup;
	}
	if (ctx.bad_lines > 0) {
		fprintf(stderr,
			"drivequal-runner replay: %zu invalid line(s) in %s; nothing produced\n",
			ctx.bad_lines, ctx.display_name);
		status = DQ_EXIT_FAILURE;
		goto cleanup;
	}
	if (ctx.record_count == 0) {
		fprintf(stderr, "drivequal-runner replay: no messages in %s\n", ctx.display_name);
		printf("{\"produced\":0,\"delivered\":0,\"failed\":0}\n");
		status = DQ_EXIT_OK;
		goto cleanup;
	}
	fprintf(stderr,
		"drivequal-runner replay: %s: %zu samples, %zu job events, %zu heartbeats\n",
		ctx.display_name, ctx.kind_counts[REPLAY_SAMPLE], ctx.kind_counts[REPLAY_JOB_EVENT],
		ctx.kind_counts[REPLAY_HEARTBEAT]);
	status = replay_produce(&ctx);
cleanup:
	for (i = 0; i < ctx.record_count; i++) {
		free(ctx.records[i].json);
	}
	free(ctx.records);
	return status;
}
