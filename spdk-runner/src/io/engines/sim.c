/*
 * The sim engine: IO against the dq_sim FTL model (sim/) in virtual time, so a 2000 s phase runs
 * in seconds of wall time and its samples carry simulated time. The engine keeps the clock: each
 * IO is submitted at the engine's "now" and completes when the model says; getevents() hands out
 * the earliest completion and moves "now" to it, which is exactly a closed loop at fixed depth.
 * With sim_medium=1 it also keeps what is written (a sparse anonymous mapping of the drive's
 * capacity), so a purge or a data verify can be proven on a simulated drive by reading back.
 * Two options make a drive cheap enough to run by the hundred in real time: sim_model=fluid (the
 * same profile modelled a second at a time, run_interval() instead of IOs) and sim_time_scale
 * (the clock never runs ahead of the wall clock times the scale: 1 is real time).
 * With sim_power the drive also has a power model (dq_sim_cache) and brings its own power driver:
 * the engine then keeps two images, what the host sees and what survives a cut (docs/simulator.md,
 * "Power loss").
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "contract/clock.h"
#include "contract/phase_rules.h"
#include "contract/strutil.h"
#include "dq_sim.h"
#include "engines.h"
#include "engines/sim_engine.h"
#include "io/engine.h"

/* A paced per-IO drive may run this far ahead of the wall clock before it sleeps. */
#define SIM_PACE_SLACK_NS (10ULL * DQ_NS_PER_MS)

/* Zero [offset, offset + length) of an image: whole pages are handed back to the kernel. */
static void image_zero(const struct sim_engine *engine, unsigned char *image, uint64_t offset,
		       uint64_t length)
{
	const uint64_t page = 4096;
	uint64_t end = offset + length, first_page = (offset + page - 1) / page * page,
		 end_page = end / page * page;

	if (image == NULL || offset >= engine->medium_bytes) {
		return;
	}
	if (end > engine->medium_bytes) {
		end = engine->medium_bytes;
		end_page = end / page * page;
	}
	if (first_page >= end_page) {
		memset(image + offset, 0, end - offset);
		return;
	}
	memset(image + offset, 0, first_page - offset);
	madvise(image + first_page, end_page - first_page, MADV_DONTNEED);
	memset(image + end_page, 0, end - end_page);
}

/* A TRIM or an erase: the range reads zeros, and (a simplification) is durable at once. */
static void medium_zero(struct sim_engine *engine, uint64_t offset, uint64_t length)
{
	image_zero(engine, engine->medium, offset, length);
	image_zero(engine, engine->durable, offset, length);
}

static void ring_push(struct sim_engine *engine, struct sim_pending item)
{
	uint32_t mask = engine->mask, i = engine->count++;

	while (i > 0 && engine->ring[(engine->head + i - 1) & mask].done_ns > item.done_ns) {
		engine->ring[(engine->head + i) & mask] =
			engine->ring[(engine->head + i - 1) & mask];
		i--;
	}
	engine->ring[(engine->head + i) & mask] = item;
}

static struct sim_pending ring_pop(struct sim_engine *engine)
{
	struct sim_pending top = engine->ring[engine->head];

	engine->head = (engine->head + 1) & engine->mask;
	engine->count--;
	return top;
}

/*
 * Sleep until the wall clock allows the drive's clock to show clock_ns, for at most max_ns.
 * Returns true when it allows it now (always, unpaced).
 */
static bool sim_pace(const struct sim_engine *engine, uint64_t clock_ns, uint64_t max_ns)
{
	uint64_t due, now, wait;
	struct timespec pause;

	if (engine->time_scale == 0 || clock_ns <= engine->pace_clock0_ns) {
		return true;
	}
	due = engine->pace_wall0_ns + (clock_ns - engine->pace_clock0_ns) / engine->time_scale;
	now = dq_clock_monotonic_ns();
	if (due <= now + SIM_PACE_SLACK_NS) {
		return true;
	}
	wait = due - now < max_ns ? due - now : max_ns;
	pause.tv_sec = (time_t)(wait / DQ_NS_PER_S);
	pause.tv_nsec = (long)(wait % DQ_NS_PER_S);
	nanosleep(&pause, NULL);
	return wait == due - now;
}

