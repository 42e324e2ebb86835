/*
 * The io_uring engine: O_DIRECT IO on kernel block devices (NVMe namespaces, loop devices) and
 * regular files with registered buffers and a registered file; IOs submitted by commit() or, when
 * the core skips it (QD1 reads), by the io_uring_enter that waits; the wait bounded by a timeout
 * request armed once per tick rather than a timer per wait; TRIM by BLKDISCARD or hole punching;
 * SMART and erase through NVMe admin passthrough; FDP placed writes as NVMe passthrough
 * commands (uring_passthru.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/falloc.h>
#include <linux/fs.h>
#include <liburing.h>

#include "contract/strutil.h"
#include "device/kdev.h"
#include "device/nvme_admin.h"
#include "engines.h"
#include "engines/uring_engine.h"
#include "io/engine.h"

/* An asynchronous discard of a block device's range (Linux 6.12+, include/uapi/linux/fs.h);
 * older headers lack it. */
#ifndef BLOCK_URING_CMD_DISCARD
#define BLOCK_URING_CMD_DISCARD _IO(0x12, 0)
#endif

static const struct dq_engine_option uring_options[] = {
	{
		.name = "defer_taskrun",
		.type = DQ_ENGINE_OPTION_BOOL,
		.offset = offsetof(struct uring_options, defer_taskrun),
		.default_value = "1",
		.help = "complete IOs only when the runner reaps (DEFER_TASKRUN); 0: COOP_TASKRUN",
	},
	{
		.name = "fixedbufs",
		.type = DQ_ENGINE_OPTION_BOOL,
		.offset = offsetof(struct uring_options, fixedbufs),
		.default_value = "1",
		.help = "register the IO buffers with the ring (no per-IO page pinning)",
	},
	{
		.name = "registerfiles",
		.type = DQ_ENGINE_OPTION_BOOL,
		.offset = offsetof(struct uring_options, registerfiles),
		.default_value = "1",
		.help = "register the target's file descriptor with the ring",
	},
	{
		.name = "sqthread_poll",
		.type = DQ_ENGINE_OPTION_BOOL,
		.offset = offsetof(struct uring_options, sqthread_poll),
		.default_value = "0",
		.help = "a kernel thread polls the submission queue (costs a core)",
	},
	{
		.name = "hipri",
		.type = DQ_ENGINE_OPTION_BOOL,
		.offset = offsetof(struct uring_options, hipri),
		.default_value = "0",
		.help = "polled completions (IORING_SETUP_IOPOLL; needs NVMe poll queues)",
	},
	{ .name = NULL },
};

int uring_ring_init(struct uring_engine *engine, const struct uring_options *options,
		    uint32_t depth, char *err, size_t err_len)
{
	struct io_uring_params params;
	unsigned entries = 1;
	int files[2], rc;

	while (entries < depth + 1) { /* + the tick's timeout request */
		entries <<= 1;
	}
	memset(&params, 0, sizeof(params));
	if (engine->ng_fd >= 0) {
		params.flags |= IORING_SETUP_SQE128 | IORING_SETUP_CQE32; /* NVMe passthrough */
	}
	if (options->sqthread_poll) {
		params.flags |= IORING_SETUP_SQPOLL;
		params.sq_thread_idle = 1000;
	} else if (!options->defer_taskrun) {
		params.flags |= IORING_SETUP_COOP_TASKRUN;
	} else {
		/* Completions are processed only when we reap: fewer interrupts of the loop. */
		params.flags |= IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
	}
	if (options->hipri) {
		params.flags |= IORING_SETUP_IOPOLL;
	}
	engine->tick_ok = !options->hipri;
	rc = io_uring_queue_init_params(entries, &engine->ring, &params);
	if (rc == -EINVAL && !options->sqthread_poll) {
		/* Kernels before 6.1 (DEFER_TASKRUN) or 5.19 (COOP_TASKRUN): plain setup. */
		params.flags &= ~(IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
				  IORING_SETUP_COOP_TASKRUN);
		rc = io_uring_queue_init_params(entries, &engine->ring, &params);
	}
	if (rc != 0) {
		snprintf(err, err_len, "io_uring setup failed: %s%s", strerror(-rc),
			 rc == -EPERM  ? " (io_uring disabled by kernel.io_uring_disabled?)" :
			 rc == -ENOMEM ? " (RLIMIT_MEMLOCK too low?)" :
					 "");
		return rc;
	}
	engine->ring_ready = true;
	/* Every io_uring_enter then skips looking the ring's fd up (and its reference counting, in a
	 * process with more than one thread); kernels before 5.18 refuse it, and nothing else changes. */
	(void)io_uring_register_ring_fd(&engine->ring);
	engine->io_fd = engine->fd;
	engine->ng_io_fd = engine->ng_fd;
	files[0] = engine->fd;
	files[1] = engine->ng_fd;
	if (options->registerfiles &&
	    io_uring_register_files(&engine->ring, files, engine->ng_fd >= 0 ? 2 : 1) == 0) {
		engine->io_fd = 0;
		engine->sqe_flags = IOSQE_FIXED_FILE;
		engine->ng_io_fd = 1;
		engine->ng_sqe_flags = IOSQE_FIXED_FILE;
	}
	return 0;
}

