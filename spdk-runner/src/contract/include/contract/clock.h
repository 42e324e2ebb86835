/*
 * The runner's clocks: CLOCK_MONOTONIC for latencies and phase time (never steps), the wall clock
 * only to stamp messages, and the contract's millisecond RFC 3339 timestamps.
 */
#ifndef DRIVEQUAL_CLOCK_H
#define DRIVEQUAL_CLOCK_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "contract/msg_common.h"

#define DQ_NS_PER_S 1000000000ULL
#define DQ_NS_PER_MS 1000000ULL

static inline uint64_t dq_clock_monotonic_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)now.tv_sec * DQ_NS_PER_S + (uint64_t)now.tv_nsec;
}

static inline uint64_t dq_clock_wall_ms(void)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	return (uint64_t)now.tv_sec * 1000ULL + (uint64_t)now.tv_nsec / DQ_NS_PER_MS;
}

/* "2026-11-22T21:00:00.000Z" for epoch milliseconds. */
static inline void dq_clock_format_timestamp(uint64_t epoch_ms, char out[DQ_TIMESTAMP_LEN + 1])
{
	time_t seconds = (time_t)(epoch_ms / 1000);
	char text[64];
	struct tm tm;

	gmtime_r(&seconds, &tm);
	snprintf(text, sizeof(text), "%04d-%02d-%02dT%02d:%02d:%02d.%03uZ",
		 (tm.tm_year + 1900) % 10000, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
		 tm.tm_sec, (unsigned)(epoch_ms % 1000));
	memcpy(out, text, DQ_TIMESTAMP_LEN);
	out[DQ_TIMESTAMP_LEN] = '\0';
}

#endif /* DRIVEQUAL_CLOCK_H */
