/*
 * What the power driver tests share (test_power_redfish.c, test_power_ipmi.c, test_power_pdu.c): a
 * drive in memory with the engine ops a power-cycle phase needs (its release and reopen recorded
 * in g_calls), an engine with none ("stuck"), and the files of a fake host under g_root.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
