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

struct dq_power_driver;

/* What a power-cycle phase did through a driver whose cut is to be refused. */
struct power_phase_run {
	int rc;
	char err[512];
	uint64_t writes_at_cut; /* the drive's writes when the cut was asked for */
	unsigned cycles; /* cycles completed */
};

/* A power-cycle phase on engine over m (3 cycles of 200 writes at QD4, a flush every 32, the cut
 * after 100 writes, seed 7) through inner, the opened driver under test; m->writes counts from 0. */
void power_phase_through(struct dq_io_engine *engine, struct mem_engine *m,
			 struct dq_power_driver *inner, const char *job_id,
			 struct power_phase_run *out);

/* A UDP port on 127.0.0.1 free a moment ago (port 0: any), or -1 when port is taken now. */
int udp_port(int port);
/* child once it holds UDP port on 127.0.0.1, or -1 when it exits or never does. */
pid_t await_udp_listener(pid_t child, int port);
/* SIGTERM, then SIGKILL after 2 s, and reaped. */
void stop_child(pid_t child);

#endif /* DRIVEQUAL_POWER_TEST_ENGINE_H */