/* Sleep until the wall clock allows the drive's clock to show clock_ns. */
static void sim_pace_fully_to(const struct sim_engine *engine, uint64_t clock_ns)
{
	while (!sim_pace(engine, clock_ns, DQ_NS_PER_S)) {
	}
}

/* Sleep until the wall clock has caught up with the drive's clock. */
static void sim_pace_fully(const struct sim_engine *engine)
{
	sim_pace_fully_to(engine, engine->now_ns);
}

static int sim_open(const struct dq_io_engine_open_args *args, void **data,
		    struct dq_device_target *target, char *err, size_t err_len)
{
	const struct sim_options *options = args->options;
	const char *dir = options != NULL ? options->profiles_dir : DQ_SIM_PROFILES_DIR;
	const char *model = options != NULL ? options->model : "ftl";
	struct dq_device *device = &target->device;
	struct dq_sim_profile profile;
	struct dq_sim_identify identify;
	struct sim_engine *engine;
	char name[64];
	uint64_t seed;
	int rc;

	rc = sim_parse_target(args->target, name, sizeof(name), &seed, err, err_len);
	if (rc != 0) {
		return rc;
	}
	if (strcmp(model, "ftl") != 0 && strcmp(model, "fluid") != 0) {
		snprintf(err, err_len, "sim: --sim_model takes ftl or fluid, not '%s'", model);
		return -EINVAL;
	}
	rc = dq_sim_profile_load_name(dir, name, &profile, err, err_len);
	if (rc != 0) {
		return rc == -ENOENT ? -ENOENT : rc;
	}
	engine = calloc(1, sizeof(*engine));
	if (engine == NULL) {
		return -ENOMEM;
	}
	engine->capacity = args->queue_depth > 0 ? args->queue_depth : 1;
	engine->mask = 1;
	while (engine->mask < engine->capacity) {
		engine->mask <<= 1;
	}
	engine->ring = calloc(engine->mask, sizeof(*engine->ring));
	engine->mask--;
	if (engine->ring == NULL) {
		rc = -ENOMEM;
		goto err_free_engine;
	}
	if (strcmp(model, "fluid") == 0) {
		rc = dq_sim_fluid_create(&profile, seed, &engine->fluid);
	} else {
		rc = dq_sim_drive_create(&profile, seed, &engine->drive);
	}
	if (rc != 0) {
		snprintf(err, err_len, "sim: cannot build a drive from profile %s: %s", name,
			 strerror(-rc));
		goto err_free_ring;
	}
	if (engine->fluid != NULL) {
		dq_sim_fluid_identify(engine->fluid, &identify);
	} else {
		dq_sim_drive_identify(engine->drive, &identify);
	}
	rc = sim_parse_stall(options != NULL ? options->stall : NULL, engine, err, err_len);
	if (rc != 0) {
		goto err_destroy_drive;
	}
	engine->time_scale = options != NULL ? options->time_scale : 0;
	engine->pace_wall0_ns = dq_clock_monotonic_ns();
	engine->lba_bytes = identify.lba_bytes;
	dq_strlcpy(device->serial, identify.serial, sizeof(device->serial));
	dq_strlcpy(device->model, identify.model, sizeof(device->model));
	dq_strlcpy(device->firmware, identify.firmware, sizeof(device->firmware));
	device->capacity_bytes = identify.user_bytes;
	device->lba_size_bytes = identify.lba_bytes;
	snprintf(device->transport_address, sizeof(device->transport_address), "%s", args->target);
	target->serial_synthetic = true;
	snprintf(target->serial_note, sizeof(target->serial_note),
		 "simulated: derived from profile %s and seed %" PRIu64, name, seed);
	target->purge_methods = (1u << DQ_PURGE_METHOD_FORMAT_USER_DATA) |
				(1u << DQ_PURGE_METHOD_SANITIZE_BLOCK) |
				(1u << DQ_PURGE_METHOD_DEALLOCATE);
	if (engine->drive != NULL) {
		struct dq_sim_fdp_config fdp;

		dq_sim_drive_fdp_config(engine->drive, &fdp);
		target->fdp_handles = fdp.reclaim_unit_handles;
	}
	target->buffer_align = 64;
	target->max_queue_depth = DQ_QUEUE_DEPTH_MAX;
	if (options != NULL && options->medium) {
		engine->medium_bytes = identify.user_bytes;
		engine->medium = sim_image_map(engine->medium_bytes);
		if (engine->medium == NULL) {
			rc = -ENOMEM;
			snprintf(err, err_len, "sim: cannot map a %" PRIu64 "-byte medium",
				 engine->medium_bytes);
			goto err_destroy_drive;
		}
		target->keeps_data = true;
	} else {
		snprintf(
			target->no_data_reason, sizeof(target->no_data_reason),
			"the sim engine keeps no data (its option sim_medium=1 gives it a medium)");
	}
	if (options != NULL && options->power[0] != '\0') {
		rc = sim_open_power(engine, &profile, seed, options, err, err_len);
		if (rc != 0) {
			goto err_unmap_medium;
		}
	}
	sim_capabilities(engine, &target->capabilities);
	*data = engine;
	return 0;

err_unmap_medium:
	if (engine->medium != NULL) {
		munmap(engine->medium, engine->medium_bytes);
	}
err_destroy_drive:
	dq_sim_drive_destroy(engine->drive);
err_free_ring:
	free(engine->ring);
err_free_engine:
	free(engine);
	return rc;
}

