/*
 * The power-cycle integrity phase (io/power_cycle.h). The journal lives in the runner's memory,
 * never on the drive under test: per block, the write sequence last acknowledged, the one the
 * drive promised to keep (acknowledged with power-loss protection, or covered by a completed
 * flush without), and the one in flight when the power went. Every write carries its sequence in
 * its self-describing header, so what a block holds after the cut names the write it came from.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contract/capabilities.h"
#include "contract/clock.h"
#include "io/block_header.h"
#include "io/power_cycle.h"
#include "io/prng.h"

#define PC_BLOCK_BYTES DQ_BLOCK_UNIT_BYTES
#define PC_QUEUE_DEPTH_MAX 256
/* 64 GiB of 4 KiB blocks: ~640 MiB of journal at most */
#define PC_JOURNAL_BLOCKS_MAX (16u << 20)
#define PC_WAIT_NS (5ULL * DQ_NS_PER_S)

/* One block of the range, as the journal knows it. */
struct pc_slot {
	uint64_t acked; /* the newest acknowledged write's sequence; 0: the block's zeros */
	uint64_t durable; /* the newest the drive must keep */
	uint64_t in_flight; /* submitted, no completion when the power went; 0: none */
	bool unknown; /* its last read-back was corrupt: no baseline until a durable write */
	bool journalled; /* written by this phase at some point */
	bool unflushed; /* acknowledged since the last flush (its index is in the list) */
};

/* An IO in flight: its tag indexes these. */
struct pc_io {
	uint64_t slot;
	uint64_t sequence;
	void *buf;
	bool busy;
};

struct pc_state {
	struct dq_io_engine *engine;
	const struct dq_power_cycle_config *config;
	enum dq_power_durability durability;
	struct pc_slot *slots;
	uint64_t slot_count;
	uint64_t *unflushed; /* slots acknowledged since the last flush */
	uint64_t unflushed_count;
	struct pc_io *ios;
	uint32_t in_flight;
	uint64_t next_sequence;
	uint64_t job_hash;
	struct dq_rng rng;
	struct dq_datagen gen;
	void *read_buf;
	char *err;
	size_t err_len;
};

int dq_power_cycle_admit(const struct dq_io_engine *engine, const char *power_driver,
			 const struct dq_power_cycle_config *config, struct dq_power_driver *driver,
			 enum dq_power_durability *durability, char *err, size_t err_len)
{
	const struct dq_capability_state *vwc =
		&engine->target.capabilities.items[DQ_CAPABILITY_VOLATILE_WRITE_CACHE];
	uint32_t lba_bytes = engine->target.device.lba_size_bytes;
	int rc;

