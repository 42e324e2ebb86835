/*
 * Sizes and durations as fio spells them on the command line ("4k", "1g", "75%"), shared by the
 * CLI and the engines' target names.
 */
#ifndef DRIVEQUAL_UNITS_H
#define DRIVEQUAL_UNITS_H

#include <stdint.h>

/* "4096", "4k", "1m", "2g", "1t", "4KiB": binary multiples. 0 or -EINVAL (also for 0 and
 * values above INT64_MAX). */
int dq_parse_size(const char *text, uint64_t *bytes);

/* A whole number in [min, max]: 0 or -EINVAL. */
int dq_parse_u32(const char *text, uint32_t min, uint32_t max, uint32_t *value);

#endif /* DRIVEQUAL_UNITS_H */
