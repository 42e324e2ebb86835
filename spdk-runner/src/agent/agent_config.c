/*
 * Reads the agent's JSON configuration strictly (unknown keys, wrong types and bad values are
 * errors naming the key), fills in the defaults and takes the command line's overrides. The Kafka
 * properties and their secrets are agent_config_kafka.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "agent/agent_config.h"
#include "contract/msg_job_command.h"
#include "contract/strutil.h"
#include "contract/topics.h"
#include "io/engine.h"

#define TARGET_MAX_LEN 4095

static const char *const g_top_keys[] = { "runnerId",
					  "brokers",
					  "kafka",
					  "kafkaPropertiesFile",
					  "topics",
					  "heartbeatIntervalMs",
					  "healthPollIntervalS",
					  "flushTimeoutMs",
					  "allowlist",
					  "devices",
					  "comment",
					  NULL };
static const char *const g_topic_keys[] = { "runnerCommands", "samples", "jobEvents",
					    "runnerHeartbeats", NULL };
static const char *const g_device_keys[] = { "engine",	"target",  "direct",
					     "options", "comment", NULL };

bool dq_agent_id_valid(const char *id)
{
	size_t i;

	for (i = 0; id[i] != '\0'; i++) {
		char c = id[i];
		bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			     (c >= '0' && c <= '9');

		if (i >= DQ_ID_MAX_LEN ||
		    !(alnum || (i > 0 && (c == '.' || c == '_' || c == '-')))) {
			return false;
		}
	}
	return i > 0;
}

static bool key_in(const char *const *keys, const char *key)
{
	size_t i;

	for (i = 0; keys[i] != NULL; i++) {
		if (strcmp(keys[i], key) == 0) {
			return true;
		}
	}
	return false;
}

void dq_agent_config_init(struct dq_agent_config *config)
{
	memset(config, 0, sizeof(*config));
	dq_strlcpy(config->topic_commands, DQ_TOPIC_RUNNER_COMMANDS,
		   sizeof(config->topic_commands));
	dq_strlcpy(config->topic_samples, DQ_TOPIC_SAMPLES, sizeof(config->topic_samples));
	dq_strlcpy(config->topic_events, DQ_TOPIC_JOB_EVENTS, sizeof(config->topic_events));
	dq_strlcpy(config->topic_heartbeats, DQ_TOPIC_RUNNER_HEARTBEATS,
		   sizeof(config->topic_heartbeats));
	config->heartbeat_interval_ms = DQ_AGENT_HEARTBEAT_INTERVAL_MS_DEFAULT;
	config->health_poll_interval_s = DQ_HEALTH_POLL_INTERVAL_DEFAULT_S;
	config->flush_timeout_ms = DQ_AGENT_FLUSH_TIMEOUT_MS_DEFAULT;
}

void dq_agent_config_fini(struct dq_agent_config *config)
{
	size_t i;

	dq_agent_config_free_properties(config);
	for (i = 0; i < config->device_count; i++) {
		free(config->devices[i].target);
		free(config->devices[i].options);
	}
	free(config->devices);
	free(config->brokers);
	free(config->allowlist_path);
	dq_agent_config_init(config);
}

int dq_agent_config_set_brokers(struct dq_agent_config *config, const char *brokers, char *err,
				size_t err_len)
{
	char *copy;

	if (brokers[0] == '\0') {
		snprintf(err, err_len, "brokers: must not be empty (host:port[,host:port...])");
		return -EINVAL;
	}
	copy = strdup(brokers);
	if (copy == NULL) {
		return -ENOMEM;
	}
	free(config->brokers);
	config->brokers = copy;
	return 0;
}

int dq_agent_config_set_runner_id(struct dq_agent_config *config, const char *runner_id, char *err,
				  size_t err_len)
{
	if (!dq_agent_id_valid(runner_id)) {
		snprintf(err, err_len,
			 "runnerId '%s': must match ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$ (it is a "
			 "Kafka key and a document id)",
			 runner_id);
		return -EINVAL;
	}
	dq_strlcpy(config->runner_id, runner_id, sizeof(config->runner_id));
	return 0;
}

/* A string member, or an error naming it. */
static int get_string(struct json_object *obj, const char *key, const char *where, const char **out,
		      char *err, size_t err_len)
{
	struct json_object *value;

	*out = NULL;
	if (!json_object_object_get_ex(obj, key, &value)) {
		return 0;
	}
	if (!json_object_is_type(value, json_type_string)) {
		snprintf(err, err_len, "%s%s: must be a string", where, key);
		return -EINVAL;
	}
	*out = json_object_get_string(value);
	return 0;
}

