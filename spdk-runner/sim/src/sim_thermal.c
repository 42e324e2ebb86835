/*
 * The simulated drive's temperature, so health polling and the service's throttling detector can
 * be tested against a drive whose thermal truth is known. A first-order thermal model in virtual
 * time: the work the drive did in each 10 ms step (host commands, NAND programs, reads, erases)
 * is energy; that power heats the drive toward ambient + c_per_w x power with the profile's time
 * constant; from throttle_c on, the controller runs at throttle_speed_pct of its speed (host
 * commands and NAND operations alike, so the IOPS cap holds whether the drive is controller- or
 * NAND-bound) until it has cooled below throttle_release_c. docs/simulator.md "Temperature and
 * throttling".
 */
#include <math.h>

#include "sim_internal.h"

#define SIM_KELVIN_OFFSET 273.15

static double sim_thermal_step_s(void)
{
	return (double)SIM_THERMAL_STEP_NS / (double)DQ_SIM_NS_PER_S;
}

/* Every operation of a throttled drive takes 100 / throttle_speed_pct times as long. */
static void sim_thermal_slow_timing(struct sim_timing *tm, double speed)
{
	tm->read_ns = (uint64_t)((double)tm->read_ns / speed);
	tm->program_ns = (uint64_t)((double)tm->program_ns / speed);
	tm->erase_ns = (uint64_t)((double)tm->erase_ns / speed);
	tm->unit_xfer_ns = (uint64_t)((double)tm->unit_xfer_ns / speed);
	tm->host_cmd_ns = (uint64_t)((double)tm->host_cmd_ns / speed);
	tm->host_ns_per_byte /= speed;
}

void sim_thermal_init(struct dq_sim_drive *d)
{
	const struct dq_sim_profile *p = &d->profile;
	struct sim_thermal *th = &d->thermal;

	d->tm_cool = d->tm;
	d->tm_throttled = d->tm;
	th->next_step_ns = UINT64_MAX;
	if (!p->thermal_enabled)
		return;
	sim_thermal_slow_timing(&d->tm_throttled, p->throttle_speed_pct / 100.0);
	/* power-on: idle long enough to sit at the idle equilibrium */
	th->temperature_c = p->ambient_c + p->c_per_w * p->idle_w;
	th->decay = exp(-sim_thermal_step_s() / p->time_constant_s);
	th->next_step_ns = SIM_THERMAL_STEP_NS;
}

/* The energy of the work done since the last step, joules. */
static double sim_thermal_energy_j(struct dq_sim_drive *d)
{
	const struct dq_sim_profile *p = &d->profile;
	struct sim_counters *seen = &d->thermal.energy_seen;
	const struct sim_counters *now = &d->cnt;
	double commands = (double)(now->host_write_cmds - seen->host_write_cmds) +
			  (double)(now->host_read_cmds - seen->host_read_cmds);
	double programmed =
		(double)(now->nand_write_units - seen->nand_write_units) * SIM_UNIT_BYTES;
	double read = (double)(now->nand_read_bytes - seen->nand_read_bytes);
	/* a superblock erase erases one block on every plane of every die */
	double blocks = (double)(now->erases - seen->erases) * d->geo.dies * p->planes;

	*seen = *now;
	return commands * p->command_uj * 1e-6 + programmed * p->program_nj_per_byte * 1e-9 +
	       read * p->read_nj_per_byte * 1e-9 + blocks * p->erase_uj * 1e-6;
}

static void sim_thermal_set_throttled(struct dq_sim_drive *d, bool throttled)
{
	struct sim_thermal *th = &d->thermal;

	if (throttled && !th->throttled)
		th->throttle_transitions++;
	th->throttled = throttled;
	d->tm = throttled ? d->tm_throttled : d->tm_cool;
}

/*
 * One step [next_step_ns - step, next_step_ns): the state decided at its start holds through it,
 * the temperature moves toward the equilibrium of the step's power, and the throttle decision
 * for the next step is taken on the temperature at its end.
 */
static void sim_thermal_step(struct dq_sim_drive *d, double energy_j)
{
	const struct dq_sim_profile *p = &d->profile;
	struct sim_thermal *th = &d->thermal;
	double power_w = p->idle_w + energy_j / sim_thermal_step_s();
	double equilibrium_c = p->ambient_c + p->c_per_w * power_w;

	if (th->throttled)
		th->throttled_ns += SIM_THERMAL_STEP_NS;
	th->temperature_c = equilibrium_c + (th->temperature_c - equilibrium_c) * th->decay;
	if (th->temperature_c >= p->critical_c)
		th->critical_ns += SIM_THERMAL_STEP_NS;
	else if (th->temperature_c >= p->warning_c)
		th->warning_ns += SIM_THERMAL_STEP_NS;
	if (!th->throttled && th->temperature_c >= p->throttle_c)
		sim_thermal_set_throttled(d, true);
	else if (th->throttled && th->temperature_c < p->throttle_release_c)
		sim_thermal_set_throttled(d, false);
	th->next_step_ns += SIM_THERMAL_STEP_NS;
}

void sim_thermal_step_until(struct dq_sim_drive *d, uint64_t now_ns)
{
	/* work since the last step counts in the first step that ends; later ones are idle */
	double energy_j = sim_thermal_energy_j(d);

	while (now_ns >= d->thermal.next_step_ns) {
		sim_thermal_step(d, energy_j);
		energy_j = 0.0;
	}
}

static uint32_t sim_thermal_kelvin(double celsius)
{
	double k = floor(celsius + SIM_KELVIN_OFFSET + 0.5);

	return k < 0.0 ? 0 : (uint32_t)k;
}

/* The SMART view of the model (log 02h fields, Identify WCTEMP/CCTEMP, TMT1). */
void sim_thermal_smart(const struct dq_sim_drive *d, struct dq_sim_smart *out)
{
	const struct dq_sim_profile *p = &d->profile;
	const struct sim_thermal *th = &d->thermal;

	if (!p->thermal_enabled) {
		out->temperature_k = 313;
		return;
	}
	out->temperature_k = sim_thermal_kelvin(th->temperature_c);
	out->warning_temperature_threshold_k = sim_thermal_kelvin(p->warning_c);
	out->critical_temperature_threshold_k = sim_thermal_kelvin(p->critical_c);
	out->throttle_temperature_k = sim_thermal_kelvin(p->throttle_c);
	if (th->temperature_c >= p->warning_c)
		out->critical_warning |= 1u << 1;
	out->warning_temperature_time_min = th->warning_ns / (60ull * DQ_SIM_NS_PER_S);
	out->critical_temperature_time_min = th->critical_ns / (60ull * DQ_SIM_NS_PER_S);
	out->throttle_transitions = th->throttle_transitions;
	out->throttle_time_s = th->throttled_ns / DQ_SIM_NS_PER_S;
}

void dq_sim_drive_thermal(const struct dq_sim_drive *d, struct dq_sim_thermal *out)
{
	const struct sim_thermal *th = &d->thermal;

	out->enabled = d->profile.thermal_enabled;
	out->temperature_c = d->profile.thermal_enabled ? th->temperature_c : 40.0;
	out->throttled = th->throttled;
	out->throttle_transitions = th->throttle_transitions;
	out->throttled_ns = th->throttled_ns;
	out->warning_ns = th->warning_ns;
	out->critical_ns = th->critical_ns;
	out->updated_ns = d->profile.thermal_enabled ? th->next_step_ns - SIM_THERMAL_STEP_NS : 0;
}
