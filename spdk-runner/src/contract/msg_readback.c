/*
 * Codecs of the read-back results a phase-completed event carries (common.schema.json's
 * verifyResult and purgeVerification): what a data verify and a purge's proof found, with their
 * bounded lists of first findings.
 */
#include <stdint.h>
#include <string.h>

#include "msg_internal.h"

static const char *const status_names_array[] = { NULL, "verified", "failed", "unverifiable" };
static const char *const coverage_names_array[] = { NULL, "all", "sample", "none" };

static const struct dq_enum_names status_names = DQ_ENUM_NAMES(status_names_array);
static const struct dq_enum_names coverage_names = DQ_ENUM_NAMES(coverage_names_array);

const char *dq_purge_verify_status_to_str(enum dq_purge_verify_status status)
{
	return dq_enum_to_str(&status_names, status);
}

const char *dq_readback_coverage_to_str(enum dq_readback_coverage coverage)
{
	return dq_enum_to_str(&coverage_names, coverage);
}

static const char *const verify_keys[] = { "blocksChecked", "unwrittenBlocks", "bytesRead",
					   "mismatches",    "firstMismatches", NULL };
static const char *const mismatch_keys[] = { "lba", "expected", "found", NULL };

static void mismatch_decode(struct dq_jctx *ctx, const struct dq_jpath *path,
			    struct json_object *obj, struct dq_verify_mismatch *m)
{
	if (dq_json_object_value(ctx, path, obj) != 0) {
		return;
	}
	dq_json_check_keys(ctx, path, obj, mismatch_keys, NULL);
	dq_json_u64(ctx, path, obj, "lba", true, 0, INT64_MAX, &m->lba, NULL);
	dq_json_str(ctx, path, obj, "expected", true, DQ_STR_ANY, 1, DQ_BLOCK_TEXT_MAX_CHARS,
		    m->expected, sizeof(m->expected), NULL);
	dq_json_str(ctx, path, obj, "found", true, DQ_STR_ANY, 1, DQ_BLOCK_TEXT_MAX_CHARS, m->found,
		    sizeof(m->found), NULL);
}

int dq_verify_result_decode(struct dq_jctx *ctx, const struct dq_jpath *path,
			    struct json_object *obj, struct dq_verify_result *v)
{
	const struct dq_jpath *list = DQ_JPATH_KEY(path, "firstMismatches");
	struct json_object *array;
	size_t i, n = 0;

	memset(v, 0, sizeof(*v));
	dq_json_check_keys(ctx, path, obj, verify_keys, NULL);
	dq_json_u64(ctx, path, obj, "blocksChecked", true, 0, INT64_MAX, &v->blocks_checked, NULL);
	dq_json_u64(ctx, path, obj, "unwrittenBlocks", true, 0, INT64_MAX, &v->unwritten_blocks,
		    NULL);
	dq_json_u64(ctx, path, obj, "bytesRead", true, 0, INT64_MAX, &v->bytes_read, NULL);
	dq_json_u64(ctx, path, obj, "mismatches", true, 0, INT64_MAX, &v->mismatches, NULL);
	dq_json_array(ctx, path, obj, "firstMismatches", true, 0, DQ_READBACK_REPORT_MAX, &array,
		      &n);
	for (i = 0; i < n && ctx->rc == 0; i++) {
		mismatch_decode(ctx, DQ_JPATH_INDEX(list, i), json_object_array_get_idx(array, i),
				&v->first_mismatches[i]);
	}
	v->reported = n;
	if (ctx->rc == 0 && n > v->mismatches) {
		dq_json_fail(ctx, list, "lists %zu mismatches, more than mismatches (%llu)", n,
			     (unsigned long long)v->mismatches);
	}
	return ctx->rc;
}

void dq_verify_result_encode(struct dq_jbuild *b, struct json_object *obj,
			     const struct dq_verify_result *v)
{
	struct json_object *array, *item;
	size_t i;

	dq_jb_u64(b, obj, "blocksChecked", v->blocks_checked);
	dq_jb_u64(b, obj, "unwrittenBlocks", v->unwritten_blocks);
	dq_jb_u64(b, obj, "bytesRead", v->bytes_read);
	dq_jb_u64(b, obj, "mismatches", v->mismatches);
	array = dq_jb_array(b, obj, "firstMismatches");
	for (i = 0; i < v->reported && i < DQ_READBACK_REPORT_MAX && b->rc == 0; i++) {
		item = dq_jb_append_object(b, array);
		dq_jb_u64(b, item, "lba", v->first_mismatches[i].lba);
		dq_jb_str(b, item, "expected", v->first_mismatches[i].expected,
			  sizeof(v->first_mismatches[i].expected));
		dq_jb_str(b, item, "found", v->first_mismatches[i].found,
			  sizeof(v->first_mismatches[i].found));
	}
}