static void uring_close(void *data);

static int uring_open(const struct dq_io_engine_open_args *args, void **data,
		      struct dq_device_target *target, char *err, size_t err_len)
{
	static const struct uring_options defaults = { .defer_taskrun = true,
						       .fixedbufs = true,
						       .registerfiles = true };
	const struct uring_options *options = args->options != NULL ? args->options : &defaults;
	struct uring_engine *engine;
	struct stat st;
	int flags, rc;

	if (stat(args->target, &st) != 0) {
		rc = -errno;
		snprintf(err, err_len, "%s: %s", args->target, strerror(-rc));
		return rc;
	}
	if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode)) {
		snprintf(err, err_len, "%s is neither a block device nor a regular file",
			 args->target);
		return -ENODEV;
	}
	engine = calloc(1, sizeof(*engine));
	if (engine == NULL) {
		return -ENOMEM;
	}
	engine->exclusive_fd = -1;
	engine->ng_fd = -1;
	pthread_mutex_init(&engine->device_lock, NULL);
	engine->want_fixedbufs = options->fixedbufs;
	engine->options = *options;
	dq_strlcpy(engine->path, args->target, sizeof(engine->path));
	flags = (args->writable ? O_RDWR : O_RDONLY) | (args->direct ? O_DIRECT : 0) | O_CLOEXEC;
	engine->open_flags = flags;
	engine->fd = open(args->target, flags);
	if (engine->fd < 0) {
		rc = -errno;
		snprintf(err, err_len, "opening %s: %s%s", args->target, strerror(-rc),
			 rc == -EINVAL && args->direct ?
				 " (its filesystem does not support O_DIRECT; try --direct=0)" :
				 "");
		free(engine);
		return rc;
	}
	rc = dq_kdev_identify(engine->fd, args->target, &st, args->direct, target, &engine->kdev,
			      err, err_len);
	if (rc == 0) {
		engine->tags = args->queue_depth;
		engine->lengths = calloc(engine->tags, sizeof(*engine->lengths));
		engine->ops = calloc(engine->tags, sizeof(*engine->ops));
		engine->offsets = calloc(engine->tags, sizeof(*engine->offsets));
		engine->sync_done = calloc(engine->tags, sizeof(*engine->sync_done));
		engine->placed = calloc(engine->tags, sizeof(*engine->placed));
		rc = engine->lengths == NULL || engine->ops == NULL || engine->offsets == NULL ||
				     engine->sync_done == NULL || engine->placed == NULL ?
			     -ENOMEM :
			     0;
	}
	if (rc == 0) {
		rc = uring_passthru_open(engine, target, args->writable);
	}
	if (rc == 0) {
		rc = uring_ring_init(engine, options, args->queue_depth, err, err_len);
		if (rc == -EINVAL && engine->ng_fd >= 0) {
			/* a kernel without 128-byte SQEs: no placed writes, everything else */
			uring_passthru_unavailable(engine, target,
						   "this kernel's io_uring has no 128-byte SQEs "
						   "(NVMe passthrough needs Linux 5.19+)");
			rc = uring_ring_init(engine, options, args->queue_depth, err, err_len);
		}
	}
	if (rc != 0) {
		uring_close(engine);
		return rc;
	}
	target->max_queue_depth = engine->tags;
	target->keeps_data = true;
	*data = engine;
	return 0;
}

