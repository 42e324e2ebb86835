/*
 * Strict, schema-shaped access to json-c values for the message codecs, and the canonical builder.
 * json-c parses 1.5 as a double, "12" as a string and 2^63 as an unsigned integer; these helpers
 * are where each of those meets the schemas' integer, string and range rules.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json_object_iterator.h>

#include "contract/msg_common.h"
#include "json_util.h"

static size_t jpath_format(const struct dq_jpath *path, char *buf, size_t size)
{
	size_t used = 0;
	int n;

	if (path == NULL) {
		return 0;
	}
	used = jpath_format(path->parent, buf, size);
	if (path->key != NULL) {
		n = snprintf(buf + used, size - used, "%s%s", used > 0 ? "." : "", path->key);
	} else {
		n = snprintf(buf + used, size - used, "[%zu]", path->index);
	}
	if (n > 0) {
		used += (size_t)n;
	}
	return used < size ? used : size - 1;
}

int dq_json_fail(struct dq_jctx *ctx, const struct dq_jpath *path, const char *fmt, ...)
{
	char where[256];
	char what[512];
	va_list ap;

	if (ctx->rc != 0) {
		return ctx->rc;
	}
	ctx->rc = -EINVAL;
	if (ctx->err == NULL || ctx->err_len == 0) {
		return ctx->rc;
	}
	where[0] = '\0';
	jpath_format(path, where, sizeof(where));
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(ctx->err, ctx->err_len, "%s: %s", where[0] != '\0' ? where : "$", what);
	return ctx->rc;
}

const char *dq_enum_to_str(const struct dq_enum_names *names, int value)
{
	if (value <= 0 || (size_t)value >= names->count) {
		return NULL;
	}
	return names->names[value];
}

static bool is_json_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int dq_json_parse_object(struct dq_jctx *ctx, const char *json, size_t len,
			 struct json_object **root)
{
	struct json_tokener *tok;
	struct json_object *obj;
	enum json_tokener_error jerr;
	size_t end;
	int rc = 0;

	*root = NULL;
	if (ctx->rc != 0) {
		return ctx->rc;
	}
	while (len > 0 && is_json_space(json[len - 1])) {
		len--;
	}
	if (len == 0) {
		return dq_json_fail(ctx, NULL, "empty input");
	}
	if (len > INT32_MAX) {
		return dq_json_fail(ctx, NULL, "input too large");
	}
	tok = json_tokener_new();
	if (tok == NULL) {
		ctx->rc = -ENOMEM;
		return ctx->rc;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	obj = json_tokener_parse_ex(tok, json, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	if (jerr == json_tokener_continue) {
		rc = dq_json_fail(ctx, NULL, "invalid JSON: truncated after %zu bytes", len);
		goto cleanup;
	}
	if (jerr != json_tokener_success) {
		rc = dq_json_fail(ctx, NULL, "invalid JSON at byte %zu: %s", end,
				  json_tokener_error_desc(jerr));
		goto cleanup;
	}
	if (end != len) {
		rc = dq_json_fail(ctx, NULL, "invalid JSON: trailing data at byte %zu", end);
		goto cleanup;
	}
	if (!json_object_is_type(obj, json_type_object)) {
		rc = dq_json_fail(ctx, NULL, "must be a JSON object");
		goto cleanup;
	}
	*root = obj;
	obj = NULL;
cleanup:
	json_object_put(obj);
	json_tokener_free(tok);
	return rc;
}

int dq_json_check_keys(struct dq_jctx *ctx, const struct dq_jpath *path, struct json_object *obj,
		       const char *const *allowed, const char *context)
{
	struct json_object_iterator it, end;
	const char *const *name;
	const char *key;

	if (ctx->rc != 0) {
		return ctx->rc;
	}
	it = json_object_iter_begin(obj);
	end = json_object_iter_end(obj);
	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		key = json_object_iter_peek_name(&it);
		for (name = allowed; *name != NULL; name++) {
			if (strcmp(*name, key) == 0) {
				break;
			}
		}
		if (*name == NULL) {
			if (context != NULL) {
				return dq_json_fail(ctx, DQ_JPATH_KEY(path, key), "not allowed %s",
						    context);
			}
			return dq_json_fail(ctx, DQ_JPATH_KEY(path, key), "unknown field");
		}
	}
	return 0;
}

int dq_json_member(struct dq_jctx *ctx, const struct dq_jpath *parent, struct json_object *obj,
		   const char *key, bool required, struct json_object **val)
{
	*val = NULL;
	if (ctx->rc != 0) {
		return ctx->rc;
	}
	if (!json_object_object_get_ex(obj, key, val)) {
		*val = NULL;
		if (required) {
			return dq_json_fail(ctx, DQ_JPATH_KEY(parent, key), "is required");
		}
		return 0;
	}
	/* json-c represents null as a NULL value; no member of any message may be null. */
	if (*val == NULL) {
		return dq_json_fail(ctx, DQ_JPATH_KEY(parent, key), "must not be null");
	}
	return 0;
}

