/*
 * Read-backs (readback.h): a plain closed loop over a plan of extents, with none of the timed
 * phase's machinery (no samples, no latency), because what matters here is what the blocks hold.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "contract/clock.h"
#include "readback.h"

/* A device that completes nothing for this long fails the read-back. */
#define STALL_LIMIT_NS (120ULL * DQ_NS_PER_S)

void dq_readback_plan_init(struct dq_readback_plan *plan, uint64_t end_bytes, uint32_t unit_bytes,
			   uint64_t strata, uint64_t seed)
{
	uint64_t units = (end_bytes + unit_bytes - 1) / unit_bytes;

	memset(plan, 0, sizeof(*plan));
	plan->end_bytes = end_bytes;
	plan->unit_bytes = unit_bytes;
	plan->strata = strata >= units ? 0 : strata; /* as many strata as units: every unit */
	plan->seed = seed;
	dq_readback_plan_rewind(plan);
}

void dq_readback_plan_rewind(struct dq_readback_plan *plan)
{
	plan->next = 0;
	dq_rng_seed(&plan->rng, plan->seed);
}

bool dq_readback_plan_next(struct dq_readback_plan *plan, uint64_t *offset, uint32_t *length)
{
	uint64_t units, first, size, unit;

	if (plan->strata == 0) {
		if (plan->next >= plan->end_bytes) {
			return false;
		}
		*offset = plan->next;
		*length = plan->end_bytes - plan->next < DQ_READBACK_IO_BYTES ?
				  (uint32_t)(plan->end_bytes - plan->next) :
				  DQ_READBACK_IO_BYTES;
		plan->next += *length;
		return true;
	}
	if (plan->next >= plan->strata) {
		return false;
	}
	units = (plan->end_bytes + plan->unit_bytes - 1) / plan->unit_bytes;
	first = (uint64_t)((unsigned __int128)plan->next * units / plan->strata);
	size = (uint64_t)((unsigned __int128)(plan->next + 1) * units / plan->strata) - first;
	unit = first + dq_rng_below(&plan->rng, size);
	*offset = unit * plan->unit_bytes;
	*length = plan->end_bytes - *offset < plan->unit_bytes ?
			  (uint32_t)(plan->end_bytes - *offset) :
			  plan->unit_bytes;
	plan->next++;
	return true;
}

struct readback_slot {
	uint64_t offset;
	uint32_t length;
	bool busy;
};

struct readback {
	const struct dq_phase_env *env;
	struct dq_io_engine *engine;
	uint32_t queue_depth;
	uint32_t stride;
	void *buffers;
	struct readback_slot *slots;
	struct dq_io_completion *events;
	uint32_t inflight;
	bool broken; /* the engine may still own the buffers: never free them */
};

static int readback_setup(struct readback *rb, const struct dq_phase_env *env, uint32_t io_bytes)
{
	uint32_t align = env->engine->target.buffer_align, i;
	struct iovec *iov;
	int rc = 0;

	memset(rb, 0, sizeof(*rb));
	rb->env = env;
	rb->engine = env->engine;
	rb->queue_depth = DQ_READBACK_QUEUE_DEPTH;
	if (rb->engine->target.max_queue_depth > 0 &&
	    rb->queue_depth > rb->engine->target.max_queue_depth) {
		rb->queue_depth = rb->engine->target.max_queue_depth;
	}
	rb->stride = (io_bytes + 4095) & ~4095u;
	rb->slots = calloc(rb->queue_depth, sizeof(*rb->slots));
	rb->events = calloc(rb->queue_depth, sizeof(*rb->events));
	iov = calloc(rb->queue_depth, sizeof(*iov));
	if (rb->slots == NULL || rb->events == NULL || iov == NULL ||
	    posix_memalign(&rb->buffers, align < 64 ? 64 : align,
			   (size_t)rb->stride * rb->queue_depth) != 0) {
		free(iov);
		return -ENOMEM;
	}
	memset(rb->buffers, 0, (size_t)rb->stride * rb->queue_depth);
	for (i = 0; i < rb->queue_depth; i++) {
		iov[i].iov_base = (char *)rb->buffers + (size_t)i * rb->stride;
		iov[i].iov_len = rb->stride;
	}
	if (rb->engine->ops->register_buffers != NULL) {
		rc = rb->engine->ops->register_buffers(rb->engine->data, iov, rb->queue_depth);
	}
	free(iov);
	return rc;
}

