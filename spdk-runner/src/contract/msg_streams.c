/*
 * Codecs of multi-stream workloads (common.schema.json's streamSpec and streamTotals): what each
 * concurrent stream of a phase asks of the runner, and what phase-completed reports per stream.
 * The rules across members (one block size form, readPercent for mixes, think time with a count)
 * are phase_rules.c's, so a stream from the command line meets the same ones.
 */
#include <stdint.h>
#include <string.h>

#include "contract/phase_rules.h"
#include "msg_internal.h"

static const char *const stream_keys[] = { "name",
					   "rw",
					   "readPercent",
					   "trimPercent",
					   "randomPercent",
					   "blockSizeBytes",
					   "blockSizeSplit",
					   "queueDepth",
					   "offsetBytes",
					   "offsetPercent",
					   "rangeBytes",
					   "rangePercent",
					   "rateIops",
					   "rateBytesPerS",
					   "arrivals",
					   "thinkTimeUs",
					   "thinkTimeBlocks",
					   "startDelayMs",
					   "placementHandle",
					   NULL };
static const char *const split_keys[] = { "blockSizeBytes", "percent", NULL };
static const char *const totals_keys[] = { "index", "name",  "offeredIos", "maxBacklog",
					   "read",  "write", "trim",	   NULL };
static const char *const direction_names[] = { "read", "write", "trim" };

static void split_decode(struct dq_jctx *ctx, const struct dq_jpath *path, struct json_object *arr,
			 struct dq_stream_spec *s)
{
	size_t i, n = (size_t)json_object_array_length(arr);

	for (i = 0; i < n && ctx->rc == 0; i++) {
		const struct dq_jpath *item = DQ_JPATH_INDEX(path, i);
		struct json_object *obj = json_object_array_get_idx(arr, i);

		if (dq_json_object_value(ctx, item, obj) != 0) {
			return;
		}
		dq_json_check_keys(ctx, item, obj, split_keys, NULL);
		dq_json_u32(ctx, item, obj, "blockSizeBytes", true, DQ_BLOCK_SIZE_MIN_BYTES,
			    DQ_STREAM_BLOCK_SIZE_MAX_BYTES, &s->split[i].block_size_bytes, NULL);
		dq_json_u32(ctx, item, obj, "percent", true, 1, 100, &s->split[i].percent, NULL);
	}
	s->split_count = n;
}

static void stream_decode(struct dq_jctx *ctx, const struct dq_jpath *path, struct json_object *obj,
			  struct dq_stream_spec *s)
{
	struct json_object *split = NULL;
	size_t n = 0;
	bool has_block_size = false;

