/*
 * The capability inventory's names and codec (common.schema.json#/$defs/capabilities), and the
 * helpers the engines fill it with, so every engine says "missing" the same way.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "contract/capabilities.h"
#include "msg_internal.h"

static const char *const capability_names[] = {
	NULL,
	"format",
	"format-user-data",
	"format-crypto",
	"sanitize-block",
	"sanitize-crypto",
	"sanitize-overwrite",
	"deallocate",
	"smart",
	"ocp-smart-c0h",
	"temperature-thresholds",
	"volatile-write-cache",
	"fdp",
};
static const char *const missing_names[] = {
	NULL,
	"device-lacks-it",
	"runner-lacks-sys-admin",
	"engine-cannot",
	"runner-policy",
	"probe-failed",
};
const struct dq_enum_names g_dq_capability_names = DQ_ENUM_NAMES(capability_names);
const struct dq_enum_names g_dq_capability_missing_names = DQ_ENUM_NAMES(missing_names);

static const char *const capability_keys[] = { "name",	  "available", "missing",
					       "enabled", "detail",    NULL };

const char *dq_capability_to_str(enum dq_capability capability)
{
	return dq_enum_to_str(&g_dq_capability_names, capability);
}

const char *dq_capability_missing_to_str(enum dq_capability_missing missing)
{
	return dq_enum_to_str(&g_dq_capability_missing_names, missing);
}

/* Printable ASCII only, so a detail never breaks the contract's string rules. */
static void set_detail(struct dq_capability_state *state, const char *format, va_list args)
{
	size_t i;

	state->detail[0] = '\0';
	if (format == NULL) {
		return;
	}
	vsnprintf(state->detail, sizeof(state->detail), format, args);
	for (i = 0; state->detail[i] != '\0'; i++) {
		if (state->detail[i] < 0x20 || state->detail[i] > 0x7e) {
			state->detail[i] = '?';
		}
	}
}

void dq_capability_have(struct dq_capabilities *caps, enum dq_capability capability,
			const char *detail_format, ...)
{
	struct dq_capability_state *state = &caps->items[capability];
	bool has_enabled = state->has_enabled, enabled = state->enabled;
	va_list args;

	memset(state, 0, sizeof(*state));
	state->available = true;
	state->has_enabled = has_enabled;
	state->enabled = enabled;
	va_start(args, detail_format);
	set_detail(state, detail_format, args);
	va_end(args);
	caps->probed = true;
}

void dq_capability_lack(struct dq_capabilities *caps, enum dq_capability capability,
			enum dq_capability_missing why, const char *detail_format, ...)
{
	struct dq_capability_state *state = &caps->items[capability];
	va_list args;

	memset(state, 0, sizeof(*state));
	state->missing = why;
	va_start(args, detail_format);
	set_detail(state, detail_format, args);
	va_end(args);
	caps->probed = true;
}

void dq_capability_lack_range(struct dq_capabilities *caps, enum dq_capability first,
			      enum dq_capability last, enum dq_capability_missing why,
			      const char *detail)
{
	int capability;

	for (capability = first; capability <= (int)last; capability++) {
		dq_capability_lack(caps, (enum dq_capability)capability, why, "%s", detail);
	}
}

enum dq_capability dq_capability_of_purge(enum dq_purge_method method)
{
	switch (method) {
	case DQ_PURGE_METHOD_FORMAT_USER_DATA:
		return DQ_CAPABILITY_FORMAT_USER_DATA;
	case DQ_PURGE_METHOD_FORMAT_CRYPTO:
		return DQ_CAPABILITY_FORMAT_CRYPTO;
	case DQ_PURGE_METHOD_SANITIZE_BLOCK:
		return DQ_CAPABILITY_SANITIZE_BLOCK;
	case DQ_PURGE_METHOD_SANITIZE_CRYPTO:
		return DQ_CAPABILITY_SANITIZE_CRYPTO;
	case DQ_PURGE_METHOD_SANITIZE_OVERWRITE:
		return DQ_CAPABILITY_SANITIZE_OVERWRITE;
	case DQ_PURGE_METHOD_DEALLOCATE:
		return DQ_CAPABILITY_DEALLOCATE;
	default:
		return DQ_CAPABILITY_NONE;
	}
}

