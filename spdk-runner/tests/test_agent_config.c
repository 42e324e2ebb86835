/*
 * The agent's configuration file: a full file with defaults and overrides, @file:/@env: secrets
 * (resolved, marked secret, never printed, redacted from librdkafka's errors), and bad files
 * that must fail with an error naming the key.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <librdkafka/rdkafka.h>

#include "agent/agent_config.h"
#include "contract/topics.h"
#include "io/engine.h"
#include "test_util.h"

static char g_dir[] = "/tmp/dq-agent-config-XXXXXX";

static const char *path_in_dir(const char *name)
{
	static char path[256];

	snprintf(path, sizeof(path), "%s/%s", g_dir, name);
	return path;
}

static const char *write_file(const char *name, const char *content)
{
	const char *path = path_in_dir(name);
	FILE *file = fopen(path, "w");

	if (file == NULL) {
		abort();
	}
	fputs(content, file);
	fclose(file);
	return path;
}

static int parse(struct dq_agent_config *config, const char *json, char *err, size_t err_len)
{
	dq_agent_config_init(config);
	return dq_agent_config_parse(config, json, strlen(json), "agent.json", err, err_len);
}

static const char *property(const struct dq_agent_config *config, const char *key, bool *secret)
{
	size_t i, len = strlen(key);

	for (i = 0; i < config->property_count; i++) {
		if (strncmp(config->properties[i], key, len) == 0 &&
		    config->properties[i][len] == '=') {
			*secret = config->property_secret[i];
			return config->properties[i] + len + 1;
		}
	}
	return NULL;
}

static void test_full(struct test_ctx *t)
{
	struct dq_agent_config config;
	char json[2048], err[1024] = "", *printed = NULL;
	const char *value;
	size_t printed_len;
	bool secret = false;
	FILE *out;
	int rc;

	write_file("password", "pa55-from-file\n");
	setenv("DQ_TEST_SASL_USER", "runner-user", 1);
	snprintf(
		json, sizeof(json),
		"{\"runnerId\": \"rack7-host3\", \"brokers\": \"k1:9093,k2:9093\","
		" \"kafka\": {\"security.protocol\": \"SASL_SSL\", \"ssl.ca.location\": \"/ca.pem\","
		"  \"sasl.mechanism\": \"SCRAM-SHA-512\", \"sasl.username\": \"@env:DQ_TEST_SASL_USER\","
		"  \"sasl.password\": \"@file:%s\", \"linger.ms\": 7, \"socket.nagle.disable\": true,"
		"  \"client.rack\": \"@@rack\"},"
		" \"topics\": {\"samples\": \"lab.samples\"},"
		" \"heartbeatIntervalMs\": 2000, \"flushTimeoutMs\": 0,"
		" \"allowlist\": \"/etc/drivequal/allowlist.json\","
		" \"devices\": [{\"engine\": \"uring\", \"target\": \"/dev/nvme0n1\"},"
		"  {\"engine\": \"null\", \"target\": \"null:16g\", \"direct\": false,"
		"   \"comment\": \"core benchmark\"}],"
		" \"comment\": \"lab 3\"}",
		path_in_dir("password"));
	rc = parse(&config, json, err, sizeof(err));
	CHECK(t, rc == 0, "full config: %d %s", rc, err);
	CHECK(t, strcmp(config.runner_id, "rack7-host3") == 0, "runnerId %s", config.runner_id);
	CHECK(t, strcmp(config.brokers, "k1:9093,k2:9093") == 0, "brokers %s", config.brokers);
	CHECK(t, strcmp(config.topic_samples, "lab.samples") == 0, "samples topic");
	CHECK(t,
	      strcmp(config.topic_commands, DQ_TOPIC_RUNNER_COMMANDS) == 0 &&
		      strcmp(config.topic_events, DQ_TOPIC_JOB_EVENTS) == 0 &&
		      strcmp(config.topic_heartbeats, DQ_TOPIC_RUNNER_HEARTBEATS) == 0,
	      "default topics");
	CHECK(t, config.heartbeat_interval_ms == 2000 && config.flush_timeout_ms == 0, "numbers");
	CHECK(t, strcmp(config.allowlist_path, "/etc/drivequal/allowlist.json") == 0, "allowlist");
	CHECK(t, config.device_count == 2, "devices %zu", config.device_count);
	if (config.device_count == 2) {
		CHECK(t,
		      strcmp(config.devices[0].engine, "uring") == 0 &&
			      strcmp(config.devices[0].target, "/dev/nvme0n1") == 0 &&
			      config.devices[0].direct,
		      "device 0");
		CHECK(t, strcmp(config.devices[1].engine, "null") == 0 && !config.devices[1].direct,
		      "device 1");
	}
	value = property(&config, "sasl.password", &secret);
	CHECK(t, value != NULL && strcmp(value, "pa55-from-file") == 0 && secret,
	      "@file: secret read without its newline: '%s'", value ? value : "(none)");
	value = property(&config, "sasl.username", &secret);
	CHECK(t, value != NULL && strcmp(value, "runner-user") == 0 && secret, "@env: value");
	value = property(&config, "linger.ms", &secret);
	CHECK(t, value != NULL && strcmp(value, "7") == 0 && !secret, "integer property");
	value = property(&config, "socket.nagle.disable", &secret);
	CHECK(t, value != NULL && strcmp(value, "true") == 0, "boolean property");
	value = property(&config, "client.rack", &secret);
	CHECK(t, value != NULL && strcmp(value, "@rack") == 0, "@@ is a literal @");

	/* Overrides: -X replaces the file's key, --brokers and --runner-id replace theirs. */
	rc = dq_agent_config_set_property(&config, "linger.ms=11", err, sizeof(err));
	CHECK(t, rc == 0 && strcmp(property(&config, "linger.ms", &secret), "11") == 0,
	      "-X override: %s", err);
	CHECK(t, config.property_count == 8, "an override replaces: %zu", config.property_count);
	rc = dq_agent_config_set_property(&config, "ssl.key.password=inline-pw", err, sizeof(err));
	CHECK(t, rc == 0 && property(&config, "ssl.key.password", &secret) && secret,
	      "a password key is secret even inline");
	CHECK(t,
	      dq_agent_config_set_brokers(&config, "b:1", err, sizeof(err)) == 0 &&
		      strcmp(config.brokers, "b:1") == 0,
	      "--brokers");
	CHECK(t,
	      dq_agent_config_set_runner_id(&config, "other-id", err, sizeof(err)) == 0 &&
		      strcmp(config.runner_id, "other-id") == 0,
	      "--runner-id");
	rc = dq_agent_config_finish(&config, err, sizeof(err));
	CHECK(t, rc == 0, "finish: %s", err);

	/* Secrets never printed. */
	out = open_memstream(&printed, &printed_len);
	dq_agent_config_describe(&config, out);
	fclose(out);
	CHECK(t,
	      strstr(printed, "pa55-from-file") == NULL && strstr(printed, "inline-pw") == NULL &&
		      strstr(printed, "runner-user") == NULL,
	      "describe shows a secret:\n%s", printed);
	CHECK(t,
	      strstr(printed, "sasl.password=(secret)") != NULL &&
		      strstr(printed, "security.protocol=SASL_SSL") != NULL,
	      "describe:\n%s", printed);
	CHECK(t,
	      (strstr(printed, "fixed in librdkafka 2.6.1") != NULL) ==
		      (rd_kafka_version() < 0x020601ff),
	      "SCRAM with librdkafka %s: warning iff older than 2.6.1:\n%s", rd_kafka_version_str(),
	      printed);
	free(printed);
	dq_agent_config_fini(&config);
	CHECK(t, config.property_count == 0 && config.devices == NULL, "fini resets");
}

