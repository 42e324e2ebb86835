/*
 * The SPDK engine: userspace NVMe on SPDK's public API (spdk/nvme.h, spdk/env.h), for PCIe drives
 * bound to vfio-pci and NVMe-oF (TCP, RDMA) targets. One IO qpair per open (the job's one worker),
 * closed-loop submit/poll at the phase's queue depth, each IO timed on the TSC from submission to
 * its completion callback (as spdk_nvme_perf), admin commands in engines/spdk_ctrlr.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <spdk/env.h>
#include <spdk/nvme.h>

#include "engines.h"
#include "io/engine.h"
#include "spdk_internal.h"

static const struct dq_engine_option spdk_engine_options[] = {
	{
		.name = "spdk_mem_mb",
		.type = DQ_ENGINE_OPTION_UINT,
		.offset = offsetof(struct spdk_options, mem_mb),
		.default_value = "0",
		.help = "memory the SPDK environment reserves, MiB (0: its default); the first "
			"SPDK open in a process sets the environment up",
	},
	{
		.name = "spdk_no_huge",
		.type = DQ_ENGINE_OPTION_BOOL,
		.offset = offsetof(struct spdk_options, no_huge),
		.default_value = "0",
		.help = "anonymous memory instead of hugepages (tests, NVMe-oF only; needs "
			"--spdk_mem_mb)",
	},
	{
		.name = "spdk_no_pci",
		.type = DQ_ENGINE_OPTION_BOOL,
		.offset = offsetof(struct spdk_options, no_pci),
		.default_value = "0",
		.help = "do not scan the PCI bus (NVMe-oF targets only)",
	},
	{
		.name = "spdk_admin_poll_ms",
		.type = DQ_ENGINE_OPTION_UINT,
		.offset = offsetof(struct spdk_options, admin_poll_ms),
		.default_value = "10",
		.help = "poll the admin queue (keep-alives, async events) this often during IO",
	},
	{ .name = NULL },
};

/* One IO in flight: the callback's context, indexed by the core's tag. */
struct spdk_io {
	struct spdk_engine *engine;
	uint64_t submit_tsc;
	void *dma; /* PCIe: the DMA buffer standing in for the core's (bounce); else NULL */
	void *core_buf;
	uint32_t length;
	uint32_t tag;
	uint8_t op;
};

struct spdk_engine {
	struct spdk_dev dev;
	/* The qpair is polled through a poll group, as spdk_nvme_perf does: NVMe/TCP then queues
	 * a full socket instead of failing the qpair, and submissions are batched per poll. */
	struct spdk_nvme_poll_group *group;
	struct spdk_nvme_qpair *qpair;
	struct spdk_io *ios; /* [tags] */
	uint32_t tags;
	struct dq_io_completion *done; /* ring of completed IOs not yet reaped, [tags] */
	uint32_t done_head, done_count;
	uint64_t tsc_hz;
	uint64_t ns_per_tick_q32; /* nanoseconds per TSC tick, 32.32 fixed point: no division per IO */
	uint32_t lba_shift; /* log2 of the LBA size (NVMe LBA sizes are powers of two) */
	uint64_t admin_poll_tsc, next_admin_tsc;
	int failed; /* -errno: the qpair failed; every later reap says so */
};

static void spdk_engine_close(void *data);