static int sim_queue(void *data, const struct dq_io *io)
{
	struct sim_engine *engine = data;
	struct sim_pending pending = { .tag = io->tag };
	uint64_t complete_ns = engine->now_ns;
	enum dq_sim_op op = io->op == DQ_IO_WRITE ? DQ_SIM_OP_WRITE :
			    io->op == DQ_IO_TRIM  ? DQ_SIM_OP_DEALLOCATE :
						    DQ_SIM_OP_READ;
	int rc;

	if (engine->count == engine->capacity) {
		return -EBUSY;
	}
	if (engine->powered_off) {
		/* no power: the command fails as on a drive that is gone */
		pending.result = -ENODEV;
		pending.done_ns = engine->now_ns;
		ring_push(engine, pending);
		return 0;
	}
	if (io->placed && io->op == DQ_IO_WRITE) {
		rc = dq_sim_drive_write_placed(engine->drive, io->offset / engine->lba_bytes,
					       io->length / engine->lba_bytes, io->placement_handle,
					       engine->now_ns, &complete_ns);
	} else {
		rc = dq_sim_drive_submit(engine->drive, op, io->offset / engine->lba_bytes,
					 io->length / engine->lba_bytes, engine->now_ns,
					 &complete_ns);
	}
	/* sim_stall: what would complete within the stall (or was queued before its end and
	 * completes after its start) completes at its end */
	if (rc == 0 && engine->stall_end_ns > 0 && complete_ns >= engine->stall_start_ns &&
	    engine->now_ns < engine->stall_end_ns && complete_ns < engine->stall_end_ns) {
		complete_ns = engine->stall_end_ns;
	}
	pending.result = rc;
	pending.done_ns = rc == 0 ? complete_ns : engine->now_ns;
	if (rc == 0 && io->op == DQ_IO_TRIM) {
		medium_zero(engine, io->offset, io->length);
	} else if (rc == 0 && engine->medium != NULL &&
		   io->offset + io->length <= engine->medium_bytes) {
		if (io->op == DQ_IO_WRITE) {
			memcpy(engine->medium + io->offset, io->buf, io->length);
			sim_power_record_write(engine, io);
		} else {
			memcpy(io->buf, engine->medium + io->offset, io->length);
		}
	}
	ring_push(engine, pending);
	return 0;
}

static int sim_commit(void *data)
{
	(void)data;
	return 0;
}

/*
 * The earliest completion (and any due at the same instant): handing out later ones together
 * would let the core resubmit at the wrong time and distort the closed loop.
 */
