/*
 * The command line of `drivequal-runner run`, with fio's option names and the selected engine's
 * own options, turned into a job spec (purge?, precondition?, workload; or a --job file's phases).
 */
#ifndef DRIVEQUAL_CMD_RUN_ARGS_H
#define DRIVEQUAL_CMD_RUN_ARGS_H

#include <stdbool.h>
#include <stdint.h>

#include "cmd_run_output.h"
#include "io/engine.h"
#include "job/job_runner.h"

/* Everything `run` takes from its command line, and the job it builds. */
struct dq_run_args {
	const char *engine_name;
	const char *filename;
	const char *allowlist_path;
	const char *serial;
	const char *name;
	enum dq_rw rw;
	uint32_t block_size;
	uint32_t queue_depth;
	uint32_t read_percent;
	bool has_read_percent;
	uint32_t runtime_s;
	uint64_t size_bytes;
	double range_percent;
	bool direct;
	enum dq_data_pattern data_pattern;
	uint32_t precondition_passes;
	enum dq_purge_method purge;
	enum dq_purge_method purge_fallback; /* --purge-fallback deallocate */
	bool smart;
	bool verify; /* append a verify phase over the workload's range */
	enum dq_output_format format;
	uint64_t seed;
	uint32_t health_poll_interval_s;
	bool health_poll_given; /* else a --job file's healthPollIntervalS wins */
	size_t stream_count; /* --stream: the workload is these streams */
	struct dq_stream_spec streams[DQ_STREAMS_MAX];
	struct dq_job_spec spec;
	struct dq_phase_spec phases[DQ_MAX_PHASES];
	const char *job_path;
	bool engine_given;
	char job_serial[DQ_SERIAL_MAX_LEN + 1];
	char job_target[DQ_UTF8_BUF(DQ_TRANSPORT_MAX_CHARS)];
	void *engine_options;
	const struct dq_io_engine_ops *ops; /* NULL: an engine this build lacks (the job refuses) */
};

/*
 * Parse argv into a (calloc'd or zeroed by the caller). Returns 0, 1 when --help was printed, or
 * -EINVAL (the reason is on stderr), -ENOMEM.
 */
int dq_run_args_parse(struct dq_run_args *a, int argc, char **argv);

void dq_run_args_fini(struct dq_run_args *a);

#endif /* DRIVEQUAL_CMD_RUN_ARGS_H */