	if (dq_json_object_value(ctx, path, obj) != 0) {
		return;
	}
	dq_json_check_keys(ctx, path, obj, stream_keys, NULL);
	dq_json_str(ctx, path, obj, "name", false, DQ_STR_ID, 0, 0, s->name, sizeof(s->name), NULL);
	if (ctx->rc == 0 && strlen(s->name) > DQ_STREAM_NAME_MAX_LEN) {
		dq_json_fail(ctx, DQ_JPATH_KEY(path, "name"), "is longer than %d characters",
			     DQ_STREAM_NAME_MAX_LEN);
	}
	s->rw = dq_json_enum(ctx, path, obj, "rw", true, &g_dq_stream_rw_names);
	dq_json_u32(ctx, path, obj, "readPercent", false, 0, 100, &s->read_percent,
		    &s->has_read_percent);
	dq_json_u32(ctx, path, obj, "trimPercent", false, 0, 100, &s->trim_percent,
		    &s->has_trim_percent);
	dq_json_u32(ctx, path, obj, "randomPercent", false, 0, 100, &s->random_percent,
		    &s->has_random_percent);
	dq_json_u32(ctx, path, obj, "blockSizeBytes", false, DQ_BLOCK_SIZE_MIN_BYTES,
		    DQ_STREAM_BLOCK_SIZE_MAX_BYTES, &s->block_size_bytes, &has_block_size);
	dq_json_array(ctx, path, obj, "blockSizeSplit", false, 1, DQ_BLOCK_SPLIT_MAX, &split, &n);
	if (ctx->rc == 0 && split != NULL) {
		split_decode(ctx, DQ_JPATH_KEY(path, "blockSizeSplit"), split, s);
	}
	dq_json_u32(ctx, path, obj, "queueDepth", true, DQ_QUEUE_DEPTH_MIN, DQ_QUEUE_DEPTH_MAX,
		    &s->queue_depth, NULL);
	dq_json_u64(ctx, path, obj, "offsetBytes", false, 0, INT64_MAX, &s->offset_bytes,
		    &s->has_offset_bytes);
	dq_json_number(ctx, path, obj, "offsetPercent", false, 0, false, 100, &s->offset_percent,
		       &s->has_offset_percent);
	dq_json_u64(ctx, path, obj, "rangeBytes", false, DQ_BLOCK_SIZE_MIN_BYTES, INT64_MAX,
		    &s->range_bytes, &s->has_range_bytes);
	dq_json_number(ctx, path, obj, "rangePercent", false, 0, true, 100, &s->range_percent,
		       &s->has_range_percent);
	dq_json_u64(ctx, path, obj, "rateIops", false, 1, DQ_STREAM_RATE_IOPS_MAX, &s->rate_iops,
		    &s->has_rate_iops);
	dq_json_u64(ctx, path, obj, "rateBytesPerS", false, 1, DQ_STREAM_RATE_BYTES_MAX,
		    &s->rate_bytes_per_s, &s->has_rate_bytes_per_s);
	s->arrivals = dq_json_enum(ctx, path, obj, "arrivals", false, &g_dq_arrivals_names);
	dq_json_u32(ctx, path, obj, "thinkTimeUs", false, 1, DQ_STREAM_THINK_TIME_US_MAX,
		    &s->think_time_us, &s->has_think_time_us);
	dq_json_u32(ctx, path, obj, "thinkTimeBlocks", false, 1, DQ_STREAM_THINK_TIME_BLOCKS_MAX,
		    &s->think_time_blocks, &s->has_think_time_blocks);
	dq_json_u32(ctx, path, obj, "startDelayMs", false, 0, DQ_STREAM_START_DELAY_MS_MAX,
		    &s->start_delay_ms, &s->has_start_delay_ms);
	dq_json_u32(ctx, path, obj, "placementHandle", false, 0, DQ_STREAM_PLACEMENT_HANDLE_MAX,
		    &s->placement_handle, &s->has_placement_handle);
	(void)has_block_size;
}

int dq_streams_decode(struct dq_jctx *ctx, const struct dq_jpath *path, struct json_object *array,
		      struct dq_phase_spec *p)
{
	size_t i, n = (size_t)json_object_array_length(array);

	for (i = 0; i < n && ctx->rc == 0; i++) {
		stream_decode(ctx, DQ_JPATH_INDEX(path, i), json_object_array_get_idx(array, i),
			      &p->streams[i]);
	}
	p->stream_count = n;
	return ctx->rc;
}

