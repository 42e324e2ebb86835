/*
 * Edge cases the shared vectors do not cover: json-c's number quirks at the int64 boundary, 1.0 as
 * an integer (JSON Schema 2020-12), id/serial/timestamp patterns, limits, and encoders refusing to
 * emit invalid messages.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contract/msg_job_command.h"
#include "contract/msg_job_event.h"
#include "contract/msg_runner_heartbeat.h"
#include "contract/msg_sample.h"
#include "test_util.h"

#define SAMPLE_HEAD                                                                       \
	"{\"schemaVersion\":1,\"jobId\":\"j\",\"runnerId\":\"r\",\"deviceSerial\":\"X\"," \
	"\"phaseIndex\":0,\"phaseName\":\"p\","
#define SAMPLE_IDLE "\"read\":{\"ios\":0,\"bytes\":0},\"write\":{\"ios\":0,\"bytes\":0}}"

/* A sample with one field replaced: the head, then t/timeMs, then directions. */
static int decode_sample(const char *json, struct dq_sample *s, char *err, size_t err_len)
{
	return dq_sample_decode(json, strlen(json), s, err, err_len);
}

static void expect_sample(struct test_ctx *t, const char *json, bool valid, const char *err_part)
{
	struct dq_sample s;
	char err[512] = "";
	int rc = decode_sample(json, &s, err, sizeof(err));

	if (valid) {
		CHECK(t, rc == 0, "rejected %s: %s", json, err);
		return;
	}
	CHECK(t, rc == -EINVAL, "accepted %s", json);
	CHECK(t, err_part == NULL || strstr(err, err_part) != NULL, "error '%s' lacks '%s'", err,
	      err_part);
	if (rc == -EINVAL) {
		printf("ok   rejected: %s\n", err);
	}
}

static void test_integers(struct test_ctx *t)
{
	struct dq_sample s;
	char err[512], *json = NULL;
	size_t len;

	/* int64 boundary: json-c clamps larger values, the codec must notice */
	expect_sample(t, SAMPLE_HEAD "\"t\":1,\"timeMs\":9223372036854775807," SAMPLE_IDLE, true,
		      NULL);
	expect_sample(t, SAMPLE_HEAD "\"t\":1,\"timeMs\":9223372036854775808," SAMPLE_IDLE, false,
		      "timeMs: must be");
	expect_sample(t, SAMPLE_HEAD "\"t\":1,\"timeMs\":18446744073709551616," SAMPLE_IDLE, false,
		      "timeMs");
	expect_sample(t, SAMPLE_HEAD "\"t\":1,\"timeMs\":1e30," SAMPLE_IDLE, false, "timeMs");
	expect_sample(t, SAMPLE_HEAD "\"t\":1,\"timeMs\":-9223372036854775809," SAMPLE_IDLE, false,
		      "timeMs");
	/* types json-c would happily convert */
	expect_sample(t, SAMPLE_HEAD "\"t\":\"12\",\"timeMs\":0," SAMPLE_IDLE, false,
		      "got a string");
	expect_sample(t, SAMPLE_HEAD "\"t\":1.5,\"timeMs\":0," SAMPLE_IDLE, false, "got 1.5");
	expect_sample(t, SAMPLE_HEAD "\"t\":true,\"timeMs\":0," SAMPLE_IDLE, false,
		      "got a boolean");
	expect_sample(t, SAMPLE_HEAD "\"t\":null,\"timeMs\":0," SAMPLE_IDLE, false,
		      "t: must not be null");
	expect_sample(t, SAMPLE_HEAD "\"t\":NaN,\"timeMs\":0," SAMPLE_IDLE, false, "t:");
	expect_sample(t, SAMPLE_HEAD "\"t\":2592001,\"timeMs\":0," SAMPLE_IDLE, false, "2592001");

	/* JSON Schema 2020-12: 1.0 is the integer 1; it re-encodes canonically as 1 */
	CHECK(t,
	      decode_sample(SAMPLE_HEAD "\"t\":1.0,\"timeMs\":2e3," SAMPLE_IDLE, &s, err,
			    sizeof(err)) == 0,
	      "1.0 rejected: %s", err);
	CHECK(t, s.t == 1 && s.time_ms == 2000, "t=%" PRIu32 " timeMs=%" PRIu64, s.t, s.time_ms);
	CHECK(t, dq_sample_encode(&s, &json, &len, err, sizeof(err)) == 0, "encode: %s", err);
	CHECK(t, json != NULL && strstr(json, "\"t\":1,\"timeMs\":2000,") != NULL, "got %s", json);
	free(json);
	/* schemaVersion is const 1, not "1" */
	expect_sample(
		t,
		"{\"schemaVersion\":\"1\",\"jobId\":\"j\",\"runnerId\":\"r\",\"deviceSerial\":"
		"\"X\",\"phaseIndex\":0,\"phaseName\":\"p\",\"t\":1,\"timeMs\":0," SAMPLE_IDLE,
		false, "schemaVersion");
}