	if (config->block_bytes != PC_BLOCK_BYTES || lba_bytes == 0 ||
	    PC_BLOCK_BYTES % lba_bytes != 0) {
		snprintf(
			err, err_len,
			"blockBytes: a power-cycle phase writes %u-byte self-describing blocks "
			"(one header each) on a drive whose LBA size divides it, not %u on %u-byte "
			"LBAs",
			PC_BLOCK_BYTES, config->block_bytes, lba_bytes);
		return -EINVAL;
	}
	if (config->range_bytes < PC_BLOCK_BYTES || config->range_bytes % PC_BLOCK_BYTES != 0 ||
	    config->range_bytes > engine->target.device.capacity_bytes) {
		snprintf(err, err_len,
			 "rangeBytes: %" PRIu64 " must be a whole number of %u-byte blocks within "
			 "the drive's %" PRIu64 " bytes",
			 config->range_bytes, PC_BLOCK_BYTES, engine->target.device.capacity_bytes);
		return -EINVAL;
	}
	if (config->range_bytes / PC_BLOCK_BYTES > PC_JOURNAL_BLOCKS_MAX) {
		snprintf(err, err_len,
			 "rangePercent: the journal keeps at most %u blocks (%u GiB) in the "
			 "runner's memory, not %" PRIu64,
			 PC_JOURNAL_BLOCKS_MAX, PC_JOURNAL_BLOCKS_MAX / (1u << 18),
			 config->range_bytes / PC_BLOCK_BYTES);
		return -EINVAL;
	}
	if (config->queue_depth == 0 || config->queue_depth > PC_QUEUE_DEPTH_MAX ||
	    config->queue_depth >= config->range_bytes / PC_BLOCK_BYTES) {
		snprintf(err, err_len,
			 "queueDepth: %u must be 1..%d and fewer than the range's blocks",
			 config->queue_depth, PC_QUEUE_DEPTH_MAX);
		return -EINVAL;
	}
	if (config->cycles == 0 || config->writes_per_cycle < 2) {
		snprintf(err, err_len,
			 "cycles (%u) must be at least 1 and writesPerCycle (%u) at "
			 "least 2",
			 config->cycles, config->writes_per_cycle);
		return -EINVAL;
	}
	if (config->cut_after_writes > config->writes_per_cycle) {
		snprintf(err, err_len, "cutAfterWrites: %u is beyond writesPerCycle %u",
			 config->cut_after_writes, config->writes_per_cycle);
		return -EINVAL;
	}
	rc = dq_power_driver_open(power_driver, config->site, engine, driver, err, err_len);
	if (rc != 0) {
		return rc;
	}
	if (!engine->target.keeps_data) {
		snprintf(err, err_len,
			 "the target keeps no data, so nothing can be verified after a cut: %s",
			 engine->target.no_data_reason);
		dq_power_driver_close(driver);
		return -ENOTSUP;
	}
	/* the drive's own answer says what it promises: without it a liar cannot be told apart */
	if (vwc->available) {
		if (engine->ops->flush == NULL) {
			snprintf(
				err, err_len,
				"the drive has a volatile write cache but engine %s cannot flush it",
				engine->ops->name);
			dq_power_driver_close(driver);
			return -ENOTSUP;
		}
		*durability = DQ_POWER_DURABLE_ON_FLUSH;
	} else if (vwc->missing == DQ_CAPABILITY_MISSING_DEVICE) {
		*durability = DQ_POWER_DURABLE_ON_ACK;
	} else {
		char why[DQ_CAPABILITY_DETAIL_MAX_CHARS + 64];

		dq_capability_explain(&engine->target.capabilities,
				      DQ_CAPABILITY_VOLATILE_WRITE_CACHE, why, sizeof(why));
		snprintf(err, err_len,
			 "the drive's volatile-write-cache answer is missing (%s): without it what "
			 "the drive promises to keep across a power cut is unknown",
			 why);
		dq_power_driver_close(driver);
		return -ENOTSUP;
	}
	return 0;
}

static uint64_t pc_now_ns(const struct pc_state *st)
{
	if (dq_io_engine_has(st->engine, DQ_ENGINE_VIRTUAL_CLOCK)) {
		return st->engine->ops->now_ns(st->engine->data);
	}
	return dq_clock_monotonic_ns();
}

/* A write completed: the journal records it acknowledged, durable at once with protection. */
static void pc_acknowledge(struct pc_state *st, struct pc_io *io)
{
	struct pc_slot *slot = &st->slots[io->slot];

	slot->acked = io->sequence;
	slot->in_flight = 0;
	slot->journalled = true;
	if (st->durability == DQ_POWER_DURABLE_ON_ACK) {
		slot->durable = io->sequence;
		slot->unknown = false;
	} else if (!slot->unflushed) {
		slot->unflushed = true;
		st->unflushed[st->unflushed_count++] = io->slot;
	}
	io->busy = false;
	st->in_flight--;
}

/* Reap at least one completion; returns how many writes were acknowledged, or -errno. */
static int pc_reap(struct pc_state *st, struct dq_power_cycle_counts *counts)
{
	struct dq_io_completion done[PC_QUEUE_DEPTH_MAX];
	int n, acknowledged = 0;

	n = st->engine->ops->getevents(st->engine->data, done, st->in_flight, PC_WAIT_NS);
	if (n < 0) {
		snprintf(st->err, st->err_len, "power-cycle: reaping writes failed: %s",
			 strerror(-n));
		return n;
	}
	for (int i = 0; i < n; i++) {
		struct pc_io *io = &st->ios[done[i].tag];

		if (done[i].result != 0) {
			snprintf(st->err, st->err_len,
				 "power-cycle: the write of block %" PRIu64 " failed: %s", io->slot,
				 strerror(-done[i].result));
			return done[i].result;
		}
		pc_acknowledge(st, io);
		counts->acknowledged++;
		acknowledged++;
	}
	return acknowledged;
}

