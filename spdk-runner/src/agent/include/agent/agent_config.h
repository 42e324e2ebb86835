/*
 * The agent's configuration file (JSON, see README.md "Agent"): who the runner is, how it reaches
 * Kafka (TLS/SASL secrets read from files or the environment at start, never logged), its topics
 * and the devices it owns. Parsed strictly: a misspelt key is an error, not a silent default.
 */
#ifndef DRIVEQUAL_AGENT_CONFIG_H
#define DRIVEQUAL_AGENT_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "contract/msg_common.h"
#include "contract/msg_runner_heartbeat.h"

#define DQ_AGENT_MAX_DEVICES DQ_HEARTBEAT_MAX_DEVICES
#define DQ_AGENT_MAX_PROPERTIES 64
#define DQ_AGENT_TOPIC_MAX_LEN 249 /* Kafka's limit on a topic name */
#define DQ_AGENT_ENGINE_NAME_MAX 15
#define DQ_AGENT_HEARTBEAT_INTERVAL_MS_DEFAULT 5000
#define DQ_AGENT_FLUSH_TIMEOUT_MS_DEFAULT 30000

/* One device the runner owns: what the engine opens (the `run` command's --engine/--filename). */
struct dq_agent_device_config {
	char engine[DQ_AGENT_ENGINE_NAME_MAX + 1]; /* the contract's name: spdk, uring, sim, null */
	char *target; /* "/dev/nvme0n1", "null:16g", "sim:enterprise-eager", ... */
	bool direct; /* O_DIRECT for kernel engines (default true) */
	/* The engine's option struct with "options" applied ({"spdk_mem_mb": 4096}), or NULL when
	 * the engine has none: what `run` takes as --name=value. */
	void *options;
};

struct dq_agent_config {
	char runner_id[DQ_ID_MAX_LEN + 1]; /* empty until set: dq_agent_config_finish() defaults it */
	char *brokers;
	/* Extra librdkafka properties as "key=value", for the producer and the consumer alike;
	 * property_secret[i] marks values that must never be printed. */
	size_t property_count;
	char *properties[DQ_AGENT_MAX_PROPERTIES];
	bool property_secret[DQ_AGENT_MAX_PROPERTIES];
	char topic_commands[DQ_AGENT_TOPIC_MAX_LEN + 1];
	char topic_samples[DQ_AGENT_TOPIC_MAX_LEN + 1];
	char topic_events[DQ_AGENT_TOPIC_MAX_LEN + 1];
	char topic_heartbeats[DQ_AGENT_TOPIC_MAX_LEN + 1];
	uint32_t heartbeat_interval_ms;
	/* health polls during a job unless its start command says otherwise; 0: none */
	uint32_t health_poll_interval_s;
	uint32_t flush_timeout_ms; /* how long shutdown waits for deliveries */
	char *allowlist_path; /* NULL: nothing is allowlisted */
	size_t device_count;
	struct dq_agent_device_config *devices;
};

/* The defaults (topics from topics.h, 5 s heartbeats, no devices); allocates nothing. */
void dq_agent_config_init(struct dq_agent_config *config);

/* Free what the config holds (secrets are wiped first); the config is then as after init. */
void dq_agent_config_fini(struct dq_agent_config *config);

/*
 * Parse len bytes of JSON into config (origin names it in errors, e.g. the file's path).
 * "@file:PATH" and "@env:NAME" property values are resolved here. Returns 0, -EINVAL (err says
 * which key and why) or -ENOMEM.
 */
int dq_agent_config_parse(struct dq_agent_config *config, const char *json, size_t len,
			  const char *origin, char *err, size_t err_len);

/* dq_agent_config_parse() on a file's contents. Also -errno when the file cannot be read. */
int dq_agent_config_load(struct dq_agent_config *config, const char *path, char *err,
			 size_t err_len);

/* Command-line overrides. Each returns 0, -EINVAL (err says why) or -ENOMEM. */
int dq_agent_config_set_brokers(struct dq_agent_config *config, const char *brokers, char *err,
				size_t err_len);
int dq_agent_config_set_runner_id(struct dq_agent_config *config, const char *runner_id, char *err,
				  size_t err_len);
/*
 * One librdkafka property; replaces the same key. raw_value may be "@file:PATH" or "@env:NAME"
 * (read now, and secret) or start with "@@" for a literal "@". Keys the agent sets itself
 * (bootstrap.servers, group.id, enable.idempotence, acks, message.timeout.ms, enable.auto.commit,
 * enable.auto.offset.store) are refused. Returns 0, -EINVAL or -ENOMEM.
 */
int dq_agent_config_add_property(struct dq_agent_config *config, const char *key,
				 const char *raw_value, char *err, size_t err_len);
/*
 * A file of librdkafka "key=value" lines ("kafkaPropertiesFile"; # comments and blank lines
 * skipped) merged over the properties so far, so secrets stay out of the JSON. Values are taken
 * as written and are secret; reserved keys are refused as above. A missing or unreadable file,
 * a line without '=' or a file over 64 KiB is -EINVAL, with err naming the file and line but
 * never a value. Returns 0, -EINVAL or -ENOMEM.
 */
int dq_agent_config_load_properties_file(struct dq_agent_config *config, const char *path,
					 char *err, size_t err_len);
/* "key=value" (kcat's -X); replaces the same key from the file. The value may be @file:/@env:. */
int dq_agent_config_set_property(struct dq_agent_config *config, const char *key_value, char *err,
				 size_t err_len);

/*
 * After the file and the overrides: default the runnerId to the hostname, require brokers and
 * check every Kafka property with librdkafka (errors never show a secret). Returns 0 or -EINVAL.
 */
int dq_agent_config_finish(struct dq_agent_config *config, char *err, size_t err_len);

/* Check every property with librdkafka; a secret is never in err. Returns 0, -EINVAL, -ENOMEM. */
int dq_agent_config_check_kafka(const struct dq_agent_config *config, char *err, size_t err_len);

/* Free (and wipe) the properties. */
void dq_agent_config_free_properties(struct dq_agent_config *config);

/*
 * SCRAM configured with a librdkafka older than 2.6.1, whose SCRAM client-final message Kafka 4
 * brokers refuse as invalid credentials (confluentinc/librdkafka#4895); describe() warns.
 */
bool dq_agent_config_scram_refused_by_kafka4(const struct dq_agent_config *config);

/* Print what the agent will use, secrets replaced by "(secret)", and configuration warnings. */
void dq_agent_config_describe(const struct dq_agent_config *config, FILE *out);

/* Does id match the contract's id pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$? */
bool dq_agent_id_valid(const char *id);

#endif /* DRIVEQUAL_AGENT_CONFIG_H */
