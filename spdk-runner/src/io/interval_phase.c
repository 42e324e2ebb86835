/*
 * The IO phase for engines that model whole intervals (the sim engine's fluid model): one engine
 * call per second instead of one per IO, so a drive paced in real time costs microseconds per
 * sample. Samples, totals and histograms follow the closed-loop core's rules exactly (t is the
 * end of the interval; a timed phase has runtimeS samples; a sized phase ends with a partial
 * second that counts when IOs completed in it; with both limits the first reached ends it), so the
 * service cannot tell the two apart.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "contract/clock.h"
#include "contract/strutil.h"
#include "interval_phase.h"

static void fail(struct dq_phase_stats *stats, const char *what, int rc)
{
	stats->fail_reason = DQ_FAIL_ENGINE_ERROR;
	snprintf(stats->message, sizeof(stats->message), "%s: %s", what, strerror(-rc));
}

/*
 * The effective queue depth of modelled IOs; the model rounds IO counts and latencies to whole
 * numbers, so their sum may pass queue depth x interval by a hair, which a closed loop cannot.
 */
static uint64_t closed_loop_milli(const struct dq_io_phase_params *params,
				  uint64_t outstanding_io_ns, uint64_t interval_ns)
{
	uint64_t milli = dq_io_queue_depth_milli(outstanding_io_ns, interval_ns);
	uint64_t deepest_milli = (uint64_t)params->queue_depth * 1000u;

	return milli > deepest_milli ? deepest_milli : milli;
}

/* One interval as a sample, and into the phase's totals; resets the interval's histograms. */
static int emit(const struct dq_phase_env *env, const struct dq_io_phase_params *params, uint32_t t,
		uint64_t end_ns, struct dq_io_interval *interval, struct dq_phase_stats *stats)
{
	struct dq_direction_stats *dir[2] = { &stats->read, &stats->write };
	struct dq_sample sample;
	struct dq_sample_direction *out[2] = { &sample.read, &sample.write };

	memset(&sample, 0, sizeof(sample));
	dq_strlcpy(sample.job_id, env->job_id, sizeof(sample.job_id));
	dq_strlcpy(sample.runner_id, env->runner_id, sizeof(sample.runner_id));
	dq_strlcpy(sample.device_serial, env->serial, sizeof(sample.device_serial));
	sample.phase_index = params->phase_index;
	dq_strlcpy(sample.phase_name, params->phase_name, sizeof(sample.phase_name));
	sample.t = t + params->t_offset_s;
	sample.time_ms = dq_phase_env_epoch_ms(env, end_ns);
	sample.has_effective_queue_depth_milli = true;
	sample.effective_queue_depth_milli =
		closed_loop_milli(params, interval->outstanding_io_ns, interval->duration_ns);
	stats->outstanding_io_ns += interval->outstanding_io_ns;
	for (int op = 0; op < 2; op++) {
		out[op]->ios = interval->ios[op];
		out[op]->bytes = interval->bytes[op];
		if (interval->ios[op] > 0) {
			dq_histogram_sample_percentiles(interval->latency[op],
							&out[op]->latency_ns);
			dq_histogram_merge(&dir[op]->histogram, interval->latency[op]);
			dq_histogram_reset(interval->latency[op]);
		}
		dir[op]->ios += interval->ios[op];
		dir[op]->bytes += interval->bytes[op];
	}
	stats->samples++;
	return env->sink->sample(env->sink->arg, &sample);
}

int dq_interval_phase_run(const struct dq_phase_env *env, const struct dq_io_phase_params *params,
			  struct dq_phase_stats *stats)
{
	const struct dq_io_engine *engine = env->engine;
	struct dq_io_load load = {
		.read_percent = params->read_percent,
		.sequential = params->sequential,
		.block_size = params->block_size,
		.queue_depth = params->queue_depth,
		.range_bytes = params->range_bytes,
	};
	struct dq_histogram *latency = malloc(2 * sizeof(*latency));
	struct dq_io_interval interval = { 0 };
	uint64_t start, done_bytes = 0, now;
	uint32_t t = 1;
	int rc = 0;

	if (latency == NULL) {
		fail(stats, "setting up the IO phase", -ENOMEM);
		return 0;
	}
	dq_histogram_init(&latency[0]);
	dq_histogram_init(&latency[1]);
	start = dq_phase_env_now(env);
	stats->start_ns = start;
	now = start;
	for (;;) {
		/* bytes still to transfer; 0 passed on means no size limit */
		uint64_t limit = params->total_bytes > 0 ? params->total_bytes - done_bytes : 0;

		if (params->runtime_ns > 0 && now - start >= params->runtime_ns) {
			stats->limit_reached = DQ_PHASE_LIMIT_RUNTIME;
			break;
		}
		if (params->total_bytes > 0 && limit == 0) {
			stats->limit_reached = DQ_PHASE_LIMIT_SIZE;
			break;
		}
		if (atomic_load_explicit(env->cancel, memory_order_relaxed) != 0) {
			stats->cancelled = true;
			break;
		}
		memset(&interval, 0, sizeof(interval));
		interval.latency[0] = &latency[0];
		interval.latency[1] = &latency[1];
		rc = engine->ops->run_interval(engine->data, &load, DQ_NS_PER_S, limit, &interval);
		if (rc != 0) {
			fail(stats, "modelling an interval", rc);
			rc = 0;
			break;
		}
		now = dq_phase_env_now(env);
		done_bytes += interval.bytes[0] + interval.bytes[1];
		/* a sized phase's short last second counts only when IOs completed in it */
		if (interval.duration_ns == DQ_NS_PER_S || interval.ios[0] + interval.ios[1] > 0) {
			rc = emit(env, params, t, start + (uint64_t)t * DQ_NS_PER_S, &interval,
				  stats);
			if (rc != 0) {
				break;
			}
		}
		t++;
	}
	stats->duration_ns = now - start;
	stats->has_effective_queue_depth = true;
	stats->effective_queue_depth_milli =
		closed_loop_milli(params, stats->outstanding_io_ns, stats->duration_ns);
	free(latency);
	return rc;
}
