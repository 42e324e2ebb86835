/*
 * The runner's steady-state rule against the known answers the Java analysis is pinned by
 * (the vectors in
 * schemas/examples/steady-state): every vector's rounds in, every round's counted and
 * eligible state, the first eligible round, the round steady state is reached at, the windows and
 * the end window's failures out. One rule, two languages, the same vectors.
 */
#include <dirent.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job/steady_state.h"

#define MAX_ROUNDS 1000

static int g_failures;

static void fail(const char *name, const char *what)
{
	printf("FAIL %s: %s\n", name, what);
	g_failures++;
}

static struct json_object *member(struct json_object *obj, const char *key)
{
	struct json_object *value = NULL;

	return json_object_object_get_ex(obj, key, &value) ? value : NULL;
}

static bool is_null(struct json_object *value)
{
	return value == NULL || json_object_is_type(value, json_type_null);
}

static void expect_int(const char *name, const char *what, struct json_object *expected,
		       bool present, int64_t actual)
{
	char text[160];

	if (is_null(expected) ? present : (!present || json_object_get_int64(expected) != actual)) {
		snprintf(text, sizeof(text), "%s: expected %s, got %s%lld", what,
			 is_null(expected) ? "null" : json_object_get_string(expected),
			 present ? "" : "null ", present ? (long long)actual : 0LL);
		fail(name, text);
	}
}

static void expect_bool(const char *name, const char *what, struct json_object *expected,
			bool actual)
{
	char text[160];

	if (json_object_get_boolean(expected) != actual) {
		snprintf(text, sizeof(text), "%s: expected %s", what,
			 json_object_get_string(expected));
		fail(name, text);
	}
}

static void expect_double(const char *name, const char *what, struct json_object *expected,
			  double actual)
{
	double want = json_object_get_double(expected);
	char text[160];

	if (fabs(want - actual) > 1e-9 * fmax(1, fabs(want))) {
		snprintf(text, sizeof(text), "%s: expected %.17g, got %.17g", what, want, actual);
		fail(name, text);
	}
}

static void expect_window(const char *name, const char *what, struct json_object *expected,
			  bool present, const struct dq_ss_window *w)
{
	char label[96];

	if (is_null(expected) || !present) {
		if (is_null(expected) != !present) {
			snprintf(label, sizeof(label), "%s: present %s", what,
				 present ? "but expected null" : "expected, got none");
			fail(name, label);
		}
		return;
	}
#define WINDOW_FIELD(kind, key, value)                                    \
	do {                                                              \
		snprintf(label, sizeof(label), "%s.%s", what, key);       \
		expect_##kind(name, label, member(expected, key), value); \
	} while (0)
	WINDOW_FIELD(double, "avgIops", w->avg);
	WINDOW_FIELD(double, "minRoundIops", w->min);
	WINDOW_FIELD(double, "maxRoundIops", w->max);
	WINDOW_FIELD(double, "rangePercent", w->range_percent);
	WINDOW_FIELD(double, "slopeIopsPerRound", w->slope_per_round);
	WINDOW_FIELD(double, "slopeExcursionPercent", w->slope_excursion_percent);
	WINDOW_FIELD(bool, "rangeWithinBound", w->range_within_bound);
	WINDOW_FIELD(bool, "slopeWithinBound", w->slope_within_bound);
#undef WINDOW_FIELD
	expect_int(name, "window.firstRoundIndex", member(expected, "firstRoundIndex"), true,
		   w->first_round);
	expect_int(name, "window.lastRoundIndex", member(expected, "lastRoundIndex"), true,
		   w->last_round);
}

static unsigned failure_bit(const char *kind)
{
	static const struct {
		const char *kind;
		unsigned bit;
	} kinds[] = {
		{ "too-few-rounds", DQ_SS_FAIL_TOO_FEW_ROUNDS },
		{ "rounds-not-counted", DQ_SS_FAIL_ROUNDS_NOT_COUNTED },
		{ "rounds-not-eligible", DQ_SS_FAIL_ROUNDS_NOT_ELIGIBLE },
		{ "tested-range-unknown", DQ_SS_FAIL_TESTED_RANGE_UNKNOWN },
		{ "range-above-bound", DQ_SS_FAIL_RANGE_ABOVE_BOUND },
		{ "slope-above-bound", DQ_SS_FAIL_SLOPE_ABOVE_BOUND },
	};
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (strcmp(kinds[i].kind, kind) == 0) {
			return kinds[i].bit;
		}
	}
	return 1u << 31;
}