const char *dq_json_type_desc(struct json_object *val)
{
	switch (json_object_get_type(val)) {
	case json_type_null:
		return "null";
	case json_type_boolean:
		return "a boolean";
	case json_type_double:
		return "a number";
	case json_type_int:
		return "an integer";
	case json_type_object:
		return "an object";
	case json_type_array:
		return "an array";
	case json_type_string:
		return "a string";
	}
	return "?";
}

static int int_fail(struct dq_jctx *ctx, const struct dq_jpath *path, int64_t min, int64_t max,
		    const char *got)
{
	if (min == 0 && max == INT64_MAX) {
		return dq_json_fail(ctx, path, "must be a non-negative integer (got %s)", got);
	}
	if (max == INT64_MAX) {
		return dq_json_fail(ctx, path, "must be an integer >= %" PRId64 " (got %s)", min,
				    got);
	}
	return dq_json_fail(ctx, path, "must be an integer in %" PRId64 "..%" PRId64 " (got %s)",
			    min, max, got);
}

/* Reads an int64 from an integer, or from a double with a zero fraction; false if neither. */
static bool json_to_int64(struct json_object *val, int64_t *out, bool *out_of_range)
{
	double d;

	*out_of_range = false;
	if (json_object_is_type(val, json_type_int)) {
		*out = json_object_get_int64(val);
		/* json-c clamps values above INT64_MAX, keeping them as uint64. */
		if (*out == INT64_MAX && json_object_get_uint64(val) > (uint64_t)INT64_MAX) {
			*out_of_range = true;
		}
		return true;
	}
	if (json_object_is_type(val, json_type_double)) {
		d = json_object_get_double(val);
		if (!isfinite(d) || floor(d) != d) {
			return false;
		}
		if (d < -9223372036854775808.0 || d >= 9223372036854775808.0) {
			*out_of_range = true;
			*out = d < 0 ? INT64_MIN : INT64_MAX;
		} else {
			*out = (int64_t)d;
		}
		return true;
	}
	return false;
}

int dq_json_int_value(struct dq_jctx *ctx, const struct dq_jpath *path, struct json_object *val,
		      int64_t min, int64_t max, int64_t *out)
{
	bool out_of_range;
	char got[32];
	int64_t v;

	if (ctx->rc != 0) {
		return ctx->rc;
	}
	if (!json_to_int64(val, &v, &out_of_range)) {
		return int_fail(ctx, path, min, max,
				json_object_is_type(val, json_type_double) ?
					json_object_get_string(val) :
					dq_json_type_desc(val));
	}
	if (out_of_range) {
		return int_fail(ctx, path, min, max, json_object_get_string(val));
	}
	if (v < min || v > max) {
		snprintf(got, sizeof(got), "%" PRId64, v);
		return int_fail(ctx, path, min, max, got);
	}
	*out = v;
	return 0;
}

