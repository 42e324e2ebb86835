/*
 * The runner's one way to publish: a librdkafka producer set up so that samples survive broker
 * restarts (idempotent, acks=all, no message timeout), with delivery reports counted so callers can
 * tell "queued" from "acknowledged", and a fatal error stopping it rather than being retried.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <librdkafka/rdkafka.h>

#include "agent/kafka_producer.h"
#include "kafka_config.h"

#define PRODUCER_POLL_SLICE_MS 100
#define PRODUCER_LOGGED_FAILURES_MAX 10

struct dq_kafka_producer {
	rd_kafka_t *rk;
	int queue_full_timeout_ms;
	uint64_t produced;
	uint64_t delivered;
	uint64_t failed;
	bool fatal;
	char fatal_reason[512];
};

/* Idempotent delivery that survives broker restarts; -X properties come after and may override. */
static const struct dq_kafka_setting g_producer_defaults[] = {
	{ "client.id", "drivequal-runner" },
	{ "enable.idempotence", "true" },
	{ "acks", "all" },
	/* 0 = never time out: a broker restart mid-job must not lose samples */
	{ "message.timeout.ms", "0" },
	/* A host's samples leave in batches: at 250 paced drives a 100 ms linger halves the broker
	 * thread's CPU against 5 ms (docs/benchmarks.md, "Fleet"); a sample waits at most that. */
	{ "linger.ms", "100" },
	{ "compression.type", "lz4" },
};

static int64_t monotonic_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Served from rd_kafka_poll()/flush() on the caller's thread. */
static void producer_dr_msg_cb(rd_kafka_t *rk, const rd_kafka_message_t *msg, void *opaque)
{
	struct dq_kafka_producer *p = opaque;

	(void)rk;
	if (msg->err == RD_KAFKA_RESP_ERR_NO_ERROR) {
		p->delivered++;
		return;
	}
	p->failed++;
	if (p->failed <= PRODUCER_LOGGED_FAILURES_MAX) {
		fprintf(stderr, "drivequal-runner: delivery to %s failed: %s\n",
			rd_kafka_topic_name(msg->rkt), rd_kafka_err2str(msg->err));
	}
}

/* librdkafka retries on its own; only a fatal error (idempotence broken) needs action. */
static void producer_error_cb(rd_kafka_t *rk, int err, const char *reason, void *opaque)
{
	struct dq_kafka_producer *p = opaque;
	rd_kafka_resp_err_t fatal_err;
	char fatal_reason[256];

	if (err == RD_KAFKA_RESP_ERR__FATAL) {
		fatal_err = rd_kafka_fatal_error(rk, fatal_reason, sizeof(fatal_reason));
		p->fatal = true;
		snprintf(p->fatal_reason, sizeof(p->fatal_reason), "%s: %s",
			 rd_kafka_err2name(fatal_err), fatal_reason);
		fprintf(stderr, "drivequal-runner: Kafka producer stopped by a fatal error: %s\n",
			p->fatal_reason);
		return;
	}
	/* librdkafka's own log already reports connection failures. */
	if (err != RD_KAFKA_RESP_ERR__TRANSPORT) {
		fprintf(stderr, "drivequal-runner: Kafka: %s: %s\n", rd_kafka_err2name(err),
			reason);
	}
}

int dq_kafka_producer_create(const struct dq_kafka_producer_opts *opts,
			     struct dq_kafka_producer **producer, char *err, size_t err_len)
{
	struct dq_kafka_producer *p;
	rd_kafka_conf_t *conf = NULL;
	char errstr[512];
	int rc;

	*producer = NULL;
	if (opts->brokers == NULL || opts->brokers[0] == '\0') {
		snprintf(err, err_len, "no Kafka brokers given");
		return -EINVAL;
	}
	p = calloc(1, sizeof(*p));
	if (p == NULL) {
		rc = -ENOMEM;
		goto cleanup;
	}
	p->queue_full_timeout_ms = opts->queue_full_timeout_ms > 0 ?
					   opts->queue_full_timeout_ms :
					   DQ_KAFKA_PRODUCER_QUEUE_FULL_TIMEOUT_MS;
	rc = dq_kafka_conf_new(opts->brokers, g_producer_defaults,
			       sizeof(g_producer_defaults) / sizeof(g_producer_defaults[0]),
			       opts->properties, opts->property_count, &conf, err, err_len);
	if (rc != 0) {
		goto cleanup;
	}
	/* Callbacks and their opaque before rd_kafka_new(), which takes the configuration. */
	rd_kafka_conf_set_dr_msg_cb(conf, producer_dr_msg_cb);
	rd_kafka_conf_set_error_cb(conf, producer_error_cb);
	rd_kafka_conf_set_opaque(conf, p);
	p->rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof(errstr));
	if (p->rk == NULL) {
		snprintf(err, err_len, "cannot create the Kafka producer: %s", errstr);
		rc = -EINVAL;
		goto cleanup;
	}
	conf = NULL;
	*producer = p;
	p = NULL;