static int alloc_qpair(struct spdk_engine *engine, uint32_t queue_depth, char *err, size_t err_len)
{
	struct spdk_nvme_io_qpair_opts opts;
	uint32_t i;

	spdk_nvme_ctrlr_get_default_io_qpair_opts(engine->dev.ctrlr, &opts, sizeof(opts));
	opts.create_only = true;
	opts.delay_cmd_submit = true; /* doorbells / socket writes once per poll */
	/* One entry stays empty in an NVMe queue; requests cover DSM and split IOs too. */
	if (opts.io_queue_size < queue_depth + 1) {
		opts.io_queue_size = queue_depth + 1;
	}
	if (opts.io_queue_requests < 2 * opts.io_queue_size) {
		opts.io_queue_requests = 2 * opts.io_queue_size;
	}
	engine->group = spdk_nvme_poll_group_create(engine, NULL);
	if (engine->group == NULL) {
		return -ENOMEM;
	}
	engine->qpair = spdk_nvme_ctrlr_alloc_io_qpair(engine->dev.ctrlr, &opts, sizeof(opts));
	if (engine->qpair == NULL) {
		snprintf(err, err_len, "%s: the controller gave no IO queue pair (depth %u)",
			 engine->dev.address, queue_depth);
		return -ENOMEM;
	}
	if (spdk_nvme_poll_group_add(engine->group, engine->qpair) != 0 ||
	    spdk_nvme_ctrlr_connect_io_qpair(engine->dev.ctrlr, engine->qpair) != 0) {
		snprintf(err, err_len, "%s: the IO queue pair does not connect",
			 engine->dev.address);
		return -EIO;
	}
	engine->tags = queue_depth;
	engine->ios = calloc(queue_depth, sizeof(*engine->ios));
	engine->done = calloc(queue_depth, sizeof(*engine->done));
	if (engine->ios == NULL || engine->done == NULL) {
		return -ENOMEM;
	}
	for (i = 0; i < queue_depth; i++) {
		engine->ios[i].engine = engine;
		engine->ios[i].tag = i;
	}
	return 0;
}

static int spdk_engine_open(const struct dq_io_engine_open_args *args, void **data,
			    struct dq_device_target *target, char *err, size_t err_len)
{
	static const struct spdk_options defaults = { .admin_poll_ms = 10 };
	const struct spdk_options *options = args->options != NULL ? args->options : &defaults;
	struct dq_spdk_target parsed;
	struct spdk_engine *engine;
	int rc;

	/* A target that cannot parse is refused before the environment is touched. */
	rc = dq_spdk_target_parse(args->target, &parsed, err, err_len);
	if (rc != 0) {
		return rc;
	}
	rc = dq_spdk_env_init(options, err, err_len);
	if (rc != 0) {
		return rc;
	}
	engine = calloc(1, sizeof(*engine));
	if (engine == NULL) {
		return -ENOMEM;
	}
	rc = dq_spdk_dev_attach(&engine->dev, args->target, err, err_len);
	if (rc != 0) {
		free(engine);
		return rc;
	}
	engine->tsc_hz = spdk_get_ticks_hz();
	engine->ns_per_tick_q32 = (1000000000ULL << 32) / engine->tsc_hz;
	engine->lba_shift = (uint32_t)__builtin_ctz(engine->dev.lba_size);
	engine->admin_poll_tsc =
		engine->tsc_hz / 1000 * (options->admin_poll_ms > 0 ? options->admin_poll_ms : 1);
	engine->next_admin_tsc = spdk_get_ticks() + engine->admin_poll_tsc;
	rc = alloc_qpair(engine, args->queue_depth == 0 ? 1 : args->queue_depth, err, err_len);
	if (rc != 0) {
		spdk_engine_close(engine);
		return rc;
	}
	dq_spdk_dev_describe(&engine->dev, target);
	target->max_queue_depth = engine->tags;
	*data = engine;
	return 0;
}

static int spdk_engine_register_buffers(void *data, const struct iovec *buffers, unsigned count)
{
	struct spdk_engine *engine = data;
	unsigned i;

	/* NVMe-oF sends from any memory; a PCIe drive DMAs, so each tag gets a DMA-able stand-in
	 * as large as the core's buffers (the core has more buffers than tags: any may come). */
	for (i = 0; i < engine->tags; i++) {
		spdk_dma_free(engine->ios[i].dma);
		engine->ios[i].dma = NULL;
		if (count > 0 && engine->dev.target.trtype == DQ_SPDK_TRTYPE_PCIE) {
			engine->ios[i].dma = spdk_dma_zmalloc(buffers[0].iov_len, 4096, NULL);
			if (engine->ios[i].dma == NULL) {
				return -ENOMEM;
			}
		}
	}
	return 0;
}

