/*
 * Consumes the runner-commands topic for the agent. Offsets are stored by hand after a command
 * was acted on and committed from the agent's tick; a partition with no committed offset starts
 * at its current end, fixed and committed when it is assigned, so "latest" never races the
 * service's first command to this runner.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <librdkafka/rdkafka.h>

#include "kafka_config.h"
#include "kafka_consumer.h"

#define CONSUMER_QUERY_TIMEOUT_MS 10000
#define CONSUMER_ERROR_REPEAT_S 30

struct dq_kafka_consumer {
	rd_kafka_t *rk;
	bool ready;
	bool stored; /* offsets stored since the last commit */
	rd_kafka_resp_err_t last_error;
	time_t last_error_time;
};

static void log_error(struct dq_kafka_consumer *c, rd_kafka_resp_err_t err, const char *reason)
{
	time_t now = time(NULL);

	/* The same error comes back on every metadata refresh: say it again every 30 s only. */
	if (err == c->last_error && now - c->last_error_time < CONSUMER_ERROR_REPEAT_S) {
		return;
	}
	c->last_error = err;
	c->last_error_time = now;
	fprintf(stderr, "drivequal-runner agent: commands consumer: %s: %s\n",
		rd_kafka_err2name(err), reason);
}

static void consumer_error_cb(rd_kafka_t *rk, int err, const char *reason, void *opaque)
{
	(void)rk;
	if (err != RD_KAFKA_RESP_ERR__TRANSPORT) { /* librdkafka's own log reports those */
		log_error(opaque, (rd_kafka_resp_err_t)err, reason);
	}
}

static void consumer_commit_cb(rd_kafka_t *rk, rd_kafka_resp_err_t err,
			       rd_kafka_topic_partition_list_t *offsets, void *opaque)
{
	(void)rk;
	(void)offsets;
	if (err != RD_KAFKA_RESP_ERR_NO_ERROR && err != RD_KAFKA_RESP_ERR__NO_OFFSET) {
		log_error(opaque, err, "offset commit failed (retried with the next command)");
	}
}

/* Partitions without a committed offset start at their end, and that start is committed. */
static void pin_new_partitions(struct dq_kafka_consumer *c, rd_kafka_topic_partition_list_t *list)
{
	rd_kafka_topic_partition_list_t *pinned = rd_kafka_topic_partition_list_new(list->cnt);
	rd_kafka_resp_err_t err;
	int64_t low, high;
	int i;

	err = rd_kafka_committed(c->rk, list, CONSUMER_QUERY_TIMEOUT_MS);
	if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
		log_error(c, err, "cannot read committed offsets; new partitions start at latest");
		rd_kafka_topic_partition_list_destroy(pinned);
		return;
	}
	for (i = 0; i < list->cnt; i++) {
		rd_kafka_topic_partition_t *p = &list->elems[i];

		if (p->offset >= 0) {
			continue;
		}
		err = rd_kafka_query_watermark_offsets(c->rk, p->topic, p->partition, &low, &high,
						       CONSUMER_QUERY_TIMEOUT_MS);
		if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
			log_error(c, err, "cannot read a partition's end; it starts at latest");
			continue;
		}
		p->offset = high;
		rd_kafka_topic_partition_list_add(pinned, p->topic, p->partition)->offset = high;
	}
	if (pinned->cnt > 0) {
		fprintf(stderr,
			"drivequal-runner agent: first start of this runner's consumer group: "
			"%d partition(s) of %s start at their current end\n",
			pinned->cnt, pinned->elems[0].topic);
		rd_kafka_commit(c->rk, pinned, 1);
	}
	rd_kafka_topic_partition_list_destroy(pinned);
}

static void consumer_rebalance_cb(rd_kafka_t *rk, rd_kafka_resp_err_t err,
				  rd_kafka_topic_partition_list_t *partitions, void *opaque)
{
	struct dq_kafka_consumer *c = opaque;
	bool cooperative = strcmp(rd_kafka_rebalance_protocol(rk), "COOPERATIVE") == 0;
	rd_kafka_error_t *error = NULL;

	if (err == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS) {
		pin_new_partitions(c, partitions);
		if (cooperative) {
			error = rd_kafka_incremental_assign(rk, partitions);
		} else {
			rd_kafka_assign(rk, partitions);
		}
		c->ready = true;
	} else {
		if (c->stored) {
			rd_kafka_commit(rk, NULL, 0);
			c->stored = false;
		}
		if (cooperative) {
			error = rd_kafka_incremental_unassign(rk, partitions);
		} else {
			rd_kafka_assign(rk, NULL);
		}
	}
	if (error != NULL) {
		log_error(c, rd_kafka_error_code(error), rd_kafka_error_string(error));
		rd_kafka_error_destroy(error);
	}
}

static int subscribe(struct dq_kafka_consumer *c, const char *topic, char *err, size_t err_len)
{
	rd_kafka_topic_partition_list_t *topics = rd_kafka_topic_partition_list_new(1);
	rd_kafka_resp_err_t rerr;

	rd_kafka_topic_partition_list_add(topics, topic, RD_KAFKA_PARTITION_UA);
	rerr = rd_kafka_subscribe(c->rk, topics);
	rd_kafka_topic_partition_list_destroy(topics);
	if (rerr != RD_KAFKA_RESP_ERR_NO_ERROR) {
		snprintf(err, err_len, "cannot subscribe to %s: %s", topic, rd_kafka_err2str(rerr));
		return -EINVAL;
	}
	return 0;
}

