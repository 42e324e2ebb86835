/*
 * The null engine: completes every IO at once and stores nothing, so tests and benchmarks measure
 * the core itself (as fio's null engine). Its "device" is null or null:<size>, with a fixed serial
 * that is documented as fake (no drive reports it).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "contract/strutil.h"
#include "contract/units.h"
#include "engines.h"
#include "io/engine.h"

#define NULL_DEFAULT_CAPACITY (1ULL << 40) /* 1 TiB */
#define NULL_SERIAL "NULL-ENGINE-FAKE-SERIAL"

struct null_engine {
	uint32_t capacity; /* completions the ring holds */
	uint32_t head; /* next completion to reap */
	uint32_t count; /* completions waiting */
	struct dq_io_completion *ring;
};

static int null_open(const struct dq_io_engine_open_args *args, void **data,
		     struct dq_device_target *target, char *err, size_t err_len)
{
	struct dq_device *device = &target->device;
	uint64_t capacity = NULL_DEFAULT_CAPACITY;
	struct null_engine *engine;

	if (strncmp(args->target, "null", 4) != 0 ||
	    (args->target[4] != '\0' && args->target[4] != ':')) {
		snprintf(err, err_len, "the null engine's target is null or null:<size>, not '%s'",
			 args->target);
		return -ENOENT;
	}
	if (args->target[4] == ':' && dq_parse_size(args->target + 5, &capacity) != 0) {
		snprintf(err, err_len, "null:<size>: '%s' is not a size (e.g. 1g, 512m)",
			 args->target + 5);
		return -EINVAL;
	}
	capacity -= capacity % 4096;
	if (capacity == 0) {
		snprintf(err, err_len, "null:<size>: at least 4096 bytes");
		return -EINVAL;
	}
	engine = calloc(1, sizeof(*engine));
	if (engine == NULL) {
		return -ENOMEM;
	}
	engine->capacity = args->queue_depth > 0 ? args->queue_depth : 1;
	engine->ring = calloc(engine->capacity, sizeof(*engine->ring));
	if (engine->ring == NULL) {
		free(engine);
		return -ENOMEM;
	}
	dq_strlcpy(device->serial, NULL_SERIAL, sizeof(device->serial));
	snprintf(device->model, sizeof(device->model), "drivequal null engine (no device)");
	snprintf(device->firmware, sizeof(device->firmware), "none");
	device->capacity_bytes = capacity;
	device->lba_size_bytes = 512;
	snprintf(device->transport_address, sizeof(device->transport_address), "null:%llu",
		 (unsigned long long)capacity);
	target->serial_synthetic = true;
	snprintf(target->serial_note, sizeof(target->serial_note),
		 "fake: the null engine has no device");
	target->purge_methods = 1u << DQ_PURGE_METHOD_DEALLOCATE;
	dq_capability_lack_range(&target->capabilities, DQ_CAPABILITY_FORMAT,
				 DQ_CAPABILITY_SANITIZE_OVERWRITE, DQ_CAPABILITY_MISSING_ENGINE,
				 "the null engine has no device to erase");
	dq_capability_have(&target->capabilities, DQ_CAPABILITY_DEALLOCATE,
			   "accepted and discarded: the null engine stores nothing");
	dq_capability_lack_range(&target->capabilities, DQ_CAPABILITY_SMART, DQ_CAPABILITY_FDP,
				 DQ_CAPABILITY_MISSING_ENGINE,
				 "the null engine has no device to report on");
	target->buffer_align = 64;
	snprintf(target->no_data_reason, sizeof(target->no_data_reason),
		 "the null engine stores nothing");
	*data = engine;
	return 0;
}

static int null_queue(void *data, const struct dq_io *io)
{
	struct null_engine *engine = data;
	uint32_t slot;

	if (engine->count == engine->capacity) {
		return -EBUSY;
	}
	slot = engine->head + engine->count;
	if (slot >= engine->capacity) {
		slot -= engine->capacity;
	}
	engine->ring[slot].tag = io->tag;
	engine->ring[slot].result = 0;
	engine->ring[slot].done_ns = 0;
	engine->count++;
	return 0;
}

static int null_commit(void *data)
{
	(void)data;
	return 0;
}

static int null_getevents(void *data, struct dq_io_completion *out, unsigned max,
			  uint64_t timeout_ns)
{
	struct null_engine *engine = data;
	unsigned n = 0;

	(void)timeout_ns; /* nothing is ever pending: never wait */
	while (n < max && engine->count > 0) {
		out[n++] = engine->ring[engine->head];
		engine->head = engine->head + 1 == engine->capacity ? 0 : engine->head + 1;
		engine->count--;
	}
	return (int)n;
}

static int null_deallocate(void *data, uint64_t offset, uint64_t length, char *err, size_t err_len)
{
	(void)data;
	(void)offset;
	(void)length;
	(void)err;
	(void)err_len;
	return 0;
}

static int null_purge(void *data, enum dq_purge_method method, char *err, size_t err_len)
{
	(void)data;
	if (method != DQ_PURGE_METHOD_DEALLOCATE) {
		snprintf(err, err_len, "the null engine only purges by deallocate");
		return -EOPNOTSUPP;
	}
	return 0;
}

static int null_smart(void *data, struct dq_smart_snapshot *out)
{
	(void)data;
	memset(out, 0, sizeof(*out));
	out->available = false;
	out->source = DQ_SMART_SOURCE_UNAVAILABLE;
	out->has_reason = true;
	snprintf(out->reason, sizeof(out->reason), "the null engine has no device to report SMART");
	return 0;
}

static void null_close(void *data)
{
	struct null_engine *engine = data;

	if (engine != NULL) {
		free(engine->ring);
		free(engine);
	}
}

static int null_discover(void (*found)(const char *target, void *arg), void *arg)
{
	found("null", arg);
	return 0;
}

static const struct dq_io_engine_ops null_ops = {
	.name = "null",
	.version = DQ_IO_ENGINE_OPS_VERSION,
	.engine = DQ_ENGINE_NULL,
	.flags = DQ_ENGINE_DISKLESS | DQ_ENGINE_CAN_DEALLOCATE | DQ_ENGINE_QUEUES_TRIMS,
	.target_help = "null or null:<size> (e.g. null:1g; default 1 TiB): no device",
	.open = null_open,
	.queue = null_queue,
	.commit = null_commit,
	.getevents = null_getevents,
	.deallocate = null_deallocate,
	.purge = null_purge,
	.smart = null_smart,
	.close = null_close,
	.discover = null_discover,
};

const struct dq_io_engine_ops *dq_engine_null_ops(void)
{
	return &null_ops;
}