cleanup:
	if (conf != NULL) {
		rd_kafka_conf_destroy(conf);
	}
	free(p);
	return rc;
}

int dq_kafka_producer_produce(struct dq_kafka_producer *p, const char *topic, const void *key,
			      size_t key_len, const void *value, size_t value_len)
{
	int64_t deadline = monotonic_ms() + p->queue_full_timeout_ms;
	rd_kafka_resp_err_t err;

	for (;;) {
		if (p->fatal) {
			return -ENOTRECOVERABLE;
		}
		/* F_COPY: librdkafka copies, so the casts never let it write our buffers. */
		err = rd_kafka_producev(p->rk, RD_KAFKA_V_TOPIC(topic),
					RD_KAFKA_V_KEY((void *)key, key_len),
					RD_KAFKA_V_VALUE((void *)value, value_len),
					RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END);
		if (err == RD_KAFKA_RESP_ERR_NO_ERROR) {
			p->produced++;
			return 0;
		}
		if (err != RD_KAFKA_RESP_ERR__QUEUE_FULL) {
			break;
		}
		/* Bounded wait: serve delivery reports to make room, then retry. */
		if (monotonic_ms() >= deadline) {
			return -EAGAIN;
		}
		rd_kafka_poll(p->rk, PRODUCER_POLL_SLICE_MS);
	}
	fprintf(stderr, "drivequal-runner: cannot produce to %s: %s\n", topic,
		rd_kafka_err2str(err));
	switch (err) {
	case RD_KAFKA_RESP_ERR__FATAL:
		return -ENOTRECOVERABLE;
	case RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE:
		return -EMSGSIZE;
	case RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC:
	case RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION:
	case RD_KAFKA_RESP_ERR__INVALID_ARG:
		return -EINVAL;
	default:
		return -EIO;
	}
}

int dq_kafka_producer_poll(struct dq_kafka_producer *p, int timeout_ms)
{
	return rd_kafka_poll(p->rk, timeout_ms);
}

int dq_kafka_producer_flush(struct dq_kafka_producer *p, int timeout_ms)
{
	int64_t deadline = monotonic_ms() + timeout_ms;
	int64_t remaining = PRODUCER_POLL_SLICE_MS;

	/* In slices, so a fatal error ends the wait instead of the timeout. */
	while (rd_kafka_outq_len(p->rk) > 0 && !p->fatal) {
		if (timeout_ms >= 0) {
			remaining = deadline - monotonic_ms();
			if (remaining <= 0) {
				break;
			}
		}
		rd_kafka_flush(p->rk,
			       (int)(remaining < PRODUCER_POLL_SLICE_MS ? remaining :
									  PRODUCER_POLL_SLICE_MS));
	}
	if (p->fatal) {
		return -ENOTRECOVERABLE;
	}
	return rd_kafka_outq_len(p->rk) == 0 ? 0 : -ETIMEDOUT;
}

void dq_kafka_producer_get_stats(const struct dq_kafka_producer *p,
				 struct dq_kafka_producer_stats *stats)
{
	stats->produced = p->produced;
	stats->delivered = p->delivered;
	stats->failed = p->failed;
	stats->fatal = p->fatal;
}

const char *dq_kafka_producer_fatal_reason(const struct dq_kafka_producer *p)
{
	return p->fatal ? p->fatal_reason : NULL;
}

int dq_kafka_producer_purge(struct dq_kafka_producer *p)
{
	int outstanding = rd_kafka_outq_len(p->rk);

	if (outstanding == 0) {
		return 0;
	}
	rd_kafka_purge(p->rk, RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT);
	/* Purged messages come back as failed delivery reports; serve them to count them. */
	rd_kafka_flush(p->rk, PRODUCER_POLL_SLICE_MS);
	rd_kafka_poll(p->rk, 0);
	return outstanding;
}

void dq_kafka_producer_destroy(struct dq_kafka_producer *p, int timeout_ms)
{
	int outstanding;

	if (p == NULL) {
		return;
	}
	dq_kafka_producer_flush(p, timeout_ms);
	outstanding = dq_kafka_producer_purge(p);
	if (outstanding > 0) {
		fprintf(stderr, "drivequal-runner: %d Kafka messages undelivered at shutdown\n",
			outstanding);
	}
	if (p->failed > PRODUCER_LOGGED_FAILURES_MAX) {
		fprintf(stderr, "drivequal-runner: %llu deliveries failed in all\n",
			(unsigned long long)p->failed);
	}
	rd_kafka_destroy(p->rk);
	free(p);
}
