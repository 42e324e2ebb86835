/*
 * What the job tests' sinks share: every message a job emits is encoded the way the agent would
 * send it, so a job that produced a message the contract refuses fails the test that ran it.
 */
#ifndef DRIVEQUAL_TEST_ENCODE_H
#define DRIVEQUAL_TEST_ENCODE_H

#include <stdlib.h>

#include "contract/msg_job_event.h"
#include "contract/msg_sample.h"
#include "test_util.h"

/* The event's canonical JSON (free() it), or NULL after a failed check. */
static inline char *test_encode_event(struct test_ctx *t, const struct dq_job_event *event)
{
	char err[256], *json = NULL;
	size_t len;

	CHECK(t, dq_job_event_encode(event, &json, &len, err, sizeof(err)) == 0,
	      "event %s does not encode: %s", dq_job_event_type_to_str(event->type), err);
	return json;
}

/* Checks that the sample encodes. */
static inline void test_encode_sample(struct test_ctx *t, const struct dq_sample *sample)
{
	char err[256], *json = NULL;
	size_t len;

	CHECK(t, dq_sample_encode(sample, &json, &len, err, sizeof(err)) == 0,
	      "sample t=%u does not encode: %s", sample->t, err);
	free(json);
}

#endif /* DRIVEQUAL_TEST_ENCODE_H */
