/*
 * The shared-vector test: every example under schemas/examples/<type>/valid must decode and encode
 * back to the very same bytes, and every one under invalid/ must be rejected. The Java tests read
 * the same files, so both sides agree on the contract byte for byte.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contract/msg_job_command.h"
#include "contract/msg_job_event.h"
#include "contract/msg_runner_heartbeat.h"
#include "contract/msg_sample.h"

/* Decode json; with out != NULL also encode the result canonically into *out. */
typedef int (*vector_codec_fn)(const char *json, size_t len, char **out, size_t *out_len, char *err,
			       size_t err_len);

static int sample_codec(const char *json, size_t len, char **out, size_t *out_len, char *err,
			size_t err_len)
{
	struct dq_sample msg;
	int rc = dq_sample_decode(json, len, &msg, err, err_len);

	if (rc == 0 && out != NULL) {
		rc = dq_sample_encode(&msg, out, out_len, err, err_len);
	}
	return rc;
}

static int job_command_codec(const char *json, size_t len, char **out, size_t *out_len, char *err,
			     size_t err_len)
{
	struct dq_job_command *msg = malloc(sizeof(*msg));
	int rc;

	if (msg == NULL) {
		return -ENOMEM;
	}
	rc = dq_job_command_decode(json, len, msg, err, err_len);
	if (rc == 0 && out != NULL) {
		rc = dq_job_command_encode(msg, out, out_len, err, err_len);
	}
	free(msg);
	return rc;
}

static int job_event_codec(const char *json, size_t len, char **out, size_t *out_len, char *err,
			   size_t err_len)
{
	struct dq_job_event msg;
	int rc = dq_job_event_decode(json, len, &msg, err, err_len);

	if (rc == 0 && out != NULL) {
		rc = dq_job_event_encode(&msg, out, out_len, err, err_len);
	}
	dq_job_event_fini(&msg);
	return rc;
}

static int heartbeat_codec(const char *json, size_t len, char **out, size_t *out_len, char *err,
			   size_t err_len)
{
	struct dq_runner_heartbeat msg;
	int rc = dq_runner_heartbeat_decode(json, len, &msg, err, err_len);

	if (rc == 0 && out != NULL) {
		rc = dq_runner_heartbeat_encode(&msg, out, out_len, err, err_len);
	}
	dq_runner_heartbeat_fini(&msg);
	return rc;
}

static const struct {
	const char *type;
	vector_codec_fn codec;
} g_codecs[] = {
	{ "sample", sample_codec },
	{ "job-command", job_command_codec },
	{ "job-event", job_event_codec },
	{ "runner-heartbeat", heartbeat_codec },
};

static int read_file(const char *path, char **data, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long size;
	int rc = 0;

	if (f == NULL) {
		return -errno;
	}
	if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
		rc = -EIO;
		goto cleanup;
	}
	buf = malloc((size_t)size + 1);
	if (buf == NULL) {
		rc = -ENOMEM;
		goto cleanup;
	}
	if (fread(buf, 1, (size_t)size, f) != (size_t)size) {
		rc = -EIO;
		goto cleanup;
	}
	buf[size] = '\0';
	*data = buf;
	*len = (size_t)size;
	buf = NULL;
cleanup:
	free(buf);
	fclose(f);
	return rc;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The .json files of dir, sorted; *count of them. */
static int list_vectors(const char *dir, char ***names, size_t *count)
{
	struct dirent *entry;
	char **list = NULL, **grown;
	size_t n = 0, len;
	DIR *d = opendir(dir);
	int rc = 0;

	if (d == NULL) {
		return -errno;
	}
	while ((entry = readdir(d)) != NULL) {
		len = strlen(entry->d_name);
		if (len < 6 || strcmp(entry->d_name + len - 5, ".json") != 0) {
			continue;
		}
		grown = realloc(list, (n + 1) * sizeof(*list));
		if (grown == NULL) {
			rc = -ENOMEM;
			break;
		}
		list = grown;
		list[n] = strdup(entry->d_name);
		if (list[n] == NULL) {
			rc = -ENOMEM;
			break;
		}
		n++;
	}
	closedir(d);
	if (list != NULL) {
		qsort(list, n, sizeof(*list), compare_names);
	}
	*names = list;
	*count = n;
	return rc;
}

