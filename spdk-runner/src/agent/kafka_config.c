/*
 * Kafka client configuration shared by the producer, the consumer and the agent's up-front
 * property check, so the three cannot drift apart on how a value is kept out of error messages.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kafka_config.h"

const char *dq_kafka_property_split(const char *property, char *key, size_t key_size)
{
	const char *eq = strchr(property, '=');
	size_t key_len;

	if (eq == NULL || eq == property || (key_len = (size_t)(eq - property)) >= key_size) {
		return NULL;
	}
	memcpy(key, property, key_len);
	key[key_len] = '\0';
	return eq + 1;
}

/* Replace every occurrence of value in text by "***" (text shrinks or grows by at most that). */
static void redact(char *text, size_t text_size, const char *value)
{
	size_t value_len = strlen(value);
	char *at = text;

	while (value_len > 0 && (at = strstr(at, value)) != NULL) {
		size_t tail = strlen(at + value_len) + 1;

		if ((size_t)(at - text) + 3 + tail > text_size) {
			/* No room for the marker: cut the text where the value began. */
			*at = '\0';
			return;
		}
		memmove(at + 3, at + value_len, tail);
		memcpy(at, "***", 3);
		at += 3;
	}
}

int dq_kafka_conf_set(rd_kafka_conf_t *conf, const char *key, const char *value, char *err,
		      size_t err_len)
{
	char errstr[512];

	if (rd_kafka_conf_set(conf, key, value, errstr, sizeof(errstr)) != RD_KAFKA_CONF_OK) {
		redact(errstr, sizeof(errstr), value);
		snprintf(err, err_len, "kafka property %s: %s", key, errstr);
		return -EINVAL;
	}
	return 0;
}

int dq_kafka_conf_new(const char *brokers, const struct dq_kafka_setting *settings,
		      size_t setting_count, const char *const *properties, size_t property_count,
		      rd_kafka_conf_t **conf, char *err, size_t err_len)
{
	rd_kafka_conf_t *c;
	const char *value;
	char key[256];
	size_t i;
	int rc;

	*conf = NULL;
	c = rd_kafka_conf_new();
	if (c == NULL) {
		return -ENOMEM;
	}
	rc = dq_kafka_conf_set(c, "bootstrap.servers", brokers, err, err_len);
	for (i = 0; rc == 0 && i < setting_count; i++) {
		rc = dq_kafka_conf_set(c, settings[i].key, settings[i].value, err, err_len);
	}
	for (i = 0; rc == 0 && i < property_count; i++) {
		value = dq_kafka_property_split(properties[i], key, sizeof(key));
		if (value == NULL) {
			snprintf(err, err_len, "kafka property: expected key=value");
			rc = -EINVAL;
			break;
		}
		rc = dq_kafka_conf_set(c, key, value, err, err_len);
	}
	if (rc != 0) {
		rd_kafka_conf_destroy(c);
		return rc;
	}
	*conf = c;
	return 0;
}