int dq_json_int(struct dq_jctx *ctx, const struct dq_jpath *parent, struct json_object *obj,
		const char *key, bool required, int64_t min, int64_t max, int64_t *out,
		bool *present)
{
	struct json_object *val;
	int rc;

	if (present != NULL) {
		*present = false;
	}
	rc = dq_json_member(ctx, parent, obj, key, required, &val);
	if (rc != 0 || val == NULL) {
		return rc;
	}
	rc = dq_json_int_value(ctx, DQ_JPATH_KEY(parent, key), val, min, max, out);
	if (rc == 0 && present != NULL) {
		*present = true;
	}
	return rc;
}

int dq_json_u64(struct dq_jctx *ctx, const struct dq_jpath *parent, struct json_object *obj,
		const char *key, bool required, int64_t min, int64_t max, uint64_t *out,
		bool *present)
{
	int64_t v = 0;
	int rc;

	rc = dq_json_int(ctx, parent, obj, key, required, min < 0 ? 0 : min, max, &v, present);
	if (rc == 0) {
		*out = (uint64_t)v;
	}
	return rc;
}

int dq_json_u32(struct dq_jctx *ctx, const struct dq_jpath *parent, struct json_object *obj,
		const char *key, bool required, int64_t min, int64_t max, uint32_t *out,
		bool *present)
{
	int64_t v = 0;
	int rc;

	rc = dq_json_int(ctx, parent, obj, key, required, min < 0 ? 0 : min,
			 max > UINT32_MAX ? UINT32_MAX : max, &v, present);
	if (rc == 0) {
		*out = (uint32_t)v;
	}
	return rc;
}

int dq_json_number(struct dq_jctx *ctx, const struct dq_jpath *parent, struct json_object *obj,
		   const char *key, bool required, double min, bool min_exclusive, double max,
		   double *out, bool *present)
{
	const struct dq_jpath *path = DQ_JPATH_KEY(parent, key);
	struct json_object *val;
	double d;
	int rc;

	if (present != NULL) {
		*present = false;
	}
	rc = dq_json_member(ctx, parent, obj, key, required, &val);
	if (rc != 0 || val == NULL) {
		return rc;
	}
	if (!json_object_is_type(val, json_type_int) &&
	    !json_object_is_type(val, json_type_double)) {
		return dq_json_fail(ctx, path, "must be a number (got %s)", dq_json_type_desc(val));
	}
	d = json_object_get_double(val);
	if (!isfinite(d) || (min_exclusive ? d <= min : d < min) || d > max) {
		return dq_json_fail(ctx, path, "must be a number %s %g and <= %g (got %s)",
				    min_exclusive ? ">" : ">=", min, max,
				    json_object_get_string(val));
	}
	*out = d;
	if (present != NULL) {
		*present = true;
	}
	return 0;
}

int dq_json_bool(struct dq_jctx *ctx, const struct dq_jpath *parent, struct json_object *obj,
		 const char *key, bool required, bool *out, bool *present)
{
	struct json_object *val;
	int rc;

	if (present != NULL) {
		*present = false;
	}
	rc = dq_json_member(ctx, parent, obj, key, required, &val);
	if (rc != 0 || val == NULL) {
		return rc;
	}
	if (!json_object_is_type(val, json_type_boolean)) {
		return dq_json_fail(ctx, DQ_JPATH_KEY(parent, key),
				    "must be true or false (got %s)", dq_json_type_desc(val));
	}
	*out = json_object_get_boolean(val);
	if (present != NULL) {
		*present = true;
	}
	return 0;
}