static void io_done(void *arg, const struct spdk_nvme_cpl *cpl)
{
	struct spdk_io *io = arg;
	struct spdk_engine *engine = io->engine;
	struct dq_io_completion *out;
	uint64_t ticks = spdk_get_ticks() - io->submit_tsc;
	uint32_t slot = engine->done_head + engine->done_count;
	__extension__ unsigned __int128 ns = (unsigned __int128)ticks * engine->ns_per_tick_q32;

	out = &engine->done[slot >= engine->tags ? slot - engine->tags : slot];
	engine->done_count++;
	out->tag = io->tag;
	out->done_ns = 0;
	out->latency_ns = (uint64_t)(ns >> 32);
	out->result = spdk_nvme_cpl_is_error(cpl) ? -EIO : 0;
	if (out->result == 0 && io->dma != NULL && io->op == DQ_IO_READ) {
		memcpy(io->core_buf, io->dma, io->length);
	}
}

static int spdk_engine_queue(void *data, const struct dq_io *io)
{
	struct spdk_engine *engine = data;
	struct spdk_io *slot;
	uint64_t lba;
	uint32_t blocks;
	void *buf;
	int rc;

	if (io->tag >= engine->tags) {
		return -EINVAL;
	}
	if (engine->failed != 0) {
		return engine->failed;
	}
	slot = &engine->ios[io->tag];
	slot->core_buf = io->buf;
	slot->length = io->length;
	slot->op = io->op;
	buf = io->buf;
	if (slot->dma != NULL) {
		buf = slot->dma;
		if (io->op == DQ_IO_WRITE) {
			memcpy(buf, io->buf, io->length);
		}
	}
	lba = io->offset >> engine->lba_shift;
	blocks = io->length >> engine->lba_shift;
	/* Submitted at once, as spdk_nvme_perf does: the TSC stamp is the submission. */
	slot->submit_tsc = spdk_get_ticks();
	if (io->op == DQ_IO_READ) {
		rc = spdk_nvme_ns_cmd_read(engine->dev.ns, engine->qpair, buf, lba, blocks, io_done,
					   slot, 0);
	} else {
		rc = spdk_nvme_ns_cmd_write(engine->dev.ns, engine->qpair, buf, lba, blocks,
					    io_done, slot, 0);
	}
	return rc == -ENOMEM ? -EBUSY : rc;
}

static int spdk_engine_commit(void *data)
{
	(void)data; /* queue() submitted already */
	return 0;
}

static void poll_admin(struct spdk_engine *engine, uint64_t now)
{
	/* Keep-alives and asynchronous events ride on the admin queue; NVMe-oF targets drop a
	 * host that stays silent for the keep-alive timeout. */
	if (now >= engine->next_admin_tsc) {
		/* a health poll holding the admin queue keeps it alive meanwhile */
		if (pthread_mutex_trylock(&engine->dev.admin_lock) == 0) {
			spdk_nvme_ctrlr_process_admin_completions(engine->dev.ctrlr);
			pthread_mutex_unlock(&engine->dev.admin_lock);
		}
		engine->next_admin_tsc = now + engine->admin_poll_tsc;
	}
}

static void qpair_disconnected(struct spdk_nvme_qpair *qpair, void *ctx)
{
	struct spdk_engine *engine = ctx;

	(void)qpair;
	if (engine->failed == 0) {
		engine->failed = -ENXIO; /* the transport or the drive is gone */
	}
}

static int spdk_engine_getevents(void *data, struct dq_io_completion *out, unsigned max,
				 uint64_t timeout_ns)
{
	struct spdk_engine *engine = data;
	uint64_t start = spdk_get_ticks(), now = start;
	uint64_t timeout_tsc = timeout_ns / 1000 * engine->tsc_hz / 1000000;
	unsigned n = 0;
	int64_t rc;

	while (engine->done_count == 0 && engine->failed == 0) {
		rc = spdk_nvme_poll_group_process_completions(engine->group, 0, qpair_disconnected);
		if (rc < 0) {
			engine->failed = (int)rc;
			break;
		}
		now = spdk_get_ticks();
		poll_admin(engine, now);
		if (now - start >= timeout_tsc) {
			break;
		}
	}
	while (n < max && engine->done_count > 0) {
		out[n++] = engine->done[engine->done_head];
		engine->done_head = engine->done_head + 1 == engine->tags ? 0 :
									    engine->done_head + 1;
		engine->done_count--;
	}
	if (n == 0 && engine->failed != 0) {
		return engine->failed;
	}
	return (int)n;
}

