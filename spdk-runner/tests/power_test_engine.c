/*
 * What the power driver tests share (test_power_redfish.c, test_power_ipmi.c, test_power_pdu.c): a
 * drive in memory with the engine ops a power-cycle phase needs (its release and reopen recorded
 * in g_calls), an engine with none ("stuck"), and the files of a fake host under g_root.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io/power.h"
#include "io/power_cycle.h"
#include "power_test_engine.h"

char g_root[256];
char g_log[300];
char g_calls[512];

static int mem_queue(void *d, const struct dq_io *io)
{
	struct mem_engine *m = d;

	if (m->count == 64) {
		return -EBUSY;
	}
	if (io->op == DQ_IO_WRITE) {
		memcpy(m->data + io->offset, io->buf, io->length);
		m->writes++;
	} else {
		memcpy(io->buf, m->data + io->offset, io->length);
	}
	m->done[m->count++] = (struct dq_io_completion){ .tag = io->tag };
	return 0;
}

static int mem_commit(void *d)
{
	(void)d;
	return 0;
}

static int mem_getevents(void *d, struct dq_io_completion *out, unsigned max, uint64_t t)
{
	struct mem_engine *m = d;
	unsigned n = m->count < max ? m->count : max;

	(void)t;
	memcpy(out, m->done, n * sizeof(*out));
	memmove(m->done, m->done + n, (m->count - n) * sizeof(*out));
	m->count -= n;
	return (int)n;
}

static int mem_flush(void *d, char *err, size_t err_len)
{
	(void)d;
	(void)err;
	(void)err_len;
	return 0;
}

static void mem_release(void *d)
{
	(void)d;
	strcat(g_calls, "release;");
}

static int mem_reopen(void *d, const char *target, char *err, size_t err_len)
{
	(void)d;
	(void)err;
	(void)err_len;
	strcat(g_calls, "reopen ");
	strcat(g_calls, target + strlen(g_root));
	strcat(g_calls, ";");
	return 0;
}

const struct dq_io_engine_ops g_mem_ops = {
	.name = "mem",
	.version = DQ_IO_ENGINE_OPS_VERSION,
	.queue = mem_queue,
	.commit = mem_commit,
	.getevents = mem_getevents,
	.flush = mem_flush,
	.release = mem_release,
	.reopen = mem_reopen,
};

const struct dq_io_engine_ops g_stuck_ops = { .name = "stuck",
					      .version = DQ_IO_ENGINE_OPS_VERSION };

void run(const char *command)
{
	if (system(command) != 0) {
		abort();
	}
}

void put(const char *relative, const char *content, mode_t mode)
{
	char path[512];
	char command[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%.200s", g_root, relative);
	snprintf(command, sizeof(command), "mkdir -p \"$(dirname '%s')\"", path);
	run(command);
	f = fopen(path, "w");
	if (f == NULL) {
		abort();
	}
	fputs(content, f);
	fclose(f);
	chmod(path, mode);
}

int log_lines(void)
{
	FILE *f = fopen(g_log, "r");
	int n = 0, c;

	while (f != NULL && (c = fgetc(f)) != EOF) {
		n += c == '\n';
	}
	if (f != NULL) {
		fclose(f);
	}
	return n;
}

/* Line n (0-based) of the endpoint's log (g_log), or "". */
void log_line(int n, char *out, size_t out_len)
{
	FILE *f = fopen(g_log, "r");

	out[0] = '\0';
	for (int i = 0; f != NULL && i <= n; i++) {
		if (fgets(out, (int)out_len, f) == NULL) {
			out[0] = '\0';
			break;
		}
	}
	if (f != NULL) {
		fclose(f);
	}
}

void mem_engine(struct dq_io_engine *engine, struct mem_engine *m,
		const struct dq_io_engine_ops *ops, const char *dev)
{
	memset(engine, 0, sizeof(*engine));
	engine->ops = ops;
	engine->data = m;
	snprintf(engine->target.device.serial, sizeof(engine->target.device.serial), "SERIAL-A");
	snprintf(engine->target.device.transport_address,
		 sizeof(engine->target.device.transport_address), "%s/dev/%s", g_root, dev);
	engine->target.device.capacity_bytes = (uint64_t)BLOCK * BLOCKS;
	engine->target.device.lba_size_bytes = BLOCK;
	engine->target.keeps_data = true;
	engine->target.buffer_align = 4096;
}

/* The driver under test behind one that counts the drive's writes when the cut is asked for. */
struct counting_cut {
	struct dq_power_driver *inner;
	struct mem_engine *m;
	uint64_t writes_at_cut;
};

static int counting_cut(void *ctx, char *err, size_t err_len)
{
	struct counting_cut *c = ctx;

	c->writes_at_cut = c->m->writes;
	return c->inner->ops->cut(c->inner->ctx, err, err_len);
}

static int counting_restore(void *ctx, char *err, size_t err_len)
{
	struct counting_cut *c = ctx;

	return c->inner->ops->restore(c->inner->ctx, err, err_len);
}

void power_phase_through(struct dq_io_engine *engine, struct mem_engine *m,
			 struct dq_power_driver *inner, const char *job_id,
			 struct power_phase_run *out)
{
	static const struct dq_power_driver_ops ops = { .name = "counting",
							.cut = counting_cut,
							.restore = counting_restore };
	struct counting_cut counting = { .inner = inner, .m = m };
	struct dq_power_driver driver = { .ops = &ops, .ctx = &counting };
	struct dq_power_cycle_config config = { .range_bytes = (uint64_t)BLOCK * BLOCKS,
						.block_bytes = BLOCK,
						.queue_depth = 4,
						.writes_per_cycle = 200,
						.flush_every = 32,
						.cycles = 3,
						.cut_after_writes = 100,
						.seed = 7,
						.job_id = job_id };
	struct dq_power_cycle_summary summary = { 0 };

	m->writes = 0;
	out->err[0] = '\0';
	out->rc = dq_power_cycle_run(engine, &driver, DQ_POWER_DURABLE_ON_FLUSH, &config, NULL,
				     NULL, &summary, out->err, sizeof(out->err));
	out->writes_at_cut = counting.writes_at_cut;
	out->cycles = summary.cycles;
}

int udp_port(int port)
{
	struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	socklen_t len = sizeof(addr);
	int fd = socket(AF_INET, SOCK_DGRAM, 0), got = -1;

	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && bind(fd, (struct sockaddr *)&addr, sizeof(addr)) == 0 &&
	    getsockname(fd, (struct sockaddr *)&addr, &len) == 0) {
		got = ntohs(addr.sin_port);
	}
	if (fd >= 0) {
		close(fd);
	}
	return got;
}

pid_t await_udp_listener(pid_t child, int port)
{
	/* setup, not a measurement: the endpoint holds its port once it listens */
	for (int i = 0; i < 200 && udp_port(port) == port; i++) {
		if (waitpid(child, NULL, WNOHANG) == child) {
			return -1;
		}
		usleep(50000);
	}
	return udp_port(port) == port ? -1 : child;
}

void stop_child(pid_t child)
{
	kill(child, SIGTERM);
	for (int i = 0; i < 40 && waitpid(child, NULL, WNOHANG) == 0; i++) {
		usleep(50000);
	}
	if (waitpid(child, NULL, WNOHANG) == 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
}
