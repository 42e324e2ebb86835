/*
 * Shared between the sim engine's files (engines/sim.c: the ops table, the IO path and the drive;
 * engines/sim_options.c: the options table, the target's and sim_stall's parse, discovery;
 * engines/sim_probe.c: the capability probe and the SMART snapshot;
 * engines/sim_power.c: the power model's images, flush and the sim power driver).
 */
#ifndef DRIVEQUAL_ENGINE_SIM_INTERNAL_H
#define DRIVEQUAL_ENGINE_SIM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dq_sim.h"
#include "io/engine.h"

struct sim_options {
	char profiles_dir[DQ_ENGINE_OPTION_STR_MAX];
	bool medium;
	char model[DQ_ENGINE_OPTION_STR_MAX];
	uint32_t time_scale;
	char stall[DQ_ENGINE_OPTION_STR_MAX];
	char power[DQ_ENGINE_OPTION_STR_MAX];
	uint32_t cache_kib;
};

/* A pending completion: its tag and when the model finishes it. */
struct sim_pending {
	uint64_t done_ns;
	uint32_t tag;
	int32_t result;
};

struct sim_engine {
	struct dq_sim_drive *drive; /* the FTL, or NULL with the fluid model */
	struct dq_sim_fluid *fluid;
	uint32_t lba_bytes;
	uint64_t now_ns;
	uint32_t time_scale; /* 0: unpaced */
	uint64_t pace_wall0_ns; /* monotonic wall time when the clock showed pace_clock0_ns */
	uint64_t pace_clock0_ns;
	/*
	 * The IOs in flight as a ring sorted by done_ns (as the model's own closed loop keeps them):
	 * completions come back nearly in submission order (the write cache retires FIFO), so an
	 * insert from the back is O(1) in practice and skips a heap's unpredictable branches (a
	 * sixth of the CPU per IO once the model's table lookups stop stalling). Equal times keep
	 * submission order.
	 */
	struct sim_pending *ring;
	uint32_t mask; /* ring slots - 1, a power of two at least the queue depth */
	uint32_t head;
	uint32_t count;
	uint32_t capacity;
	unsigned char *medium; /* sim_medium: the user capacity, pages allocated as written */
	uint64_t medium_bytes;
	uint64_t stall_start_ns; /* sim_stall: nothing completes in [start, end) */
	uint64_t stall_end_ns;
	struct dq_sim_cache *cache; /* sim_power: the write cache across power cuts */
	unsigned char *durable; /* sim_power: what survives a cut (the medium is what reads see) */
	bool powered_off;
};

/* sim_options: the engine's options table, terminated by a NULL name. */
extern const struct dq_engine_option sim_option_table[];

/* "sim:<profile>" or "sim:<profile>@<seed>" into profile and seed (0, -ENOENT or -EINVAL, err). */
int sim_parse_target(const char *target, char *profile, size_t profile_len, uint64_t *seed,
		     char *err, size_t err_len);

/* sim_stall's AT_MS+LENGTH_MS into the engine's stall window; "" is none (0 or -EINVAL, err). */
int sim_parse_stall(const char *text, struct sim_engine *engine, char *err, size_t err_len);

/* The engine's discover op: every profile of the default directory, as sim:<name> (0). */
int sim_discover(void (*found)(const char *target, void *arg), void *arg);

/* sim_probe: what the simulated drive offers, as a drive would answer the probe. */
void sim_capabilities(const struct sim_engine *engine, struct dq_capabilities *caps);

/* The engine's smart op: the model's counters as a SMART snapshot (0). */
int sim_smart(void *data, struct dq_smart_snapshot *out);

/* A sparse anonymous image of bytes, pages allocated as written; NULL when it cannot be mapped. */
unsigned char *sim_image_map(uint64_t bytes);

/* sim_power: builds the write cache's power model and the durable image (0 or -errno, err). */
int sim_open_power(struct sim_engine *engine, const struct dq_sim_profile *profile, uint64_t seed,
		   const struct sim_options *options, char *err, size_t err_len);

/* A write the medium took: its units enter the cache (no-op without a power model). */
void sim_power_record_write(struct sim_engine *engine, const struct dq_io *io);

/* Frees the cache and the durable image. */
void sim_power_close(struct sim_engine *engine);

/* The engine's flush and power_driver ops. */
int sim_flush(void *data, char *err, size_t err_len);
int sim_power_driver(void *data, struct dq_power_driver *out, char *err, size_t err_len);

#endif /* DRIVEQUAL_ENGINE_SIM_INTERNAL_H */