static int check_keys(struct json_object *obj, const char *const *keys, const char *where,
		      char *err, size_t err_len)
{
	json_object_object_foreach(obj, key, member) {
		(void)member;
		if (!key_in(keys, key)) {
			snprintf(err, err_len, "%sunknown key '%s'", where, key);
			return -EINVAL;
		}
	}
	return 0;
}

static int parse_kafka(struct dq_agent_config *config, struct json_object *kafka, char *err,
		       size_t err_len)
{
	char number[32];
	int rc;

	if (!json_object_is_type(kafka, json_type_object)) {
		snprintf(err, err_len, "kafka: must be an object of librdkafka properties");
		return -EINVAL;
	}
	json_object_object_foreach(kafka, key, value) {
		const char *text;

		switch (json_object_get_type(value)) {
		case json_type_string:
			text = json_object_get_string(value);
			break;
		case json_type_int:
			snprintf(number, sizeof(number), "%lld",
				 (long long)json_object_get_int64(value));
			text = number;
			break;
		case json_type_boolean:
			text = json_object_get_boolean(value) ? "true" : "false";
			break;
		default:
			snprintf(err, err_len,
				 "kafka.%s: must be a string, an integer or a boolean", key);
			return -EINVAL;
		}
		rc = dq_agent_config_add_property(config, key, text, err, err_len);
		if (rc != 0) {
			return rc;
		}
	}
	return 0;
}

static int parse_topics(struct dq_agent_config *config, struct json_object *topics, char *err,
			size_t err_len)
{
	char *const fields[] = { config->topic_commands, config->topic_samples,
				 config->topic_events, config->topic_heartbeats };
	const char *name;
	size_t i;
	int rc;

	if (!json_object_is_type(topics, json_type_object)) {
		snprintf(err, err_len, "topics: must be an object");
		return -EINVAL;
	}
	rc = check_keys(topics, g_topic_keys, "topics: ", err, err_len);
	for (i = 0; rc == 0 && g_topic_keys[i] != NULL; i++) {
		rc = get_string(topics, g_topic_keys[i], "topics.", &name, err, err_len);
		if (rc == 0 && name != NULL) {
			if (name[0] == '\0' || strlen(name) > DQ_AGENT_TOPIC_MAX_LEN) {
				snprintf(err, err_len, "topics.%s: 1..%d characters",
					 g_topic_keys[i], DQ_AGENT_TOPIC_MAX_LEN);
				return -EINVAL;
			}
			dq_strlcpy(fields[i], name, DQ_AGENT_TOPIC_MAX_LEN + 1);
		}
	}
	return rc;
}

/* "options": {"name": value} of the device's engine, set as `run` sets --name=value. */
static int parse_engine_options(struct json_object *obj, const struct dq_io_engine_ops *ops,
				const char *where, struct dq_agent_device_config *device, char *err,
				size_t err_len)
{
	struct json_object *options;
	char option_err[320];
	const char *text;
	int rc;

	rc = dq_engine_options_new(ops, &device->options);
	if (rc != 0) {
		return rc;
	}
	if (!json_object_object_get_ex(obj, "options", &options)) {
		return 0;
	}
	if (!json_object_is_type(options, json_type_object)) {
		snprintf(err, err_len, "%soptions: must be an object {\"name\": value}", where);
		return -EINVAL;
	}
	json_object_object_foreach(options, name, value) {
		if (!json_object_is_type(value, json_type_boolean) &&
		    !json_object_is_type(value, json_type_int) &&
		    !json_object_is_type(value, json_type_string)) {
			snprintf(err, err_len, "%soptions.%s: must be a boolean, number or string",
				 where, name);
			return -EINVAL;
		}
		text = json_object_is_type(value, json_type_boolean) ?
			       (json_object_get_boolean(value) ? "1" : "0") :
			       json_object_get_string(value);
		rc = device->options == NULL ?
			     -ENOENT :
			     dq_engine_options_set(ops, device->options, name, text, option_err,
						   sizeof(option_err));
		if (rc == -ENOENT) {
			snprintf(err, err_len, "%soptions: engine %s has no option '%s'", where,
				 ops->name, name);
			return -EINVAL;
		} else if (rc != 0) {
			snprintf(err, err_len, "%soptions.%s: %s", where, name, option_err);
			return -EINVAL;
		}
	}
	return 0;
}