static void test_defaults(struct test_ctx *t)
{
	struct dq_agent_config config;
	char err[512] = "", host[256] = "";
	int rc;

	rc = parse(&config, "{\"brokers\": \"127.0.0.1:9092\"}", err, sizeof(err));
	CHECK(t, rc == 0, "minimal: %s", err);
	CHECK(t,
	      config.heartbeat_interval_ms == 5000 && config.device_count == 0 &&
		      config.allowlist_path == NULL,
	      "defaults");
	rc = dq_agent_config_finish(&config, err, sizeof(err));
	gethostname(host, sizeof(host) - 1);
	if (dq_agent_id_valid(host)) {
		CHECK(t, rc == 0 && strcmp(config.runner_id, host) == 0,
		      "runnerId defaults to the hostname: %s / %s", config.runner_id, err);
	} else {
		CHECK(t, rc == -EINVAL && strstr(err, "runnerId") != NULL, "bad hostname: %s", err);
	}
	dq_agent_config_fini(&config);

	rc = parse(&config, "{\"runnerId\": \"r1\"}", err, sizeof(err));
	CHECK(t, rc == 0, "no brokers parses");
	rc = dq_agent_config_finish(&config, err, sizeof(err));
	CHECK(t, rc == -EINVAL && strstr(err, "brokers") != NULL, "brokers required: %s", err);
	dq_agent_config_fini(&config);
}