int uring_claim(void *data, char *err, size_t err_len)
{
	struct uring_engine *engine = data;
	int rc;

	if (engine->kdev.kind == DQ_KDEV_FILE || engine->exclusive_fd >= 0) {
		return 0;
	}
	/* The kernel refuses O_EXCL while the device is mounted or held, and refuses mounts while
	 * we hold it: nothing can mount it mid-job. */
	engine->exclusive_fd = open(engine->path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (engine->exclusive_fd < 0) {
		rc = -errno;
		snprintf(err, err_len, "%s: cannot open it exclusively (%s): something holds it",
			 engine->path, strerror(-rc));
		return rc == -EBUSY ? -EBUSY : rc;
	}
	engine->claimed = true;
	return 0;
}

static int uring_register_buffers(void *data, const struct iovec *buffers, unsigned count)
{
	struct uring_engine *engine = data;

	if (engine->buffers_registered) {
		io_uring_unregister_buffers(&engine->ring);
		engine->buffers_registered = false;
	}
	if (count > UINT16_MAX + 1u) {
		return -EINVAL; /* buf_index is 16 bits */
	}
	/* Without fixed buffers (option off, or RLIMIT_MEMLOCK) the kernel pins pages per IO. */
	if (engine->want_fixedbufs &&
	    io_uring_register_buffers(&engine->ring, buffers, count) == 0) {
		engine->buffers_registered = true;
	}
	return 0;
}

/* A trim now, in the calling thread: BLKDISCARD or a punched hole. 0 or -errno. */
static int sync_trim(struct uring_engine *engine, uint64_t offset, uint64_t length)
{
	uint64_t range[2] = { offset, length };
	int rc = engine->kdev.kind == DQ_KDEV_FILE ?
			 fallocate(engine->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				   (off_t)offset, (off_t)length) :
			 ioctl(engine->fd, BLKDISCARD, range);

	return rc != 0 ? -errno : 0;
}

/* A trim as a request: a punched hole (IORING_OP_FALLOCATE, run by io-wq) in a file, the
 * block layer's discard command on a device; a kernel that refuses the command gets every later
 * trim synchronously (its completion handed out by the next getevents()). */
static int queue_trim(struct uring_engine *engine, const struct dq_io *io)
{
	struct io_uring_sqe *sqe;

	engine->ops[io->tag] = DQ_IO_TRIM;
	engine->offsets[io->tag] = io->offset;
	engine->lengths[io->tag] = io->length;
	if (engine->kdev.kind != DQ_KDEV_FILE && engine->discard_cmd_refused) {
		engine->sync_done[engine->sync_count++] = (struct dq_io_completion){
			.tag = io->tag, .result = sync_trim(engine, io->offset, io->length)
		};
		return 0;
	}
	sqe = io_uring_get_sqe(&engine->ring);
	if (sqe == NULL) {
		return -EBUSY;
	}
	if (engine->kdev.kind == DQ_KDEV_FILE) {
		io_uring_prep_fallocate(sqe, engine->io_fd,
					FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
					(off_t)io->offset, (off_t)io->length);
	} else {
		io_uring_prep_rw(IORING_OP_URING_CMD, sqe, engine->io_fd, NULL, 0, 0);
		sqe->cmd_op = BLOCK_URING_CMD_DISCARD;
		sqe->addr = io->offset;
		sqe->addr3 = io->length;
	}
	sqe->flags |= engine->sqe_flags;
	io_uring_sqe_set_data64(sqe, io->tag);
	engine->pending++;
	return 0;
}

static int uring_queue(void *data, const struct dq_io *io)
{
	struct uring_engine *engine = data;
	struct io_uring_sqe *sqe;

	if (io->tag >= engine->tags) {
		return -EINVAL;
	}
	engine->placed[io->tag] = false;
	if (io->op == DQ_IO_TRIM) {
		return queue_trim(engine, io);
	}
	if (io->op == DQ_IO_WRITE && io->placed) {
		return uring_passthru_queue(engine, io);
	}
	sqe = io_uring_get_sqe(&engine->ring);
	if (sqe == NULL) {
		return -EBUSY;
	}
	engine->ops[io->tag] = io->op;
	if (engine->buffers_registered) {
		if (io->op == DQ_IO_READ) {
			io_uring_prep_read_fixed(sqe, engine->io_fd, io->buf, io->length,
						 io->offset, io->buf_index);
		} else {
			io_uring_prep_write_fixed(sqe, engine->io_fd, io->buf, io->length,
						  io->offset, io->buf_index);
		}
	} else if (io->op == DQ_IO_READ) {
		io_uring_prep_read(sqe, engine->io_fd, io->buf, io->length, io->offset);
	} else {
		io_uring_prep_write(sqe, engine->io_fd, io->buf, io->length, io->offset);
	}
	sqe->flags |= engine->sqe_flags;
	io_uring_sqe_set_data64(sqe, io->tag);
	engine->lengths[io->tag] = io->length;
	engine->pending++;
	return 0;
}

static int uring_commit(void *data)
{
	struct uring_engine *engine = data;
	int rc;

	/* The core commits when it has work before reaping (filling the next write buffers):
	 * submit now. Otherwise it skips this and getevents() submits and waits in one call. */
	if (engine->pending == 0) {
		return 0;
	}
	rc = io_uring_submit(&engine->ring);
	if (rc < 0 && rc != -EAGAIN && rc != -EBUSY && rc != -EINTR) {
		return rc;
	}
	if (rc > 0) {
		engine->pending -= (unsigned)rc < engine->pending ? (unsigned)rc : engine->pending;
	}
	return 0;
}

/* Stage the tick's timeout request unless one is in flight; false when the wait needs a timer. */
static bool arm_tick(struct uring_engine *engine, uint64_t timeout_ns)
{
	struct io_uring_sqe *sqe;

	if (!engine->tick_ok) {
		return false;
	}
	if (engine->tick_armed) {
		/* a shorter wait than the tick in flight (an open loop's next arrival) gets its
		 * own timer */
		return timeout_ns >= engine->tick_ns;
	}
	sqe = io_uring_get_sqe(&engine->ring);
	if (sqe == NULL) {
		return false;
	}
	engine->tick.tv_sec = (long long)(timeout_ns / 1000000000ULL);
	engine->tick.tv_nsec = (long long)(timeout_ns % 1000000000ULL);
	engine->tick_ns = timeout_ns;
	io_uring_prep_timeout(sqe, &engine->tick, 0, 0);
	io_uring_sqe_set_data64(sqe, TICK_TAG);
	engine->pending++;
	engine->tick_armed = true;
	return true;
}

static int uring_getevents(void *data, struct dq_io_completion *out, unsigned max,
			   uint64_t timeout_ns)
{
	struct uring_engine *engine = data;
	struct __kernel_timespec timeout = { .tv_sec = (long long)(timeout_ns / 1000000000ULL),
					     .tv_nsec = (long long)(timeout_ns % 1000000000ULL) };
	struct io_uring_cqe *cqe;
	unsigned head, seen = 0, n = 0;
	int rc;

	while (n < max && engine->sync_count > 0) {
		out[n++] = engine->sync_done[--engine->sync_count];
	}
	if (n > 0) {
		return (int)n; /* done already: the caller reaps the ring on its next call */
	}
	if (engine->pending > 0 || io_uring_cq_ready(&engine->ring) == 0) {
		rc = arm_tick(engine, timeout_ns) ?
			     io_uring_submit_and_wait(&engine->ring, 1) :
			     io_uring_submit_and_wait_timeout(&engine->ring, &cqe, 1, &timeout,
							      NULL);
		if (rc >= 0 || rc == -ETIME) {
			engine->pending = 0; /* liburing submitted them before waiting */
		} else if (rc != -EINTR && rc != -EAGAIN && rc != -EBUSY) {
			return rc;
		}
	}
	io_uring_for_each_cqe(&engine->ring, head, cqe)
	{
		uint64_t tag = io_uring_cqe_get_data64(cqe);

		if (n == max) {
			break;
		}
		seen++;
		if (tag == TICK_TAG) {
			/* -ETIME: the tick passed; anything else: no timeout requests here */
			engine->tick_armed = false;
			engine->tick_ok = cqe->res == -ETIME;
			continue;
		}
		out[n].tag = (uint32_t)tag;
		out[n].done_ns = 0;
		if (tag < engine->tags && engine->ops[tag] == DQ_IO_TRIM) {
			out[n].result = cqe->res < 0 ? cqe->res : 0;
			if ((cqe->res == -EOPNOTSUPP || cqe->res == -EINVAL ||
			     cqe->res == -ENOTTY) &&
			    engine->kdev.kind != DQ_KDEV_FILE) {
				/* no discard command in this kernel: this one and the rest now */
				engine->discard_cmd_refused = true;
				out[n].result = sync_trim(engine, engine->offsets[tag],
							  engine->lengths[tag]);
			}
		} else if (tag < engine->tags && engine->placed[tag]) {
			out[n].result = uring_passthru_result(cqe->res);
		} else if (cqe->res < 0) {
			out[n].result = cqe->res;
		} else {
			out[n].result = tag < engine->tags &&
							(uint32_t)cqe->res == engine->lengths[tag] ?
						0 :
						-EIO;
		}
		n++;
	}
	io_uring_cq_advance(&engine->ring, seen);
	return (int)n;
}

int uring_deallocate(void *data, uint64_t offset, uint64_t length, char *err, size_t err_len)
{
	struct uring_engine *engine = data;
	uint64_t range[2] = { offset, length };
	int rc;

	if (engine->kdev.kind == DQ_KDEV_FILE) {
		rc = fallocate(engine->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			       (off_t)offset, (off_t)length);
	} else {
		rc = ioctl(engine->fd, BLKDISCARD, range);
	}
	if (rc != 0) {
		rc = -errno;
		snprintf(err, err_len, "%s %s [%llu, +%llu): %s",
			 engine->kdev.kind == DQ_KDEV_FILE ? "punching a hole in" : "BLKDISCARD of",
			 engine->path, (unsigned long long)offset, (unsigned long long)length,
			 strerror(-rc));
		return rc;
	}
	return 0;
}

static void uring_close(void *data)
{
	struct uring_engine *engine = data;

	if (engine == NULL) {
		return;
	}
	if (engine->ring_ready) {
		io_uring_queue_exit(&engine->ring);
	}
	if (engine->exclusive_fd >= 0) {
		close(engine->exclusive_fd);
	}
	if (engine->fd >= 0) {
		close(engine->fd);
	}
	uring_passthru_close(engine);
	free(engine->placed);
	free(engine->lengths);
	free(engine->ops);
	free(engine->offsets);
	free(engine->sync_done);
	pthread_mutex_destroy(&engine->device_lock);
	free(engine);
}

static const struct dq_io_engine_ops uring_ops = {
	.name = "uring",
	.version = DQ_IO_ENGINE_OPS_VERSION,
	.engine = DQ_ENGINE_URING,
	.flags = DQ_ENGINE_QUEUES_TRIMS | DQ_ENGINE_CAN_DEALLOCATE | DQ_ENGINE_HAS_SMART |
		 DQ_ENGINE_SMART_CONCURRENT | DQ_ENGINE_PLACES_WRITES,
	.target_help = "a block device (/dev/nvme0n1, /dev/loop0) or a regular file",
	.options = uring_options,
	.options_size = sizeof(struct uring_options),
	.open = uring_open,
	.claim = uring_claim,
	.register_buffers = uring_register_buffers,
	.queue = uring_queue,
	.commit = uring_commit,
	.getevents = uring_getevents,
	.deallocate = uring_deallocate,
	.purge = uring_purge,
	.smart = uring_smart,
	.configure_latency_monitor = uring_configure_latency_monitor,
	.flush = uring_flush,
	.release = uring_release,
	.reopen = uring_reopen,
	.close = uring_close,
	.discover = dq_kdev_discover,
};

const struct dq_io_engine_ops *dq_engine_uring_ops(void)
{
	return &uring_ops;
}