static const char *const purge_keys[] = { "method",	  "status",	    "reason",	"coverage",
					  "canaryBlocks", "blocksRead",	    "lbasRead", "bytesRead",
					  "blocksFound",  "firstFoundLbas", NULL };

/* The schema's if-then rules: a reason exactly when unverifiable, finds exactly when failed. */
static void purge_rules_check(struct dq_jctx *ctx, const struct dq_jpath *path,
			      const struct dq_purge_verification *p)
{
	bool unverifiable = p->status == DQ_PURGE_VERIFY_UNVERIFIABLE;

	if (p->has_reason != unverifiable) {
		dq_json_fail(ctx, DQ_JPATH_KEY(path, "reason"), "%s",
			     unverifiable ? "is required when status is unverifiable" :
					    "must be absent unless status is unverifiable");
	} else if ((p->status == DQ_PURGE_VERIFY_FAILED) != (p->blocks_found > 0)) {
		dq_json_fail(ctx, DQ_JPATH_KEY(path, "blocksFound"), "%s",
			     p->status == DQ_PURGE_VERIFY_FAILED ?
				     "must be >= 1 when status is failed" :
				     "must be 0 unless status is failed");
	}
}

int dq_purge_verification_decode(struct dq_jctx *ctx, const struct dq_jpath *path,
				 struct json_object *obj, struct dq_purge_verification *p)
{
	const struct dq_jpath *list = DQ_JPATH_KEY(path, "firstFoundLbas");
	struct json_object *array;
	size_t i, n = 0;
	int64_t lba;

	memset(p, 0, sizeof(*p));
	dq_json_check_keys(ctx, path, obj, purge_keys, NULL);
	p->method = dq_json_enum(ctx, path, obj, "method", false, &g_dq_purge_method_names);
	if (p->method == DQ_PURGE_METHOD_AUTO) {
		dq_json_fail(ctx, DQ_JPATH_KEY(path, "method"), "%s",
			     "must name the erase that ran, not auto");
	}
	p->status = dq_json_enum(ctx, path, obj, "status", true, &status_names);
	dq_json_str(ctx, path, obj, "reason", false, DQ_STR_ANY, 1, DQ_REASON_MAX_CHARS, p->reason,
		    sizeof(p->reason), &p->has_reason);
	p->coverage = dq_json_enum(ctx, path, obj, "coverage", true, &coverage_names);
	dq_json_u64(ctx, path, obj, "canaryBlocks", true, 0, INT64_MAX, &p->canary_blocks, NULL);
	dq_json_u64(ctx, path, obj, "blocksRead", true, 0, INT64_MAX, &p->blocks_read, NULL);
	dq_json_u64(ctx, path, obj, "lbasRead", true, 0, INT64_MAX, &p->lbas_read, NULL);
	dq_json_u64(ctx, path, obj, "bytesRead", true, 0, INT64_MAX, &p->bytes_read, NULL);
	dq_json_u64(ctx, path, obj, "blocksFound", true, 0, INT64_MAX, &p->blocks_found, NULL);
	dq_json_array(ctx, path, obj, "firstFoundLbas", false, 0, DQ_READBACK_REPORT_MAX, &array,
		      &n);
	for (i = 0; i < n && ctx->rc == 0; i++) {
		dq_json_int_value(ctx, DQ_JPATH_INDEX(list, i), json_object_array_get_idx(array, i),
				  0, INT64_MAX, &lba);
		p->first_found_lbas[i] = (uint64_t)lba;
	}
	p->found_reported = n;
	if (ctx->rc == 0) {
		purge_rules_check(ctx, path, p);
	}
	return ctx->rc;
}

void dq_purge_verification_encode(struct dq_jbuild *b, struct json_object *obj,
				  const struct dq_purge_verification *p)
{
	struct json_object *array;
	size_t i;

	if (p->method != DQ_PURGE_METHOD_NONE) {
		dq_jb_enum(b, obj, "method", &g_dq_purge_method_names, p->method);
	}
	dq_jb_enum(b, obj, "status", &status_names, p->status);
	if (p->has_reason) {
		dq_jb_str(b, obj, "reason", p->reason, sizeof(p->reason));
	}
	dq_jb_enum(b, obj, "coverage", &coverage_names, p->coverage);
	dq_jb_u64(b, obj, "canaryBlocks", p->canary_blocks);
	dq_jb_u64(b, obj, "blocksRead", p->blocks_read);
	dq_jb_u64(b, obj, "lbasRead", p->lbas_read);
	dq_jb_u64(b, obj, "bytesRead", p->bytes_read);
	dq_jb_u64(b, obj, "blocksFound", p->blocks_found);
	if (p->found_reported > 0) {
		array = dq_jb_array(b, obj, "firstFoundLbas");
		for (i = 0; i < p->found_reported && i < DQ_READBACK_REPORT_MAX; i++) {
			dq_jb_append_u64(b, array, p->first_found_lbas[i]);
		}
	}
}