/* An idle phase on a real clock: sleep in admin-poll steps so keep-alives still go out. */
static int spdk_engine_idle(void *data, uint64_t duration_ns)
{
	struct spdk_engine *engine = data;
	uint64_t step_ns = engine->admin_poll_tsc * 1000000000ULL / engine->tsc_hz, slept = 0, ns;
	struct timespec pause;

	while (slept < duration_ns) {
		pthread_mutex_lock(&engine->dev.admin_lock);
		spdk_nvme_ctrlr_process_admin_completions(engine->dev.ctrlr);
		pthread_mutex_unlock(&engine->dev.admin_lock);
		ns = duration_ns - slept < step_ns ? duration_ns - slept : step_ns;
		pause.tv_sec = (time_t)(ns / 1000000000ULL);
		pause.tv_nsec = (long)(ns % 1000000000ULL);
		nanosleep(&pause, NULL);
		slept += ns;
	}
	return 0;
}

static int spdk_engine_deallocate(void *data, uint64_t offset, uint64_t length, char *err,
				  size_t err_len)
{
	struct spdk_engine *engine = data;

	return dq_spdk_deallocate(&engine->dev, engine->qpair, engine->group,
				  offset / engine->dev.lba_size, length / engine->dev.lba_size, err,
				  err_len);
}

static int spdk_engine_purge(void *data, enum dq_purge_method method, char *err, size_t err_len)
{
	struct spdk_engine *engine = data;

	if (method == DQ_PURGE_METHOD_DEALLOCATE) {
		return dq_spdk_deallocate(&engine->dev, engine->qpair, engine->group, 0,
					  engine->dev.blocks, err, err_len);
	}
	return dq_spdk_purge(&engine->dev, method, err, err_len);
}

static int spdk_engine_smart(void *data, struct dq_smart_snapshot *out)
{
	struct spdk_engine *engine = data;

	return dq_spdk_smart(&engine->dev, out);
}

static void spdk_engine_close(void *data)
{
	struct spdk_engine *engine = data;
	uint32_t i;

	if (engine == NULL) {
		return;
	}
	/* Freeing the qpair aborts what is still in flight (their callbacks may run now, while the
	 * contexts exist); then the controller is detached. */
	if (engine->qpair != NULL) {
		spdk_nvme_ctrlr_free_io_qpair(engine->qpair);
	}
	if (engine->group != NULL) {
		spdk_nvme_poll_group_destroy(engine->group);
	}
	for (i = 0; engine->ios != NULL && i < engine->tags; i++) {
		spdk_dma_free(engine->ios[i].dma);
	}
	dq_spdk_dev_detach(&engine->dev);
	free(engine->ios);
	free(engine->done);
	free(engine);
}

static const struct dq_io_engine_ops spdk_engine_ops = {
	.name = "spdk",
	.version = DQ_IO_ENGINE_OPS_VERSION,
	.engine = DQ_ENGINE_SPDK,
	.flags = DQ_ENGINE_CAN_DEALLOCATE | DQ_ENGINE_HAS_SMART | DQ_ENGINE_OWN_LATENCY |
		 DQ_ENGINE_SMART_CONCURRENT,
	.target_help =
		"a PCIe BDF (0000:04:00.0) or an SPDK transport ID ('trtype:TCP "
		"adrfam:IPv4 traddr:127.0.0.1 trsvcid:4420 subnqn:NQN'), plus ns:N (default 1)",
	.options = spdk_engine_options,
	.options_size = sizeof(struct spdk_options),
	.open = spdk_engine_open,
	.register_buffers = spdk_engine_register_buffers,
	.queue = spdk_engine_queue,
	.commit = spdk_engine_commit,
	.getevents = spdk_engine_getevents,
	.idle = spdk_engine_idle,
	.deallocate = spdk_engine_deallocate,
	.purge = spdk_engine_purge,
	.smart = spdk_engine_smart,
	.close = spdk_engine_close,
};

const struct dq_io_engine_ops *dq_engine_spdk_ops(void)
{
	return &spdk_engine_ops;
}
