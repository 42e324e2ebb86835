/*
 * The phase rules' one home (contract/phase_rules.c). The destructive-phase rule is pinned by the
 * shared vectors in schemas/examples/phase-rules/destructive.json, which the Java tests read too:
 * each case's phase goes through the real job-command decoder, then dq_phase_is_destructive()
 * must agree with the case. The bounds and per-kind rules must reject the same phases whether they
 * come as JSON (the decoder) or as structs (the command line, the agent's ledger).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "contract/msg_job_command.h"
#include "contract/phase_rules.h"
#include "test_util.h"

/* A start command around one phase, in the contract's form. */
static int decode_phase(struct json_object *phase, struct dq_job_command *command, char *err,
			size_t err_len)
{
	struct json_object *root = json_object_new_object(), *device = json_object_new_object();
	struct json_object *phases = json_object_new_array();
	const char *json;
	int rc;

	json_object_object_add(root, "schemaVersion", json_object_new_int(1));
	json_object_object_add(root, "type", json_object_new_string("start"));
	json_object_object_add(root, "commandId", json_object_new_string("c1"));
	json_object_object_add(root, "jobId", json_object_new_string("j1"));
	json_object_object_add(root, "runnerId", json_object_new_string("r1"));
	json_object_object_add(root, "issuedAt",
			       json_object_new_string("2026-11-22T21:00:00.000Z"));
	json_object_object_add(device, "serial", json_object_new_string("S1"));
	json_object_object_add(root, "device", device);
	json_object_array_add(phases, json_object_get(phase));
	json_object_object_add(root, "phases", phases);
	json = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN);
	rc = dq_job_command_decode(json, strlen(json), command, err, err_len);
	json_object_put(root);
	return rc;
}

static void test_destructive_vectors(struct test_ctx *t, const char *path)
{
	struct json_object *file = json_object_from_file(path), *cases, *c, *phase, *expected;
	struct dq_job_command *command = malloc(sizeof(*command));
	char err[512];
	size_t i, n;
	int rc;

	CHECK(t, file != NULL && command != NULL, "cannot read %s", path);
	if (file == NULL || command == NULL || !json_object_object_get_ex(file, "cases", &cases)) {
		json_object_put(file);
		free(command);
		return;
	}
	n = json_object_array_length(cases);
	CHECK(t, n > 0, "%s holds no cases", path);
	for (i = 0; i < n; i++) {
		c = json_object_array_get_idx(cases, i);
		if (!json_object_object_get_ex(c, "phase", &phase) ||
		    !json_object_object_get_ex(c, "destructive", &expected)) {
			CHECK(t, false, "case %zu lacks phase or destructive", i);
			continue;
		}
		rc = decode_phase(phase, command, err, sizeof(err));
		CHECK(t, rc == 0, "case %zu does not decode: %s", i, err);
		if (rc != 0) {
			continue;
		}
		CHECK(t, dq_phase_list_check(command->start.phases, 1, err, sizeof(err)) == 0,
		      "case %zu breaks a phase rule: %s", i, err);
		CHECK(t,
		      dq_phase_is_destructive(&command->start.phases[0]) ==
			      json_object_get_boolean(expected),
		      "case %zu (%s): destructive should be %s", i,
		      json_object_get_string(json_object_object_get(c, "why")),
		      json_object_get_boolean(expected) ? "true" : "false");
	}
	printf("phase-rules/destructive.json: %zu cases\n", n);
	json_object_put(file);
	free(command);
}

/* A valid workload to break one field at a time. */
static struct dq_phase_spec workload(void)
{
	struct dq_phase_spec p = { .name = "w",
				   .kind = DQ_PHASE_KIND_WORKLOAD,
				   .rw = DQ_RW_RANDWRITE };

	p.has_block_size_bytes = true;
	p.block_size_bytes = 4096;
	p.has_queue_depth = true;
	p.queue_depth = DQ_QUEUE_DEPTH_MAX;
	p.has_range_percent = true;
	p.range_percent = 100;
	p.has_runtime_s = true;
	p.runtime_s = DQ_RUNTIME_S_MAX;
	return p;
}

static void expect_violation(struct test_ctx *t, const struct dq_phase_spec *p, const char *field,
			     const char *reason_part)
{
	struct dq_phase_violation v = { 0 };
	char err[512] = "";
	int rc = dq_phase_check(p, &v);

	CHECK(t, rc == -EINVAL, "expected a violation of %s", field != NULL ? field : "the phase");
	CHECK(t,
	      (field == NULL && v.field == NULL) ||
		      (field != NULL && v.field != NULL && strcmp(v.field, field) == 0),
	      "field %s, expected %s", v.field != NULL ? v.field : "(none)",
	      field != NULL ? field : "(none)");
	CHECK(t, strstr(v.reason, reason_part) != NULL, "reason '%s' lacks '%s'", v.reason,
	      reason_part);
	rc = dq_phase_list_check(p, 1, err, sizeof(err));
	CHECK(t,
	      rc == -EINVAL && strstr(err, "phase 0 (w, workload): ") == err &&
		      strstr(err, v.reason) != NULL,
	      "list check says: %s", err);
}