int dq_json_enum_value(struct dq_jctx *ctx, const struct dq_jpath *path, struct json_object *val,
		       const struct dq_enum_names *names)
{
	char allowed[512];
	size_t i, used = 0;
	const char *s;

	if (ctx->rc != 0) {
		return 0;
	}
	if (json_object_is_type(val, json_type_string)) {
		s = json_object_get_string(val);
		for (i = 1; i < names->count; i++) {
			if (strcmp(s, names->names[i]) == 0 &&
			    strlen(s) == (size_t)json_object_get_string_len(val)) {
				return (int)i;
			}
		}
	}
	allowed[0] = '\0';
	for (i = 1; i < names->count && used < sizeof(allowed); i++) {
		int n = snprintf(allowed + used, sizeof(allowed) - used, "%s%s", i > 1 ? ", " : "",
				 names->names[i]);

		used += n > 0 ? (size_t)n : 0;
	}
	if (json_object_is_type(val, json_type_string)) {
		dq_json_fail(ctx, path, "must be one of %s (got \"%.80s\")", allowed,
			     json_object_get_string(val));
	} else {
		dq_json_fail(ctx, path, "must be one of %s (got %s)", allowed,
			     dq_json_type_desc(val));
	}
	return 0;
}

int dq_json_enum(struct dq_jctx *ctx, const struct dq_jpath *parent, struct json_object *obj,
		 const char *key, bool required, const struct dq_enum_names *names)
{
	struct json_object *val;

	if (dq_json_member(ctx, parent, obj, key, required, &val) != 0 || val == NULL) {
		return 0;
	}
	return dq_json_enum_value(ctx, DQ_JPATH_KEY(parent, key), val, names);
}

int dq_json_object(struct dq_jctx *ctx, const struct dq_jpath *parent, struct json_object *obj,
		   const char *key, bool required, struct json_object **out)
{
	int rc;

	rc = dq_json_member(ctx, parent, obj, key, required, out);
	if (rc != 0 || *out == NULL) {
		return rc;
	}
	return dq_json_object_value(ctx, DQ_JPATH_KEY(parent, key), *out);
}

int dq_json_object_value(struct dq_jctx *ctx, const struct dq_jpath *path, struct json_object *val)
{
	if (ctx->rc == 0 && !json_object_is_type(val, json_type_object)) {
		return dq_json_fail(ctx, path, "must be an object (got %s)",
				    dq_json_type_desc(val));
	}
	return ctx->rc;
}

int dq_json_array(struct dq_jctx *ctx, const struct dq_jpath *parent, struct json_object *obj,
		  const char *key, bool required, size_t min_items, size_t max_items,
		  struct json_object **out, size_t *count)
{
	const struct dq_jpath *path = DQ_JPATH_KEY(parent, key);
	int rc;

	*count = 0;
	rc = dq_json_member(ctx, parent, obj, key, required, out);
	if (rc != 0 || *out == NULL) {
		return rc;
	}
	if (!json_object_is_type(*out, json_type_array)) {
		return dq_json_fail(ctx, path, "must be an array (got %s)",
				    dq_json_type_desc(*out));
	}
	*count = json_object_array_length(*out);
	if (*count < min_items || *count > max_items) {
		return dq_json_fail(ctx, path, "must have %zu to %zu items (got %zu)", min_items,
				    max_items, *count);
	}
	return 0;
}

int dq_json_schema_version(struct dq_jctx *ctx, struct json_object *obj)
{
	struct json_object *val;
	bool out_of_range;
	int64_t version;
	int rc;

	rc = dq_json_member(ctx, NULL, obj, "schemaVersion", true, &val);
	if (rc != 0) {
		return rc;
	}
	if (!json_to_int64(val, &version, &out_of_range) || out_of_range ||
	    version != DQ_SCHEMA_VERSION) {
		return dq_json_fail(ctx, DQ_JPATH_KEY(NULL, "schemaVersion"),
				    "must be %d, the version this runner knows (got %s)",
				    DQ_SCHEMA_VERSION,
				    json_object_is_type(val, json_type_string) ?
					    "a string" :
					    json_object_get_string(val));
	}
	return 0;
}
