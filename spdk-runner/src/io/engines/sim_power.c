/*
 * The sim engine's power model (sim_power=plp|volatile|liar): two images of the drive, what reads
 * see (the medium) and what NAND holds (the durable image), the dq_sim_cache that decides which
 * units move from one to the other, the flush, and the sim power driver that cuts and restores.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "engines/sim_engine.h"

/* A sparse anonymous image of bytes, pages allocated as written. */
unsigned char *sim_image_map(uint64_t bytes)
{
	void *image = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return image == MAP_FAILED ? NULL : image;
}

/* The cache destaged a unit: what the host sees of it reaches NAND. */
static void sim_unit_destaged(uint64_t unit, void *arg)
{
	struct sim_engine *engine = arg;
	uint64_t offset = unit * DQ_SIM_MAPPING_UNIT_BYTES;

	if (offset < engine->medium_bytes) {
		memcpy(engine->durable + offset, engine->medium + offset,
		       DQ_SIM_MAPPING_UNIT_BYTES);
	}
}

/* A cut dropped a unit: the host now sees what NAND kept. */
static void sim_unit_lost(uint64_t unit, bool promised, void *arg)
{
	struct sim_engine *engine = arg;
	uint64_t offset = unit * DQ_SIM_MAPPING_UNIT_BYTES;

	(void)promised;
	if (offset < engine->medium_bytes) {
		memcpy(engine->medium + offset, engine->durable + offset,
		       DQ_SIM_MAPPING_UNIT_BYTES);
	}
}

static struct dq_sim_cache_sink sim_cache_sink(struct sim_engine *engine)
{
	return (struct dq_sim_cache_sink){ .destage = sim_unit_destaged,
					   .lost = sim_unit_lost,
					   .arg = engine };
}

/* sim_power: the write cache's power model, sized as the profile's write buffer, and the durable
 * image the cut falls back to. Needs the medium: a cut can only be verified on kept data. */
int sim_open_power(struct sim_engine *engine, const struct dq_sim_profile *profile, uint64_t seed,
		   const struct sim_options *options, char *err, size_t err_len)
{
	enum dq_sim_power_mode mode;
	uint32_t cache_kib;
	int rc;

	if (dq_sim_power_mode_parse(options->power, &mode) != 0) {
		snprintf(err, err_len, "sim: --sim_power takes plp, volatile or liar, not '%s'",
			 options->power);
		return -EINVAL;
	}
	if (engine->medium == NULL || engine->fluid != NULL) {
		snprintf(err, err_len,
			 "sim: --sim_power=%s needs --sim_medium=1 and the ftl model: a power cut "
			 "is only seen on data the drive keeps",
			 options->power);
		return -EINVAL;
	}
	cache_kib = options->cache_kib != 0 ? options->cache_kib : profile->write_buffer_kib;
	if (cache_kib < DQ_SIM_MAPPING_UNIT_BYTES / 1024) {
		snprintf(err, err_len, "sim: --sim_cache_kib must be at least %u, not %u",
			 DQ_SIM_MAPPING_UNIT_BYTES / 1024, cache_kib);
		return -EINVAL;
	}
	rc = dq_sim_cache_create(mode, engine->medium_bytes / DQ_SIM_MAPPING_UNIT_BYTES,
				 cache_kib / (DQ_SIM_MAPPING_UNIT_BYTES / 1024), seed,
				 &engine->cache);
	if (rc != 0) {
		snprintf(err, err_len, "sim: cannot build the write cache's power model: %s",
			 strerror(-rc));
		return rc;
	}
	engine->durable = sim_image_map(engine->medium_bytes);
	if (engine->durable == NULL) {
		dq_sim_cache_destroy(engine->cache);
		engine->cache = NULL;
		snprintf(err, err_len, "sim: cannot map a %" PRIu64 "-byte durable image",
			 engine->medium_bytes);
		return -ENOMEM;
	}
	return 0;
}

