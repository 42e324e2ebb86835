/*
 * A power-cycle phase as a job runs it: the phaseSpec becomes a power_cycle.c config, the cycles'
 * classifications become the contract's powerCycleResult, and the job's block ledger forgets the
 * range (the phase's blocks carry its own sequences, which a later verify phase cannot know).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "contract/strutil.h"
#include "io/block_ledger.h"
#include "io/phase.h"
#include "io/power_cycle.h"

#define PC_PHASE_BLOCK_BYTES 4096u

struct pc_phase_report {
	struct dq_power_cycle_report *report;
	const struct dq_phase_env *env;
};

static void pc_phase_config(const struct dq_io_engine *engine, const struct dq_phase_spec *spec,
			    uint64_t seed, const char *job_id, const struct dq_power_site *site,
			    struct dq_power_cycle_config *config)
{
	uint64_t range = dq_phase_range_bytes(spec, &engine->target.device);

	*config = (struct dq_power_cycle_config){
		.range_bytes = range - range % PC_PHASE_BLOCK_BYTES,
		.block_bytes = spec->has_block_size_bytes ? spec->block_size_bytes :
							    PC_PHASE_BLOCK_BYTES,
		.queue_depth = spec->queue_depth,
		.writes_per_cycle = spec->power_cycle.writes_per_cycle,
		.flush_every = spec->power_cycle.flush_every,
		.cycles = spec->power_cycle.cycles,
		.cut_after_writes = spec->power_cycle.cut_after_writes,
		.seed = seed,
		.job_id = job_id,
		.site = site,
	};
}

int dq_power_cycle_phase_check(const struct dq_io_engine *engine, const struct dq_phase_spec *spec,
			       const struct dq_power_site *site, char *why, size_t why_len)
{
	struct dq_power_cycle_config config;
	struct dq_power_driver driver;
	enum dq_power_durability durability;
	int rc;

	pc_phase_config(engine, spec, 1, "", site, &config);
	rc = dq_power_cycle_admit(engine, spec->power_cycle.power_driver, &config, &driver,
				  &durability, why, why_len);
	if (rc == 0) {
		dq_power_driver_close(&driver);
	}
	return rc;
}

static int pc_phase_cycle(const struct dq_power_cycle_result *result, void *arg)
{
	const struct pc_phase_report *phase = arg;
	struct dq_power_cycle_report *report = phase->report;

	if (report->outcome_count < DQ_POWER_CYCLES_MAX) {
		report->outcomes[report->outcome_count++] = (struct dq_power_cycle_outcome){
			.cycle = result->cycle,
			.cut_after_writes = result->cut_after_writes,
			.intact = (uint32_t)result->counts.intact,
			.lost_allowed = (uint32_t)result->counts.lost_allowed,
			.lost_durable = (uint32_t)result->counts.lost_durable,
			.corrupt = (uint32_t)result->counts.corrupt,
			.pass = result->pass,
		};
	}
	if (!result->pass && report->failed_cycle_count < DQ_POWER_FAILED_CYCLES_MAX) {
		report->failed_cycles[report->failed_cycle_count++] = result->cycle;
	}
	if (!result->pass && !report->has_first_failure) {
		report->has_first_failure = true;
		snprintf(report->first_failure, sizeof(report->first_failure), "cycle %u: %s",
			 result->cycle, result->first_failure);
	}
	/* a cancel takes effect between cycles: the drive is powered and verified by then */
	return phase->env->cancel != NULL && atomic_load(phase->env->cancel) != 0 ? -ECANCELED : 0;
}

int dq_power_cycle_phase_run(const struct dq_phase_env *env, const struct dq_phase_spec *spec,
			     struct dq_phase_stats *stats)
{
	struct dq_power_cycle_report *report = &stats->power_cycle;
	struct pc_phase_report arg = { .report = report, .env = env };
	struct dq_power_cycle_config config;
	struct dq_power_cycle_summary summary;
	struct dq_power_driver driver;
	enum dq_power_durability durability;
	char err[512] = "";
	int rc;

	stats->start_ns = dq_phase_env_now(env);
	pc_phase_config(env->engine, spec, env->seed != 0 ? env->seed : 1, env->job_id,
			env->power_site, &config);
	memset(report, 0, sizeof(*report));
	rc = dq_power_cycle_admit(env->engine, spec->power_cycle.power_driver, &config, &driver,
				  &durability, err, sizeof(err));
	if (rc == 0) {
		rc = dq_power_cycle_run(env->engine, &driver, durability, &config, pc_phase_cycle,
					&arg, &summary, err, sizeof(err));
		dq_power_driver_close(&driver);
	}
	dq_block_ledger_forget(env->ledger, 0, config.range_bytes);
	stats->duration_ns = dq_phase_env_now(env) - stats->start_ns;
	if (rc == -ECANCELED) {
		stats->cancelled = true;
		return 0;
	}
	if (rc != 0) {
		stats->fail_reason = rc == -EIO ? DQ_FAIL_IO_ERROR : DQ_FAIL_ENGINE_ERROR;
		snprintf(stats->message, sizeof(stats->message), "power-cycle: %s", err);
		return 0;
	}
	dq_strlcpy(report->power_driver, spec->power_cycle.power_driver,
		   sizeof(report->power_driver));
	report->durability = durability == DQ_POWER_DURABLE_ON_FLUSH ? DQ_DURABILITY_ON_FLUSH :
								       DQ_DURABILITY_ON_ACKNOWLEDGE;
	report->cycles = summary.cycles;
	report->cycles_passed = summary.passed;
	report->cycles_failed = summary.failed;
	report->pass = summary.failed == 0;
	report->acknowledged_writes = summary.totals.acknowledged;
	report->flushes = summary.totals.flushes;
	report->intact = summary.totals.intact;
	report->lost_allowed = summary.totals.lost_allowed;
	report->lost_durable = summary.totals.lost_durable;
	report->corrupt = summary.totals.corrupt;
	report->in_flight_at_cut = summary.totals.in_flight_at_cut;
	report->in_flight_lost = summary.totals.in_flight_at_cut_lost;
	stats->has_power_cycle = true;
	return 0;
}