static void readback_fini(struct readback *rb)
{
	if (!rb->broken) {
		free(rb->buffers);
	}
	free(rb->slots);
	free(rb->events);
}

static void *slot_buffer(const struct readback *rb, uint32_t tag)
{
	return (char *)rb->buffers + (size_t)tag * rb->stride;
}

/* Queue the plan's next extents into the free slots; false once the plan is done. */
static bool readback_fill(struct readback *rb, struct dq_readback_plan *plan, uint8_t op,
			  dq_readback_fn fn, void *arg, int *rc, char *err, size_t err_len)
{
	struct dq_io io;
	uint64_t offset;
	uint32_t length, tag;

	for (tag = 0; tag < rb->queue_depth; tag++) {
		if (rb->slots[tag].busy) {
			continue;
		}
		if (!dq_readback_plan_next(plan, &offset, &length)) {
			return false;
		}
		if (op == DQ_IO_WRITE) {
			fn(arg, offset, length, slot_buffer(rb, tag));
		}
		io = (struct dq_io){ .offset = offset,
				     .length = length,
				     .tag = tag,
				     .buf = slot_buffer(rb, tag),
				     .buf_index = (uint16_t)tag,
				     .op = op };
		*rc = rb->engine->ops->queue(rb->engine->data, &io);
		if (*rc != 0) {
			snprintf(err, err_len, "queueing a read-back IO: %s", strerror(-*rc));
			return false;
		}
		rb->slots[tag] =
			(struct readback_slot){ .offset = offset, .length = length, .busy = true };
		rb->inflight++;
	}
	return true;
}

int dq_readback_run(const struct dq_phase_env *env, struct dq_readback_plan *plan, uint8_t op,
		    dq_readback_fn fn, void *arg, uint64_t *bytes, char *err, size_t err_len)
{
	struct readback rb;
	bool more = true;
	uint64_t progress_ns;
	int rc, n, i;

	*bytes = 0;
	rc = readback_setup(&rb, env, plan->strata > 0 ? plan->unit_bytes : DQ_READBACK_IO_BYTES);
	if (rc != 0) {
		snprintf(err, err_len, "setting up a read-back: %s", strerror(-rc));
		readback_fini(&rb);
		return rc;
	}
	progress_ns = dq_phase_env_now(env);
	while (!rb.broken) {
		if (more && rc == 0) {
			more = readback_fill(&rb, plan, op, fn, arg, &rc, err, err_len);
		}
		if (rb.inflight == 0) {
			break;
		}
		if (rb.engine->ops->commit(rb.engine->data) != 0 ||
		    (n = rb.engine->ops->getevents(rb.engine->data, rb.events, rb.queue_depth,
						   DQ_TICK_NS)) < 0) {
			rb.broken = true;
			rc = -EIO;
			snprintf(err, err_len, "the engine failed to submit or reap read-back IOs");
			break;
		}
		for (i = 0; i < n; i++) {
			struct readback_slot *slot = &rb.slots[rb.events[i].tag];

			slot->busy = false;
			rb.inflight--;
			if (rb.events[i].result < 0 && rc == 0) {
				rc = rb.events[i].result;
				snprintf(err, err_len, "%s %u bytes at offset %" PRIu64 ": %s",
					 op == DQ_IO_READ ? "reading back" : "writing a canary",
					 slot->length, slot->offset, strerror(-rc));
			} else if (rb.events[i].result == 0) {
				if (op == DQ_IO_READ) {
					fn(arg, slot->offset, slot->length,
					   slot_buffer(&rb, rb.events[i].tag));
				}
				*bytes += slot->length;
			}
		}
		if (n > 0 || env->virtual_clock) {
			progress_ns = dq_phase_env_now(env);
		} else if (dq_phase_env_now(env) - progress_ns > STALL_LIMIT_NS) {
			rb.broken = true;
			rc = -ETIMEDOUT;
			snprintf(err, err_len, "no read-back IO completed for 120 s");
		}
		if (rc == 0 && atomic_load(env->cancel) != 0) {
			rc = -ECANCELED;
		}
		more = more && rc == 0;
	}
	readback_fini(&rb);
	return rc;
}