int dq_kafka_consumer_create(const struct dq_kafka_consumer_opts *opts,
			     struct dq_kafka_consumer **consumer, char *err, size_t err_len)
{
	const struct dq_kafka_setting settings[] = {
		{ "group.id", opts->group_id },
		{ "client.id", opts->client_id },
		{ "enable.auto.commit", "false" },
		{ "enable.auto.offset.store", "false" },
		/* Only for a partition with no committed offset and not pinned at assignment. */
		{ "auto.offset.reset", "latest" },
	};
	struct dq_kafka_consumer *c;
	rd_kafka_conf_t *conf = NULL;
	char errstr[512];
	int rc;

	*consumer = NULL;
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		rc = -ENOMEM;
		goto cleanup;
	}
	rc = dq_kafka_conf_new(opts->brokers, settings, sizeof(settings) / sizeof(settings[0]),
			       opts->properties, opts->property_count, &conf, err, err_len);
	if (rc != 0) {
		goto cleanup;
	}
	/* Callbacks and their opaque before rd_kafka_new(), which takes the configuration. */
	rd_kafka_conf_set_rebalance_cb(conf, consumer_rebalance_cb);
	rd_kafka_conf_set_error_cb(conf, consumer_error_cb);
	rd_kafka_conf_set_offset_commit_cb(conf, consumer_commit_cb);
	rd_kafka_conf_set_opaque(conf, c);
	c->rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, errstr, sizeof(errstr));
	if (c->rk == NULL) {
		snprintf(err, err_len, "cannot create the Kafka consumer: %s", errstr);
		rc = -EINVAL;
		goto cleanup;
	}
	conf = NULL;
	rd_kafka_poll_set_consumer(c->rk); /* errors and logs are served by consumer_poll */
	rc = subscribe(c, opts->topic, err, err_len);
	if (rc != 0) {
		rd_kafka_destroy(c->rk);
		goto cleanup;
	}
	*consumer = c;
	c = NULL;
cleanup:
	if (conf != NULL) {
		rd_kafka_conf_destroy(conf);
	}
	free(c);
	return rc;
}

int dq_kafka_consumer_poll(struct dq_kafka_consumer *c, int timeout_ms,
			   struct dq_kafka_record *record)
{
	rd_kafka_message_t *msg = rd_kafka_consumer_poll(c->rk, timeout_ms);
	char reason[512];

	if (msg == NULL) {
		return 0;
	}
	if (msg->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
		if (msg->err == RD_KAFKA_RESP_ERR__FATAL) {
			rd_kafka_fatal_error(c->rk, reason, sizeof(reason));
			fprintf(stderr, "drivequal-runner agent: commands consumer: fatal: %s\n",
				reason);
			rd_kafka_message_destroy(msg);
			return -ENOTRECOVERABLE;
		}
		if (msg->err != RD_KAFKA_RESP_ERR__PARTITION_EOF) {
			log_error(c, msg->err, rd_kafka_message_errstr(msg));
		}
		rd_kafka_message_destroy(msg);
		return 0;
	}
	record->key = msg->key;
	record->key_len = msg->key_len;
	record->value = msg->payload;
	record->value_len = msg->len;
	record->partition = msg->partition;
	record->offset = msg->offset;
	record->message = msg;
	return 1;
}

void dq_kafka_consumer_done(struct dq_kafka_consumer *c, struct dq_kafka_record *record)
{
	rd_kafka_message_t *msg = record->message;
	rd_kafka_topic_partition_list_t *offsets = rd_kafka_topic_partition_list_new(1);
	rd_kafka_resp_err_t err;

	rd_kafka_topic_partition_list_add(offsets, rd_kafka_topic_name(msg->rkt), msg->partition)
		->offset = msg->offset + 1;
	err = rd_kafka_offsets_store(c->rk, offsets);
	if (err == RD_KAFKA_RESP_ERR_NO_ERROR && offsets->elems[0].err == 0) {
		c->stored = true;
	} else if (err != RD_KAFKA_RESP_ERR__STATE) { /* revoked meanwhile: another owner reads */
		log_error(c, err != 0 ? err : offsets->elems[0].err, "cannot store an offset");
	}
	rd_kafka_topic_partition_list_destroy(offsets);
	rd_kafka_message_destroy(msg);
	record->message = NULL;
}

void dq_kafka_consumer_commit(struct dq_kafka_consumer *c)
{
	if (c->stored) {
		rd_kafka_commit(c->rk, NULL, 1);
		c->stored = false;
	}
}

bool dq_kafka_consumer_ready(const struct dq_kafka_consumer *c)
{
	return c->ready;
}

int dq_kafka_consumer_close(struct dq_kafka_consumer *c)
{
	rd_kafka_resp_err_t err = RD_KAFKA_RESP_ERR_NO_ERROR;
	int rc = 0;

	if (c == NULL) {
		return 0;
	}
	if (c->stored) {
		err = rd_kafka_commit(c->rk, NULL, 0);
		if (err != RD_KAFKA_RESP_ERR_NO_ERROR && err != RD_KAFKA_RESP_ERR__NO_OFFSET) {
			fprintf(stderr,
				"drivequal-runner agent: final offset commit failed: %s (the last "
				"commands may be delivered again; they are idempotent by commandId "
				"within a run)\n",
				rd_kafka_err2str(err));
			rc = -EIO;
		}
	}
	rd_kafka_consumer_close(c->rk);
	rd_kafka_destroy(c->rk);
	free(c);
	return rc;
}