/* librdkafka's own checks at finish, with a secret value redacted from its message. */
static void test_librdkafka_checks(struct test_ctx *t)
{
	struct dq_agent_config config;
	char err[512] = "";
	int rc;

	setenv("DQ_TEST_SECRET_PROTOCOL", "hush-hush-protocol", 1);
	rc = parse(&config,
		   "{\"runnerId\": \"r1\", \"brokers\": \"b:1\","
		   " \"kafka\": {\"security.protocol\": \"@env:DQ_TEST_SECRET_PROTOCOL\"}}",
		   err, sizeof(err));
	CHECK(t, rc == 0, "parses: %s", err);
	rc = dq_agent_config_finish(&config, err, sizeof(err));
	CHECK(t, rc == -EINVAL && strstr(err, "security.protocol") != NULL, "rejected: %s", err);
	CHECK(t, strstr(err, "hush-hush-protocol") == NULL, "secret in the error: %s", err);
	dq_agent_config_fini(&config);

	rc = parse(&config,
		   "{\"runnerId\": \"r1\", \"brokers\": \"b:1\", \"kafka\": {\"no.such\": 1}}", err,
		   sizeof(err));
	rc = rc != 0 ? rc : dq_agent_config_finish(&config, err, sizeof(err));
	CHECK(t, rc == -EINVAL && strstr(err, "no.such") != NULL, "unknown property: %s", err);
	dq_agent_config_fini(&config);
}

static void expect_error(struct test_ctx *t, const char *json, const char *message_part)
{
	struct dq_agent_config config;
	char err[1024] = "";
	int rc = parse(&config, json, err, sizeof(err));

	CHECK(t, rc == -EINVAL, "%s: rc %d, expected -EINVAL", json, rc);
	CHECK(t, strstr(err, message_part) != NULL, "%s: error '%s' lacks '%s'", json, err,
	      message_part);
	CHECK(t, strncmp(err, "agent.json: ", 12) == 0, "error '%s' does not name the file", err);
	dq_agent_config_fini(&config);
}

