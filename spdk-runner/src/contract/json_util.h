/*
 * Internal helpers the message codecs share: strict field access on json-c objects with errors that
 * name the field's path ("phases[2].queueDepth: ..."), the schemas' string formats, and a builder
 * that emits members in the canonical (schema) order with one sticky error.
 */
#ifndef DRIVEQUAL_JSON_UTIL_H
#define DRIVEQUAL_JSON_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

/* A location in a document, built on the stack as decoding descends; formatted only on error. */
struct dq_jpath {
	const struct dq_jpath *parent;
	const char *key; /* member name, or NULL for the array element at index */
	size_t index;
};

#define DQ_JPATH_KEY(parent_path, member) \
	(&(const struct dq_jpath){ .parent = (parent_path), .key = (member) })
#define DQ_JPATH_INDEX(parent_path, i) \
	(&(const struct dq_jpath){ .parent = (parent_path), .index = (i) })

/*
 * Where a decoder reports why it failed. The first error sticks in rc: every helper does nothing
 * once rc is set, so a decoder runs its fields in order and checks rc once.
 */
struct dq_jctx {
	int rc;
	char *err;
	size_t err_len;
};

/* Unless an error is already recorded, write "path: message" into ctx. Returns ctx->rc. */
int dq_json_fail(struct dq_jctx *ctx, const struct dq_jpath *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Names of an enum's values: names[0] is NULL (the "absent" value 0), then the schema's order. */
struct dq_enum_names {
	const char *const *names;
	size_t count;
};

#define DQ_ENUM_NAMES(array)                                                  \
	{                                                                     \
		.names = (array), .count = sizeof(array) / sizeof((array)[0]) \
	}

const char *dq_enum_to_str(const struct dq_enum_names *names, int value);

/* Parse all of len bytes (trailing whitespace allowed) as one JSON object; put *root when done. */
int dq_json_parse_object(struct dq_jctx *ctx, const char *json, size_t len,
			 struct json_object **root);

/* additionalProperties: false. allowed is NULL-terminated; context ends the error ("in a ..."). */
int dq_json_check_keys(struct dq_jctx *ctx, const struct dq_jpath *path, struct json_object *obj,
		       const char *const *allowed, const char *context);

/* Member lookup: *val is NULL when an optional member is absent; a required one fails. */
int dq_json_member(struct dq_jctx *ctx, const struct dq_jpath *parent, struct json_object *obj,
		   const char *key, bool required, struct json_object **val);

/* How a value reads in an error: "a string", "a fraction", "null". */
const char *dq_json_type_desc(struct json_object *val);

/* schemaVersion: required, const 1. */
int dq_json_schema_version(struct dq_jctx *ctx, struct json_object *obj);

/*
 * An integer in min..max. As in JSON Schema 2020-12, a number with a zero fraction (1.0) is an
 * integer; 1.5, "12", true and values beyond int64 are not. present may be NULL for required ones.
 */
int dq_json_int(struct dq_jctx *ctx, const struct dq_jpath *parent, struct json_object *obj,
		const char *key, bool required, int64_t min, int64_t max, int64_t *out,
		bool *present);
/* The same rules for a value already in hand (an array item) at path. */
int dq_json_int_value(struct dq_jctx *ctx, const struct dq_jpath *path, struct json_object *val,
		      int64_t min, int64_t max, int64_t *out);
int dq_json_u64(struct dq_jctx *ctx, const struct dq_jpath *parent, struct json_object *obj,
		const char *key, bool required, int64_t min, int64_t max, uint64_t *out,
		bool *present);
int dq_json_u32(struct dq_jctx *ctx, const struct dq_jpath *parent, struct json_object *obj,
		const char *key, bool required, int64_t min, int64_t max, uint32_t *out,
		bool *present);

/* A finite number in (min, max] when min_exclusive, else [min, max]. */
int dq_json_number(struct dq_jctx *ctx, const struct dq_jpath *parent, struct json_object *obj,
		   const char *key, bool required, double min, bool min_exclusive, double max,
		   double *out, bool *present);

int dq_json_bool(struct dq_jctx *ctx, const struct dq_jpath *parent, struct json_object *obj,
		 const char *key, bool required, bool *out, bool *present);

/* The schemas' string formats. */
enum dq_str_format {
	DQ_STR_ANY, /* any string of min..max characters, no NUL */
	DQ_STR_ID, /* ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$ */
	DQ_STR_SERIAL, /* printable ASCII, no leading/trailing space, 1..64 */
	DQ_STR_PHASE_NAME, /* ^[a-z0-9][a-z0-9-]{0,63}$ */
	DQ_STR_TIMESTAMP, /* YYYY-MM-DDTHH:MM:SS.mmmZ */
	DQ_STR_EVENT_ID, /* id ":" 1..9 digits */
};

/* Copy a string member into buf (NUL-terminated); max_chars only for DQ_STR_ANY. */
int dq_json_str(struct dq_jctx *ctx, const struct dq_jpath *parent, struct json_object *obj,
		const char *key, bool required, enum dq_str_format format, size_t min_chars,
		size_t max_chars, char *buf, size_t buf_size, bool *present);

/*
 * A string that must be one of names. Returns its index, the enum value; 0 when an optional member
 * is absent or on error (then ctx->rc says which).
 */
int dq_json_enum(struct dq_jctx *ctx, const struct dq_jpath *parent, struct json_object *obj,
		 const char *key, bool required, const struct dq_enum_names *names);
/* The same for a value already in hand (an array item) at path. */
int dq_json_enum_value(struct dq_jctx *ctx, const struct dq_jpath *path, struct json_object *val,
		       const struct dq_enum_names *names);

/* A member that must be an object (*out NULL when optional and absent). */
int dq_json_object(struct dq_jctx *ctx, const struct dq_jpath *parent, struct json_object *obj,
		   const char *key, bool required, struct json_object **out);
/* The same for a value already in hand (an array item) at path. */
int dq_json_object_value(struct dq_jctx *ctx, const struct dq_jpath *path, struct json_object *val);

/* A member that must be an array of min_items..max_items (*out NULL when optional and absent). */
int dq_json_array(struct dq_jctx *ctx, const struct dq_jpath *parent, struct json_object *obj,
		  const char *key, bool required, size_t min_items, size_t max_items,
		  struct json_object **out, size_t *count);

/* Check a string against a format (no error text); true when it matches. */
bool dq_str_format_matches(enum dq_str_format format, const char *s, size_t len);

/*
 * Canonical encoding. Every call adds one member in order; the first failure sticks in rc (later
 * calls do nothing) and its reason goes to err.
 */
struct dq_jbuild {
	int rc;
	char *err;
	size_t err_len;
};

struct json_object *dq_jb_root(struct dq_jbuild *b);
struct json_object *dq_jb_object(struct dq_jbuild *b, struct json_object *parent, const char *key);
struct json_object *dq_jb_array(struct dq_jbuild *b, struct json_object *parent, const char *key);
struct json_object *dq_jb_append_object(struct dq_jbuild *b, struct json_object *array);
struct json_object *dq_jb_append_array(struct dq_jbuild *b, struct json_object *array);
void dq_jb_u64(struct dq_jbuild *b, struct json_object *obj, const char *key, uint64_t value);
void dq_jb_append_u64(struct dq_jbuild *b, struct json_object *array, uint64_t value);
void dq_jb_append_i64(struct dq_jbuild *b, struct json_object *array, int64_t value);
void dq_jb_bool(struct dq_jbuild *b, struct json_object *obj, const char *key, bool value);
/* A number: integral values as integers (100), others in the shortest form that reads back. */
void dq_jb_number(struct dq_jbuild *b, struct json_object *obj, const char *key, double value);
/* A string from a char array of buf_size bytes, which must hold its NUL. */
void dq_jb_str(struct dq_jbuild *b, struct json_object *obj, const char *key, const char *s,
	       size_t buf_size);
/* An enum value's name; a value without a name fails with -EINVAL. */
void dq_jb_enum(struct dq_jbuild *b, struct json_object *obj, const char *key,
		const struct dq_enum_names *names, int value);
void dq_jb_append_enum(struct dq_jbuild *b, struct json_object *array,
		       const struct dq_enum_names *names, int value);

/*
 * Serialize root compactly into a malloc'd *json of *len bytes and release root (always).
 * Returns b->rc when an earlier call failed, else 0 or -ENOMEM.
 */
int dq_jb_finish(struct dq_jbuild *b, struct json_object *root, char **json, size_t *len);

#endif /* DRIVEQUAL_JSON_UTIL_H */
