/*
 * What the simulated drive answers about itself: the capability probe (as a drive would answer
 * it, with FDP when its profile has it) and the SMART snapshot (the NVMe health log, the thermal
 * model's history and limits, the OCP C0h counters and, with FDP, its statistics).
 */
#include <string.h>

#include "contract/strutil.h"
#include "engines/sim_engine.h"

/*
 * FDP as the drive's FDP Configurations log would say it: a profile with an "fdp" section has it,
 * enabled (the sim has no Set Features to turn it off); the fluid model places nothing.
 */
static void sim_fdp_capability(const struct sim_engine *engine, struct dq_capabilities *caps)
{
	struct dq_sim_fdp_config cfg = { 0 };

	if (engine->drive != NULL) {
		dq_sim_drive_fdp_config(engine->drive, &cfg);
	}
	if (!cfg.enabled) {
		dq_capability_lack(caps, DQ_CAPABILITY_FDP, DQ_CAPABILITY_MISSING_DEVICE,
				   engine->fluid != NULL ?
					   "the fluid model of the simulated drive places no data" :
					   "the simulated drive's profile has no FDP section");
		return;
	}
	dq_capability_have(caps, DQ_CAPABILITY_FDP,
			   "%u reclaim group, %u reclaim unit handles, reclaim unit %llu bytes",
			   cfg.reclaim_groups, cfg.reclaim_unit_handles,
			   (unsigned long long)cfg.reclaim_unit_bytes);
	caps->items[DQ_CAPABILITY_FDP].has_enabled = true;
	caps->items[DQ_CAPABILITY_FDP].enabled = true;
}

/* A drive with FDP: its FDP Statistics log as the model counts it (it keeps no events log). */
static void sim_fdp_statistics(const struct sim_engine *engine, struct dq_smart_snapshot *out)
{
	struct dq_sim_fdp_config cfg = { 0 };
	struct dq_sim_fdp_stats stats;

	if (engine->drive == NULL || engine->fluid != NULL) {
		return;
	}
	dq_sim_drive_fdp_config(engine->drive, &cfg);
	if (!cfg.enabled) {
		return;
	}
	dq_sim_drive_fdp_stats(engine->drive, &stats);
	out->has_fdp = true;
	out->fdp.host_bytes_written = stats.host_bytes_written;
	out->fdp.media_bytes_written = stats.media_bytes_written;
	out->fdp.media_bytes_erased = stats.media_bytes_erased;
}

/* What the simulated drive offers, as a drive would answer the probe (every purge the model runs
 * is an erase of its FTL; it has no crypto or overwrite sanitize; FDP when its profile has it). */
void sim_capabilities(const struct sim_engine *engine, struct dq_capabilities *caps)
{
	struct dq_sim_smart smart;

	if (engine->fluid != NULL) {
		dq_sim_fluid_smart(engine->fluid, &smart);
	} else {
		dq_sim_drive_smart(engine->drive, &smart);
	}
	dq_capability_have(caps, DQ_CAPABILITY_FORMAT, "the simulated drive's FTL erase");
	dq_capability_have(caps, DQ_CAPABILITY_FORMAT_USER_DATA, "the simulated drive's FTL erase");
	dq_capability_lack(caps, DQ_CAPABILITY_FORMAT_CRYPTO, DQ_CAPABILITY_MISSING_DEVICE,
			   "the simulated drive models no encryption");
	dq_capability_have(caps, DQ_CAPABILITY_SANITIZE_BLOCK, "the simulated drive's FTL erase");
	dq_capability_lack(caps, DQ_CAPABILITY_SANITIZE_CRYPTO, DQ_CAPABILITY_MISSING_DEVICE,
			   "the simulated drive models no encryption");
	dq_capability_lack(caps, DQ_CAPABILITY_SANITIZE_OVERWRITE, DQ_CAPABILITY_MISSING_DEVICE,
			   "the simulated drive models no overwrite sanitize");
	dq_capability_have(caps, DQ_CAPABILITY_DEALLOCATE, "the simulated drive's FTL trim");
	dq_capability_have(caps, DQ_CAPABILITY_SMART, "the simulator's counters");
	dq_capability_have(caps, DQ_CAPABILITY_OCP_SMART_C0H,
			   "the simulator's physical media bytes written");
	if (smart.warning_temperature_threshold_k != 0) {
		dq_capability_have(caps, DQ_CAPABILITY_TEMPERATURE_THRESHOLDS,
				   "WCTEMP %u K, CCTEMP %u K (the profile's thermal model)",
				   smart.warning_temperature_threshold_k,
				   smart.critical_temperature_threshold_k);
	} else {
		dq_capability_lack(caps, DQ_CAPABILITY_TEMPERATURE_THRESHOLDS,
				   DQ_CAPABILITY_MISSING_DEVICE,
				   "the profile has no thermal model: no thresholds declared");
	}
	if (engine->cache != NULL && dq_sim_cache_mode(engine->cache) != DQ_SIM_POWER_PLP) {
		/* the liar answers as the honest drive does: what it does with a flush is the test */
		dq_capability_have(caps, DQ_CAPABILITY_VOLATILE_WRITE_CACHE,
				   "the simulated drive's write cache is volatile (sim_power=%s): "
				   "writes are durable once a flush completes",
				   dq_sim_power_mode_name(dq_sim_cache_mode(engine->cache)));
		caps->items[DQ_CAPABILITY_VOLATILE_WRITE_CACHE].has_enabled = true;
		caps->items[DQ_CAPABILITY_VOLATILE_WRITE_CACHE].enabled = true;
	} else {
		dq_capability_lack(
			caps, DQ_CAPABILITY_VOLATILE_WRITE_CACHE, DQ_CAPABILITY_MISSING_DEVICE,
			"the simulated drive's write buffer is power-loss protected, as an "
			"enterprise drive's: no volatile write cache");
	}
	sim_fdp_capability(engine, caps);
}

