/*
 * Little-endian fields of NVMe data structures (Identify, SMART and the OCP logs), shared by the
 * decoders of nvme_admin.c and nvme_ocp.c.
 */
#ifndef DRIVEQUAL_DEVICE_NVME_BYTES_H
#define DRIVEQUAL_DEVICE_NVME_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t le_u64(const uint8_t *p, size_t bytes)
{
	uint64_t value = 0;
	size_t i;

	for (i = bytes; i > 0; i--) {
		value = value << 8 | p[i - 1];
	}
	return value;
}

/* A 128-bit little-endian counter, saturated at the contract's INT64_MAX. */
static inline uint64_t le_u128_sat(const uint8_t *p)
{
	uint64_t low = le_u64(p, 8), high = le_u64(p + 8, 8);

	return high != 0 || low > (uint64_t)INT64_MAX ? (uint64_t)INT64_MAX : low;
}

/* Copy an ASCII field, dropping trailing spaces and NULs. */
static inline void ascii_field(char *out, const uint8_t *field, size_t len)
{
	size_t i;

	memcpy(out, field, len);
	out[len] = '\0';
	for (i = len; i > 0 && (out[i - 1] == ' ' || out[i - 1] == '\0'); i--) {
		out[i - 1] = '\0';
	}
}

#endif /* DRIVEQUAL_DEVICE_NVME_BYTES_H */
