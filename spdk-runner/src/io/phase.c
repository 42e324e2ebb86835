/*
 * The phases without a closed IO loop (purge, deallocate, idle) and what every phase shares: the
 * phase clock (monotonic, or the engine's virtual clock) and the tested range.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "contract/clock.h"
#include "io/phase.h"
#include "verify.h"

/* Deallocate in pieces so a cancel is seen between them. */
#define DEALLOCATE_CHUNK_BYTES (1ULL << 30)

uint64_t dq_phase_env_now(const struct dq_phase_env *env)
{
	if (env->virtual_clock) {
		return env->engine->ops->now_ns(env->engine->data);
	}
	return dq_clock_monotonic_ns();
}

uint64_t dq_phase_env_epoch_ms(const struct dq_phase_env *env, uint64_t clock_ns)
{
	if (clock_ns >= env->clock_origin_ns) {
		return env->wall_origin_ms + (clock_ns - env->clock_origin_ns) / DQ_NS_PER_MS;
	}
	return env->wall_origin_ms - (env->clock_origin_ns - clock_ns) / DQ_NS_PER_MS;
}

void dq_phase_stats_init(struct dq_phase_stats *stats)
{
	memset(stats, 0, sizeof(*stats));
	dq_histogram_init(&stats->read.histogram);
	dq_histogram_init(&stats->write.histogram);
	dq_histogram_init(&stats->trim.histogram);
}

void dq_phase_stats_release(struct dq_phase_stats *stats)
{
	free(stats->streams);
	stats->streams = NULL;
	stats->stream_count = 0;
}

uint64_t dq_phase_range_bytes(const struct dq_phase_spec *spec, const struct dq_device *device)
{
	uint64_t lba = device->lba_size_bytes, bytes;
	double percent = spec->has_range_percent ? spec->range_percent : 100.0;

	if (percent >= 100.0) {
		bytes = device->capacity_bytes;
	} else {
		bytes = (uint64_t)((long double)device->capacity_bytes * percent / 100.0L);
	}
	return bytes - bytes % lba;
}

static bool cancelled(const struct dq_phase_env *env)
{
	return atomic_load(env->cancel) != 0;
}

static void phase_fail(struct dq_phase_stats *stats, enum dq_fail_reason reason, const char *what,
		       const char *detail, int rc)
{
	stats->fail_reason = reason;
	if (detail != NULL && detail[0] != '\0') {
		snprintf(stats->message, sizeof(stats->message), "%s: %s", what, detail);
	} else {
		snprintf(stats->message, sizeof(stats->message), "%s: %s", what, strerror(-rc));
	}
}

#if DQ_TEST_FAULTS
/*
 * Test builds only (CMake DRIVEQUAL_TEST_FAULTS=ON, which release and image builds never set):
 * DRIVEQUAL_TEST_FAULT=skip-erase makes every purge report success without erasing, the silently
 * failing drive the purge proof must catch.
 */
static bool fault_skip_erase(void)
{
	const char *fault = getenv("DRIVEQUAL_TEST_FAULT");

	if (fault == NULL || strcmp(fault, "skip-erase") != 0) {
		return false;
	}
	fprintf(stderr, "drivequal-runner: TEST FAULT ACTIVE (DRIVEQUAL_TEST_FAULT=skip-erase): "
			"this purge erases nothing\n");
	return true;
}
#else
static bool fault_skip_erase(void)
{
	return false;
}
#endif

/* Canaries across the device, the erase, then the proof that none of them reads back. */
int dq_purge_phase_run(const struct dq_phase_env *env, const struct dq_phase_spec *spec,
		       struct dq_phase_stats *stats)
{
	struct dq_io_engine *engine = env->engine;
	enum dq_purge_method method = spec->purge_method;
	struct dq_purge_proof *proof = malloc(sizeof(*proof));
	char err[512] = "";
	int rc;

