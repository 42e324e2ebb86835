/*
 * The Kafka half of the agent's configuration: librdkafka properties from the file, its
 * kafkaPropertiesFile and -X, with @file:/@env: secrets resolved at start and marked so they are
 * never printed, the properties the agent owns refused, and every property checked by librdkafka
 * up front (through kafka_config.c, which keeps values out of its messages).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <librdkafka/rdkafka.h>

#include "agent/agent_config.h"
#include "kafka_config.h"

#define SECRET_FILE_MAX_BYTES 65536

/* Properties the agent sets itself: overriding them would break its delivery guarantees. */
static const char *const g_reserved_properties[][2] = {
	{ "bootstrap.servers", "use \"brokers\" (or --brokers)" },
	{ "group.id", "the agent uses drivequal-runner-<runnerId>" },
	{ "enable.idempotence", "the producer is always idempotent" },
	{ "acks", "the producer always waits for all in-sync replicas" },
	{ "message.timeout.ms", "messages never time out, so a broker outage loses nothing" },
	{ "enable.auto.commit", "the agent commits after acting on a command" },
	{ "enable.auto.offset.store", "the agent stores offsets after acting on a command" },
};

/* Keys whose values are secret even when written inline. */
static bool key_is_secret(const char *key)
{
	return strstr(key, "password") != NULL || strstr(key, "secret") != NULL ||
	       strcmp(key, "ssl.key.pem") == 0 || strcmp(key, "sasl.oauthbearer.config") == 0;
}

static void wipe_free(char *text)
{
	if (text != NULL) {
		explicit_bzero(text, strlen(text));
		free(text);
	}
}

/* Wipes and frees a buffer of read_bounded_file, whatever it holds. */
static void wipe_free_buffer(char *buffer)
{
	explicit_bzero(buffer, SECRET_FILE_MAX_BYTES + 1);
	free(buffer);
}

/*
 * Reads a file of at most SECRET_FILE_MAX_BYTES into a fresh buffer of SECRET_FILE_MAX_BYTES + 1
 * (the caller wipes and frees it with wipe_free_buffer). On failure, no buffer and: -ENOENT when
 * the file cannot be opened (*reason: the errno text), -EINVAL when it cannot be read whole
 * (*reason: "read error" or "larger than 64 KiB"), -ENOMEM.
 */
static int read_bounded_file(const char *path, char **text, size_t *len, const char **reason)
{
	FILE *file = fopen(path, "r");
	bool read_error;

	*text = NULL;
	if (file == NULL) {
		*reason = strerror(errno);
		return -ENOENT;
	}
	*text = malloc(SECRET_FILE_MAX_BYTES + 1);
	if (*text == NULL) {
		fclose(file);
		return -ENOMEM;
	}
	*len = fread(*text, 1, SECRET_FILE_MAX_BYTES + 1, file);
	read_error = ferror(file) != 0;
	fclose(file);
	if (read_error || *len > SECRET_FILE_MAX_BYTES) {
		*reason = read_error ? "read error" : "larger than 64 KiB";
		wipe_free_buffer(*text);
		*text = NULL;
		return -EINVAL;
	}
	return 0;
}

/* The contents of a secret file, without trailing line ends. */
static int read_secret_file(const char *path, const char *what, char **out, char *err,
			    size_t err_len)
{
	const char *reason;
	char *text;
	size_t len;
	int rc = read_bounded_file(path, &text, &len, &reason);

	if (rc == -ENOENT) {
		snprintf(err, err_len, "%s: cannot read secret file %s: %s", what, path, reason);
		return -EINVAL;
	}
	if (rc == -EINVAL) {
		snprintf(err, err_len, "%s: secret file %s: %s", what, path, reason);
	}
	if (rc != 0) {
		return rc;
	}
	while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r')) {
		len--;
	}
	text[len] = '\0';
	if (len == 0 || strlen(text) != len) {
		snprintf(err, err_len, "%s: secret file %s is %s", what, path,
			 len == 0 ? "empty" : "binary (holds a NUL byte)");
		wipe_free_buffer(text);
		return -EINVAL;
	}
	*out = text;
	return 0;
}

/*
 * A property value as written: "@file:PATH" and "@env:NAME" are read now (and secret), "@@x" is
 * the literal "@x". *out is malloc'd.
 */
