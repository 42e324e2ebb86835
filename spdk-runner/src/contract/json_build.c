/*
 * The canonical encoder's builder: members go in the order the codecs add them (the schemas' and
 * the example vectors' order), serialized compactly, so C output equals the shared vectors byte for
 * byte. One sticky error keeps the per-message encoders free of checks after every member.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_util.h"

#define DQ_JSON_FLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

static void jb_fail(struct dq_jbuild *b, int rc, const char *key, const char *what)
{
	if (b->rc != 0) {
		return;
	}
	b->rc = rc;
	if (b->err != NULL && b->err_len > 0) {
		snprintf(b->err, b->err_len, "%s: %s", key != NULL ? key : "$", what);
	}
}

/* Adds val under key (keys are string literals: json-c need not copy them); takes val. */
static struct json_object *jb_add(struct dq_jbuild *b, struct json_object *obj, const char *key,
				  struct json_object *val)
{
	if (b->rc != 0 || obj == NULL) {
		json_object_put(val);
		return NULL;
	}
	if (val == NULL || json_object_object_add_ex(obj, key, val,
						     JSON_C_OBJECT_ADD_KEY_IS_NEW |
							     JSON_C_OBJECT_ADD_CONSTANT_KEY) != 0) {
		json_object_put(val);
		jb_fail(b, -ENOMEM, key, "out of memory");
		return NULL;
	}
	return val;
}

static struct json_object *jb_append(struct dq_jbuild *b, struct json_object *array,
				     struct json_object *val)
{
	if (b->rc != 0 || array == NULL) {
		json_object_put(val);
		return NULL;
	}
	if (val == NULL || json_object_array_add(array, val) != 0) {
		json_object_put(val);
		jb_fail(b, -ENOMEM, NULL, "out of memory");
		return NULL;
	}
	return val;
}

struct json_object *dq_jb_root(struct dq_jbuild *b)
{
	struct json_object *root = json_object_new_object();

	if (root == NULL) {
		jb_fail(b, -ENOMEM, NULL, "out of memory");
	}
	return root;
}

struct json_object *dq_jb_object(struct dq_jbuild *b, struct json_object *parent, const char *key)
{
	return jb_add(b, parent, key, b->rc == 0 ? json_object_new_object() : NULL);
}

struct json_object *dq_jb_array(struct dq_jbuild *b, struct json_object *parent, const char *key)
{
	return jb_add(b, parent, key, b->rc == 0 ? json_object_new_array() : NULL);
}

struct json_object *dq_jb_append_object(struct dq_jbuild *b, struct json_object *array)
{
	return jb_append(b, array, b->rc == 0 ? json_object_new_object() : NULL);
}

struct json_object *dq_jb_append_array(struct dq_jbuild *b, struct json_object *array)
{
	return jb_append(b, array, b->rc == 0 ? json_object_new_array() : NULL);
}

/* Beyond INT64_MAX stays unsigned, so the validating decode names the field instead of a sign. */
static struct json_object *new_u64(uint64_t value)
{
	if (value > (uint64_t)INT64_MAX) {
		return json_object_new_uint64(value);
	}
	return json_object_new_int64((int64_t)value);
}

void dq_jb_u64(struct dq_jbuild *b, struct json_object *obj, const char *key, uint64_t value)
{
	jb_add(b, obj, key, b->rc == 0 ? new_u64(value) : NULL);
}

void dq_jb_append_u64(struct dq_jbuild *b, struct json_object *array, uint64_t value)
{
	jb_append(b, array, b->rc == 0 ? new_u64(value) : NULL);
}

void dq_jb_append_i64(struct dq_jbuild *b, struct json_object *array, int64_t value)
{
	jb_append(b, array, b->rc == 0 ? json_object_new_int64(value) : NULL);
}

void dq_jb_bool(struct dq_jbuild *b, struct json_object *obj, const char *key, bool value)
{
	jb_add(b, obj, key, b->rc == 0 ? json_object_new_boolean(value) : NULL);
}

void dq_jb_number(struct dq_jbuild *b, struct json_object *obj, const char *key, double value)
{
	char repr[32];
	int precision;

	if (b->rc != 0) {
		return;
	}
	if (!isfinite(value)) {
		jb_fail(b, -EINVAL, key, "must be a finite number");
		return;
	}
	if (floor(value) == value && fabs(value) < 9007199254740992.0) {
		jb_add(b, obj, key, json_object_new_int64((int64_t)value));
		return;
	}
	/* The shortest form that reads back as the same double, as Java and JavaScript print it. */
	for (precision = 1; precision <= 17; precision++) {
		snprintf(repr, sizeof(repr), "%.*g", precision, value);
		if (strtod(repr, NULL) == value) {
			break;
		}
	}
	jb_add(b, obj, key, json_object_new_double_s(value, repr));
}

static struct json_object *new_str(struct dq_jbuild *b, const char *key, const char *s,
				   size_t buf_size)
{
	size_t len;

	if (b->rc != 0) {
		return NULL;
	}
	if (s == NULL) {
		jb_fail(b, -EINVAL, key, "is NULL");
		return NULL;
	}
	len = strnlen(s, buf_size);
	if (len == buf_size) {
		jb_fail(b, -EINVAL, key, "is not NUL-terminated within its buffer");
		return NULL;
	}
	return json_object_new_string_len(s, (int)len);
}

void dq_jb_str(struct dq_jbuild *b, struct json_object *obj, const char *key, const char *s,
	       size_t buf_size)
{
	struct json_object *val = new_str(b, key, s, buf_size);

	if (b->rc == 0) {
		jb_add(b, obj, key, val);
	}
}

void dq_jb_enum(struct dq_jbuild *b, struct json_object *obj, const char *key,
		const struct dq_enum_names *names, int value)
{
	const char *name = dq_enum_to_str(names, value);

	if (b->rc != 0) {
		return;
	}
	if (name == NULL) {
		jb_fail(b, -EINVAL, key, "has no valid value");
		return;
	}
	jb_add(b, obj, key, json_object_new_string(name));
}

void dq_jb_append_enum(struct dq_jbuild *b, struct json_object *array,
		       const struct dq_enum_names *names, int value)
{
	const char *name = dq_enum_to_str(names, value);

	if (b->rc != 0) {
		return;
	}
	if (name == NULL) {
		jb_fail(b, -EINVAL, NULL, "array item has no valid value");
		return;
	}
	jb_append(b, array, json_object_new_string(name));
}

int dq_jb_finish(struct dq_jbuild *b, struct json_object *root, char **json, size_t *len)
{
	const char *text;
	size_t text_len = 0;
	int rc = b->rc;

	*json = NULL;
	*len = 0;
	if (rc != 0 || root == NULL) {
		rc = rc != 0 ? rc : -ENOMEM;
		goto cleanup;
	}
	text = json_object_to_json_string_length(root, DQ_JSON_FLAGS, &text_len);
	if (text == NULL) {
		rc = -ENOMEM;
		goto cleanup;
	}
	*json = malloc(text_len + 1);
	if (*json == NULL) {
		rc = -ENOMEM;
		goto cleanup;
	}
	memcpy(*json, text, text_len + 1);
	*len = text_len;
cleanup:
	json_object_put(root);
	return rc;
}
