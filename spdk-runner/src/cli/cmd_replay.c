/*
 * `drivequal-runner replay`: feed a saved run into Kafka. The JSON lines `run --output-format json`
 * prints (samples and job events, the very messages the agent would have published) go to the
 * samples and job-events topics, keyed by jobId as the agent keys them, so a run made where no
 * broker was reachable (a test guest, an isolated lab host) reaches the service afterwards. Every
 * line is validated before anything is produced, so a bad file never half-lands; the Java
 * integration tests publish their samples this way.
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
#include "contract/msg_sample.h"
#include "contract/topics.h"

#define REPLAY_DEFAULT_TIMEOUT_S 60
#define REPLAY_MAX_REPORTED_ERRORS 20
#define REPLAY_MAX_PROPERTIES 64

struct replay_opts {
	const char *brokers;
	const char *topic; /* samples */
	const char *events_topic;
	const char *path;
	int timeout_s; /* waiting for delivery reports; 0 = forever */
	const char *properties[REPLAY_MAX_PROPERTIES];
	size_t property_count;
};

/* One validated message: its topic, its key and its canonical encoding. */
struct replay_record {
	const char *topic;
	char job_id[DQ_ID_MAX_LEN + 1];
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
};

static void print_usage(FILE *out)
{
	fprintf(out,
		"usage: drivequal-runner replay --brokers HOST:PORT [options] FILE|-\n\n"
		"Feeds a saved run into Kafka. Validates every line of FILE (JSON lines of samples and\n"
		"job events, as `run --output-format json` prints them; - for stdin), then produces\n"
		"each to its topic with key jobId and the canonical encoding as value, waits for\n"
		"delivery and prints {\"produced\":N,\"delivered\":N,\"failed\":N}.\n\n"
		"options:\n"
		"  -b, --brokers HOST:PORT  Kafka bootstrap servers (required)\n"
		"  -t, --topic TOPIC        samples topic (default %s)\n"
		"  -e, --events-topic TOPIC job-events topic (default %s)\n"
		"  -X key=value             a librdkafka property (TLS, SASL, ...); repeatable\n"
		"      --timeout SECONDS    how long to wait for delivery (default %d; 0 = forever)\n"
		"  -h, --help               this help\n\n"
		"Exit status: 0 all delivered, 1 invalid input or undelivered messages, 2 usage error.\n",
		DQ_TOPIC_SAMPLES, DQ_TOPIC_JOB_EVENTS, REPLAY_DEFAULT_TIMEOUT_S);
}

static int parse_args(int argc, char **argv, struct replay_opts *opts)
{
	static const struct option long_options[] = {
		{ "brokers", required_argument, NULL, 'b' },
		{ "topic", required_argument, NULL, 't' },
		{ "events-topic", required_argument, NULL, 'e' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	long value;
	int opt;

	opts->topic = DQ_TOPIC_SAMPLES;
	opts->events_topic = DQ_TOPIC_JOB_EVENTS;
	opts->timeout_s = REPLAY_DEFAULT_TIMEOUT_S;
	while ((opt = getopt_long(argc, argv, "b:t:e:X:h", long_options, NULL)) != -1) {
		switch (opt) {
		case 'b':
			opts->brokers = optarg;
			break;
		case 't':
			opts->topic = optarg;
			break;
		case 'e':
			opts->events_topic = optarg;
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
	if (opts->topic[0] == '\0' || opts->events_topic[0] == '\0') {
		fprintf(stderr, "drivequal-runner replay: a topic must not be empty\n");
		return -EINVAL;
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

static int record_add(struct replay_ctx *ctx, const char *topic, const char *job_id, char *json,
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
	ctx->records[ctx->record_count].topic = topic;
	memcpy(ctx->records[ctx->record_count].job_id, job_id,
	       sizeof(ctx->records[ctx->record_count].job_id));
	ctx->records[ctx->record_count].json = json;
	ctx->records[ctx->record_count].len = len;
	ctx->record_count++;
	return 0;
}

/* A job event has a "type"; a sample has none. Anything else is left to the sample decoder. */
static bool line_is_event(const char *line, size_t len)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *root = NULL;
	bool event;

	if (tok == NULL || len > INT32_MAX) {
		json_tokener_free(tok);
		return false;
	}
	root = json_tokener_parse_ex(tok, line, (int)len);
	event = json_object_is_type(root, json_type_object) &&
		json_object_object_get_ex(root, "type", NULL);
	json_object_put(root);
	json_tokener_free(tok);
	return event;
}

static int encode_sample(const char *line, size_t len, char *job_id, char **json, size_t *json_len,
			 char *err, size_t err_len)
{
	struct dq_sample sample;
	int rc = dq_sample_decode(line, len, &sample, err, err_len);

	if (rc == 0) {
		memcpy(job_id, sample.job_id, sizeof(sample.job_id));
		rc = dq_sample_encode(&sample, json, json_len, err, err_len);
	}
	return rc;
}

static int encode_event(const char *line, size_t len, char *job_id, char **json, size_t *json_len,
			char *err, size_t err_len)
{
	struct dq_job_event event;
	int rc = dq_job_event_decode(line, len, &event, err, err_len);

	if (rc == 0) {
		memcpy(job_id, event.job_id, sizeof(event.job_id));
		rc = dq_job_event_encode(&event, json, json_len, err, err_len);
	}
	dq_job_event_fini(&event);
	return rc;
}

/* Validate and encode one line; a bad line is reported as FILE:LINE: reason and counted. */
static int replay_line(struct replay_ctx *ctx, const char *line, size_t len, size_t line_no)
{
	bool event = line_is_event(line, len);
	char job_id[DQ_ID_MAX_LEN + 1], err[1024], *json = NULL;
	size_t json_len = 0;
	int rc;

	rc = event ? encode_event(line, len, job_id, &json, &json_len, err, sizeof(err)) :
		     encode_sample(line, len, job_id, &json, &json_len, err, sizeof(err));
	if (rc == -EINVAL) {
		if (ctx->bad_lines < REPLAY_MAX_REPORTED_ERRORS) {
			fprintf(stderr, "%s:%zu: %s%s\n", ctx->display_name, line_no,
				event ? "job event: " : "", err);
		}
		ctx->bad_lines++;
		return 0;
	}
	if (rc == 0) {
		rc = record_add(ctx, event ? ctx->opts.events_topic : ctx->opts.topic, job_id, json,
				json_len);
	}
	if (rc != 0) {
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

		rc = dq_kafka_producer_produce(producer, r->topic, r->job_id, strlen(r->job_id),
					       r->json, r->len);
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
		fprintf(stderr, "drivequal-runner replay: no samples or events in %s\n",
			ctx.display_name);
		printf("{\"produced\":0,\"delivered\":0,\"failed\":0}\n");
		status = DQ_EXIT_OK;
		goto cleanup;
	}
	status = replay_produce(&ctx);
cleanup:
	for (i = 0; i < ctx.record_count; i++) {
		free(ctx.records[i].json);
	}
	free(ctx.records);
	return status;
}
