/*
 * The IO engine interface: each engine (engines/<name>.c) fills one ops table, with a version and
 * capability flags, so the phase runner never asks which engine it drives. Engines own their
 * options (an offsetof table, as fio's), their device identity and their erase/SMART paths.
 */
#ifndef DRIVEQUAL_ENGINE_H
#define DRIVEQUAL_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/uio.h>

#include "contract/msg_common.h"
#include "device/target.h"
#include "io/histogram.h"
#include "io/power.h"

/* Bumped when dq_io_engine_ops changes; the registry refuses tables of another version. */
#define DQ_IO_ENGINE_OPS_VERSION 6

/* Capability flags (dq_io_engine_ops.flags). */
enum {
	/* The engine keeps time: now_ns() and completions' done_ns are its (simulated) clock and
	 * idle() advances it, so a 2000 s phase can run in seconds. */
	DQ_ENGINE_VIRTUAL_CLOCK = 1u << 0,
	/* No drive: nothing to protect, so the interlocks do not apply (whether reads return what
	 * was written is the target's keeps_data). */
	DQ_ENGINE_DISKLESS = 1u << 1,
	/* deallocate() works (TRIM / Dataset Management / hole punching). */
	DQ_ENGINE_CAN_DEALLOCATE = 1u << 2,
	/* smart() can return device-reported counters (a target may still say unavailable). */
	DQ_ENGINE_HAS_SMART = 1u << 3,
	/* The engine times each IO itself (the SPDK engine: TSC at submission and in the completion
	 * callback, as spdk_nvme_perf does) and returns it in latency_ns; the core records that
	 * instead of its commit-to-reap interval. */
	DQ_ENGINE_OWN_LATENCY = 1u << 4,
	/* smart() may run on another thread while IOs are in flight (health polls off the IO
	 * thread); without it the job polls health on its own thread between seconds. */
	DQ_ENGINE_SMART_CONCURRENT = 1u << 5,
	/* queue() takes DQ_IO_TRIM (an asynchronous deallocate of the IO's range, no buffer):
	 * what a stream with trims needs. */
	DQ_ENGINE_QUEUES_TRIMS = 1u << 6,
	/* queue() honours a write's FDP placement handle (dq_io.placed): what a stream with
	 * placementHandle needs, on a target whose fdp_handles it is below. */
	DQ_ENGINE_PLACES_WRITES = 1u << 7,
};

enum dq_io_op {
	DQ_IO_READ = 0,
	DQ_IO_WRITE = 1,
	DQ_IO_TRIM = 2, /* DQ_ENGINE_QUEUES_TRIMS only; buf is NULL */
};

/* One IO as the core queues it; the engine copies what it needs. */
struct dq_io {
	uint64_t offset; /* bytes from the start of the target, lba-aligned */
	uint32_t length; /* bytes, a multiple of the lba size (a trim's up to 2 GiB) */
	uint32_t tag; /* returned in the completion */
	void *buf; /* aligned to target.buffer_align */
	uint16_t buf_index; /* the buffer's index in register_buffers(), when it was called */
	uint8_t op; /* enum dq_io_op */
	uint8_t placed; /* a write with the FDP placement directive (DQ_ENGINE_PLACES_WRITES) */
	uint16_t placement_handle; /* when placed */
};

struct dq_io_completion {
	uint32_t tag;
	int32_t result; /* 0, or -errno (a short transfer is -EIO) */
	uint64_t done_ns; /* DQ_ENGINE_VIRTUAL_CLOCK only: the completion's time on the engine clock */
	uint64_t latency_ns; /* DQ_ENGINE_OWN_LATENCY only: submission to completion */
};

/* A closed loop an engine models as a whole (run_interval): the phase's shape. */
struct dq_io_load {
	uint32_t read_percent; /* 0 write only .. 100 read only */
	bool sequential;
	uint32_t block_size;
	uint32_t queue_depth;
	uint64_t range_bytes; /* addressed from offset 0 */
};

/* What completed in one modelled interval, by enum dq_io_op. */
struct dq_io_interval {
	uint64_t duration_ns; /* the interval covered: less than asked when the byte limit ended it */
	uint64_t ios[2];
	uint64_t bytes[2];
	struct dq_histogram *latency[2]; /* the core's: the engine records its IOs' latencies here */
	/* IOs outstanding integrated over the interval (IO-nanoseconds): the effective queue depth */
	uint64_t outstanding_io_ns;
};

