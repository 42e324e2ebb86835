/*
 * `drivequal-runner agent`: the long-running runner of a drive host. It takes job commands from
 * Kafka, runs each job on its device in its own thread, publishes samples, events and heartbeats,
 * and shuts down without losing a message it can still deliver.
 */
#ifndef DRIVEQUAL_AGENT_H
#define DRIVEQUAL_AGENT_H

#include <stdatomic.h>

#include "agent/agent_config.h"

/*
 * Run until *stop becomes non-zero: 1 stops gracefully (running jobs are cancelled and their
 * final events delivered), 2 or more (a second signal) stops waiting for jobs. Returns 0 after a
 * clean shutdown, -ENOTRECOVERABLE when a fatal Kafka error stopped the agent, -EIO when messages
 * were still undelivered at exit, -EINTR when a second signal left jobs running (the caller must
 * exit: their threads still use the agent), -EINVAL (setup failed; said on stderr) or -ENOMEM.
 */
int dq_agent_run(const struct dq_agent_config *config, atomic_int *stop);

#endif /* DRIVEQUAL_AGENT_H */