void dq_streams_encode(struct dq_jbuild *b, struct json_object *array,
		       const struct dq_phase_spec *p)
{
	size_t i, j;

	for (i = 0; i < p->stream_count; i++) {
		const struct dq_stream_spec *s = &p->streams[i];
		struct json_object *obj = dq_jb_append_object(b, array), *split, *item;

		if (s->name[0] != '\0') {
			dq_jb_str(b, obj, "name", s->name, sizeof(s->name));
		}
		dq_jb_enum(b, obj, "rw", &g_dq_stream_rw_names, s->rw);
		if (s->has_read_percent) {
			dq_jb_u64(b, obj, "readPercent", s->read_percent);
		}
		if (s->has_trim_percent) {
			dq_jb_u64(b, obj, "trimPercent", s->trim_percent);
		}
		if (s->has_random_percent) {
			dq_jb_u64(b, obj, "randomPercent", s->random_percent);
		}
		if (s->split_count == 0) {
			dq_jb_u64(b, obj, "blockSizeBytes", s->block_size_bytes);
		} else {
			split = dq_jb_array(b, obj, "blockSizeSplit");
			for (j = 0; j < s->split_count; j++) {
				item = dq_jb_append_object(b, split);
				dq_jb_u64(b, item, "blockSizeBytes", s->split[j].block_size_bytes);
				dq_jb_u64(b, item, "percent", s->split[j].percent);
			}
		}
		dq_jb_u64(b, obj, "queueDepth", s->queue_depth);
		if (s->has_offset_bytes) {
			dq_jb_u64(b, obj, "offsetBytes", s->offset_bytes);
		}
		if (s->has_offset_percent) {
			dq_jb_number(b, obj, "offsetPercent", s->offset_percent);
		}
		if (s->has_range_bytes) {
			dq_jb_u64(b, obj, "rangeBytes", s->range_bytes);
		}
		if (s->has_range_percent) {
			dq_jb_number(b, obj, "rangePercent", s->range_percent);
		}
		if (s->has_rate_iops) {
			dq_jb_u64(b, obj, "rateIops", s->rate_iops);
		}
		if (s->has_rate_bytes_per_s) {
			dq_jb_u64(b, obj, "rateBytesPerS", s->rate_bytes_per_s);
		}
		if (s->arrivals != DQ_ARRIVALS_NONE) {
			dq_jb_enum(b, obj, "arrivals", &g_dq_arrivals_names, s->arrivals);
		}
		if (s->has_think_time_us) {
			dq_jb_u64(b, obj, "thinkTimeUs", s->think_time_us);
		}
		if (s->has_think_time_blocks) {
			dq_jb_u64(b, obj, "thinkTimeBlocks", s->think_time_blocks);
		}
		if (s->has_start_delay_ms) {
			dq_jb_u64(b, obj, "startDelayMs", s->start_delay_ms);
		}
		if (s->has_placement_handle) {
			dq_jb_u64(b, obj, "placementHandle", s->placement_handle);
		}
	}
}

int dq_stream_totals_decode(struct dq_jctx *ctx, const struct dq_jpath *path,
			    struct json_object *obj, struct dq_stream_totals *t)
{
	struct json_object *dir;
	int d;

	memset(t, 0, sizeof(*t));
	if (dq_json_object_value(ctx, path, obj) != 0) {
		return ctx->rc;
	}
	dq_json_check_keys(ctx, path, obj, totals_keys, NULL);
	dq_json_u32(ctx, path, obj, "index", true, 0, DQ_STREAMS_MAX - 1, &t->index, NULL);
	dq_json_str(ctx, path, obj, "name", true, DQ_STR_ID, 0, 0, t->name, sizeof(t->name), NULL);
	dq_json_u64(ctx, path, obj, "offeredIos", false, 0, INT64_MAX, &t->offered_ios,
		    &t->has_offered_ios);
	dq_json_u64(ctx, path, obj, "maxBacklog", false, 0, INT64_MAX, &t->max_backlog,
		    &t->has_max_backlog);
	for (d = 0; d < 3 && ctx->rc == 0; d++) {
		dq_json_object(ctx, path, obj, direction_names[d], false, &dir);
		if (ctx->rc == 0 && dir != NULL) {
			t->has_direction[d] = true;
			dq_direction_totals_decode(ctx, DQ_JPATH_KEY(path, direction_names[d]), dir,
						   &t->direction[d]);
		}
	}
	return ctx->rc;
}

void dq_stream_totals_encode(struct dq_jbuild *b, struct json_object *obj,
			     const struct dq_stream_totals *t)
{
	int d;

	dq_jb_u64(b, obj, "index", t->index);
	dq_jb_str(b, obj, "name", t->name, sizeof(t->name));
	if (t->has_offered_ios) {
		dq_jb_u64(b, obj, "offeredIos", t->offered_ios);
	}
	if (t->has_max_backlog) {
		dq_jb_u64(b, obj, "maxBacklog", t->max_backlog);
	}
	for (d = 0; d < 3; d++) {
		if (t->has_direction[d]) {
			dq_direction_totals_encode(b, dq_jb_object(b, obj, direction_names[d]),
						   &t->direction[d]);
		}
	}
}

void dq_stream_totals_fini(struct dq_stream_totals *t)
{
	int d;

	for (d = 0; d < 3; d++) {
		dq_direction_totals_fini(&t->direction[d]);
	}
}