	/* job_check_phases_fit refused a purge that resolves to nothing before anything ran. */
	method = dq_device_target_resolve_purge(&engine->target, method, spec->purge_fallback);
	stats->start_ns = dq_phase_env_now(env);
	rc = proof != NULL ? dq_purge_proof_prepare(env, spec->index, proof, err, sizeof(err)) :
			     -ENOMEM;
	if (rc != 0) {
		stats->cancelled = rc == -ECANCELED;
		if (!stats->cancelled) {
			phase_fail(stats, rc == -EIO ? DQ_FAIL_IO_ERROR : DQ_FAIL_ENGINE_ERROR,
				   "writing the purge's canaries", err, rc);
		}
		goto out;
	}
	rc = fault_skip_erase() ? 0 : engine->ops->purge(engine->data, method, err, sizeof(err));
	if (rc != 0) {
		phase_fail(stats, rc == -EIO ? DQ_FAIL_IO_ERROR : DQ_FAIL_ENGINE_ERROR,
			   dq_purge_method_to_str(method), err, rc);
		goto out;
	}
	dq_block_ledger_forget(env->ledger, 0, env->ledger->capacity_bytes);
	if (method == DQ_PURGE_METHOD_DEALLOCATE) {
		stats->has_deallocated_bytes = true;
		stats->deallocated_bytes = engine->target.device.capacity_bytes;
	}
	rc = dq_purge_proof_check(env, proof, err, sizeof(err));
	if (rc != 0) {
		stats->cancelled = rc == -ECANCELED;
		if (!stats->cancelled) {
			phase_fail(stats, rc == -EIO ? DQ_FAIL_IO_ERROR : DQ_FAIL_ENGINE_ERROR,
				   "reading back after the purge", err, rc);
		}
		goto out;
	}
	stats->has_purge_verification = true;
	stats->purge_verification = proof->result;
	stats->purge_verification.method = method;
out:
	stats->duration_ns = dq_phase_env_now(env) - stats->start_ns;
	free(proof);
	return 0;
}

int dq_deallocate_phase_run(const struct dq_phase_env *env, const struct dq_phase_spec *spec,
			    struct dq_phase_stats *stats)
{
	struct dq_io_engine *engine = env->engine;
	uint64_t range = dq_phase_range_bytes(spec, &engine->target.device), offset, length;
	char err[512] = "";
	int rc;

	stats->start_ns = dq_phase_env_now(env);
	stats->has_deallocated_bytes = true;
	for (offset = 0; offset < range; offset += length) {
		if (cancelled(env)) {
			stats->cancelled = true;
			break;
		}
		length = range - offset < DEALLOCATE_CHUNK_BYTES ? range - offset :
								   DEALLOCATE_CHUNK_BYTES;
		rc = engine->ops->deallocate(engine->data, offset, length, err, sizeof(err));
		if (rc != 0) {
			phase_fail(stats, rc == -EIO ? DQ_FAIL_IO_ERROR : DQ_FAIL_ENGINE_ERROR,
				   "deallocate", err, rc);
			break;
		}
		stats->deallocated_bytes += length;
		dq_block_ledger_forget(env->ledger, offset, length);
	}
	stats->duration_ns = dq_phase_env_now(env) - stats->start_ns;
	return 0;
}

int dq_idle_phase_run(const struct dq_phase_env *env, const struct dq_phase_spec *spec,
		      struct dq_phase_stats *stats)
{
	struct dq_io_engine *engine = env->engine;
	uint64_t end, now, step;
	struct timespec pause;
	int rc;

	stats->start_ns = dq_phase_env_now(env);
	end = stats->start_ns + (uint64_t)spec->idle_s * DQ_NS_PER_S;
	for (now = stats->start_ns; now < end; now = dq_phase_env_now(env)) {
		if (cancelled(env)) {
			stats->cancelled = true;
			break;
		}
		if (env->virtual_clock) {
			/* Simulated time: the engine runs its background work for the idle span. */
			step = end - now < DQ_NS_PER_S ? end - now : DQ_NS_PER_S;
			rc = engine->ops->idle(engine->data, step);
			if (rc != 0) {
				phase_fail(stats, DQ_FAIL_ENGINE_ERROR, "idle", NULL, rc);
				break;
			}
			if (env->second_tick != NULL) {
				env->second_tick(env->second_tick_arg, dq_phase_env_now(env));
			}
			continue;
		}
		step = end - now < DQ_TICK_NS ? end - now : DQ_TICK_NS;
		if (engine->ops->idle != NULL) {
			/* A real-clock engine with an idle() keeps its device alive meanwhile
			 * (the SPDK engine's NVMe-oF keep-alives). */
			rc = engine->ops->idle(engine->data, step);
			if (rc != 0) {
				phase_fail(stats, DQ_FAIL_ENGINE_ERROR, "idle", NULL, rc);
				break;
			}
			continue;
		}
		pause.tv_sec = (time_t)(step / DQ_NS_PER_S);
		pause.tv_nsec = (long)(step % DQ_NS_PER_S);
		nanosleep(&pause, NULL);
	}
	now = dq_phase_env_now(env);
	stats->duration_ns = (now < end ? now : end) - stats->start_ns;
	return 0;
}