static int sim_getevents(void *data, struct dq_io_completion *out, unsigned max,
			 uint64_t timeout_ns)
{
	struct sim_engine *engine = data;
	unsigned n = 0;
	uint64_t due;

	if (engine->count == 0 || max == 0) {
		return 0;
	}
	due = engine->ring[engine->head].done_ns;
	/* virtual time never waits, unless it is paced: then at most timeout_ns per call */
	if (!sim_pace(engine, due, timeout_ns)) {
		return 0;
	}
	while (n < max && engine->count > 0 && engine->ring[engine->head].done_ns == due) {
		struct sim_pending done = ring_pop(engine);

		out[n].tag = done.tag;
		out[n].result = done.result;
		out[n].done_ns = done.done_ns;
		n++;
	}
	if (due > engine->now_ns) {
		engine->now_ns = due;
	}
	return (int)n;
}

static int sim_advance(void *data, uint64_t until_ns)
{
	struct sim_engine *engine = data;
	uint64_t target = until_ns;

	if (engine->count > 0 && engine->ring[engine->head].done_ns <= until_ns) {
		target = engine->ring[engine->head].done_ns;
	}
	if (target > engine->now_ns) {
		sim_pace_fully_to(engine, target);
		engine->now_ns = target;
	}
	return engine->count > 0 && engine->ring[engine->head].done_ns <= engine->now_ns;
}

static void sim_prefetch(void *data, uint64_t offset)
{
	const struct sim_engine *engine = data;

	dq_sim_drive_prefetch(engine->drive, offset / engine->lba_bytes);
}

static uint64_t sim_now_ns(void *data)
{
	const struct sim_engine *engine = data;

	return engine->now_ns;
}

static int sim_idle(void *data, uint64_t duration_ns)
{
	struct sim_engine *engine = data;

	if (engine->fluid != NULL) {
		dq_sim_fluid_idle(engine->fluid, engine->now_ns, engine->now_ns + duration_ns);
	} else {
		dq_sim_drive_idle(engine->drive, engine->now_ns, engine->now_ns + duration_ns);
	}
	engine->now_ns += duration_ns;
	sim_pace_fully(engine);
	return 0;
}

static bool sim_models_intervals(void *data)
{
	const struct sim_engine *engine = data;

	return engine->fluid != NULL;
}

/* One fluid interval: its weighted latency points become the core's histogram records. */
static int sim_run_interval(void *data, const struct dq_io_load *load, uint64_t interval_ns,
			    uint64_t bytes_limit, struct dq_io_interval *out)
{
	struct sim_engine *engine = data;
	struct dq_sim_fluid_load fluid_load = {
		.read_pct = load->read_percent,
		.sequential = load->sequential,
		.block_bytes = load->block_size,
		.queue_depth = load->queue_depth,
		.range_bytes = load->range_bytes,
	};
	struct dq_sim_fluid_interval interval;
	int rc;

	rc = dq_sim_fluid_run(engine->fluid, &fluid_load, engine->now_ns, interval_ns, bytes_limit,
			      &interval);
	if (rc != 0) {
		return rc;
	}
	for (int op = 0; op < 2; op++) {
		out->ios[op] = interval.ios[op];
		out->bytes[op] = interval.bytes[op];
		for (uint32_t i = 0; i < interval.point_count[op]; i++) {
			dq_histogram_record_n(out->latency[op], interval.points[op][i].ns,
					      interval.points[op][i].count);
			/* each IO was outstanding for its latency: Little's law, exactly */
			out->outstanding_io_ns +=
				interval.points[op][i].ns * interval.points[op][i].count;
		}
	}
	out->duration_ns = interval.interval_ns;
	engine->now_ns += interval.interval_ns;
	sim_pace_fully(engine);
	return 0;
}

