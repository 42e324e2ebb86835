/*
 * The one way the runner's Kafka clients (producer, consumer) and the agent's configuration check
 * hand properties to librdkafka: checked one by one with librdkafka's reason, and never quoting a
 * value back, since any value may be a secret (sasl.password, ssl.key.pem, ...).
 */
#ifndef DRIVEQUAL_KAFKA_CONFIG_H
#define DRIVEQUAL_KAFKA_CONFIG_H

#include <stddef.h>

#include <librdkafka/rdkafka.h>

/* A property a client sets for itself, before the operator's properties (which may override). */
struct dq_kafka_setting {
	const char *key;
	const char *value;
};

/*
 * Split "key=value" (kcat's -X): copy the key into key (key_size bytes) and return the value, or
 * NULL when property has no '=', an empty key, or a key that does not fit.
 */
const char *dq_kafka_property_split(const char *property, char *key, size_t key_size);

/*
 * Set one property. Returns 0, or -EINVAL with err "kafka property KEY: <librdkafka's reason>",
 * the value replaced by *** wherever librdkafka's reason repeats it.
 */
int dq_kafka_conf_set(rd_kafka_conf_t *conf, const char *key, const char *value, char *err,
		      size_t err_len);

/*
 * A new configuration: bootstrap.servers, then the client's settings in order, then the operator's
 * "key=value" properties. Returns 0 and *conf (the caller hands it to rd_kafka_new() or destroys
 * it), -EINVAL (err says which property, never its value) or -ENOMEM.
 */
int dq_kafka_conf_new(const char *brokers, const struct dq_kafka_setting *settings,
		      size_t setting_count, const char *const *properties, size_t property_count,
		      rd_kafka_conf_t **conf, char *err, size_t err_len);

#endif /* DRIVEQUAL_KAFKA_CONFIG_H */
