/*
 * Checks that the runner's default topics (contract/topics.h) are exactly the topics
 * schemas/topics.json gives the runner, with the same keys and schemas, so neither side drifts.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "contract/topics.h"

static const char *member_string(struct json_object *obj, const char *key)
{
	struct json_object *val;

	if (!json_object_object_get_ex(obj, key, &val) ||
	    !json_object_is_type(val, json_type_string)) {
		return NULL;
	}
	return json_object_get_string(val);
}

static bool same(const char *a, const char *b)
{
	return a != NULL && b != NULL && strcmp(a, b) == 0;
}

/* The runner's role on a topic in topics.json, or NULL when the runner does not use it. */
static const char *runner_role(struct json_object *topic)
{
	if (same(member_string(topic, "producer"), "runner")) {
		return "producer";
	}
	if (same(member_string(topic, "consumer"), "runner")) {
		return "consumer";
	}
	return NULL;
}

int main(int argc, char **argv)
{
	const struct dq_topic_default *defaults;
	struct json_object *root, *topics, *topic;
	size_t i, j, count, n, used = 0, failures = 0;
	const char *name, *role;

	if (argc != 2) {
		fprintf(stderr, "usage: %s TOPICS_JSON\n", argv[0]);
		return 2;
	}
	root = json_object_from_file(argv[1]);
	if (root == NULL || !json_object_object_get_ex(root, "topics", &topics) ||
	    !json_object_is_type(topics, json_type_array)) {
		printf("FAIL %s: cannot read a topics array: %s\n", argv[1],
		       json_util_get_last_err());
		json_object_put(root);
		return 1;
	}
	defaults = dq_topic_defaults_get(&count);
	n = json_object_array_length(topics);
	for (i = 0; i < n; i++) {
		topic = json_object_array_get_idx(topics, i);
		name = member_string(topic, "name");
		role = runner_role(topic);
		if (role == NULL) {
			printf("ok   %s: not the runner's\n", name != NULL ? name : "(unnamed)");
			continue;
		}
		used++;
		for (j = 0; j < count && !same(defaults[j].name, name); j++) {
		}
		if (j == count) {
			printf("FAIL %s: the runner %s it, but has no default of that name\n", name,
			       role);
			failures++;
			continue;
		}
		if (!same(defaults[j].key, member_string(topic, "key")) ||
		    !same(defaults[j].schema, member_string(topic, "schema")) ||
		    !same(defaults[j].role, role)) {
			printf("FAIL %s: runner has key %s, schema %s, role %s; topics.json says "
			       "%s, %s, %s\n",
			       name, defaults[j].key, defaults[j].schema, defaults[j].role,
			       member_string(topic, "key"), member_string(topic, "schema"), role);
			failures++;
			continue;
		}
		printf("ok   %s: runner %s, key %s, %s\n", name, role, defaults[j].key,
		       defaults[j].schema);
	}
	if (used != count) {
		printf("FAIL the runner has %zu default topics, topics.json gives it %zu\n", count,
		       used);
		failures++;
	}
	json_object_put(root);
	printf("topics: %zu failure(s)\n", failures);
	return failures == 0 ? 0 : 1;
}