static void test_bad(struct test_ctx *t)
{
	char json[512];

	unsetenv("DQ_TEST_UNSET");
	setenv("DQ_TEST_EMPTY", "", 1);
	write_file("empty-secret", "\n");
	expect_error(t, "{\"brokers\": ", "not valid JSON");
	expect_error(t, "{} {}", "not valid JSON");
	expect_error(t, "[]", "must be a JSON object");
	expect_error(t, "{\"broker\": \"b:1\"}", "unknown key 'broker'");
	expect_error(t, "{\"brokers\": 9092}", "brokers: must be a string");
	expect_error(t, "{\"brokers\": \"\"}", "brokers: must not be empty");
	expect_error(t, "{\"runnerId\": \"-bad\"}", "runnerId '-bad'");
	expect_error(t, "{\"runnerId\": \"has space\"}", "runnerId 'has space'");
	expect_error(t, "{\"heartbeatIntervalMs\": 50}", "heartbeatIntervalMs: must be an integer");
	expect_error(t, "{\"heartbeatIntervalMs\": 60001}", "heartbeatIntervalMs");
	expect_error(t, "{\"heartbeatIntervalMs\": \"5000\"}", "heartbeatIntervalMs");
	expect_error(t, "{\"heartbeatIntervalMs\": 5000.5}", "heartbeatIntervalMs");
	expect_error(t, "{\"topics\": {\"commands\": \"x\"}}", "topics: unknown key 'commands'");
	expect_error(t, "{\"topics\": {\"samples\": \"\"}}", "topics.samples: 1..249");
	expect_error(t, "{\"topics\": {\"samples\": 3}}", "topics.samples: must be a string");
	expect_error(t, "{\"kafka\": [\"a=b\"]}", "kafka: must be an object");
	expect_error(t, "{\"kafka\": {\"x\": {}}}", "kafka.x: must be a string");
	expect_error(t, "{\"kafka\": {\"group.id\": \"g\"}}", "group.id cannot be set");
	expect_error(t, "{\"kafka\": {\"enable.idempotence\": false}}", "enable.idempotence");
	expect_error(t, "{\"kafka\": {\"message.timeout.ms\": 1000}}", "never time out");
	expect_error(t, "{\"kafka\": {\"bootstrap.servers\": \"b:1\"}}", "use \"brokers\"");
	expect_error(t, "{\"kafka\": {\"sasl.password\": \"@env:DQ_TEST_UNSET\"}}",
		     "environment variable 'DQ_TEST_UNSET' is not set");
	expect_error(t, "{\"kafka\": {\"sasl.password\": \"@env:DQ_TEST_EMPTY\"}}", "is empty");
	expect_error(t, "{\"kafka\": {\"sasl.password\": \"@file:/nonexistent/pw\"}}",
		     "cannot read secret file /nonexistent/pw");
	snprintf(json, sizeof(json), "{\"kafka\": {\"sasl.password\": \"@file:%s\"}}",
		 path_in_dir("empty-secret"));
	expect_error(t, json, "is empty");
	expect_error(t, "{\"kafka\": {\"sasl.password\": \"@vault:x\"}}",
		     "@file:PATH or @env:NAME");
	expect_error(t, "{\"devices\": {}}", "devices: must be an array");
	expect_error(t, "{\"devices\": [\"null\"]}", "devices[0]: must be an object");
	expect_error(t, "{\"devices\": [{\"engine\": \"null\"}]}", "devices[0]: needs");
	expect_error(t, "{\"devices\": [{\"engine\": \"null\", \"target\": \"\"}]}", "non-empty");
	expect_error(t, "{\"devices\": [{\"engine\": \"floppy\", \"target\": \"a\"}]}",
		     "devices[0].engine: no engine called 'floppy'");
	expect_error(t,
		     "{\"devices\": [{\"engine\": \"null\", \"target\": \"null\", \"size\": 1}]}",
		     "devices[0]: unknown key 'size'");
	expect_error(t,
		     "{\"devices\": [{\"engine\": \"null\", \"target\": \"null\", \"direct\": 1}]}",
		     "devices[0].direct: must be true or false");
	expect_error(
		t,
		"{\"devices\": [{\"engine\": \"null\", \"target\": \"null\"},"
		" {\"engine\": \"null\", \"target\": \"a\"}, {\"engine\": \"null\", \"target\": "
		"\"null\"}]}",
		"devices[2]: repeats devices[0]");
	expect_error(t,
		     "{\"devices\": [{\"engine\": \"uring\", \"target\": \"/dev/x\", "
		     "\"options\": {\"spdk_mem_mb\": 512}}]}",
		     "devices[0].options: engine uring has no option 'spdk_mem_mb'");
	expect_error(t,
		     "{\"devices\": [{\"engine\": \"uring\", \"target\": \"/dev/x\", "
		     "\"options\": {\"fixedbufs\": \"maybe\"}}]}",
		     "devices[0].options.fixedbufs: --fixedbufs takes 0 or 1");
	expect_error(t,
		     "{\"devices\": [{\"engine\": \"null\", \"target\": \"null\", "
		     "\"options\": {\"x\": 1}}]}",
		     "engine null has no option 'x'");
	expect_error(t,
		     "{\"devices\": [{\"engine\": \"uring\", \"target\": \"/dev/x\", "
		     "\"options\": [1]}]}",
		     "devices[0].options: must be an object");
}

/* Engine options per device, as `run` takes them on its command line. */
static void test_device_options(struct test_ctx *t)
{
	struct dq_agent_config config;
	const struct dq_io_engine_ops *ops;
	char err[512] = "";
	const char *json = "{\"devices\": [{\"engine\": \"uring\", \"target\": \"/dev/x\", "
			   "\"options\": {\"fixedbufs\": false, \"sqthread_poll\": \"1\"}}, "
			   "{\"engine\": \"uring\", \"target\": \"/dev/y\"}]}";
	void *defaults = NULL;
	int rc;

	rc = parse(&config, json, err, sizeof(err));
	CHECK(t, rc == 0, "options: %d %s", rc, err);
	if (rc != 0) {
		return;
	}
	CHECK(t,
	      dq_io_engine_find("uring", &ops, err, sizeof(err)) == 0 &&
		      dq_engine_options_new(ops, &defaults) == 0,
	      "uring defaults");
	CHECK(t, config.devices[0].options != NULL && config.devices[1].options != NULL,
	      "option structs");
	if (defaults != NULL && config.devices[0].options != NULL &&
	    config.devices[1].options != NULL) {
		CHECK(t, memcmp(config.devices[1].options, defaults, ops->options_size) == 0,
		      "no options: the engine's defaults");
		CHECK(t, memcmp(config.devices[0].options, defaults, ops->options_size) != 0,
		      "options applied");
	}
	free(defaults);
	dq_agent_config_fini(&config);
}