static void test_bounds_and_kinds(struct test_ctx *t)
{
	struct dq_phase_spec p = workload();
	char err[512] = "";

	CHECK(t, dq_phase_list_check(&p, 1, err, sizeof(err)) == 0, "the maxima pass: %s", err);
	p.queue_depth = DQ_QUEUE_DEPTH_MAX + 1;
	expect_violation(t, &p, "queueDepth", "must be 1..1024");
	p = workload();
	p.queue_depth = 0;
	expect_violation(t, &p, "queueDepth", "must be 1..1024");
	p = workload();
	p.block_size_bytes = 256;
	expect_violation(t, &p, "blockSizeBytes", "must be 512..16777216");
	p.block_size_bytes = 4097;
	expect_violation(t, &p, "blockSizeBytes", "multiple of 512");
	p = workload();
	p.runtime_s = DQ_RUNTIME_S_MAX + 1;
	expect_violation(t, &p, "runtimeS", "must be 1..2592000");
	p = workload();
	p.range_percent = 0;
	expect_violation(t, &p, "rangePercent", "(0, 100]");
	p = workload();
	p.has_queue_depth = false;
	expect_violation(t, &p, "queueDepth", "is required for kind workload");
	p = workload();
	p.has_size_bytes = true;
	p.size_bytes = 1;
	CHECK(t, dq_phase_list_check(&p, 1, err, sizeof(err)) == 0,
	      "both limits (the first reached ends it): %s", err);
	p.has_runtime_s = false;
	CHECK(t, dq_phase_list_check(&p, 1, err, sizeof(err)) == 0, "a size alone: %s", err);
	p.has_size_bytes = false;
	expect_violation(t, &p, NULL, "runtimeS, sizeBytes or both");
	p = workload();
	p.rw = DQ_RW_RANDRW;
	expect_violation(t, &p, "readPercent", "is required for rw randrw");
	CHECK(t, dq_phase_list_check(&p, 0, err, sizeof(err)) == -EINVAL, "no phases");
	CHECK(t, dq_phase_list_check(&p, DQ_MAX_PHASES + 1, err, sizeof(err)) == -EINVAL,
	      "too many phases");
}

/* The decoder reports the same rule at the member's JSON path. */
static void test_decoder_agrees(struct test_ctx *t)
{
	struct dq_job_command *command = malloc(sizeof(*command));
	struct json_object *phase = json_tokener_parse(
		"{\"index\":0,\"name\":\"w\",\"kind\":\"workload\",\"rw\":\"randrw\","
		"\"blockSizeBytes\":4096,\"queueDepth\":1024,\"rangePercent\":100,\"runtimeS\":1}");
	char err[512] = "";

	CHECK(t, command != NULL && phase != NULL, "setup");
	if (command == NULL || phase == NULL) {
		free(command);
		json_object_put(phase);
		return;
	}
	CHECK(t, decode_phase(phase, command, err, sizeof(err)) == -EINVAL, "randrw without mix");
	CHECK(t, strcmp(err, "phases[0].readPercent: is required for rw randrw") == 0, "%s", err);
	json_object_object_add(phase, "readPercent", json_object_new_int(50));
	json_object_object_add(phase, "queueDepth", json_object_new_int(DQ_QUEUE_DEPTH_MAX + 1));
	CHECK(t, decode_phase(phase, command, err, sizeof(err)) == -EINVAL, "queueDepth 1025");
	CHECK(t, strstr(err, "phases[0].queueDepth") == err, "%s", err);
	json_object_object_add(phase, "queueDepth", json_object_new_int(DQ_QUEUE_DEPTH_MAX));
	json_object_object_add(phase, "blockSizeBytes", json_object_new_int(4097));
	CHECK(t, decode_phase(phase, command, err, sizeof(err)) == -EINVAL, "block size");
	CHECK(t, strcmp(err, "phases[0].blockSizeBytes: must be a multiple of 512 (got 4097)") == 0,
	      "%s", err);
	json_object_put(phase);
	free(command);
}

int main(int argc, char **argv)
{
	struct test_ctx t = { 0 };

	if (argc != 2) {
		fprintf(stderr, "usage: %s schemas/examples/phase-rules/destructive.json\n",
			argv[0]);
		return 2;
	}
	test_destructive_vectors(&t, argv[1]);
	test_bounds_and_kinds(&t);
	test_decoder_agrees(&t);
	return test_report(&t, "phase_rules");
}
