/*
 * Captures every block a random-write phase writes, in submission order, into one file, so the
 * real-IO tests can show what the runner puts on a drive: incompressible (gzip), no two 4 KiB
 * blocks alike, each with a valid header. A capture engine (completes at once, keeps the data)
 * runs the core's real closed loop at QD32, buffers recycled exactly as on a device.
 * Usage: capture_writes OUT_FILE MIB
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/engine.h"
#include "job/job_runner.h"

#define CAPTURE_QUEUE_DEPTH 32u

struct capture_engine {
	FILE *out;
	uint32_t head, count, capacity;
	struct dq_io_completion *done;
	int error;
};

static FILE *g_capture_file;

static int capture_open(const struct dq_io_engine_open_args *args, void **data,
			struct dq_device_target *target, char *err, size_t err_len)
{
	struct capture_engine *engine = calloc(1, sizeof(*engine));

	(void)err;
	(void)err_len;
	if (engine == NULL) {
		return -ENOMEM;
	}
	engine->out = g_capture_file;
	engine->capacity = args->queue_depth;
	engine->done = calloc(engine->capacity, sizeof(*engine->done));
	snprintf(target->device.serial, sizeof(target->device.serial), "CAPTURE-1");
	snprintf(target->device.model, sizeof(target->device.model), "write capture");
	snprintf(target->device.firmware, sizeof(target->device.firmware), "1");
	target->device.capacity_bytes = 1ULL << 30;
	target->device.lba_size_bytes = 512;
	snprintf(target->device.transport_address, sizeof(target->device.transport_address),
		 "capture:%s", args->target);
	target->buffer_align = 4096;
	target->max_queue_depth = args->queue_depth;
	target->keeps_data = true;
	*data = engine;
	return engine->done == NULL ? -ENOMEM : 0;
}

static int capture_queue(void *data, const struct dq_io *io)
{
	struct capture_engine *engine = data;
	struct dq_io_completion *slot;

	if (engine->count == engine->capacity) {
		return -EBUSY;
	}
	if (io->op == DQ_IO_WRITE && fwrite(io->buf, 1, io->length, engine->out) != io->length) {
		engine->error = -EIO;
	}
	slot = &engine->done[(engine->head + engine->count) % engine->capacity];
	*slot = (struct dq_io_completion){ .tag = io->tag, .result = engine->error };
	engine->count++;
	return 0;
}

static int capture_commit(void *data)
{
	(void)data;
	return 0;
}

static int capture_getevents(void *data, struct dq_io_completion *out, unsigned max,
			     uint64_t timeout_ns)
{
	struct capture_engine *engine = data;
	unsigned n = 0;

	(void)timeout_ns;
	while (n < max && engine->count > 0) {
		out[n++] = engine->done[engine->head];
		engine->head = (engine->head + 1) % engine->capacity;
		engine->count--;
	}
	return (int)n;
}

static int capture_purge(void *data, enum dq_purge_method method, char *err, size_t err_len)
{
	(void)data;
	(void)method;
	snprintf(err, err_len, "the capture engine does not purge");
	return -EOPNOTSUPP;
}

static void capture_close(void *data)
{
	struct capture_engine *engine = data;

	free(engine->done);
	free(engine);
}

static const struct dq_io_engine_ops capture_ops = {
	.name = "null", /* reported as the contract's null engine: no real device */
	.version = DQ_IO_ENGINE_OPS_VERSION,
	.engine = DQ_ENGINE_NULL,
	.flags = DQ_ENGINE_DISKLESS,
	.open = capture_open,
	.queue = capture_queue,
	.commit = capture_commit,
	.getevents = capture_getevents,
	.purge = capture_purge,
	.close = capture_close,
};

static int discard_sample(void *arg, const struct dq_sample *sample)
{
	(void)arg;
	(void)sample;
	return 0;
}

static int discard_event(void *arg, const struct dq_job_event *event)
{
	(void)arg;
	(void)event;
	return 0;
}

int main(int argc, char **argv)
{
	struct dq_phase_spec phase = { .index = 0,
				       .name = "randwrite-4k-qd32",
				       .kind = DQ_PHASE_KIND_WORKLOAD,
				       .rw = DQ_RW_RANDWRITE,
				       .has_block_size_bytes = true,
				       .block_size_bytes = 4096,
				       .has_queue_depth = true,
				       .queue_depth = CAPTURE_QUEUE_DEPTH,
				       .has_range_percent = true,
				       .range_percent = 100,
				       .has_size_bytes = true,
				       .data_pattern = DQ_DATA_PATTERN_RANDOM };
	struct dq_job_spec spec = { .job_id = "capture",
				    .runner_id = "ctest",
				    .engine_ops = &capture_ops,
				    .target = "capture",
				    .phase_count = 1,
				    .phases = &phase };
	struct dq_sink sink = { .sample = discard_sample, .event = discard_event };
	struct dq_job_outcome outcome;
	atomic_int cancel = 0;
	int rc;

	if (argc != 3 || atoi(argv[2]) <= 0) {
		fprintf(stderr, "usage: capture_writes OUT_FILE MIB\n");
		return 2;
	}
	phase.size_bytes = (uint64_t)atoi(argv[2]) << 20;
	g_capture_file = fopen(argv[1], "wb");
	if (g_capture_file == NULL) {
		perror(argv[1]);
		return 1;
	}
	rc = dq_job_run(&spec, NULL, &sink, &cancel, &outcome);
	if (fclose(g_capture_file) != 0 || rc != 0 || outcome.type != DQ_JOB_EVENT_COMPLETED) {
		fprintf(stderr, "capture_writes: job ended %d (%s)\n", rc, outcome.message);
		return 1;
	}
	printf("captured %s MiB of randwrite 4k QD%u writes in %s\n", argv[2], CAPTURE_QUEUE_DEPTH,
	       argv[1]);
	return 0;
}
