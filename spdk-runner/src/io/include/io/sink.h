/*
 * Where a phase's samples and events go: the CLI plugs in a stdout sink and the agent a Kafka one,
 * so neither the phases nor the job runner know which.
 */
#ifndef DRIVEQUAL_IO_SINK_H
#define DRIVEQUAL_IO_SINK_H

#include "contract/msg_job_event.h"
#include "contract/msg_sample.h"

/*
 * Where samples and events go. Each callback returns 0 or -errno; an error ends the phase and its
 * job at once (their messages cannot be delivered), and the phase returns that error.
 */
struct dq_sink {
	int (*sample)(void *arg, const struct dq_sample *sample);
	int (*event)(void *arg, const struct dq_job_event *event);
	void *arg;
};

#endif /* DRIVEQUAL_IO_SINK_H */
