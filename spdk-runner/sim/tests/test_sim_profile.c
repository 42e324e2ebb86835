/*
 * Profiles are data, so a broken one must fail loudly: every shipped profile loads and builds a
 * drive with the spare area its name promises, and typos, missing keys and impossible values are
 * rejected with a reason.
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp */

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "sim_test.h"

static const struct {
	const char *name;
	double spare_min, spare_max; /* (raw - user) / user */
	double eagerness;
} g_shipped[] = {
	{ "client-7pct", 0.06, 0.08, 0.0 },
	{ "enterprise-eager", 0.25, 0.30, 1.0 },
	{ "datacenter-high-op", 0.40, 0.50, 1.0 },
	{ "test-client-7pct", 0.06, 0.08, 0.0 },
	{ "test-enterprise-eager", 0.25, 0.30, 1.0 },
	{ "test-datacenter-high-op", 0.40, 0.50, 1.0 },
	{ "test-fdp-enterprise", 0.25, 0.30, 1.0 },
};

static void test_shipped(void)
{
	for (size_t i = 0; i < sizeof(g_shipped) / sizeof(g_shipped[0]); i++) {
		struct dq_sim_profile p;
		struct dq_sim_identify id;
		struct dq_sim_drive *d;
		double spare;

		sim_test_load(g_shipped[i].name, &p);
		CHECK(strcmp(p.name, g_shipped[i].name) == 0);
		CHECK(p.eagerness == g_shipped[i].eagerness);
		/* the big profiles allocate their tables lazily: creating one is cheap */
		d = sim_test_drive(&p);
		dq_sim_drive_identify(d, &id);
		spare = (double)(id.raw_bytes - id.user_bytes) / id.user_bytes;
		printf("%-24s user %6.1f GB spare %4.1f%% model %s\n", p.name, id.user_bytes / 1e9,
		       spare * 100, id.model);
		CHECK(spare >= g_shipped[i].spare_min && spare <= g_shipped[i].spare_max);
		CHECK(id.lba_bytes == 4096 && id.lba_count * 4096 == id.user_bytes);
		dq_sim_drive_destroy(d);
	}
}

/* Writes `json` to a temporary file and loads it; returns the load's result. */
static int load_text(const char *json, char *err, size_t err_len)
{
	char path[] = "/tmp/dq_sim_profile_XXXXXX";
	struct dq_sim_profile p;
	int fd = mkstemp(path);
	int rc;

	CHECK(fd >= 0);
	CHECK(write(fd, json, strlen(json)) == (ssize_t)strlen(json));
	close(fd);
	err[0] = '\0';
	rc = dq_sim_profile_load(path, &p, err, err_len);
	unlink(path);
	return rc;
}

/* The shipped client profile's text with `from` replaced by `to`. */
static int load_edited(const char *from, const char *to, char *err, size_t err_len)
{
	char text[8192], edited[8192], *at;
	FILE *f = fopen(DQ_SIM_PROFILES_DIR "/test-client-7pct.json", "r");
	size_t n;

	CHECK(f != NULL);
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	at = strstr(text, from);
	CHECK(at != NULL);
	snprintf(edited, sizeof(edited), "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	return load_text(edited, err, err_len);
}

static void test_rejected(void)
{
	char err[256];
	struct dq_sim_profile p;

	CHECK(load_edited("\"planes\"", "\"plane\"", err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "plane") != NULL);
	CHECK(load_edited("\"lba_bytes\": 4096", "\"lba_bytes\": 1000", err, sizeof(err)) ==
	      -EINVAL);
	CHECK(load_edited("\"eagerness\": 0.0", "\"eagerness\": 2", err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "eagerness") != NULL);
	CHECK(load_edited("\"foreground_step_pct\": 25", "\"foreground_step_pct\": 101", err,
			  sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "foreground_step_pct") != NULL);
	CHECK(load_edited("\"foreground_step_pct\": 25,", "", err, sizeof(err)) == -EINVAL);
	CHECK(load_edited("\"greedy\"", "\"lifo\"", err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "fifo") != NULL);
	/* FDP: 1..8 handles, no unknown keys; a section with 0 handles is a mistake, not "off" */
	CHECK(load_edited("\"gc\": {", "\"fdp\": { \"reclaim_unit_handles\": 2 }, \"gc\": {", err,
			  sizeof(err)) == 0);
	CHECK(load_edited("\"gc\": {", "\"fdp\": { \"reclaim_unit_handles\": 0 }, \"gc\": {", err,
			  sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "fdp.reclaim_unit_handles") != NULL);
	CHECK(load_edited("\"gc\": {", "\"fdp\": { \"reclaim_unit_handles\": 9 }, \"gc\": {", err,
			  sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "fdp.reclaim_unit_handles") != NULL);
	CHECK(load_edited("\"gc\": {", "\"fdp\": { \"handles\": 2 }, \"gc\": {", err,
			  sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "fdp.handles") != NULL);
	CHECK(load_edited("\"raw_bytes\": 8589934592", "\"raw_bytes\": 8000000000", err,
			  sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "spare") != NULL);
	CHECK(load_edited("\"page_bytes\": 16384", "\"page_bytes\": \"16k\"", err, sizeof(err)) ==
	      -EINVAL);
	CHECK(load_edited("\"user_bytes\": 8000000000,", "", err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "user_bytes") != NULL);
	CHECK(load_text("{ \"name\": ", err, sizeof(err)) == -EIO);
	CHECK(load_text("[]", err, sizeof(err)) == -EINVAL);
	CHECK(load_edited("\"description\"", "\"descriptoin\"", err, sizeof(err)) == -EINVAL);
	CHECK(dq_sim_profile_load("/nonexistent/x.json", &p, err, sizeof(err)) == -ENOENT);
	CHECK(dq_sim_profile_load_name(DQ_SIM_PROFILES_DIR, "../profiles/client-7pct", &p, err,
				       sizeof(err)) == -EINVAL);
	CHECK(dq_sim_profile_load_name(DQ_SIM_PROFILES_DIR, "no-such-drive", &p, err,
				       sizeof(err)) == -ENOENT);
}

int main(void)
{
	test_shipped();
	test_rejected();
	return 0;
}