static void test_strings(struct test_ctx *t)
{
	char id64[65], id65[66], json[512];

	memset(id64, 'a', 64);
	id64[64] = '\0';
	memset(id65, 'a', 65);
	id65[65] = '\0';
	snprintf(json, sizeof(json),
		 "{\"schemaVersion\":1,\"jobId\":\"%s\",\"runnerId\":\"r\",\"deviceSerial\":\"X\","
		 "\"phaseIndex\":0,\"phaseName\":\"p\",\"t\":1,\"timeMs\":0," SAMPLE_IDLE,
		 id64);
	expect_sample(t, json, true, NULL);
	snprintf(json, sizeof(json),
		 "{\"schemaVersion\":1,\"jobId\":\"%s\",\"runnerId\":\"r\",\"deviceSerial\":\"X\","
		 "\"phaseIndex\":0,\"phaseName\":\"p\",\"t\":1,\"timeMs\":0," SAMPLE_IDLE,
		 id65);
	expect_sample(t, json, false, "jobId");
	expect_sample(
		t,
		"{\"schemaVersion\":1,\"jobId\":\"\",\"runnerId\":\"r\",\"deviceSerial\":\"X\","
		"\"phaseIndex\":0,\"phaseName\":\"p\",\"t\":1,\"timeMs\":0," SAMPLE_IDLE,
		false, "jobId");
	expect_sample(
		t,
		"{\"schemaVersion\":1,\"jobId\":\"-j\",\"runnerId\":\"r\",\"deviceSerial\":\"X\","
		"\"phaseIndex\":0,\"phaseName\":\"p\",\"t\":1,\"timeMs\":0," SAMPLE_IDLE,
		false, "jobId");
	/* serials: inner spaces yes, leading/trailing no, ASCII only */
	expect_sample(
		t,
		"{\"schemaVersion\":1,\"jobId\":\"j\",\"runnerId\":\"r\",\"deviceSerial\":\"A B\","
		"\"phaseIndex\":0,\"phaseName\":\"p\",\"t\":1,\"timeMs\":0," SAMPLE_IDLE,
		true, NULL);
	expect_sample(
		t,
		"{\"schemaVersion\":1,\"jobId\":\"j\",\"runnerId\":\"r\",\"deviceSerial\":\"AB \","
		"\"phaseIndex\":0,\"phaseName\":\"p\",\"t\":1,\"timeMs\":0," SAMPLE_IDLE,
		false, "deviceSerial");
	expect_sample(
		t,
		"{\"schemaVersion\":1,\"jobId\":\"j\",\"runnerId\":\"r\",\"deviceSerial\":\"\","
		"\"phaseIndex\":0,\"phaseName\":\"p\",\"t\":1,\"timeMs\":0," SAMPLE_IDLE,
		false, "deviceSerial");
	expect_sample(
		t,
		"{\"schemaVersion\":1,\"jobId\":\"j\",\"runnerId\":\"r\",\"deviceSerial\":"
		"\"\\u00e9\",\"phaseIndex\":0,\"phaseName\":\"p\",\"t\":1,\"timeMs\":0," SAMPLE_IDLE,
		false, "deviceSerial");
	expect_sample(
		t,
		"{\"schemaVersion\":1,\"jobId\":\"j\",\"runnerId\":\"r\",\"deviceSerial\":"
		"\"X\",\"phaseIndex\":0,\"phaseName\":\"Upper\",\"t\":1,\"timeMs\":0," SAMPLE_IDLE,
		false, "phaseName");
	/* documents: trailing data, invalid UTF-8, NUL in a string */
	expect_sample(t, SAMPLE_HEAD "\"t\":1,\"timeMs\":0," SAMPLE_IDLE " {}", false,
		      "invalid JSON");
	expect_sample(t, SAMPLE_HEAD "\"t\":1,\"timeMs\":0," SAMPLE_IDLE " \r\n\t", true, NULL);
	expect_sample(
		t,
		"{\"schemaVersion\":1,\"jobId\":\"j\",\"runnerId\":\"r\",\"deviceSerial\":"
		"\"X\xff\",\"phaseIndex\":0,\"phaseName\":\"p\",\"t\":1,\"timeMs\":0," SAMPLE_IDLE,
		false, "invalid JSON");
	expect_sample(t, "", false, "empty");
}

