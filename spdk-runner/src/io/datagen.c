/*
 * Fresh incompressible data for every write: eight xoshiro256** lanes side by side, which GCC
 * vectorizes; on x86-64 the function is cloned for AVX-512 and AVX2 and picked at load time, so a
 * 4 KiB buffer costs ~0.1-0.4 us and random data never limits a drive's IOPS.
 */
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "io/prng.h"

uint64_t dq_random_seed(void)
{
	struct timespec now;
	uint64_t seed;

	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) == (ssize_t)sizeof(seed)) {
		return seed;
	}
	clock_gettime(CLOCK_REALTIME, &now);
	return (uint64_t)now.tv_sec * 1000000000ULL + (uint64_t)now.tv_nsec;
}

void dq_datagen_seed(struct dq_datagen *gen, uint64_t seed)
{
	int i, lane;

	for (i = 0; i < 4; i++) {
		for (lane = 0; lane < DQ_DATAGEN_LANES; lane++) {
			gen->s[i][lane] = dq_splitmix64(&seed);
		}
	}
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
	!defined(__SANITIZE_ADDRESS__)
#define DATAGEN_CLONES __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#else
#define DATAGEN_CLONES
#endif

DATAGEN_CLONES
void dq_datagen_fill(struct dq_datagen *gen, void *buf, size_t len)
{
	uint64_t s0[DQ_DATAGEN_LANES], s1[DQ_DATAGEN_LANES], s2[DQ_DATAGEN_LANES],
		s3[DQ_DATAGEN_LANES];
	uint64_t *out = buf;
	size_t i, words = len / sizeof(uint64_t);
	int lane;

	memcpy(s0, gen->s[0], sizeof(s0));
	memcpy(s1, gen->s[1], sizeof(s1));
	memcpy(s2, gen->s[2], sizeof(s2));
	memcpy(s3, gen->s[3], sizeof(s3));
	for (i = 0; i + DQ_DATAGEN_LANES <= words; i += DQ_DATAGEN_LANES) {
		for (lane = 0; lane < DQ_DATAGEN_LANES; lane++) {
			uint64_t t = s1[lane] << 17;

			out[i + lane] = dq_rotl64(s1[lane] * 5, 7) * 9;
			s2[lane] ^= s0[lane];
			s3[lane] ^= s1[lane];
			s1[lane] ^= s2[lane];
			s0[lane] ^= s3[lane];
			s2[lane] ^= t;
			s3[lane] = dq_rotl64(s3[lane], 45);
		}
	}
	memcpy(gen->s[0], s0, sizeof(s0));
	memcpy(gen->s[1], s1, sizeof(s1));
	memcpy(gen->s[2], s2, sizeof(s2));
	memcpy(gen->s[3], s3, sizeof(s3));
}