void dq_capability_explain(const struct dq_capabilities *caps, enum dq_capability capability,
			   char *out, size_t out_len)
{
	const struct dq_capability_state *state = &caps->items[capability];

	if (!caps->probed || capability <= DQ_CAPABILITY_NONE ||
	    capability >= DQ_CAPABILITY_COUNT) {
		snprintf(out, out_len, "%s: not probed",
			 capability > DQ_CAPABILITY_NONE && capability < DQ_CAPABILITY_COUNT ?
				 dq_capability_to_str(capability) :
				 "(none)");
		return;
	}
	snprintf(out, out_len, "%s: %s%s%s", dq_capability_to_str(capability),
		 state->available ? "available" : dq_capability_missing_to_str(state->missing),
		 state->detail[0] != '\0' ? " (" : "", state->detail);
	if (state->detail[0] != '\0' && strlen(out) + 1 < out_len) {
		strcat(out, ")");
	}
}

int dq_capabilities_decode(struct dq_jctx *ctx, const struct dq_jpath *path,
			   struct json_object *array, struct dq_capabilities *caps)
{
	struct json_object *item;
	size_t i, n = json_object_array_length(array);
	int name;

	memset(caps, 0, sizeof(*caps));
	caps->probed = true;
	for (i = 0; i < n && ctx->rc == 0; i++) {
		const struct dq_jpath *item_path = DQ_JPATH_INDEX(path, i);
		struct dq_capability_state state = { 0 };

		item = json_object_array_get_idx(array, i);
		if (dq_json_object_value(ctx, item_path, item) != 0) {
			break;
		}
		dq_json_check_keys(ctx, item_path, item, capability_keys, NULL);
		name = dq_json_enum(ctx, item_path, item, "name", true, &g_dq_capability_names);
		dq_json_bool(ctx, item_path, item, "available", true, &state.available, NULL);
		state.missing = dq_json_enum(ctx, item_path, item, "missing", false,
					     &g_dq_capability_missing_names);
		dq_json_bool(ctx, item_path, item, "enabled", false, &state.enabled,
			     &state.has_enabled);
		dq_json_str(ctx, item_path, item, "detail", false, DQ_STR_ANY, 1,
			    DQ_CAPABILITY_DETAIL_MAX_CHARS, state.detail, sizeof(state.detail),
			    NULL);
		if (ctx->rc != 0) {
			break;
		}
		if (state.available == (state.missing != DQ_CAPABILITY_MISSING_NONE)) {
			dq_json_fail(ctx, item_path,
				     state.available ?
					     "an available capability has no missing reason" :
					     "a missing capability needs its missing reason");
		} else if (caps->items[name].available ||
			   caps->items[name].missing != DQ_CAPABILITY_MISSING_NONE) {
			dq_json_fail(ctx, item_path, "capability %s is listed twice",
				     dq_capability_to_str(name));
		} else {
			caps->items[name] = state;
		}
	}
	return ctx->rc;
}

void dq_capabilities_encode(struct dq_jbuild *b, struct json_object *array,
			    const struct dq_capabilities *caps)
{
	const struct dq_capability_state *state;
	struct json_object *item;
	int name;

	for (name = DQ_CAPABILITY_NONE + 1; name < DQ_CAPABILITY_COUNT && b->rc == 0; name++) {
		state = &caps->items[name];
		if (!state->available && state->missing == DQ_CAPABILITY_MISSING_NONE) {
			continue; /* not probed */
		}
		item = dq_jb_append_object(b, array);
		dq_jb_enum(b, item, "name", &g_dq_capability_names, name);
		dq_jb_bool(b, item, "available", state->available);
		if (!state->available) {
			dq_jb_enum(b, item, "missing", &g_dq_capability_missing_names,
				   state->missing);
		}
		if (state->has_enabled) {
			dq_jb_bool(b, item, "enabled", state->enabled);
		}
		if (state->detail[0] != '\0') {
			dq_jb_str(b, item, "detail", state->detail, sizeof(state->detail));
		}
	}
}