static void expect_event(struct test_ctx *t, const char *json, bool valid, const char *err_part)
{
	struct dq_job_event e;
	char err[512] = "";
	int rc = dq_job_event_decode(json, strlen(json), &e, err, sizeof(err));

	dq_job_event_fini(&e);
	if (valid) {
		CHECK(t, rc == 0, "rejected %s: %s", json, err);
		return;
	}
	CHECK(t, rc == -EINVAL, "accepted %s", json);
	CHECK(t, err_part == NULL || strstr(err, err_part) != NULL, "error '%s' lacks '%s'", err,
	      err_part);
	if (rc == -EINVAL) {
		printf("ok   rejected: %s\n", err);
	}
}

#define EVENT_HEAD(type, seq)                                                                   \
	"{\"schemaVersion\":1,\"type\":\"" type "\",\"eventId\":\"j:" seq "\",\"jobId\":\"j\"," \
	"\"runnerId\":\"r\",\"seq\":" seq ","

static void test_events(struct test_ctx *t)
{
	expect_event(t,
		     EVENT_HEAD("completed",
				"1") "\"time\":\"2028-02-29T23:59:60.999Z\",\"durationNs\":1}",
		     true, NULL);
	expect_event(t,
		     EVENT_HEAD("completed",
				"1") "\"time\":\"2026-02-29T00:00:00.000Z\",\"durationNs\":1}",
		     false, "time");
	expect_event(t,
		     EVENT_HEAD("completed",
				"1") "\"time\":\"2026-11-22T24:00:00.000Z\",\"durationNs\":1}",
		     false, "time");
	expect_event(t,
		     EVENT_HEAD("completed",
				"1") "\"time\":\"2026-11-22T21:00:00Z\",\"durationNs\":1}",
		     false, "time");
	expect_event(
		t,
		EVENT_HEAD("completed",
			   "1000000000") "\"time\":\"2026-11-22T21:00:00.000Z\",\"durationNs\":1}",
		false, "eventId");
	/* cancelled: everything optional, an empty message allowed */
	expect_event(t,
		     EVENT_HEAD("cancelled",
				"2") "\"time\":\"2026-11-22T21:00:00.000Z\",\"message\":\"\"}",
		     true, NULL);
	expect_event(
		t,
		EVENT_HEAD(
			"failed",
			"2") "\"time\":\"2026-11-22T21:00:00.000Z\",\"reason\":\"internal\",\"message\":\"\"}",
		false, "message");
	/* histogram pairs: exactly two integers */
	expect_event(
		t,
		EVENT_HEAD(
			"phase-completed",
			"3") "\"time\":\"2026-11-22T21:00:00.000Z\","
			     "\"phaseIndex\":0,\"phaseName\":\"w\",\"kind\":\"workload\",\"durationNs\":1,"
			     "\"samples\":0,\"read\":{\"ios\":0,\"bytes\":0},\"write\":{\"ios\":1,\"bytes\":1,"
			     "\"latencyHistogram\":{\"significantDigits\":2,\"totalCount\":1,\"minNs\":5,"
			     "\"maxNs\":5,\"counts\":[[5,1,7]]}}}",
		false, "write.latencyHistogram.counts[0]");
}

static void test_heartbeat(struct test_ctx *t)
{
	const char *dup =
		"{\"schemaVersion\":1,\"runnerId\":\"r\",\"time\":\"2026-11-22T21:00:05.000Z\","
		"\"intervalMs\":5000,\"runnerVersion\":\"0.1.0\",\"engines\":[\"sim\",\"null\","
		"\"sim\"],\"devices\":[],\"activeJobs\":[]}";
	struct dq_runner_heartbeat hb;
	char err[512] = "";
	int rc = dq_runner_heartbeat_decode(dup, strlen(dup), &hb, err, sizeof(err));

	dq_runner_heartbeat_fini(&hb);
	CHECK(t, rc == -EINVAL && strstr(err, "engines[2]") != NULL, "duplicate engines: %d %s", rc,
	      err);
	printf("ok   rejected: %s\n", err);
}