/* Queue one write of a block with none in flight; returns 0 or -errno. */
static int pc_submit(struct pc_state *st)
{
	uint32_t lba_bytes = st->engine->target.device.lba_size_bytes;
	struct dq_block_header header = { .job_hash = st->job_hash, .lba_bytes = lba_bytes };
	struct dq_io io = { .length = PC_BLOCK_BYTES, .op = DQ_IO_WRITE };
	uint64_t slot;
	uint32_t tag = 0;
	int rc;

	do {
		slot = dq_rng_below(&st->rng, st->slot_count);
	} while (st->slots[slot].in_flight != 0);
	while (st->ios[tag].busy) {
		tag++;
	}
	header.lba = slot * (PC_BLOCK_BYTES / lba_bytes);
	header.sequence = st->next_sequence++;
	dq_block_fill(&st->gen, st->ios[tag].buf, PC_BLOCK_BYTES, PC_BLOCK_BYTES, &header, NULL);
	io.offset = slot * PC_BLOCK_BYTES;
	io.tag = tag;
	io.buf = st->ios[tag].buf;
	rc = st->engine->ops->queue(st->engine->data, &io);
	if (rc != 0) {
		snprintf(st->err, st->err_len, "power-cycle: queueing a write failed: %s",
			 strerror(-rc));
		return rc;
	}
	st->ios[tag] = (struct pc_io){
		.slot = slot, .sequence = header.sequence, .buf = st->ios[tag].buf, .busy = true
	};
	st->slots[slot].in_flight = header.sequence;
	st->in_flight++;
	return 0;
}

/* Drain what is in flight, then flush: what was acknowledged before it is now promised. */
static int pc_flush(struct pc_state *st, struct dq_power_cycle_result *result)
{
	struct dq_power_cycle_counts *counts = &result->counts;
	int rc;

	while (st->in_flight > 0) {
		rc = pc_reap(st, counts);
		if (rc < 0) {
			return rc;
		}
	}
	rc = st->engine->ops->flush(st->engine->data, st->err, st->err_len);
	if (rc != 0) {
		return rc;
	}
	for (uint64_t i = 0; i < st->unflushed_count; i++) {
		struct pc_slot *slot = &st->slots[st->unflushed[i]];

		slot->durable = slot->acked;
		slot->unknown = false;
		slot->unflushed = false;
	}
	st->unflushed_count = 0;
	counts->flushes++;
	result->last_flush_ns = pc_now_ns(st);
	return 0;
}

/* Read block slot into st->read_buf at queue depth 1. */
static int pc_read(struct pc_state *st, uint64_t slot)
{
	struct dq_io io = { .offset = slot * PC_BLOCK_BYTES,
			    .length = PC_BLOCK_BYTES,
			    .buf = st->read_buf,
			    .op = DQ_IO_READ };
	struct dq_io_completion done;
	int rc, n;

	rc = st->engine->ops->queue(st->engine->data, &io);
	if (rc == 0) {
		rc = st->engine->ops->commit(st->engine->data);
	}
	if (rc != 0) {
		return rc;
	}
	do {
		n = st->engine->ops->getevents(st->engine->data, &done, 1, PC_WAIT_NS);
	} while (n == 0);
	return n < 0 ? n : done.result;
}

static bool pc_all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (p[i] != 0) {
			return false;
		}
	}
	return true;
}

