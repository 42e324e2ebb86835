/*
 * Shared between the uring engine's files (engines/uring.c: the ops table, the ring, the IO path
 * and TRIM; engines/uring_admin.c: purge, SMART and the OCP latency monitor through NVMe admin
 * passthrough; engines/uring_passthru.c: FDP placed writes as NVMe passthrough commands;
 * engines/uring_power.c: flush, release and reopen for power cycles).
 */
#ifndef DRIVEQUAL_ENGINE_URING_INTERNAL_H
#define DRIVEQUAL_ENGINE_URING_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <liburing.h>

#include "device/kdev.h"
#include "io/engine.h"

/* The engine's options (uring.c's option table fills them). */
struct uring_options {
	bool defer_taskrun;
	bool fixedbufs;
	bool registerfiles;
	bool sqthread_poll;
	bool hipri;
};

struct uring_engine {
	struct io_uring ring;
	bool ring_ready;
	int fd;
	int exclusive_fd; /* O_EXCL hold on a block device during destructive work */
	int io_fd; /* what SQEs name: 0 with a registered file, else fd */
	unsigned sqe_flags;
	bool buffers_registered;
	bool want_fixedbufs;
	unsigned pending; /* staged SQEs not yet submitted */
	/* The wait's bound: an IORING_OP_TIMEOUT request in flight (tick_armed) completes after the
	 * tick and ends any wait, so io_uring_enter waits without a timer of its own (one armed and
	 * cancelled per wait costs about a microsecond per IO in a VM). tick_ok false (a polled
	 * ring, which takes no timeout request, or one the kernel refused): a timer per wait. */
	bool tick_ok;
	bool tick_armed;
	struct __kernel_timespec tick;
	uint64_t tick_ns;
	uint32_t tags; /* completions' tags are below this */
	uint32_t *lengths; /* expected bytes per tag, to turn short transfers into -EIO */
	uint8_t *ops; /* enum dq_io_op per tag */
	uint64_t *offsets; /* per tag: a refused asynchronous discard is redone synchronously */
	/* Trims done synchronously (a kernel without the discard command): handed out first. */
	struct dq_io_completion *sync_done;
	uint32_t sync_count;
	bool discard_cmd_refused;
	/* FDP placed writes (uring_passthru.c): the namespace's /dev/ngXnY when the drive places
	 * and the job writes, else -1; what SQEs name for it; which tags are passthrough writes. */
	int ng_fd;
	int ng_io_fd;
	unsigned ng_sqe_flags;
	uint32_t lba_bytes;
	bool *placed;
	struct dq_kdev kdev;
	char path[4096];
	/* Held by smart() (a health poll on another thread) and by release()/reopen(): a poll never
	 * uses a descriptor a power cycle is closing or replacing. */
	pthread_mutex_t device_lock;
	/* What open() did, so reopen() after a power cut does it again. */
	int open_flags;
	bool claimed;
	struct uring_options options;
};

/* The user data of the tick's timeout request: no IO has this tag. */
#define TICK_TAG UINT64_MAX

/* Set the ring up for depth IOs (plus the tick) on engine->fd: 0 or -errno with err. */
int uring_ring_init(struct uring_engine *engine, const struct uring_options *options,
		    uint32_t depth, char *err, size_t err_len);
/* The engine's claim op: an O_EXCL hold on a block device. */
int uring_claim(void *data, char *err, size_t err_len);

/* uring_power: the engine's flush, release and reopen ops. */
int uring_flush(void *data, char *err, size_t err_len);
void uring_release(void *data);
int uring_reopen(void *data, const char *target, char *err, size_t err_len);

/* The engine's deallocate op: TRIM of [offset, offset + length) (0 or -errno, err). */
int uring_deallocate(void *data, uint64_t offset, uint64_t length, char *err, size_t err_len);

/* uring_admin: the engine's purge, smart and configure_latency_monitor ops. */
int uring_purge(void *data, enum dq_purge_method method, char *err, size_t err_len);
int uring_smart(void *data, struct dq_smart_snapshot *out);
int uring_configure_latency_monitor(void *data, const struct dq_latency_monitor_config *config,
				    char *err, size_t err_len);

/* uring_passthru: open the generic device when the target places writes (0; a failure only turns
 * placement off, target's fdp_handles 0 and its fdp detail saying why), close it, stage a placed
 * write (0, -EBUSY, -EOPNOTSUPP), and turn a passthrough completion into 0 or -errno. */
struct nvme_uring_cmd;
int uring_passthru_open(struct uring_engine *engine, struct dq_device_target *target,
			bool writable);
void uring_passthru_close(struct uring_engine *engine);
/* Placed writes cannot be sent after all: close the generic device, target's fdp_handles 0, its
 * fdp detail saying why. */
void uring_passthru_unavailable(struct uring_engine *engine, struct dq_device_target *target,
				const char *why);
int uring_passthru_queue(struct uring_engine *engine, const struct dq_io *io);
int32_t uring_passthru_result(int32_t res);
/* The NVMe Write command of a placed io (for tests: DTYPE, DSPEC, SLBA, NLB). */
void uring_passthru_cmd(const struct uring_engine *engine, const struct dq_io *io,
			struct nvme_uring_cmd *cmd);

#endif /* DRIVEQUAL_ENGINE_URING_INTERNAL_H */
