/*
 * The power model: the drive's write cache across a power cut. The FTL's timing model always
 * assumes a power-loss-protected buffer; this model says which accepted writes a cut keeps, so a
 * power-loss verifier can be checked against a drive whose truth is known: one with protection,
 * one without (a flush makes writes durable, anything newer may go), and one that acknowledges
 * flushes it does not keep. It tracks units, not data: the caller keeps the bytes and copies a
 * unit to its durable image when told it is destaged.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim_internal.h"

enum {
	SIM_UNIT_DIRTY = 1u << 0, /* cached, not yet on NAND */
	SIM_UNIT_PROMISED = 1u << 1, /* a flush acknowledged since it was written */
};

struct dq_sim_cache {
	enum dq_sim_power_mode mode;
	uint64_t unit_count;
	uint8_t *state; /* per unit: SIM_UNIT_* */
	uint64_t *ring; /* the cached units, oldest first */
	uint32_t capacity;
	uint32_t head;
	uint32_t count;
	uint64_t rng;
	struct dq_sim_cache_truth truth;
};

int dq_sim_power_mode_parse(const char *name, enum dq_sim_power_mode *mode)
{
	if (name == NULL) {
		return -EINVAL;
	}
	if (strcmp(name, "plp") == 0) {
		*mode = DQ_SIM_POWER_PLP;
	} else if (strcmp(name, "volatile") == 0) {
		*mode = DQ_SIM_POWER_VOLATILE;
	} else if (strcmp(name, "liar") == 0) {
		*mode = DQ_SIM_POWER_LIAR;
	} else {
		return -EINVAL;
	}
	return 0;
}

const char *dq_sim_power_mode_name(enum dq_sim_power_mode mode)
{
	switch (mode) {
	case DQ_SIM_POWER_PLP:
		return "plp";
	case DQ_SIM_POWER_VOLATILE:
		return "volatile";
	case DQ_SIM_POWER_LIAR:
		return "liar";
	}
	return "unknown";
}

int dq_sim_cache_create(enum dq_sim_power_mode mode, uint64_t unit_count, uint32_t capacity_units,
			uint64_t seed, struct dq_sim_cache **out)
{
	struct dq_sim_cache *cache;

	if (mode > DQ_SIM_POWER_LIAR || unit_count == 0 || capacity_units == 0 || out == NULL) {
		return -EINVAL;
	}
	cache = calloc(1, sizeof(*cache));
	if (cache == NULL) {
		return -ENOMEM;
	}
	cache->state = calloc(unit_count, 1);
	cache->ring = calloc(capacity_units, sizeof(*cache->ring));
	if (cache->state == NULL || cache->ring == NULL) {
		dq_sim_cache_destroy(cache);
		return -ENOMEM;
	}
	cache->mode = mode;
	cache->unit_count = unit_count;
	cache->capacity = capacity_units;
	cache->rng = seed ^
		     0x706f7765726c6f73ull; /* its own stream: the FTL's draws stay as they are */
	*out = cache;
	return 0;
}

void dq_sim_cache_destroy(struct dq_sim_cache *cache)
{
	if (cache != NULL) {
		free(cache->state);
		free(cache->ring);
		free(cache);
	}
}

enum dq_sim_power_mode dq_sim_cache_mode(const struct dq_sim_cache *cache)
{
	return cache->mode;
}

static void cache_destage_oldest(struct dq_sim_cache *cache, const struct dq_sim_cache_sink *sink)
{
	uint64_t unit = cache->ring[cache->head];

	cache->head = (cache->head + 1) % cache->capacity;
	cache->count--;
	cache->state[unit] = 0;
	if (sink != NULL && sink->destage != NULL) {
		sink->destage(unit, sink->arg);
	}
}

int dq_sim_cache_write(struct dq_sim_cache *cache, uint64_t unit, uint32_t count,
		       const struct dq_sim_cache_sink *sink)
{
	if (unit >= cache->unit_count || count > cache->unit_count - unit) {
		return -EINVAL;
	}
	for (uint64_t u = unit; u < unit + count; u++) {
		if (cache->state[u] & SIM_UNIT_DIRTY) {
			/* coalesced: the entry now holds newer data than any flush promised */
			continue;
		}
		if (cache->count == cache->capacity) {
			cache_destage_oldest(cache, sink);
		}
		cache->ring[(cache->head + cache->count) % cache->capacity] = u;
		cache->count++;
		cache->state[u] = SIM_UNIT_DIRTY;
	}
	return 0;
}

void dq_sim_cache_flush(struct dq_sim_cache *cache, const struct dq_sim_cache_sink *sink)
{
	if (cache->mode == DQ_SIM_POWER_LIAR) {
		for (uint32_t i = 0; i < cache->count; i++) {
			cache->state[cache->ring[(cache->head + i) % cache->capacity]] |=
				SIM_UNIT_PROMISED;
		}
		return;
	}
	while (cache->count > 0) {
		cache_destage_oldest(cache, sink);
	}
}

uint64_t dq_sim_cache_power_cut(struct dq_sim_cache *cache, const struct dq_sim_cache_sink *sink)
{
	uint64_t lost = 0, lost_promised = 0;

	while (cache->count > 0) {
		uint64_t unit = cache->ring[cache->head];
		bool promised = cache->mode == DQ_SIM_POWER_PLP ||
				(cache->state[unit] & SIM_UNIT_PROMISED) != 0;

		/* with protection the capacitors destage it all; without, the cut catches the
		 * destage part-way: each entry made it to NAND or not, a coin toss apiece */
		if (cache->mode == DQ_SIM_POWER_PLP || (sim_rng_next(&cache->rng) & 1) == 0) {
			cache_destage_oldest(cache, sink);
			continue;
		}
		cache->head = (cache->head + 1) % cache->capacity;
		cache->count--;
		cache->state[unit] = 0;
		lost++;
		lost_promised += promised;
		if (sink != NULL && sink->lost != NULL) {
			sink->lost(unit, promised, sink->arg);
		}
	}
	cache->truth.cuts++;
	cache->truth.units_lost += lost;
	cache->truth.units_lost_promised += lost_promised;
	cache->truth.last_cut_lost = lost;
	cache->truth.last_cut_lost_promised = lost_promised;
	return lost;
}

uint32_t dq_sim_cache_dirty_units(const struct dq_sim_cache *cache)
{
	return cache->count;
}

void dq_sim_cache_truth(const struct dq_sim_cache *cache, struct dq_sim_cache_truth *out)
{
	*out = cache->truth;
}