static void check_vector(const char *name, struct json_object *vector)
{
	static struct dq_ss_round rounds[MAX_ROUNDS];
	static struct dq_ss_round_verdict verdicts[MAX_ROUNDS];
	struct json_object *input = member(vector, "input"), *expected = member(vector, "expected");
	struct json_object *e = member(input, "eligibility"), *list = member(input, "rounds");
	struct json_object *end = member(expected, "end"), *failures, *round, *max;
	struct dq_ss_eligibility eligibility = { 0 };
	struct dq_ss_result r;
	unsigned expected_failures = 0;
	size_t i, n = json_object_array_length(list);
	char label[64];

	eligibility.applies = json_object_get_boolean(member(e, "applies"));
	eligibility.range_writes_required =
		json_object_get_double(member(e, "rangeWritesRequired"));
	eligibility.has_tested_range = !is_null(member(e, "testedRangeBytes"));
	eligibility.tested_range_bytes =
		(uint64_t)json_object_get_int64(member(e, "testedRangeBytes"));
	eligibility.random_write_bytes_before =
		(uint64_t)json_object_get_int64(member(e, "randomWriteBytesBefore"));
	for (i = 0; i < n && i < MAX_ROUNDS; i++) {
		round = json_object_array_get_idx(list, i);
		rounds[i].sum = (uint64_t)json_object_get_int64(member(round, "sumIops"));
		rounds[i].seconds_present = json_object_get_int(member(round, "secondsPresent"));
		rounds[i].random_write_bytes =
			(uint64_t)json_object_get_int64(member(round, "randomWriteBytes"));
	}
	max = member(input, "maxRounds");
	if (dq_steady_state_detect(rounds, n, json_object_get_int(member(input, "roundLengthS")),
				   is_null(max) ? 0 : json_object_get_int(max), &eligibility,
				   verdicts, &r) != 0) {
		fail(name, "rejected as impossible input");
		return;
	}
	expect_int(name, "firstEligibleRound", member(expected, "firstEligibleRound"),
		   r.has_first_eligible, r.first_eligible_round);
	expect_bool(name, "reached", member(expected, "reached"), r.reached);
	expect_int(name, "reachedAtRound", member(expected, "reachedAtRound"), r.reached,
		   r.reached_at_round);
	expect_int(name, "windowsEvaluated", member(expected, "windowsEvaluated"), true,
		   r.windows_evaluated);
	expect_window(name, "window", member(expected, "window"), r.has_window, &r.window);
	expect_int(name, "end.firstRound", member(end, "firstRound"), true, r.end_first_round);
	expect_int(name, "end.lastRound", member(end, "lastRound"), true, r.end_last_round);
	expect_bool(name, "end.holds", member(end, "holds"), r.end_holds);
	expect_window(name, "end.window", member(end, "window"), r.has_end_window, &r.end_window);
	failures = member(end, "failures");
	for (i = 0; i < json_object_array_length(failures); i++) {
		expected_failures |= failure_bit(json_object_get_string(
			member(json_object_array_get_idx(failures, i), "kind")));
	}
	if (expected_failures != r.end_failures) {
		fail(name, "end.failures differ");
	}
	expect_int(name, "steadyStateIops (as the end window's avg)",
		   member(expected, "steadyStateIops") != NULL &&
				   !is_null(member(expected, "steadyStateIops")) ?
			   json_object_new_int64(llround(
				   json_object_get_double(member(expected, "steadyStateIops")) *
				   1000)) :
			   NULL,
		   r.end_holds, llround(r.end_window.avg * 1000));
	list = member(expected, "rounds");
	for (i = 0; i < json_object_array_length(list) && i < n; i++) {
		round = json_object_array_get_idx(list, i);
		snprintf(label, sizeof(label), "rounds[%zu].counted", i);
		expect_bool(name, label, member(round, "counted"), verdicts[i].counted);
		snprintf(label, sizeof(label), "rounds[%zu].eligible", i);
		expect_bool(name, label, member(round, "eligible"), verdicts[i].eligible);
		if (member(round, "randomWriteBytesAtStart") != NULL) {
			snprintf(label, sizeof(label), "rounds[%zu].randomWriteBytesAtStart", i);
			expect_int(name, label, member(round, "randomWriteBytesAtStart"), true,
				   (int64_t)verdicts[i].random_write_bytes_at_start);
		}
		if (!is_null(member(round, "meanIops"))) {
			snprintf(label, sizeof(label), "rounds[%zu].meanIops", i);
			expect_double(name, label, member(round, "meanIops"),
				      dq_steady_state_round_mean(&rounds[i]));
		}
	}
}

int main(int argc, char **argv)
{
	struct dirent **entries;
	struct json_object *vector;
	char path[4096];
	int before, count, i, checked = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s SCHEMAS_DIR/examples/steady-state\n", argv[0]);
		return 2;
	}
	count = scandir(argv[1], &entries, NULL, alphasort);
	if (count < 0) {
		perror(argv[1]);
		return 2;
	}
	for (i = 0; i < count; i++) {
		if (strstr(entries[i]->d_name, ".json") != NULL) {
			snprintf(path, sizeof(path), "%s/%s", argv[1], entries[i]->d_name);
			vector = json_object_from_file(path);
			before = g_failures;
			if (vector == NULL) {
				fail(entries[i]->d_name, "not JSON");
			} else {
				check_vector(entries[i]->d_name, vector);
				json_object_put(vector);
			}
			printf("%s %s\n", g_failures == before ? "ok  " : "FAIL",
			       entries[i]->d_name);
			checked++;
		}
		free(entries[i]);
	}
	free(entries);
	printf("%d steady-state vectors, %d failures\n", checked, g_failures);
	/* A directory without vectors proves nothing. */
	return (g_failures == 0 && checked >= 10) ? 0 : 1;
}
