/*
 * The multi-stream core's setup and teardown: whether an engine and a device can run a phase's
 * streams, each stream's tags, buffers and histograms, and the buffers registered with the
 * engine. The loop itself is stream_phase.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "contract/strutil.h"
#include "io/block_header.h"
#include "stream_phase.h"

/*
 * A stream's placement handle against the drive, before anything is written: the engine must send
 * the directive, the drive must have FDP, and the handle must be one of its reclaim unit handles.
 */
static int stream_placement_check(const struct dq_io_engine *engine, const struct dq_stream_spec *s,
				  size_t index, char *why, size_t why_len)
{
	const struct dq_device_target *target = &engine->target;
	const struct dq_capability_state *fdp = &target->capabilities.items[DQ_CAPABILITY_FDP];
	char name[DQ_STREAM_NAME_MAX_LEN + 16];

	if (!s->has_placement_handle) {
		return 0;
	}
	if (s->name[0] != '\0') {
		snprintf(name, sizeof(name), "'%s'", s->name);
	} else {
		snprintf(name, sizeof(name), "%zu", index);
	}
	if (!dq_io_engine_has(engine, DQ_ENGINE_PLACES_WRITES)) {
		snprintf(why, why_len,
			 "stream %s: placementHandle %u: the %s engine cannot send the FDP "
			 "placement directive (the sim and uring engines can)",
			 name, s->placement_handle, engine->ops->name);
		return -ENOTSUP;
	}
	if (target->fdp_handles == 0 && fdp->available) {
		snprintf(
			why, why_len,
			"stream %s: placementHandle %u: the drive's Flexible Data Placement is not "
			"usable: %s",
			name, s->placement_handle, fdp->detail);
		return -ENOTSUP;
	}
	if (target->fdp_handles == 0) {
		snprintf(why, why_len,
			 "stream %s: placementHandle %u: the drive has no Flexible Data Placement "
			 "(%s)",
			 name, s->placement_handle,
			 fdp->detail[0] != '\0' ? fdp->detail : "its probe found none");
		return -ENOTSUP;
	}
	if (s->placement_handle >= target->fdp_handles) {
		snprintf(why, why_len,
			 "stream %s: placementHandle %u is out of range: the drive has %u reclaim "
			 "unit handles (0..%u)",
			 name, s->placement_handle, target->fdp_handles, target->fdp_handles - 1);
		return -ERANGE;
	}
	if (target->max_placed_write_bytes != 0) {
		uint32_t largest = s->block_size_bytes;
		size_t i;

		for (i = 0; i < s->split_count; i++) {
			largest = s->split[i].block_size_bytes > largest ?
					  s->split[i].block_size_bytes :
					  largest;
		}
		if (largest > target->max_placed_write_bytes) {
			snprintf(
				why, why_len,
				"stream %s: placementHandle %u: a %u-byte write is larger than the "
				"%u bytes one placed NVMe write can carry on this drive (its largest "
				"transfer)",
				name, s->placement_handle, largest, target->max_placed_write_bytes);
			return -EINVAL;
		}
	}
	return 0;
}

int dq_stream_phase_check(const struct dq_io_engine *engine, const struct dq_phase_spec *spec,
			  char *why, size_t why_len)
{
	bool trims = false;
	size_t i;
	int rc;

	for (i = 0; i < spec->stream_count; i++) {
		const struct dq_stream_spec *s = &spec->streams[i];

		trims |= s->rw == DQ_RW_TRIM || s->rw == DQ_RW_RANDTRIM ||
			 (s->has_trim_percent && s->trim_percent > 0);
		rc = stream_placement_check(engine, s, i, why, why_len);
		if (rc != 0) {
			return rc;
		}
	}
	if (engine->ops->models_intervals != NULL && engine->ops->models_intervals(engine->data)) {
		snprintf(why, why_len,
			 "streams need IOs one by one; this drive models whole intervals "
			 "(sim_model=fluid): use sim_model=ftl");
		return -ENOTSUP;
	}
	if (trims && !dq_io_engine_has(engine, DQ_ENGINE_QUEUES_TRIMS)) {
		snprintf(why, why_len,
			 "the %s engine does not queue trims, which a stream asks for",
			 engine->ops->name);
		return -ENOTSUP;
	}
	if (dq_io_engine_has(engine, DQ_ENGINE_VIRTUAL_CLOCK) && engine->ops->advance == NULL) {
		snprintf(
			why, why_len,
			"the %s engine keeps a virtual clock the streams cannot move (no advance())",
			engine->ops->name);
		return -ENOTSUP;
	}
	if (dq_io_engine_has(engine, DQ_ENGINE_OWN_LATENCY)) {
		snprintf(why, why_len,
			 "the %s engine times its own IOs; streams time them in the core",
			 engine->ops->name);
		return -ENOTSUP;
	}
	/* each stream's range and block sizes against this device */
	struct stream *scratch = calloc(1, sizeof(*scratch));

	rc = 0;
	if (scratch == NULL) {
		return -ENOMEM;
	}
	for (i = 0; i < spec->stream_count && rc == 0; i++) {
		memset(scratch, 0, sizeof(*scratch));
		rc = stream_choice_init(scratch, &spec->streams[i], (uint32_t)i,
					&engine->target.device, 1, 0, why, why_len);
	}
	free(scratch);
	return rc != 0 ? -ENOTSUP : 0;
}

void stream_loop_fini(struct stream_loop *l)
{
	size_t i;

	for (i = 0; i < l->count; i++) {
		free(l->streams[i].free_tags);
	}
	if (!l->broken) {
		free(l->buffers); /* else the engine may still DMA into them: leak, never reuse */
	}
	free(l->phase_second);
	free(l->datagen);
	free(l->buffer_offset);
	free(l->batch);
	free(l->events);
	free(l->tag);
}

