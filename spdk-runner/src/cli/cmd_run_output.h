/*
 * The CLI's sinks for a job: JSON lines of schema-valid samples and events (for pipes and tools), or
 * a human progress bar and text summaries (for terminals). The agent has its own Kafka sink.
 */
#ifndef DRIVEQUAL_CMD_RUN_OUTPUT_H
#define DRIVEQUAL_CMD_RUN_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "io/histogram.h"
#include "job/job_runner.h"

enum dq_output_format {
	DQ_OUTPUT_JSON,
	DQ_OUTPUT_NORMAL,
};

struct dq_output {
	enum dq_output_format format;
	FILE *out;
	bool tty; /* normal format: redraw one progress line */
	const struct dq_phase_spec *phases;
	size_t phase_count;
	struct dq_device device; /* from the accepted event */
	const struct dq_phase_spec *phase; /* the running phase */
	uint64_t phase_bytes_total; /* sized phases: for the progress bar */
	uint64_t phase_bytes_done;
	uint64_t last_progress_t;
	bool progress_open; /* a progress line is on screen without its newline */
	struct dq_histogram *scratch;
};

/* Returns 0 or -ENOMEM; phases must outlive the output. */
int dq_output_init(struct dq_output *output, enum dq_output_format format, FILE *out,
		   const struct dq_phase_spec *phases, size_t phase_count);
void dq_output_fini(struct dq_output *output);

/* The sink that writes to the output. */
struct dq_sink dq_output_sink(struct dq_output *output);

#endif /* DRIVEQUAL_CMD_RUN_OUTPUT_H */
