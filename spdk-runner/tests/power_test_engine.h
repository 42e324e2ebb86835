/*
 * What the power driver tests share: a drive in memory and the fake host's files
 * (power_test_engine.c).
 */
#ifndef DRIVEQUAL_POWER_TEST_ENGINE_H
#define DRIVEQUAL_POWER_TEST_ENGINE_H

#include <stdint.h>
#include <sys/types.h>

#include "io/engine.h"

#define BLOCK 4096u
#define BLOCKS 1024u

/* The fake host's root (a temporary directory), the endpoint's record of what it was asked (one
 * line per request), and the engine calls a power cycle made ("release;reopen TARGET;"). */
extern char g_root[256];
extern char g_log[300];
extern char g_calls[512];

/* A drive in memory: writes complete at once; what the power-cycle phase needs of an engine. */
struct mem_engine {
	unsigned char *data;
	struct dq_io_completion done[64];
	unsigned count;
	uint64_t writes;
};

extern const struct dq_io_engine_ops g_mem_ops;
/* An engine that cannot let go of its device (no release or reopen). */
extern const struct dq_io_engine_ops g_stuck_ops;

/* command through the shell, aborting the test when it fails */
void run(const char *command);
/* content into g_root/relative (directories made), with mode */
void put(const char *relative, const char *content, mode_t mode);
/* how many lines g_log has, and line n (0-based) of it, or "" */
int log_lines(void);
void log_line(int n, char *out, size_t out_len);
/* engine over m (or none) with ops, its device g_root/dev/DEV, serial SERIAL-A */
void mem_engine(struct dq_io_engine *engine, struct mem_engine *m,
		const struct dq_io_engine_ops *ops, const char *dev);

#endif /* DRIVEQUAL_POWER_TEST_ENGINE_H */
