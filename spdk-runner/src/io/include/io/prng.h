/*
 * The runner's random numbers: xoshiro256** for offsets and read/write choices, and an 8-lane
 * variant that fills write buffers with fresh incompressible data fast enough to keep up with a
 * drive (src/io/datagen.c).
 */
#ifndef DRIVEQUAL_PRNG_H
#define DRIVEQUAL_PRNG_H

#include <stddef.h>
#include <stdint.h>

struct dq_rng {
	uint64_t s[4];
};

#define DQ_DATAGEN_LANES 8

/* Eight independent xoshiro256** generators laid out so the compiler vectorizes them. */
struct dq_datagen {
	uint64_t s[4][DQ_DATAGEN_LANES];
};

static inline uint64_t dq_rotl64(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t dq_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline void dq_rng_seed(struct dq_rng *rng, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++) {
		rng->s[i] = dq_splitmix64(&seed);
	}
}

/* xoshiro256** 1.0 (Blackman and Vigna). */
static inline uint64_t dq_rng_next(struct dq_rng *rng)
{
	uint64_t *s = rng->s;
	const uint64_t result = dq_rotl64(s[1] * 5, 7) * 9;
	const uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = dq_rotl64(s[3], 45);
	return result;
}

/* Uniform in [0, bound) without division (Lemire's multiply-shift; bias < bound / 2^64). */
static inline uint64_t dq_rng_below(struct dq_rng *rng, uint64_t bound)
{
	__extension__ unsigned __int128 product = (unsigned __int128)dq_rng_next(rng) * bound;

	return (uint64_t)(product >> 64);
}

/* A seed from the kernel's entropy pool (getrandom), or from the clock if that fails. */
uint64_t dq_random_seed(void);

void dq_datagen_seed(struct dq_datagen *gen, uint64_t seed);

/* Fill len bytes (a multiple of 64) of buf (8-byte aligned) with fresh random data. */
void dq_datagen_fill(struct dq_datagen *gen, void *buf, size_t len);

#endif /* DRIVEQUAL_PRNG_H */
