/*
 * The schemas' string rules by hand: id, serial, phaseName, eventId patterns, the RFC 3339
 * timestamp, and maxLength counted in characters as JSON Schema does (not bytes).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "contract/msg_common.h"
#include "json_util.h"

static bool is_id_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_' || c == '-';
}

static bool is_alnum_ascii(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

static bool id_matches(const char *s, size_t len)
{
	size_t i;

	if (len < 1 || len > 64 || !is_alnum_ascii(s[0])) {
		return false;
	}
	for (i = 1; i < len; i++) {
		if (!is_id_char(s[i])) {
			return false;
		}
	}
	return true;
}

static bool serial_matches(const char *s, size_t len)
{
	size_t i;

	if (len < 1 || len > 64 || s[0] == ' ' || s[len - 1] == ' ') {
		return false;
	}
	for (i = 0; i < len; i++) {
		if (s[i] < 0x20 || s[i] > 0x7e) {
			return false;
		}
	}
	return true;
}

static bool phase_name_matches(const char *s, size_t len)
{
	size_t i;

	if (len < 1 || len > 64) {
		return false;
	}
	for (i = 0; i < len; i++) {
		bool lower_digit = (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9');

		if (!lower_digit && (i == 0 || s[i] != '-')) {
			return false;
		}
	}
	return true;
}

static bool digits(const char *s, size_t n, int *value)
{
	size_t i;

	*value = 0;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9') {
			return false;
		}
		*value = *value * 10 + (s[i] - '0');
	}
	return true;
}

/* The pattern plus RFC 3339's ranges (the schemas also say format: date-time). */
static bool timestamp_matches(const char *s, size_t len)
{
	static const int days_in_month[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int year, month, day, hour, minute, second, ms, max_day;

	if (len != DQ_TIMESTAMP_LEN || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' ||
	    s[16] != ':' || s[19] != '.' || s[23] != 'Z') {
		return false;
	}
	if (!digits(s, 4, &year) || !digits(s + 5, 2, &month) || !digits(s + 8, 2, &day) ||
	    !digits(s + 11, 2, &hour) || !digits(s + 14, 2, &minute) ||
	    !digits(s + 17, 2, &second) || !digits(s + 20, 3, &ms)) {
		return false;
	}
	if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 60) {
		return false;
	}
	max_day = days_in_month[month - 1];
	if (month == 2 && ((year % 4 == 0 && year % 100 != 0) || year % 400 == 0)) {
		max_day = 29;
	}
	return day >= 1 && day <= max_day;
}

static bool event_id_matches(const char *s, size_t len)
{
	const char *colon = memchr(s, ':', len);
	size_t i, seq_len;

	if (colon == NULL || !id_matches(s, (size_t)(colon - s))) {
		return false;
	}
	seq_len = len - (size_t)(colon - s) - 1;
	if (seq_len < 1 || seq_len > 9) {
		return false;
	}
	for (i = 0; i < seq_len; i++) {
		if (colon[1 + i] < '0' || colon[1 + i] > '9') {
			return false;
		}
	}
	return true;
}

bool dq_str_format_matches(enum dq_str_format format, const char *s, size_t len)
{
	switch (format) {
	case DQ_STR_ANY:
		return true;
	case DQ_STR_ID:
		return id_matches(s, len);
	case DQ_STR_SERIAL:
		return serial_matches(s, len);
	case DQ_STR_PHASE_NAME:
		return phase_name_matches(s, len);
	case DQ_STR_TIMESTAMP:
		return timestamp_matches(s, len);
	case DQ_STR_EVENT_ID:
		return event_id_matches(s, len);
	}
	return false;
}

static const char *str_format_rule(enum dq_str_format format)
{
	switch (format) {
	case DQ_STR_ID:
		return "must be 1-64 of A-Z a-z 0-9 . _ - starting with a letter or digit";
	case DQ_STR_SERIAL:
		return "must be 1-64 printable ASCII characters without leading or trailing spaces";
	case DQ_STR_PHASE_NAME:
		return "must be 1-64 of a-z 0-9 - starting with a letter or digit";
	case DQ_STR_TIMESTAMP:
		return "must be an RFC 3339 UTC time like 2026-11-22T21:00:00.000Z";
	case DQ_STR_EVENT_ID:
		return "must be jobId:seq (an id, a colon, 1-9 digits)";
	case DQ_STR_ANY:
		break;
	}
	return "is not valid";
}

/* Characters as JSON Schema counts them (code points); the tokener has validated the UTF-8. */
static size_t utf8_chars(const char *s, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80) {
			n++;
		}
	}
	return n;
}

int dq_json_str(struct dq_jctx *ctx, const struct dq_jpath *parent, struct json_object *obj,
		const char *key, bool required, enum dq_str_format format, size_t min_chars,
		size_t max_chars, char *buf, size_t buf_size, bool *present)
{
	const struct dq_jpath *path = DQ_JPATH_KEY(parent, key);
	struct json_object *val;
	const char *s;
	size_t len, chars;
	int rc;

	if (present != NULL) {
		*present = false;
	}
	rc = dq_json_member(ctx, parent, obj, key, required, &val);
	if (rc != 0 || val == NULL) {
		return rc;
	}
	if (!json_object_is_type(val, json_type_string)) {
		return dq_json_fail(ctx, path, "must be a string (got %s)", dq_json_type_desc(val));
	}
	s = json_object_get_string(val);
	len = (size_t)json_object_get_string_len(val);
	if (strlen(s) != len) {
		return dq_json_fail(ctx, path, "must not contain NUL characters");
	}
	if (format != DQ_STR_ANY) {
		if (!dq_str_format_matches(format, s, len)) {
			return dq_json_fail(ctx, path, "%s (got \"%.80s\")",
					    str_format_rule(format), s);
		}
	} else {
		chars = utf8_chars(s, len);
		if (chars < min_chars || chars > max_chars) {
			return dq_json_fail(ctx, path,
					    "must be %zu to %zu characters long (got %zu)",
					    min_chars, max_chars, chars);
		}
	}
	if (len >= buf_size) {
		return dq_json_fail(ctx, path, "is too long (%zu bytes)", len);
	}
	memcpy(buf, s, len + 1);
	if (present != NULL) {
		*present = true;
	}
	return 0;
}