static void test_encoders(struct test_ctx *t)
{
	struct dq_sample s = { .job_id = "job-1",
			       .runner_id = "r",
			       .device_serial = "S 1",
			       .phase_index = 2,
			       .phase_name = "w",
			       .t = 3,
			       .time_ms = 4 };
	struct dq_job_command *c = calloc(1, sizeof(*c));
	char err[512] = "", *json = NULL;
	size_t len = 0, i;
	int rc;

	/* latencyNs goes out exactly when ios >= 1 */
	s.write.ios = 1;
	s.write.bytes = 4096;
	s.write.latency_ns = (struct dq_latency_percentiles){ 1, 2, 3, 4 };
	rc = dq_sample_encode(&s, &json, &len, err, sizeof(err));
	CHECK(t, rc == 0, "encode: %s", err);
	CHECK(t,
	      json != NULL &&
		      strcmp(json,
			     "{\"schemaVersion\":1,\"jobId\":\"job-1\",\"runnerId\":\"r\","
			     "\"deviceSerial\":\"S 1\",\"phaseIndex\":2,\"phaseName\":\"w\",\"t\":3,"
			     "\"timeMs\":4,\"read\":{\"ios\":0,\"bytes\":0},\"write\":{\"ios\":1,"
			     "\"bytes\":4096,\"latencyNs\":{\"p50\":1,\"p99\":2,\"p999\":3,"
			     "\"max\":4}}}") == 0,
	      "got %s", json);
	CHECK(t, len == (json != NULL ? strlen(json) : 0), "len %zu", len);
	free(json);
	json = NULL;

	/* an invalid struct is refused, naming the field */
	s.job_id[0] = '\0';
	rc = dq_sample_encode(&s, &json, &len, err, sizeof(err));
	CHECK(t, rc == -EINVAL && json == NULL && strncmp(err, "jobId:", 6) == 0, "%d %s", rc, err);
	strcpy(s.job_id, "j");
	s.write.bytes = (uint64_t)INT64_MAX + 1;
	rc = dq_sample_encode(&s, &json, &len, err, sizeof(err));
	CHECK(t, rc == -EINVAL && strncmp(err, "write.bytes:", 12) == 0, "%d %s", rc, err);

	/* a start command: 64 phases fit, 65 do not; fractions print shortest */
	if (c == NULL) {
		t->failures++;
		return;
	}
	c->type = DQ_JOB_COMMAND_START;
	strcpy(c->command_id, "c");
	strcpy(c->job_id, "j");
	strcpy(c->runner_id, "r");
	strcpy(c->issued_at, "2026-11-22T21:00:00.000Z");
	strcpy(c->start.device_serial, "X");
	c->start.phase_count = DQ_MAX_PHASES;
	for (i = 0; i < DQ_MAX_PHASES; i++) {
		c->start.phases[i] = (struct dq_phase_spec){ .index = (uint32_t)i,
							     .name = "t",
							     .kind = DQ_PHASE_KIND_DEALLOCATE,
							     .has_range_percent = true,
							     .range_percent = 0.1 };
	}
	c->start.phases[1].range_percent = 100.0 / 3;
	rc = dq_job_command_encode(c, &json, &len, err, sizeof(err));
	CHECK(t, rc == 0, "encode: %s", err);
	CHECK(t,
	      json != NULL && strstr(json, "\"rangePercent\":0.1}") != NULL &&
		      strstr(json, "\"rangePercent\":33.333333333333336}") != NULL,
	      "got %.300s", json);
	free(json);
	json = NULL;
	c->start.phases[5].kind = DQ_PHASE_KIND_WORKLOAD;
	rc = dq_job_command_encode(c, &json, &len, err, sizeof(err));
	CHECK(t, rc == -EINVAL && strncmp(err, "phases[5].rw:", 13) == 0, "%d %s", rc, err);
	free(c);
}

int main(void)
{
	struct test_ctx t = { 0 };

	test_integers(&t);
	test_strings(&t);
	test_events(&t);
	test_heartbeat(&t);
	test_encoders(&t);
	return test_report(&t, "codec");
}