/* Classify one journalled block after the cut and rebase the journal on what it holds. */
static void pc_classify(struct pc_state *st, uint64_t index, struct dq_power_cycle_result *result)
{
	struct pc_slot *slot = &st->slots[index];
	struct dq_power_cycle_counts *c = &result->counts;
	uint32_t lba_bytes = st->engine->target.device.lba_size_bytes;
	uint64_t lba = index * (PC_BLOCK_BYTES / lba_bytes);
	struct dq_block_header h;
	enum dq_block_state state = dq_block_inspect(st->read_buf, PC_BLOCK_BYTES, &h, NULL);
	uint64_t found = 0;
	const char *failure = NULL;
	bool corrupt = false;

	if (state == DQ_BLOCK_VALID && h.job_hash == st->job_hash && h.lba == lba &&
	    h.sequence < st->next_sequence) {
		found = h.sequence;
	} else if (state != DQ_BLOCK_NO_HEADER || !pc_all_zero(st->read_buf, PC_BLOCK_BYTES)) {
		corrupt = true;
	}
	if (!corrupt && slot->in_flight != 0 && found == slot->in_flight) {
		c->intact++; /* the unacknowledged write landed */
	} else if (!corrupt && found == slot->acked) {
		c->intact++;
		if (slot->in_flight != 0) {
			c->in_flight_at_cut_lost++;
		}
	} else if (!corrupt && found > slot->acked) {
		corrupt = true; /* newer than anything sent there but the write in flight */
	} else if (!corrupt && (found >= slot->durable || slot->unknown)) {
		c->lost_allowed++;
	} else if (!corrupt) {
		c->lost_durable++;
		failure = "lost durable";
	}
	if (corrupt) {
		c->corrupt++;
		failure = "corrupt";
	}
	if (failure != NULL && result->first_failure[0] == '\0') {
		char described[96];

		dq_block_describe(st->read_buf, PC_BLOCK_BYTES, described, sizeof(described));
		snprintf(result->first_failure, sizeof(result->first_failure),
			 "%s: lba %" PRIu64 " expected seq %" PRIu64
			 " (durable; newest acked %" PRIu64 "), found %s",
			 failure, lba, slot->durable, slot->acked, described);
	}
	/* after the cut nothing is cached: what the block holds is its new durable baseline */
	slot->acked = slot->durable = corrupt ? 0 : found;
	slot->unknown = corrupt;
	slot->in_flight = 0;
}

/* One cycle: write until the cut point, cut, restore, verify every journalled block. */
static int pc_cycle(struct pc_state *st, const struct dq_power_driver *driver,
		    struct dq_power_cycle_result *result)
{
	const struct dq_power_cycle_config *config = st->config;
	struct dq_power_cycle_counts *counts = &result->counts;
	uint64_t since_flush = 0;
	int rc;

	result->cut_after_writes =
		config->cut_after_writes != 0 ?
			config->cut_after_writes :
			config->writes_per_cycle / 2 +
				(uint32_t)dq_rng_below(&st->rng,
						       config->writes_per_cycle -
							       config->writes_per_cycle / 2);
	while (counts->acknowledged < result->cut_after_writes) {
		while (st->in_flight < config->queue_depth) {
			rc = pc_submit(st);
			if (rc != 0) {
				return rc;
			}
		}
		rc = st->engine->ops->commit(st->engine->data);
		if (rc != 0) {
			snprintf(st->err, st->err_len, "power-cycle: submit failed: %s",
				 strerror(-rc));
			return rc;
		}
		rc = pc_reap(st, counts);
		if (rc < 0) {
			return rc;
		}
		since_flush += (uint64_t)rc;
		if (config->flush_every != 0 && since_flush >= config->flush_every &&
		    st->durability == DQ_POWER_DURABLE_ON_FLUSH &&
		    counts->acknowledged < result->cut_after_writes) {
			rc = pc_flush(st, result);
			if (rc != 0) {
				return rc;
			}
			since_flush = 0;
		}
	}
	/* the cut, with queue_depth writes in flight */
	while (st->in_flight < config->queue_depth) {
		rc = pc_submit(st);
		if (rc != 0) {
			return rc;
		}
	}
	rc = st->engine->ops->commit(st->engine->data);
	if (rc != 0) {
		snprintf(st->err, st->err_len, "power-cycle: submit failed: %s", strerror(-rc));
		return rc;
	}
	counts->in_flight_at_cut = st->in_flight;
	result->cut_ns = pc_now_ns(st);
	rc = driver->ops->cut(driver->ctx, st->err, st->err_len);
	if (rc != 0) {
		return rc;
	}
	for (uint32_t t = 0; t < config->queue_depth; t++) {
		st->ios[t].busy = false;
	}
	st->in_flight = 0;
	rc = driver->ops->restore(driver->ctx, st->err, st->err_len);
	if (rc != 0) {
		return rc;
	}
	if (driver->ops->truth != NULL) {
		result->has_truth = driver->ops->truth(driver->ctx, &result->truth) == 0;
	}
	for (uint64_t i = 0; i < st->unflushed_count; i++) {
		st->slots[st->unflushed[i]].unflushed = false;
	}
	st->unflushed_count = 0;
	for (uint64_t i = 0; i < st->slot_count; i++) {
		if (!st->slots[i].journalled && st->slots[i].in_flight == 0) {
			continue;
		}
		st->slots[i].journalled = true;
		rc = pc_read(st, i);
		if (rc != 0) {
			snprintf(st->err, st->err_len,
				 "power-cycle: reading block %" PRIu64
				 " back after the cut failed: %s",
				 i, strerror(-rc));
			return rc;
		}
		pc_classify(st, i, result);
	}
	result->pass = counts->lost_durable == 0 && counts->corrupt == 0;
	return 0;
}