/* Arguments of open(). */
struct dq_io_engine_open_args {
	const char *target; /* what --filename names: a path, "null:1g", a profile, ... */
	const void *options; /* the engine's option struct (dq_engine_options_*) */
	uint32_t queue_depth; /* the deepest queue the job will use */
	bool writable; /* the job has destructive phases; else open read-only */
	bool direct; /* bypass the page cache (kernel engines) */
};

enum dq_engine_option_type {
	DQ_ENGINE_OPTION_BOOL, /* bool */
	DQ_ENGINE_OPTION_UINT, /* uint32_t */
	DQ_ENGINE_OPTION_STR, /* char[DQ_ENGINE_OPTION_STR_MAX] */
};

#define DQ_ENGINE_OPTION_STR_MAX 256

/* One engine option (fio's offsetof tables): --name=value on the command line. */
struct dq_engine_option {
	const char *name;
	enum dq_engine_option_type type;
	size_t offset; /* into the engine's option struct */
	const char *default_value; /* NULL: zero */
	const char *help;
};

/*
 * Every op returns 0 (or a count) or -errno unless said otherwise; err receives a sentence for the
 * user where an op takes one. Optional ops may be NULL.
 */
struct dq_io_engine_ops {
	const char *name; /* the contract's engine name */
	uint32_t version; /* DQ_IO_ENGINE_OPS_VERSION */
	enum dq_engine engine;
	uint32_t flags;
	const char *target_help; /* what --filename takes, for --help and errors */
	const struct dq_engine_option *options; /* terminated by a NULL name; may be NULL */
	size_t options_size;

	int (*open)(const struct dq_io_engine_open_args *args, void **data,
		    struct dq_device_target *target, char *err, size_t err_len);
	/* Optional: take exclusive ownership before destructive work (kernel: O_EXCL keeps the
	 * device from being mounted meanwhile). -EBUSY when something else holds it. */
	int (*claim)(void *data, char *err, size_t err_len);
	/* Optional: pre-register the core's IO buffers (io_uring fixed buffers). */
	int (*register_buffers)(void *data, const struct iovec *buffers, unsigned count);
	/* Stage one IO. -EBUSY when the queue is full. */
	int (*queue)(void *data, const struct dq_io *io);
	/* Submit what was staged, now: the core calls it right after stamping the IOs as submitted
	 * when it has work to do before reaping (filling the next buffers) or other IOs are in
	 * flight (queue depth above 1). getevents() submits whatever is still staged, so a core
	 * that reaps at once (QD1 reads) skips this call. */
	int (*commit)(void *data);
	/* Reap up to max completions; wait up to timeout_ns for the first. Returns the count. */
	int (*getevents)(void *data, struct dq_io_completion *out, unsigned max,
			 uint64_t timeout_ns);
	/* DQ_ENGINE_VIRTUAL_CLOCK: the engine clock, >= every done_ns getevents() returned. */
	uint64_t (*now_ns)(void *data);
	/* DQ_ENGINE_VIRTUAL_CLOCK, optional (an open loop needs it): move the clock toward
	 * until_ns with IOs in flight, stopping at the earliest pending completion if it comes
	 * first. Returns 1 when a completion is due at the new now (getevents() hands it out
	 * without moving the clock), 0 when the clock reached until_ns with none due. */
	int (*advance)(void *data, uint64_t until_ns);
	/* DQ_ENGINE_VIRTUAL_CLOCK: let duration_ns pass with no host IO (background work runs).
	 * Optional on a real-clock engine: wait about duration_ns (at most one tick) keeping the
	 * device alive (the SPDK engine polls its admin queue: NVMe-oF keep-alives). */
	int (*idle)(void *data, uint64_t duration_ns);
	/* DQ_ENGINE_CAN_DEALLOCATE: deallocate [offset, offset + length), lba-aligned. */
	int (*deallocate)(void *data, uint64_t offset, uint64_t length, char *err, size_t err_len);
	/* Erase with a method in target.purge_methods (never DQ_PURGE_METHOD_AUTO). */
	int (*purge)(void *data, enum dq_purge_method method, char *err, size_t err_len);
	/* A snapshot of the device's counters, or available=false with the reason; never invented. */
	int (*smart)(void *data, struct dq_smart_snapshot *out);
	void (*close)(void *data);
	/* Optional: name every target this engine sees on the host (for `devices` and the
	 * heartbeat's inventory), each a string open() accepts. Returns 0 or -errno. */
	int (*discover)(void (*found)(const char *target, void *arg), void *arg);
	/* Optional: a hint that an IO at offset is coming soon (the sim engine warms its tables). */
	void (*prefetch)(void *data, uint64_t offset);
	/* Optional: true when this opened target models whole intervals rather than single IOs
	 * (the sim engine's fluid model): the core then calls run_interval(), never queue(). */
	bool (*models_intervals)(void *data);
	/* With models_intervals: run the closed loop of load for interval_ns (<= 1 s) from now_ns(),
	 * or until bytes_limit bytes completed (0: no limit); fill out and advance the clock. */
	int (*run_interval)(void *data, const struct dq_io_load *load, uint64_t interval_ns,
			    uint64_t bytes_limit, struct dq_io_interval *out);
	/* Optional: configure the drive's OCP latency monitor (Set Features C5h) when it has the
	 * log (C3h, GUID-checked). 0 done; -EOPNOTSUPP it has no such log (err says why: nothing
	 * was sent); another -errno: the drive refused (err says how). */
	int (*configure_latency_monitor)(void *data, const struct dq_latency_monitor_config *config,
					 char *err, size_t err_len);
	/* Optional: make every write that has completed durable (NVMe Flush); returns when the
	 * drive says it is done. With no IOs in flight. */
	int (*flush)(void *data, char *err, size_t err_len);
	/* Optional: the power driver this target brings with it (the simulator's). -ENOTSUP with
	 * the reason in err when it has none. */
	int (*power_driver)(void *data, struct dq_power_driver *out, char *err, size_t err_len);
	/* Optional (a power driver that removes the device, as slot power does): let go of the
	 * device, abandoning the IOs in flight (no completion will come) and closing every handle
	 * on it, keeping the engine's state. Nothing but reopen() or close() may follow. */
	void (*release)(void *data);
	/* Optional, with release: open the device again at target (its name may have changed),
	 * as open() did (writable, direct, claimed when it was). 0 or -errno with err. */
	int (*reopen)(void *data, const char *target, char *err, size_t err_len);
};