void sim_power_record_write(struct sim_engine *engine, const struct dq_io *io)
{
	struct dq_sim_cache_sink sink;

	if (engine->cache == NULL) {
		return;
	}
	sink = sim_cache_sink(engine);
	/* whole units (a sub-unit write makes its unit dirty) */
	dq_sim_cache_write(engine->cache, io->offset / DQ_SIM_MAPPING_UNIT_BYTES,
			   (uint32_t)((io->offset % DQ_SIM_MAPPING_UNIT_BYTES + io->length +
				       DQ_SIM_MAPPING_UNIT_BYTES - 1) /
				      DQ_SIM_MAPPING_UNIT_BYTES),
			   &sink);
}

void sim_power_close(struct sim_engine *engine)
{
	if (engine->durable != NULL) {
		munmap(engine->durable, engine->medium_bytes);
	}
	dq_sim_cache_destroy(engine->cache);
}

/* NVMe Flush: the model's flush completes at once; the power model says what it made durable. */
int sim_flush(void *data, char *err, size_t err_len)
{
	struct sim_engine *engine = data;
	uint64_t complete_ns = engine->now_ns;
	int rc;

	if (engine->powered_off) {
		snprintf(err, err_len, "sim: flush with the drive's power cut");
		return -ENODEV;
	}
	if (engine->drive != NULL) {
		rc = dq_sim_drive_submit(engine->drive, DQ_SIM_OP_FLUSH, 0, 0, engine->now_ns,
					 &complete_ns);
		if (rc != 0) {
			snprintf(err, err_len, "sim: flush failed: %s", strerror(-rc));
			return rc;
		}
	}
	if (engine->cache != NULL) {
		struct dq_sim_cache_sink sink = sim_cache_sink(engine);

		dq_sim_cache_flush(engine->cache, &sink);
	}
	if (complete_ns > engine->now_ns) {
		engine->now_ns = complete_ns;
	}
	return 0;
}

/* The sim power driver: a cut resolves the write cache (kept or lost, as the mode says) and
 * abandons the IOs in flight; a restore brings the drive back with what it kept. */
static int sim_power_cut(void *ctx, char *err, size_t err_len)
{
	struct sim_engine *engine = ctx;
	struct dq_sim_cache_sink sink = sim_cache_sink(engine);

	if (engine->powered_off) {
		snprintf(err, err_len, "sim: power is already cut");
		return -EALREADY;
	}
	dq_sim_cache_power_cut(engine->cache, &sink);
	engine->count = 0; /* no completion comes for what was in flight */
	engine->powered_off = true;
	return 0;
}

static int sim_power_restore(void *ctx, char *err, size_t err_len)
{
	struct sim_engine *engine = ctx;

	if (!engine->powered_off) {
		snprintf(err, err_len, "sim: power is on");
		return -EALREADY;
	}
	engine->powered_off = false;
	return 0;
}

static int sim_power_truth(void *ctx, struct dq_power_truth *out)
{
	const struct sim_engine *engine = ctx;
	struct dq_sim_cache_truth truth;

	dq_sim_cache_truth(engine->cache, &truth);
	out->cuts = truth.cuts;
	out->last_cut_lost_units = truth.last_cut_lost;
	out->last_cut_lost_promised_units = truth.last_cut_lost_promised;
	return 0;
}

static const struct dq_power_driver_ops sim_power_ops = {
	.name = "sim",
	.cut = sim_power_cut,
	.restore = sim_power_restore,
	.truth = sim_power_truth,
};

int sim_power_driver(void *data, struct dq_power_driver *out, char *err, size_t err_len)
{
	struct sim_engine *engine = data;

	if (engine->cache == NULL) {
		snprintf(err, err_len,
			 "the simulated drive has no power model: open it with --sim_power=plp, "
			 "volatile or liar (and --sim_medium=1)");
		return -ENOTSUP;
	}
	out->ops = &sim_power_ops;
	out->ctx = engine;
	return 0;
}