static void free_names(char **names, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++) {
		free(names[i]);
	}
	free(names);
}

/* Checks one vector; returns true when it behaves as its directory says. */
static bool check_vector(vector_codec_fn codec, const char *path, const char *name, bool valid)
{
	char err[512] = "", *data = NULL, *encoded = NULL;
	size_t len = 0, expected_len, encoded_len = 0;
	bool ok = false;
	int rc;

	rc = read_file(path, &data, &len);
	if (rc != 0) {
		printf("FAIL %s: cannot read: %s\n", path, strerror(-rc));
		return false;
	}
	if (!valid) {
		rc = codec(data, len, NULL, NULL, err, sizeof(err));
		ok = rc == -EINVAL && err[0] != '\0';
		printf("%s invalid/%s: %s\n", ok ? "ok  " : "FAIL", name,
		       rc == 0 ? "accepted, but it is invalid" : err);
		goto cleanup;
	}
	rc = codec(data, len, &encoded, &encoded_len, err, sizeof(err));
	if (rc != 0) {
		printf("FAIL valid/%s: rejected: %s\n", name, err);
		goto cleanup;
	}
	/* The files end with one newline; the encoding is the rest, byte for byte. */
	expected_len = len;
	if (expected_len > 0 && data[expected_len - 1] == '\n') {
		expected_len--;
	}
	ok = encoded_len == expected_len && memcmp(encoded, data, expected_len) == 0;
	if (ok) {
		printf("ok   valid/%s: decoded, re-encoded to identical %zu bytes\n", name,
		       encoded_len);
	} else {
		printf("FAIL valid/%s: re-encoding differs\n  file:    %.*s\n  encoded: %s\n", name,
		       (int)expected_len, data, encoded);
	}
cleanup:
	free(encoded);
	free(data);
	return ok;
}

static int check_dir(vector_codec_fn codec, const char *schemas_dir, const char *type, bool valid,
		     size_t *failures)
{
	char dir[4096], path[4096 + 256];
	char **names = NULL;
	size_t i, count = 0;
	int rc;

	snprintf(dir, sizeof(dir), "%s/examples/%s/%s", schemas_dir, type,
		 valid ? "valid" : "invalid");
	rc = list_vectors(dir, &names, &count);
	if (rc != 0) {
		printf("FAIL %s: %s\n", dir, strerror(-rc));
		(*failures)++;
		goto cleanup;
	}
	if (count == 0) {
		printf("FAIL %s: no vectors (an empty directory tests nothing)\n", dir);
		(*failures)++;
		goto cleanup;
	}
	for (i = 0; i < count; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (!check_vector(codec, path, names[i], valid)) {
			(*failures)++;
		}
	}
	printf("%s/%s: %zu vectors\n", type, valid ? "valid" : "invalid", count);
cleanup:
	free_names(names, count);
	return rc;
}

int main(int argc, char **argv)
{
	size_t i, failures = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: %s SCHEMAS_DIR TYPE\n", argv[0]);
		return 2;
	}
	for (i = 0; i < sizeof(g_codecs) / sizeof(g_codecs[0]); i++) {
		if (strcmp(g_codecs[i].type, argv[2]) == 0) {
			break;
		}
	}
	if (i == sizeof(g_codecs) / sizeof(g_codecs[0])) {
		fprintf(stderr, "unknown message type %s\n", argv[2]);
		return 2;
	}
	check_dir(g_codecs[i].codec, argv[1], argv[2], true, &failures);
	check_dir(g_codecs[i].codec, argv[1], argv[2], false, &failures);
	printf("%s: %zu failure(s)\n", argv[2], failures);
	return failures == 0 ? 0 : 1;
}