static int resolve_value(const char *what, const char *value, char **out, bool *secret, char *err,
			 size_t err_len)
{
	const char *env;

	*secret = false;
	if (strncmp(value, "@file:", 6) == 0) {
		*secret = true;
		return read_secret_file(value + 6, what, out, err, err_len);
	}
	if (strncmp(value, "@env:", 5) == 0) {
		*secret = true;
		env = getenv(value + 5);
		if (value[5] == '\0' || env == NULL || env[0] == '\0') {
			snprintf(err, err_len, "%s: environment variable '%s' is %s", what,
				 value + 5, env == NULL ? "not set" : "empty");
			return -EINVAL;
		}
		*out = strdup(env);
		return *out == NULL ? -ENOMEM : 0;
	}
	if (value[0] == '@' && value[1] != '@') {
		snprintf(err, err_len,
			 "%s: a value starting with @ must be @file:PATH or @env:NAME "
			 "(write @@ for a literal @)",
			 what);
		return -EINVAL;
	}
	*out = strdup(value[0] == '@' ? value + 1 : value);
	return *out == NULL ? -ENOMEM : 0;
}

/* A key the agent accepts: a property name, not one the agent sets itself. */
static int check_key(const char *key, char *err, size_t err_len)
{
	size_t i;

	if (key[0] == '\0' || strchr(key, '=') != NULL) {
		snprintf(err, err_len, "kafka property '%s': not a property name", key);
		return -EINVAL;
	}
	for (i = 0; i < sizeof(g_reserved_properties) / sizeof(g_reserved_properties[0]); i++) {
		if (strcmp(key, g_reserved_properties[i][0]) == 0) {
			snprintf(err, err_len, "kafka property %s cannot be set: %s", key,
				 g_reserved_properties[i][1]);
			return -EINVAL;
		}
	}
	return 0;
}

/* Store key=value (a resolved value), replacing the same key. */
static int store_property(struct dq_agent_config *config, const char *key, const char *value,
			  bool secret, char *err, size_t err_len)
{
	size_t i, key_len = strlen(key);
	char *kv = malloc(key_len + 1 + strlen(value) + 1);

	if (kv == NULL) {
		return -ENOMEM;
	}
	sprintf(kv, "%s=%s", key, value);
	secret = secret || key_is_secret(key);
	for (i = 0; i < config->property_count; i++) {
		if (strncmp(config->properties[i], key, key_len) == 0 &&
		    config->properties[i][key_len] == '=') {
			wipe_free(config->properties[i]);
			config->properties[i] = kv;
			config->property_secret[i] = secret;
			return 0;
		}
	}
	if (config->property_count == DQ_AGENT_MAX_PROPERTIES) {
		wipe_free(kv);
		snprintf(err, err_len, "more than %d kafka properties", DQ_AGENT_MAX_PROPERTIES);
		return -EINVAL;
	}
	config->properties[config->property_count] = kv;
	config->property_secret[config->property_count++] = secret;
	return 0;
}

int dq_agent_config_add_property(struct dq_agent_config *config, const char *key,
				 const char *raw_value, char *err, size_t err_len)
{
	char what[300], *value = NULL;
	bool secret;
	int rc;

	rc = check_key(key, err, err_len);
	if (rc != 0) {
		return rc;
	}
	snprintf(what, sizeof(what), "kafka property %s", key);
	rc = resolve_value(what, raw_value, &value, &secret, err, err_len);
	if (rc != 0) {
		return rc;
	}
	rc = store_property(config, key, value, secret, err, err_len);
	wipe_free(value);
	return rc;
}

/* One "key=value" line of a properties file (line_no for errors, which never quote a value). */
static int add_properties_line(struct dq_agent_config *config, char *line, const char *path,
			       size_t line_no, char *err, size_t err_len)
{
	char *eq, *key, *end;
	int rc;

	while (*line == ' ' || *line == '\t') {
		line++;
	}
	if (*line == '\0' || *line == '#') {
		return 0;
	}
	eq = strchr(line, '=');
	if (eq == NULL) {
		snprintf(err, err_len, "kafkaPropertiesFile %s:%zu: expected key=value", path,
			 line_no);
		return -EINVAL;
	}
	key = line;
	end = eq;
	while (end > key && (end[-1] == ' ' || end[-1] == '\t')) {
		end--;
	}
	*end = '\0';
	rc = check_key(key, err, err_len);
	if (rc != 0) {
		/* err names the key; say where it came from. */
		char detail[400];

		snprintf(detail, sizeof(detail), "%s", err);
		snprintf(err, err_len, "kafkaPropertiesFile %s:%zu: %s", path, line_no, detail);
		return rc;
	}
	/* The value is taken as written: no @file:/@env: (the file is where secrets live). */
	return store_property(config, key, eq + 1, true, err, err_len);
}