static void pc_add(struct dq_power_cycle_counts *sum, const struct dq_power_cycle_counts *c)
{
	sum->intact += c->intact;
	sum->lost_allowed += c->lost_allowed;
	sum->lost_durable += c->lost_durable;
	sum->corrupt += c->corrupt;
	sum->acknowledged += c->acknowledged;
	sum->flushes += c->flushes;
	sum->in_flight_at_cut += c->in_flight_at_cut;
	sum->in_flight_at_cut_lost += c->in_flight_at_cut_lost;
}

int dq_power_cycle_run(struct dq_io_engine *engine, const struct dq_power_driver *driver,
		       enum dq_power_durability durability,
		       const struct dq_power_cycle_config *config, dq_power_cycle_fn on_cycle,
		       void *arg, struct dq_power_cycle_summary *summary, char *err, size_t err_len)
{
	struct pc_state st = {
		.engine = engine,
		.config = config,
		.durability = durability,
		.slot_count = config->range_bytes / PC_BLOCK_BYTES,
		.next_sequence = 1,
		.job_hash = dq_block_job_hash(config->job_id != NULL ? config->job_id : ""),
		.err = err,
		.err_len = err_len,
	};
	size_t align = engine->target.buffer_align > 64 ? engine->target.buffer_align : 64;
	int rc = -ENOMEM;

	memset(summary, 0, sizeof(*summary));
	summary->durability = durability;
	dq_rng_seed(&st.rng, config->seed);
	dq_datagen_seed(&st.gen, config->seed ^ 0x5eedULL);
	st.slots = calloc(st.slot_count, sizeof(*st.slots));
	st.unflushed = calloc(st.slot_count, sizeof(*st.unflushed));
	st.ios = calloc(config->queue_depth, sizeof(*st.ios));
	if (st.slots == NULL || st.unflushed == NULL || st.ios == NULL ||
	    posix_memalign(&st.read_buf, align, PC_BLOCK_BYTES) != 0) {
		snprintf(err, err_len, "power-cycle: out of memory for the journal");
		goto out;
	}
	for (uint32_t t = 0; t < config->queue_depth; t++) {
		if (posix_memalign(&st.ios[t].buf, align, PC_BLOCK_BYTES) != 0) {
			snprintf(err, err_len, "power-cycle: out of memory for the buffers");
			goto out;
		}
	}
	for (uint32_t cycle = 0; cycle < config->cycles; cycle++) {
		struct dq_power_cycle_result result = { .cycle = cycle };

		rc = pc_cycle(&st, driver, &result);
		if (rc != 0) {
			goto out;
		}
		summary->cycles++;
		summary->passed += result.pass;
		summary->failed += !result.pass;
		pc_add(&summary->totals, &result.counts);
		if (on_cycle != NULL) {
			rc = on_cycle(&result, arg);
			if (rc < 0) {
				goto out;
			}
		}
	}
	rc = 0;
out:
	if (st.ios != NULL) {
		for (uint32_t t = 0; t < config->queue_depth; t++) {
			free(st.ios[t].buf);
		}
	}
	free(st.read_buf);
	free(st.ios);
	free(st.unflushed);
	free(st.slots);
	return rc;
}