static int parse_device(struct dq_agent_config *config, struct json_object *obj, size_t index,
			char *err, size_t err_len)
{
	struct dq_agent_device_config *device = &config->devices[index];
	const struct dq_io_engine_ops *ops;
	struct json_object *direct;
	const char *engine, *target;
	char where[48], where_colon[48], engine_err[512];
	size_t i;
	int rc;

	snprintf(where_colon, sizeof(where_colon), "devices[%zu]: ", index);
	if (!json_object_is_type(obj, json_type_object)) {
		snprintf(err, err_len, "%smust be an object {\"engine\": ..., \"target\": ...}",
			 where_colon);
		return -EINVAL;
	}
	snprintf(where, sizeof(where), "devices[%zu].", index);
	rc = check_keys(obj, g_device_keys, where_colon, err, err_len);
	rc = rc != 0 ? rc : get_string(obj, "engine", where, &engine, err, err_len);
	rc = rc != 0 ? rc : get_string(obj, "target", where, &target, err, err_len);
	if (rc != 0) {
		return rc;
	}
	if (engine == NULL || target == NULL || target[0] == '\0' ||
	    strlen(target) > TARGET_MAX_LEN) {
		snprintf(err, err_len, "%sneeds \"engine\" and a non-empty \"target\"",
			 where_colon);
		return -EINVAL;
	}
	rc = dq_io_engine_find(engine, &ops, engine_err, sizeof(engine_err));
	if (rc != 0) {
		snprintf(err, err_len, "%sengine: %.400s", where, engine_err);
		return -EINVAL;
	}
	device->direct = true;
	if (json_object_object_get_ex(obj, "direct", &direct)) {
		if (!json_object_is_type(direct, json_type_boolean)) {
			snprintf(err, err_len, "%sdirect: must be true or false", where);
			return -EINVAL;
		}
		device->direct = json_object_get_boolean(direct);
	}
	dq_strlcpy(device->engine, ops->name, sizeof(device->engine));
	rc = parse_engine_options(obj, ops, where, device, err, err_len);
	if (rc != 0) {
		return rc;
	}
	for (i = 0; i < index; i++) {
		if (strcmp(config->devices[i].engine, device->engine) == 0 &&
		    strcmp(config->devices[i].target, target) == 0) {
			snprintf(err, err_len, "%srepeats devices[%zu] (%s %s)", where_colon, i,
				 engine, target);
			return -EINVAL;
		}
	}
	device->target = strdup(target);
	return device->target == NULL ? -ENOMEM : 0;
}

static int parse_devices(struct dq_agent_config *config, struct json_object *devices, char *err,
			 size_t err_len)
{
	size_t i, n;
	int rc;

	if (!json_object_is_type(devices, json_type_array)) {
		snprintf(err, err_len, "devices: must be an array of {\"engine\", \"target\"}");
		return -EINVAL;
	}
	n = json_object_array_length(devices);
	if (n > DQ_AGENT_MAX_DEVICES) {
		snprintf(err, err_len, "devices: at most %d", DQ_AGENT_MAX_DEVICES);
		return -EINVAL;
	}
	config->devices = calloc(n > 0 ? n : 1, sizeof(*config->devices));
	if (config->devices == NULL) {
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		rc = parse_device(config, json_object_array_get_idx(devices, i), i, err, err_len);
		if (rc != 0) {
			free(config->devices[i].target);
			free(config->devices[i].options);
			return rc;
		}
		config->device_count++;
	}
	return 0;
}

static int parse_uint(struct json_object *root, const char *key, uint32_t min, uint32_t max,
		      uint32_t *out, char *err, size_t err_len)
{
	struct json_object *value;
	int64_t number;

	if (!json_object_object_get_ex(root, key, &value)) {
		return 0;
	}
	number = json_object_get_int64(value);
	if (!json_object_is_type(value, json_type_int) || number < min || number > max) {
		snprintf(err, err_len, "%s: must be an integer in %u..%u", key, min, max);
		return -EINVAL;
	}
	*out = (uint32_t)number;
	return 0;
}