/* A TRIM of the range, in chunks the model's 32-bit LBA count takes; the clock moves past it. */
static int sim_deallocate(void *data, uint64_t offset, uint64_t length, char *err, size_t err_len)
{
	struct sim_engine *engine = data;
	uint64_t lba = offset / engine->lba_bytes;
	uint64_t remaining = length / engine->lba_bytes;

	while (remaining > 0) {
		uint32_t count = remaining > UINT32_MAX / 2 ? UINT32_MAX / 2 : (uint32_t)remaining;
		uint64_t complete_ns = engine->now_ns;
		int rc = engine->fluid != NULL ?
				 dq_sim_fluid_deallocate(engine->fluid, lba, count, engine->now_ns,
							 &complete_ns) :
				 dq_sim_drive_submit(engine->drive, DQ_SIM_OP_DEALLOCATE, lba,
						     count, engine->now_ns, &complete_ns);

		if (rc != 0) {
			snprintf(err, err_len, "sim: deallocate of LBA %" PRIu64 "+%u failed: %s",
				 lba, count, strerror(-rc));
			return rc;
		}
		if (complete_ns > engine->now_ns) {
			engine->now_ns = complete_ns;
		}
		lba += count;
		remaining -= count;
	}
	medium_zero(engine, offset, length);
	return 0;
}

static int sim_purge(void *data, enum dq_purge_method method, char *err, size_t err_len)
{
	struct sim_engine *engine = data;
	uint64_t done_ns = engine->now_ns;
	int rc;

	if (method == DQ_PURGE_METHOD_DEALLOCATE) {
		struct dq_sim_identify identify;

		if (engine->fluid != NULL) {
			dq_sim_fluid_identify(engine->fluid, &identify);
		} else {
			dq_sim_drive_identify(engine->drive, &identify);
		}
		return sim_deallocate(data, 0, identify.user_bytes, err, err_len);
	}
	rc = engine->fluid != NULL ? dq_sim_fluid_purge(engine->fluid, engine->now_ns, &done_ns) :
				     dq_sim_drive_purge(engine->drive, engine->now_ns, &done_ns);
	if (rc != 0) {
		snprintf(err, err_len, "sim: purge failed: %s", strerror(-rc));
		return rc;
	}
	if (done_ns > engine->now_ns) {
		engine->now_ns = done_ns;
	}
	medium_zero(engine, 0, engine->medium_bytes); /* Format / sanitize: every LBA reads zeros */
	return 0;
}

static void sim_close(void *data)
{
	struct sim_engine *engine = data;

	if (engine != NULL) {
		if (engine->medium != NULL) {
			munmap(engine->medium, engine->medium_bytes);
		}
		sim_power_close(engine);
		dq_sim_drive_destroy(engine->drive);
		dq_sim_fluid_destroy(engine->fluid);
		free(engine->ring);
		free(engine);
	}
}

static const struct dq_io_engine_ops sim_ops = {
	.name = "sim",
	.version = DQ_IO_ENGINE_OPS_VERSION,
	.engine = DQ_ENGINE_SIM,
	.flags = DQ_ENGINE_VIRTUAL_CLOCK | DQ_ENGINE_DISKLESS | DQ_ENGINE_CAN_DEALLOCATE |
		 DQ_ENGINE_HAS_SMART | DQ_ENGINE_QUEUES_TRIMS | DQ_ENGINE_PLACES_WRITES,
	.target_help = "sim:<profile>[@<seed>] (e.g. sim:enterprise-eager): a simulated drive",
	.options = sim_option_table,
	.options_size = sizeof(struct sim_options),
	.open = sim_open,
	.queue = sim_queue,
	.commit = sim_commit,
	.getevents = sim_getevents,
	.now_ns = sim_now_ns,
	.advance = sim_advance,
	.idle = sim_idle,
	.deallocate = sim_deallocate,
	.purge = sim_purge,
	.smart = sim_smart,
	.close = sim_close,
	.discover = sim_discover,
	.prefetch = sim_prefetch,
	.models_intervals = sim_models_intervals,
	.run_interval = sim_run_interval,
	.flush = sim_flush,
	.power_driver = sim_power_driver,
};

const struct dq_io_engine_ops *dq_engine_sim_ops(void)
{
	return &sim_ops;
}