int sim_smart(void *data, struct dq_smart_snapshot *out)
{
	const struct sim_engine *engine = data;
	struct dq_sim_smart smart;

	if (engine->fluid != NULL) {
		dq_sim_fluid_smart(engine->fluid, &smart);
	} else {
		dq_sim_drive_smart(engine->drive, &smart);
	}
	memset(out, 0, sizeof(*out));
	out->available = true;
	out->source = DQ_SMART_SOURCE_SIM;
	out->has_data_units_written = true;
	out->data_units_written = smart.data_units_written;
	out->has_data_units_read = true;
	out->data_units_read = smart.data_units_read;
	out->has_host_write_commands = true;
	out->host_write_commands = smart.host_write_commands;
	out->has_host_read_commands = true;
	out->host_read_commands = smart.host_read_commands;
	out->has_percentage_used = true;
	out->percentage_used = smart.percentage_used;
	out->has_available_spare_percent = true;
	out->available_spare_percent = smart.available_spare_percent;
	out->has_available_spare_threshold_percent = true;
	out->available_spare_threshold_percent = smart.available_spare_threshold_percent;
	out->has_critical_warning = true;
	out->critical_warning = smart.critical_warning;
	out->has_temperature_k = true;
	out->temperature_k = smart.temperature_k;
	out->has_power_on_hours = true;
	out->power_on_hours = smart.power_on_hours;
	out->has_media_errors = true;
	out->media_errors = smart.media_errors;
	if (smart.warning_temperature_threshold_k != 0) {
		/* the profile has a thermal model: its history and limits as a drive reports them */
		out->has_warning_temperature_time_min = true;
		out->warning_temperature_time_min = smart.warning_temperature_time_min;
		out->has_critical_temperature_time_min = true;
		out->critical_temperature_time_min = smart.critical_temperature_time_min;
		out->has_warning_temperature_threshold_k = true;
		out->warning_temperature_threshold_k = smart.warning_temperature_threshold_k;
		out->has_critical_temperature_threshold_k = true;
		out->critical_temperature_threshold_k = smart.critical_temperature_threshold_k;
		out->has_thermal_management_temp1_k = true;
		out->thermal_management_temp1_k = smart.throttle_temperature_k;
		out->has_thermal_management = true;
		out->thermal_management_temp1_transitions = smart.throttle_transitions;
		out->thermal_management_temp1_time_s = smart.throttle_time_s;
	}
	out->has_ocp = true;
	dq_smart_ocp_set(&out->ocp, DQ_OCP_PHYSICAL_MEDIA_UNITS_WRITTEN_BYTES,
			 smart.physical_media_units_written_bytes);
	dq_smart_ocp_set(&out->ocp, DQ_OCP_PHYSICAL_MEDIA_UNITS_READ_BYTES,
			 smart.physical_media_units_read_bytes);
	dq_smart_ocp_set(&out->ocp, DQ_OCP_BAD_USER_NAND_BLOCKS, smart.bad_user_nand_blocks);
	dq_smart_ocp_set(&out->ocp, DQ_OCP_USER_DATA_ERASE_COUNT_MAX, smart.erase_count_max);
	dq_smart_ocp_set(&out->ocp, DQ_OCP_USER_DATA_ERASE_COUNT_MIN, smart.erase_count_min);
	if (smart.warning_temperature_threshold_k != 0) {
		/* C0h counts throttling events in one byte */
		dq_smart_ocp_set(&out->ocp, DQ_OCP_THERMAL_THROTTLING_EVENTS,
				 smart.throttle_transitions > 255 ? 255 :
								    smart.throttle_transitions);
	}
	dq_smart_ocp_set(&out->ocp, DQ_OCP_NAND_ERASE_COUNT, smart.nand_erase_count);
	sim_fdp_statistics(engine, out);
	out->has_latency_monitor_reason = true;
	dq_strlcpy(
		out->latency_monitor_reason,
		"the simulated drive models no OCP latency monitor (C3h): its latencies are in the "
		"samples and the phase histograms",
		sizeof(out->latency_monitor_reason));
	return 0;
}
