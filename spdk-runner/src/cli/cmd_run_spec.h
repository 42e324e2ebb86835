/*
 * The job spec a `drivequal-runner run` command line describes (cmd_run_spec.c), built from the
 * parsed arguments (cmd_run_args.h).
 */
#ifndef DRIVEQUAL_CMD_RUN_SPEC_H
#define DRIVEQUAL_CMD_RUN_SPEC_H

struct dq_run_args;

/* Build a->spec: from --job FILE, or the command line's phases. 0 or -EINVAL (said on stderr). */
int dq_run_spec_build(struct dq_run_args *a);

#endif /* DRIVEQUAL_CMD_RUN_SPEC_H */
