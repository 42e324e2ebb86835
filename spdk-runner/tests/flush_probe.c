/*
 * The uring engine's flush op on a real target, for the real-IO tests (realio/flush.sh): writes
 * one 4 KiB block through the engine at queue depth 1, then flushes it (or not), so the test can
 * read what the kernel counted (a block device's flush requests in /sys/block/NAME/stat).
 * Usage: flush_probe TARGET flush|no-flush
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/engine.h"

#define PROBE_BLOCK_BYTES 4096u
#define PROBE_WAIT_NS 5000000000ULL

int main(int argc, char **argv)
{
	struct dq_io_engine_open_args args = { .queue_depth = 1, .writable = true, .direct = true };
	const struct dq_io_engine_ops *ops;
	struct dq_io_engine engine = { 0 };
	struct dq_io io = { .length = PROBE_BLOCK_BYTES, .op = DQ_IO_WRITE };
	struct dq_io_completion done;
	char err[512] = "";
	void *buf = NULL;
	bool flush;
	int rc, n;

	if (argc != 3 || (strcmp(argv[2], "flush") != 0 && strcmp(argv[2], "no-flush") != 0)) {
		fprintf(stderr, "usage: flush_probe TARGET flush|no-flush\n");
		return 2;
	}
	flush = strcmp(argv[2], "flush") == 0;
	args.target = argv[1];
	rc = dq_io_engine_find("uring", &ops, err, sizeof(err));
	if (rc == 0) {
		rc = dq_io_engine_open(&engine, ops, &args, err, sizeof(err));
	}
	if (rc != 0) {
		fprintf(stderr, "FAIL: opening %s: %s\n", argv[1], err);
		return 1;
	}
	if (engine.ops->flush == NULL) {
		fprintf(stderr, "FAIL: the uring engine has no flush op\n");
		goto fail;
	}
	if (posix_memalign(&buf, 4096, PROBE_BLOCK_BYTES) != 0) {
		goto fail;
	}
	memset(buf, 0xa5, PROBE_BLOCK_BYTES);
	io.buf = buf;
	rc = engine.ops->queue(engine.data, &io);
	if (rc == 0) {
		rc = engine.ops->commit(engine.data);
	}
	do {
		n = rc == 0 ? engine.ops->getevents(engine.data, &done, 1, PROBE_WAIT_NS) : rc;
	} while (n == 0);
	if (n < 0 || done.result != 0) {
		fprintf(stderr, "FAIL: the write failed: %s\n",
			strerror(n < 0 ? -n : -done.result));
		goto fail;
	}
	if (flush) {
		rc = engine.ops->flush(engine.data, err, sizeof(err));
		if (rc != 0) {
			fprintf(stderr, "FAIL: %s\n", err);
			goto fail;
		}
	}
	printf("wrote 4096 bytes to %s%s\n", argv[1], flush ? ", flushed" : ", not flushed");
	free(buf);
	dq_io_engine_close(&engine);
	return 0;
fail:
	free(buf);
	dq_io_engine_close(&engine);
	return 1;
}