/* kafkaPropertiesFile: key=value lines merged over "kafka", secret, refused when unreadable. */
static void test_properties_file(struct test_ctx *t)
{
	struct dq_agent_config config;
	char json[1024], err[1024] = "", *printed = NULL;
	const char *value;
	size_t printed_len;
	bool secret = false;
	FILE *out;
	int rc;

	write_file("kafka.properties", "# secrets of runner rack7-host3\n"
				       "\n"
				       "sasl.username = runner-from-file\r\n"
				       "sasl.password=p@ss = word with spaces \n"
				       "  security.protocol=SASL_SSL\n"
				       "ssl.ca.location=/etc/drivequal/kafka-ca.pem");
	/* The file comes first in the JSON, yet its lines win over "kafka". */
	snprintf(json, sizeof(json),
		 "{\"runnerId\": \"r1\", \"brokers\": \"b:1\", \"kafkaPropertiesFile\": \"%s\","
		 " \"kafka\": {\"security.protocol\": \"PLAINTEXT\", \"sasl.mechanism\": "
		 "\"SCRAM-SHA-512\", \"sasl.password\": \"from-json\", \"linger.ms\": 5}}",
		 path_in_dir("kafka.properties"));
	rc = parse(&config, json, err, sizeof(err));
	CHECK(t, rc == 0, "properties file: %d %s", rc, err);
	value = property(&config, "security.protocol", &secret);
	CHECK(t, value != NULL && strcmp(value, "SASL_SSL") == 0 && secret,
	      "the file's value replaces kafka{}'s and is secret: '%s'", value ? value : "(none)");
	value = property(&config, "sasl.password", &secret);
	CHECK(t, value != NULL && strcmp(value, "p@ss = word with spaces ") == 0 && secret,
	      "value taken as written after the first '=': '%s'", value ? value : "(none)");
	value = property(&config, "sasl.username", &secret);
	CHECK(t, value != NULL && strcmp(value, " runner-from-file") == 0,
	      "key trimmed, value kept, CR dropped: '%s'", value ? value : "(none)");
	value = property(&config, "ssl.ca.location", &secret);
	CHECK(t, value != NULL && strcmp(value, "/etc/drivequal/kafka-ca.pem") == 0,
	      "last line without a newline");
	value = property(&config, "linger.ms", &secret);
	CHECK(t, value != NULL && strcmp(value, "5") == 0 && !secret, "kafka{} keys kept");
	CHECK(t, config.property_count == 6, "merged: %zu properties", config.property_count);
	rc = dq_agent_config_finish(&config, err, sizeof(err));
	CHECK(t, rc == 0, "librdkafka accepts the merged properties: %s", err);
	out = open_memstream(&printed, &printed_len);
	dq_agent_config_describe(&config, out);
	fclose(out);
	CHECK(t,
	      strstr(printed, "p@ss") == NULL && strstr(printed, "sasl.password=(secret)") != NULL,
	      "describe shows a secret:\n%s", printed);
	free(printed);
	dq_agent_config_fini(&config);

	/* Refusals name the file and line, never a value. */
	expect_error(
		t, "{\"kafkaPropertiesFile\": \"/nonexistent/kafka.properties\"}",
		"kafkaPropertiesFile /nonexistent/kafka.properties: cannot read: No such file");
	expect_error(t, "{\"kafkaPropertiesFile\": 7}", "kafkaPropertiesFile: must be a string");
	write_file("no-equals.properties", "sasl.username=u\nsecret-without-equals\n");
	snprintf(json, sizeof(json), "{\"kafkaPropertiesFile\": \"%s\"}",
		 path_in_dir("no-equals.properties"));
	expect_error(t, json, "no-equals.properties:2: expected key=value");
	rc = parse(&config, json, err, sizeof(err));
	CHECK(t, strstr(err, "secret-without-equals") == NULL, "error quotes the line: %s", err);
	dq_agent_config_fini(&config);
	write_file("reserved.properties", "acks=1\n");
	snprintf(json, sizeof(json), "{\"kafkaPropertiesFile\": \"%s\"}",
		 path_in_dir("reserved.properties"));
	expect_error(t, json, "reserved.properties:1: kafka property acks cannot be set");
	write_file("unreadable.properties", "sasl.password=x\n");
	if (geteuid() != 0) {
		/* root reads any file: the check is for the agent's unprivileged users. */
		chmod(path_in_dir("unreadable.properties"), 0);
		snprintf(json, sizeof(json), "{\"kafkaPropertiesFile\": \"%s\"}",
			 path_in_dir("unreadable.properties"));
		expect_error(t, json, "cannot read: Permission denied");
	}
	snprintf(json, sizeof(json), "{\"kafkaPropertiesFile\": \"%s\"}", g_dir);
	expect_error(t, json, "kafkaPropertiesFile");
}

