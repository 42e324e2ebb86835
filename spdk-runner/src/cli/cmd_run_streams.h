/*
 * `run --stream SPEC`: one stream of a multi-stream workload from fio-named key=value pairs.
 */
#ifndef DRIVEQUAL_CMD_RUN_STREAMS_H
#define DRIVEQUAL_CMD_RUN_STREAMS_H

#include <stddef.h>

#include "contract/msg_common.h"

/* Parse one --stream value into *stream (fio's defaults where a key is absent): 0, or -EINVAL
 * with the key at fault and why in err. */
int dq_run_stream_parse(const char *text, struct dq_stream_spec *stream, char *err, size_t err_len);

#endif /* DRIVEQUAL_CMD_RUN_STREAMS_H */