int stream_loop_init(struct stream_loop *l, const struct dq_phase_env *env,
		     const struct dq_phase_spec *spec, struct dq_phase_stats *stats, char *why,
		     size_t why_len)
{
	const struct dq_device *device = &env->engine->target.device;
	uint32_t tag = 0, pages = 0, align = env->engine->target.buffer_align, i;
	size_t s;
	int d, rc;

	l->env = env;
	l->spec = spec;
	l->stats = stats;
	l->engine = env->engine;
	l->virtual_clock = env->virtual_clock;
	l->count = spec->stream_count;
	l->fill_data = spec->data_pattern != DQ_DATA_PATTERN_ZEROS &&
		       env->engine->target.keeps_data;
	stats->streams = calloc(l->count, sizeof(*stats->streams));
	l->phase_second = calloc(STREAM_DIRECTIONS, sizeof(*l->phase_second));
	if (stats->streams == NULL || l->phase_second == NULL) {
		return -ENOMEM;
	}
	stats->stream_count = l->count;
	for (d = 0; d < STREAM_DIRECTIONS; d++) {
		dq_histogram_init(&l->phase_second[d].service);
		dq_histogram_init(&l->phase_second[d].response);
	}
	for (s = 0; s < l->count; s++) {
		struct stream *st = &l->streams[s];
		struct dq_stream_phase_stats *ss = &stats->streams[s];

		rc = stream_choice_init(st, &spec->streams[s], (uint32_t)s, device,
					env->seed ^ ((uint64_t)spec->index << 56), l->start_ns, why,
					why_len);
		if (rc != 0) {
			return rc;
		}
		st->placed = spec->streams[s].has_placement_handle;
		st->placement_handle = (uint16_t)spec->streams[s].placement_handle;
		st->tag_base = tag;
		tag += st->queue_depth;
		st->free_tags = calloc(st->queue_depth, sizeof(*st->free_tags));
		if (st->free_tags == NULL) {
			return -ENOMEM;
		}
		for (i = 0; i < st->queue_depth; i++) {
			st->free_tags[st->free_count++] = st->tag_base + st->queue_depth - 1 - i;
		}
		for (d = 0; d < STREAM_DIRECTIONS; d++) {
			dq_histogram_init(&st->second[d].service);
			dq_histogram_init(&st->second[d].response);
			dq_histogram_init(&ss->dir[d].histogram);
			dq_histogram_init(&ss->response[d]);
			ss->issues[d] = st->issues[d];
		}
		l->has_trim |= st->issues[STREAM_TRIM];
		ss->open_loop = st->open_loop;
		if (spec->streams[s].name[0] != '\0') {
			dq_strlcpy(ss->name, spec->streams[s].name, sizeof(ss->name));
		} else {
			snprintf(ss->name, sizeof(ss->name), "stream%zu", s);
		}
		/* a page at least per tag, so every tag has a buffer to register */
		pages += st->queue_depth *
			 ((st->largest_rw + 4095u) / 4096u + (st->largest_rw == 0));
	}
	stats->has_trim = l->has_trim;
	l->tags = tag;
	if (tag > env->engine->target.max_queue_depth && env->engine->target.max_queue_depth > 0) {
		snprintf(why, why_len,
			 "the streams' queue depths add up to %u; the engine takes %u", tag,
			 env->engine->target.max_queue_depth);
		return -EINVAL;
	}
	l->tag = calloc(tag, sizeof(*l->tag));
	l->events = calloc(tag, sizeof(*l->events));
	l->batch = calloc(tag, sizeof(*l->batch));
	l->buffer_offset = calloc(tag, sizeof(*l->buffer_offset));
	if (l->tag == NULL || l->events == NULL || l->batch == NULL || l->buffer_offset == NULL ||
	    posix_memalign((void **)&l->datagen, 64, sizeof(*l->datagen)) != 0 ||
	    posix_memalign(&l->buffers, align < 4096 ? 4096 : align,
			   (size_t)(pages > 0 ? pages : 1) * 4096u) != 0) {
		return -ENOMEM;
	}
	memset(l->buffers, 0, (size_t)(pages > 0 ? pages : 1) * 4096u);
	pages = 0;
	for (s = 0; s < l->count; s++) {
		struct stream *st = &l->streams[s];
		uint32_t per = (st->largest_rw + 4095u) / 4096u + (st->largest_rw == 0);

		for (i = 0; i < st->queue_depth; i++) {
			l->buffer_offset[st->tag_base + i] = pages;
			pages += per;
		}
	}
	dq_datagen_seed(l->datagen, env->seed ^ 0x5851f42d4c957f2dULL ^ spec->index);
	if (l->engine->ops->register_buffers != NULL) {
		/* one buffer per tag (buf_index = tag), replacing an earlier phase's */
		struct iovec *iov = calloc(tag, sizeof(*iov));

		if (iov == NULL) {
			return -ENOMEM;
		}
		for (s = 0; s < l->count; s++) {
			const struct stream *st = &l->streams[s];
			size_t len =
				(size_t)((st->largest_rw + 4095u) / 4096u + (st->largest_rw == 0)) *
				4096u;

			for (i = 0; i < st->queue_depth; i++) {
				iov[st->tag_base + i].iov_base =
					stream_tag_buffer(l, st->tag_base + i);
				iov[st->tag_base + i].iov_len = len;
			}
		}
		rc = l->engine->ops->register_buffers(l->engine->data, iov, tag);
		free(iov);
		if (rc != 0) {
			snprintf(why, why_len, "registering IO buffers: %s", strerror(-rc));
			return rc;
		}
	}
	return 0;
}