static void test_overrides_bad(struct test_ctx *t)
{
	struct dq_agent_config config;
	char err[512] = "";

	dq_agent_config_init(&config);
	CHECK(t,
	      dq_agent_config_set_property(&config, "novalue", err, sizeof(err)) == -EINVAL &&
		      strstr(err, "expected key=value") != NULL,
	      "-X without =: %s", err);
	CHECK(t, dq_agent_config_set_property(&config, "=v", err, sizeof(err)) == -EINVAL,
	      "-X without key");
	CHECK(t,
	      dq_agent_config_set_property(&config, "acks=1", err, sizeof(err)) == -EINVAL &&
		      strstr(err, "acks cannot be set") != NULL,
	      "-X reserved: %s", err);
	CHECK(t, dq_agent_config_set_runner_id(&config, "", err, sizeof(err)) == -EINVAL,
	      "empty runner id");
	CHECK(t, dq_agent_config_set_brokers(&config, "", err, sizeof(err)) == -EINVAL,
	      "empty brokers");
	CHECK(t,
	      dq_agent_config_load(&config, "/nonexistent/agent.json", err, sizeof(err)) == -ENOENT,
	      "missing file: %s", err);
	dq_agent_config_fini(&config);
}

static void test_load(struct test_ctx *t)
{
	struct dq_agent_config config;
	char err[512] = "";
	const char *path;
	int rc;

	path = write_file("agent.json", "{\"runnerId\": \"r9\", \"brokers\": \"b:1\", \"devices\": "
					"[{\"engine\": \"null\", \"target\": \"null:1g\"}]}\n");
	dq_agent_config_init(&config);
	rc = dq_agent_config_load(&config, path, err, sizeof(err));
	CHECK(t, rc == 0 && config.device_count == 1, "load: %s", err);
	dq_agent_config_fini(&config);
	path = write_file("bad.json", "{\"devices\": 3}");
	dq_agent_config_init(&config);
	rc = dq_agent_config_load(&config, path, err, sizeof(err));
	CHECK(t, rc == -EINVAL && strstr(err, path) != NULL, "error names the file: %s", err);
	dq_agent_config_fini(&config);
}

static void test_ids(struct test_ctx *t)
{
	char long_id[80];

	memset(long_id, 'a', sizeof(long_id) - 1);
	long_id[sizeof(long_id) - 1] = '\0';
	CHECK(t, dq_agent_id_valid("a") && dq_agent_id_valid("rack7-host3.lab_1"), "valid ids");
	CHECK(t,
	      !dq_agent_id_valid("") && !dq_agent_id_valid(".a") && !dq_agent_id_valid("a/b") &&
		      !dq_agent_id_valid(long_id),
	      "invalid ids");
	long_id[64] = '\0';
	CHECK(t, dq_agent_id_valid(long_id), "64 characters are allowed");
}

int main(void)
{
	struct test_ctx t = { 0 };
	char command[300];

	if (mkdtemp(g_dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	test_full(&t);
	test_defaults(&t);
	test_librdkafka_checks(&t);
	test_bad(&t);
	test_properties_file(&t);
	test_overrides_bad(&t);
	test_device_options(&t);
	test_load(&t);
	test_ids(&t);
	snprintf(command, sizeof(command), "rm -rf '%s'", g_dir);
	if (system(command) != 0) {
		fprintf(stderr, "could not remove %s\n", g_dir);
	}
	return test_report(&t, "test_agent_config");
}