static int parse_root(struct dq_agent_config *config, struct json_object *root, char *err,
		      size_t err_len)
{
	struct json_object *member;
	const char *text;
	int rc;

	if (!json_object_is_type(root, json_type_object)) {
		snprintf(err, err_len, "must be a JSON object");
		return -EINVAL;
	}
	rc = check_keys(root, g_top_keys, "", err, err_len);
	rc = rc != 0 ? rc : get_string(root, "runnerId", "", &text, err, err_len);
	if (rc == 0 && text != NULL) {
		rc = dq_agent_config_set_runner_id(config, text, err, err_len);
	}
	rc = rc != 0 ? rc : get_string(root, "brokers", "", &text, err, err_len);
	if (rc == 0 && text != NULL) {
		rc = dq_agent_config_set_brokers(config, text, err, err_len);
	}
	if (rc == 0 && json_object_object_get_ex(root, "kafka", &member)) {
		rc = parse_kafka(config, member, err, err_len);
	}
	/* After "kafka" whatever the key order: the file's lines win. */
	rc = rc != 0 ? rc : get_string(root, "kafkaPropertiesFile", "", &text, err, err_len);
	if (rc == 0 && text != NULL) {
		rc = dq_agent_config_load_properties_file(config, text, err, err_len);
	}
	if (rc == 0 && json_object_object_get_ex(root, "topics", &member)) {
		rc = parse_topics(config, member, err, err_len);
	}
	rc = rc != 0 ? rc :
		       parse_uint(root, "heartbeatIntervalMs", DQ_HEARTBEAT_INTERVAL_MS_MIN,
				  DQ_HEARTBEAT_INTERVAL_MS_MAX, &config->heartbeat_interval_ms, err,
				  err_len);
	rc = rc != 0 ? rc :
		       parse_uint(root, "healthPollIntervalS", 0, DQ_HEALTH_POLL_INTERVAL_MAX_S,
				  &config->health_poll_interval_s, err, err_len);
	rc = rc != 0 ? rc :
		       parse_uint(root, "flushTimeoutMs", 0, 3600000, &config->flush_timeout_ms,
				  err, err_len);
	rc = rc != 0 ? rc : get_string(root, "allowlist", "", &text, err, err_len);
	if (rc == 0 && text != NULL) {
		config->allowlist_path = strdup(text);
		rc = config->allowlist_path == NULL ? -ENOMEM : 0;
	}
	if (rc == 0 && json_object_object_get_ex(root, "devices", &member)) {
		rc = parse_devices(config, member, err, err_len);
	}
	return rc;
}

int dq_agent_config_parse(struct dq_agent_config *config, const char *json, size_t len,
			  const char *origin, char *err, size_t err_len)
{
	struct json_tokener *tokener = json_tokener_new();
	struct json_object *root;
	char detail[512] = "";
	int rc;

	if (tokener == NULL) {
		return -ENOMEM;
	}
	root = json_tokener_parse_ex(tokener, json, (int)len);
	if (root == NULL || tokener->char_offset < (int)len) {
		snprintf(err, err_len, "%s: not valid JSON (%s at offset %d)", origin,
			 root == NULL ? json_tokener_error_desc(json_tokener_get_error(tokener)) :
					"trailing data",
			 tokener->char_offset);
		json_object_put(root);
		json_tokener_free(tokener);
		return -EINVAL;
	}
	json_tokener_free(tokener);
	rc = parse_root(config, root, detail, sizeof(detail));
	json_object_put(root);
	if (rc == -EINVAL || (rc != 0 && detail[0] != '\0')) {
		snprintf(err, err_len, "%s: %s", origin, detail);
	}
	return rc;
}

int dq_agent_config_load(struct dq_agent_config *config, const char *path, char *err,
			 size_t err_len)
{
	FILE *file = fopen(path, "r");
	char *text = NULL;
	size_t len = 0, cap = 0, got;
	int rc;

	if (file == NULL) {
		rc = -errno;
		snprintf(err, err_len, "config %s: %s", path, strerror(errno));
		return rc;
	}
	do {
		if (len + 4096 + 1 > cap) {
			char *grown = realloc(text, cap = cap * 2 + 8192);

			if (grown == NULL) {
				free(text);
				fclose(file);
				return -ENOMEM;
			}
			text = grown;
		}
		got = fread(text + len, 1, cap - len - 1, file);
		len += got;
	} while (got > 0);
	rc = ferror(file) ? -EIO : 0;
	fclose(file);
	if (rc != 0) {
		snprintf(err, err_len, "config %s: read error", path);
	} else {
		text[len] = '\0';
		rc = dq_agent_config_parse(config, text, len, path, err, err_len);
	}
	free(text);
	return rc;
}

int dq_agent_config_finish(struct dq_agent_config *config, char *err, size_t err_len)
{
	char host[256] = "";

	if (config->runner_id[0] == '\0') {
		if (gethostname(host, sizeof(host) - 1) != 0 || !dq_agent_id_valid(host)) {
			snprintf(err, err_len,
				 "runnerId: not set, and the hostname '%s' is not a valid id: set "
				 "\"runnerId\" or --runner-id",
				 host);
			return -EINVAL;
		}
		dq_strlcpy(config->runner_id, host, sizeof(config->runner_id));
	}
	if (config->brokers == NULL) {
		snprintf(err, err_len, "brokers: not set: set \"brokers\" or --brokers");
		return -EINVAL;
	}
	return dq_agent_config_check_kafka(config, err, err_len);
}
