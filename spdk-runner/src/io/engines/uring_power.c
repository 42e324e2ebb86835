/*
 * What a power-cycle phase needs of the uring engine: a flush that makes completed writes durable,
 * and letting go of the device across a cut of its slot's power (release, then reopen under the
 * name it comes back with).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <liburing.h>

#include "contract/strutil.h"
#include "engines/uring_engine.h"

/* The user data of a flush (an fsync request): no IO has this tag. */
#define FLUSH_TAG (UINT64_MAX - 1)

/*
 * The flush op: an IORING_OP_FSYNC on the opened device. On a block device the kernel turns it
 * into a flush request (REQ_PREFLUSH), which the NVMe driver sends as an NVMe Flush when the
 * namespace declares a volatile write cache and skips when it declares none; on a loop device or a
 * file it reaches the filesystem's fsync. Chosen over an NVMe passthrough Flush because it takes
 * the same path as the writes (the block device, no /dev/ngXnY), works on every target this engine
 * opens, and is what a filesystem does on the drive. Called with no IOs in flight; the tick's
 * timeout may complete meanwhile and is put aside.
 */
int uring_flush(void *data, char *err, size_t err_len)
{
	struct uring_engine *engine = data;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&engine->ring);
	struct io_uring_cqe *cqe;
	int rc;

	if (sqe == NULL) {
		snprintf(err, err_len, "flush of %s: the submission queue is full", engine->path);
		return -EBUSY;
	}
	io_uring_prep_fsync(sqe, engine->io_fd, 0);
	sqe->flags |= engine->sqe_flags;
	io_uring_sqe_set_data64(sqe, FLUSH_TAG);
	engine->pending++;
	for (;;) {
		rc = io_uring_submit_and_wait(&engine->ring, 1);
		if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY) {
			snprintf(err, err_len, "flush of %s: submitting it failed: %s",
				 engine->path, strerror(-rc));
			return rc;
		}
		engine->pending = 0;
		while (io_uring_peek_cqe(&engine->ring, &cqe) == 0) {
			uint64_t tag = io_uring_cqe_get_data64(cqe);
			int res = cqe->res;

			io_uring_cqe_seen(&engine->ring, cqe);
			if (tag == TICK_TAG) {
				engine->tick_armed = false;
				engine->tick_ok = res == -ETIME;
				continue;
			}
			if (tag != FLUSH_TAG) {
				continue; /* no IOs are in flight during a flush */
			}
			if (res < 0) {
				snprintf(err, err_len, "flush of %s failed: %s", engine->path,
					 strerror(-res));
				return res;
			}
			return 0;
		}
	}
}

/* Let go of the device before its slot loses power: the ring (the kernel completes or cancels
 * what was in flight on its own), the registered file and every descriptor. */
static void release_locked(struct uring_engine *engine)
{
	if (engine->ring_ready) {
		io_uring_queue_exit(&engine->ring);
		engine->ring_ready = false;
	}
	if (engine->exclusive_fd >= 0) {
		close(engine->exclusive_fd);
		engine->exclusive_fd = -1;
	}
	if (engine->fd >= 0) {
		close(engine->fd);
		engine->fd = -1;
	}
	/* The generic device of placed writes goes too and is not opened again: a placed write after
	 * a power cycle fails (EBADF) rather than landing unplaced. */
	uring_passthru_close(engine);
	engine->buffers_registered = false;
	engine->pending = 0;
	engine->sync_count = 0;
	engine->tick_armed = false;
	engine->sqe_flags = 0;
}

void uring_release(void *data)
{
	struct uring_engine *engine = data;

	pthread_mutex_lock(&engine->device_lock);
	release_locked(engine);
	pthread_mutex_unlock(&engine->device_lock);
}

/* The device again after power returned, possibly under another name: as open() and claim() did. */
int uring_reopen(void *data, const char *target, char *err, size_t err_len)
{
	struct uring_engine *engine = data;
	int rc;

	pthread_mutex_lock(&engine->device_lock);
	release_locked(engine);
	dq_strlcpy(engine->path, target, sizeof(engine->path));
	engine->fd = open(target, engine->open_flags);
	if (engine->fd < 0) {
		rc = -errno;
		snprintf(err, err_len, "reopening %s: %s", target, strerror(-rc));
		pthread_mutex_unlock(&engine->device_lock);
		return rc;
	}
	rc = uring_ring_init(engine, &engine->options, engine->tags, err, err_len);
	if (rc == 0 && engine->claimed) {
		engine->claimed = false;
		rc = uring_claim(engine, err, err_len);
	}
	pthread_mutex_unlock(&engine->device_lock);
	return rc;
}
