/*
 * The one Kafka-configuration piece the producer, the consumer and the agent's check share: a
 * bad property is named by its key, and its value (which may be a secret) never appears in the
 * error, not even where librdkafka's own reason quotes it. Also the real producer and consumer
 * refusing a bad -X property the same way, without a broker.
 */
#include <errno.h>
#include <string.h>

#include "agent/kafka_producer.h"
#include "kafka_config.h"
#include "kafka_consumer.h"
#include "test_util.h"

#define SECRET "hush-hush-0123456789"

static void test_split(struct test_ctx *t)
{
	char key[8];

	CHECK(t,
	      strcmp(dq_kafka_property_split("acks=all", key, sizeof(key)), "all") == 0 &&
		      strcmp(key, "acks") == 0,
	      "key=value splits");
	CHECK(t, strcmp(dq_kafka_property_split("a==b", key, sizeof(key)), "=b") == 0,
	      "the first = splits");
	CHECK(t, dq_kafka_property_split("no-equals", key, sizeof(key)) == NULL, "no =");
	CHECK(t, dq_kafka_property_split("=value", key, sizeof(key)) == NULL, "empty key");
	CHECK(t, dq_kafka_property_split("12345678=v", key, sizeof(key)) == NULL,
	      "a key longer than the buffer");
}

static void test_conf_new(struct test_ctx *t)
{
	const struct dq_kafka_setting settings[] = { { "client.id", "test" } };
	const char *bad_value[] = { "linger.ms=5", "compression.type=" SECRET };
	const char *no_equals[] = { "sasl.password" SECRET };
	const char *unknown[] = { "no.such.property=" SECRET };
	rd_kafka_conf_t *conf = NULL;
	char err[512] = "";
	int rc;

	rc = dq_kafka_conf_new("127.0.0.1:9", settings, 1, NULL, 0, &conf, err, sizeof(err));
	CHECK(t, rc == 0 && conf != NULL, "a good configuration: %d %s", rc, err);
	if (conf != NULL) {
		rd_kafka_conf_destroy(conf);
	}

	rc = dq_kafka_conf_new("127.0.0.1:9", settings, 1, bad_value, 2, &conf, err, sizeof(err));
	CHECK(t, rc == -EINVAL && conf == NULL, "a bad value is refused: %d", rc);
	CHECK(t, strstr(err, "compression.type") != NULL, "the key is named: %s", err);
	CHECK(t, strstr(err, SECRET) == NULL, "the value is not: %s", err);

	rc = dq_kafka_conf_new("127.0.0.1:9", NULL, 0, no_equals, 1, &conf, err, sizeof(err));
	CHECK(t, rc == -EINVAL && strstr(err, "expected key=value") != NULL, "no =: %s", err);
	CHECK(t, strstr(err, SECRET) == NULL, "a malformed property is not quoted: %s", err);

	rc = dq_kafka_conf_new("127.0.0.1:9", NULL, 0, unknown, 1, &conf, err, sizeof(err));
	CHECK(t, rc == -EINVAL && strstr(err, "no.such.property") != NULL, "unknown key: %s", err);
	CHECK(t, strstr(err, SECRET) == NULL, "its value is not quoted: %s", err);
}

/* The real clients take the same path: neither quotes a bad -X value. */
static void test_clients(struct test_ctx *t)
{
	const char *properties[] = { "compression.type=" SECRET };
	struct dq_kafka_producer_opts popts = { .brokers = "127.0.0.1:9",
						.properties = properties,
						.property_count = 1 };
	struct dq_kafka_consumer_opts copts = { .brokers = "127.0.0.1:9",
						.properties = properties,
						.property_count = 1,
						.group_id = "g",
						.client_id = "c",
						.topic = "t" };
	struct dq_kafka_producer *producer = NULL;
	struct dq_kafka_consumer *consumer = NULL;
	char err[512] = "";
	int rc;

	rc = dq_kafka_producer_create(&popts, &producer, err, sizeof(err));
	CHECK(t, rc == -EINVAL && producer == NULL, "producer refuses: %d", rc);
	CHECK(t, strstr(err, "compression.type") != NULL && strstr(err, SECRET) == NULL,
	      "producer error names the key only: %s", err);
	err[0] = '\0';
	rc = dq_kafka_consumer_create(&copts, &consumer, err, sizeof(err));
	CHECK(t, rc == -EINVAL && consumer == NULL, "consumer refuses: %d", rc);
	CHECK(t, strstr(err, "compression.type") != NULL && strstr(err, SECRET) == NULL,
	      "consumer error names the key only: %s", err);
}

int main(void)
{
	struct test_ctx t = { 0 };

	test_split(&t);
	test_conf_new(&t);
	test_clients(&t);
	return test_report(&t, "kafka_config");
}