/* An opened engine: what the core holds. */
struct dq_io_engine {
	const struct dq_io_engine_ops *ops;
	void *data;
	struct dq_device_target target;
};

/* One registry entry: an engine of the contract, built into this runner or not (and why not). */
struct dq_io_engine_slot {
	enum dq_engine engine;
	/* The engine file's accessor of its static ops table; NULL: not in this build. */
	const struct dq_io_engine_ops *(*get_ops)(void);
	const char *missing_reason; /* when get_ops is NULL */
};

/* The registry in contract order; *count receives its length. */
const struct dq_io_engine_slot *dq_io_engine_slots(size_t *count);

/*
 * The engine called name ("uring"; "io_uring" is accepted as fio's name for it). Returns 0 and
 * *ops, -ENOENT (no such engine) or -ENOTSUP (an engine this build lacks; err says why).
 */
int dq_io_engine_find(const char *name, const struct dq_io_engine_ops **ops, char *err,
		      size_t err_len);

/* Open a target: 0, or -errno with the reason in err (-ENOENT: no such device). */
int dq_io_engine_open(struct dq_io_engine *engine, const struct dq_io_engine_ops *ops,
		      const struct dq_io_engine_open_args *args, char *err, size_t err_len);

/* Close an engine opened by dq_io_engine_open (or zeroed); safe to call twice. */
void dq_io_engine_close(struct dq_io_engine *engine);

static inline bool dq_io_engine_has(const struct dq_io_engine *engine, uint32_t flag)
{
	return (engine->ops->flags & flag) != 0;
}

/* A malloc'd option struct for ops with every default applied (or NULL for no options): 0 or
 * -ENOMEM. Free with free(). */
int dq_engine_options_new(const struct dq_io_engine_ops *ops, void **options);

/* Set one option by name. Returns 0, -ENOENT (not this engine's) or -EINVAL (bad value, err). */
int dq_engine_options_set(const struct dq_io_engine_ops *ops, void *options, const char *name,
			  const char *value, char *err, size_t err_len);

/* Print the engine's options for --help. */
void dq_engine_options_print(const struct dq_io_engine_ops *ops, FILE *out);

#endif /* DRIVEQUAL_ENGINE_H */