int dq_agent_config_load_properties_file(struct dq_agent_config *config, const char *path,
					 char *err, size_t err_len)
{
	const char *reason;
	char *text, *line, *next;
	size_t len, line_no = 0;
	int rc = read_bounded_file(path, &text, &len, &reason);

	if (rc == -ENOENT) {
		snprintf(err, err_len, "kafkaPropertiesFile %s: cannot read: %s", path, reason);
		return -EINVAL;
	}
	if (rc == -EINVAL) {
		snprintf(err, err_len, "kafkaPropertiesFile %s: %s", path, reason);
	}
	if (rc != 0) {
		return rc;
	}
	if (memchr(text, '\0', len) != NULL) {
		snprintf(err, err_len, "kafkaPropertiesFile %s: binary (holds a NUL byte)", path);
		wipe_free_buffer(text);
		return -EINVAL;
	}
	text[len] = '\0';
	for (line = text; rc == 0 && line != NULL; line = next) {
		next = strchr(line, '\n');
		if (next != NULL) {
			*next++ = '\0';
		}
		if (line[0] != '\0' && line[strlen(line) - 1] == '\r') {
			line[strlen(line) - 1] = '\0';
		}
		rc = add_properties_line(config, line, path, ++line_no, err, err_len);
	}
	wipe_free_buffer(text);
	return rc;
}

int dq_agent_config_set_property(struct dq_agent_config *config, const char *key_value, char *err,
				 size_t err_len)
{
	char key[256];
	const char *value = dq_kafka_property_split(key_value, key, sizeof(key));
	const char *eq = strchr(key_value, '=');

	if (value == NULL) {
		snprintf(err, err_len, "-X '%.*s...': expected key=value",
			 eq != NULL ? (int)(eq - key_value) : 0, key_value);
		return -EINVAL;
	}
	return dq_agent_config_add_property(config, key, value, err, err_len);
}

int dq_agent_config_check_kafka(const struct dq_agent_config *config, char *err, size_t err_len)
{
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	const char *value;
	char key[256];
	size_t i;
	int rc = 0;

	if (conf == NULL) {
		return -ENOMEM;
	}
	for (i = 0; rc == 0 && i < config->property_count; i++) {
		value = dq_kafka_property_split(config->properties[i], key, sizeof(key));
		rc = value != NULL ? dq_kafka_conf_set(conf, key, value, err, err_len) : -EINVAL;
	}
	rd_kafka_conf_destroy(conf);
	return rc;
}

bool dq_agent_config_scram_refused_by_kafka4(const struct dq_agent_config *config)
{
	size_t i;

	if (rd_kafka_version() >= 0x020601ff) {
		return false;
	}
	for (i = 0; i < config->property_count; i++) {
		if (strncmp(config->properties[i], "sasl.mechanism=SCRAM", 20) == 0 ||
		    strncmp(config->properties[i], "sasl.mechanisms=SCRAM", 21) == 0) {
			return true;
		}
	}
	return false;
}

void dq_agent_config_describe(const struct dq_agent_config *config, FILE *out)
{
	const char *kv;
	size_t i;

	fprintf(out, "runner %s: brokers %s; topics %s (commands), %s, %s, %s\n", config->runner_id,
		config->brokers, config->topic_commands, config->topic_samples,
		config->topic_events, config->topic_heartbeats);
	for (i = 0; i < config->property_count; i++) {
		kv = config->properties[i];
		if (config->property_secret[i]) {
			fprintf(out, "  kafka %.*s=(secret)\n", (int)(strchr(kv, '=') - kv), kv);
		} else {
			fprintf(out, "  kafka %s\n", kv);
		}
	}
	if (dq_agent_config_scram_refused_by_kafka4(config)) {
		fprintf(out,
			"  warning: librdkafka %s computes SCRAM proofs that Kafka 4 brokers refuse "
			"(fixed in librdkafka 2.6.1): use SASL PLAIN over TLS or a newer librdkafka\n",
			rd_kafka_version_str());
	}
	fprintf(out,
		"  heartbeat every %u ms; health polled every %u s; allowlist %s; %zu device(s)\n",
		config->heartbeat_interval_ms, config->health_poll_interval_s,
		config->allowlist_path != NULL ? config->allowlist_path : "(none)",
		config->device_count);
	for (i = 0; i < config->device_count; i++) {
		fprintf(out, "  device %s %s%s\n", config->devices[i].engine,
			config->devices[i].target, config->devices[i].direct ? "" : " (buffered)");
	}
}

void dq_agent_config_free_properties(struct dq_agent_config *config)
{
	size_t i;

	for (i = 0; i < config->property_count; i++) {
		wipe_free(config->properties[i]);
		config->properties[i] = NULL;
	}
	config->property_count = 0;
}
