/*
 * The thermal model (docs/simulator.md "Temperature and throttling"): known answers for the
 * first-order response (idle equilibrium, exponential cooling, the equilibrium of the work's
 * power), throttling on the test-thermal-throttle profile (starts at throttle_c, halves IOPS,
 * holds the temperature below the warning threshold, is counted as NVMe reports it), what an
 * ineffective throttle lets through (critical warning bit 1, warning and critical time), and that
 * reading the health state changes nothing. All in virtual time; no wall-clock thresholds.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "sim_test.h"

#define NS DQ_SIM_NS_PER_S

/* Per-second IOPS and the thermal state at the end of each second. */
struct thermal_trace {
	struct dq_sim_drive *drive;
	uint32_t n;
	double iops[400];
	struct dq_sim_thermal state[400];
	int read_smart; /* also read SMART each second (as health polling does) */
};

static int thermal_record(const struct dq_sim_second *second, void *arg)
{
	struct thermal_trace *tr = arg;
	struct dq_sim_smart smart;

	if (tr->n >= sizeof(tr->iops) / sizeof(tr->iops[0]))
		return -1;
	tr->iops[tr->n] =
		(double)(second->read_ios + second->write_ios) * 1e9 / (double)second->interval_ns;
	dq_sim_drive_thermal(tr->drive, &tr->state[tr->n]);
	if (tr->read_smart)
		dq_sim_drive_smart(tr->drive, &smart);
	tr->n++;
	return 0;
}

static uint64_t thermal_run(struct dq_sim_drive *d, uint32_t seconds, uint64_t start_ns,
			    struct thermal_trace *tr)
{
	struct dq_sim_workload w = { .pattern = DQ_SIM_PATTERN_RANDWRITE,
				     .block_bytes = 4096,
				     .queue_depth = 32,
				     .range_fraction = 1.0,
				     .duration_ns = (uint64_t)seconds * NS,
				     .seed = 11 };
	struct dq_sim_run_result r;

	tr->drive = d;
	CHECK_RC(dq_sim_run_closed_loop(d, &w, start_ns, thermal_record, tr, &r));
	return r.end_ns;
}

static double idle_equilibrium_c(const struct dq_sim_profile *p)
{
	return p->ambient_c + p->c_per_w * p->idle_w;
}

/* Power-on at the idle equilibrium; idling cools exactly as exp(-t / time constant). */
static void test_first_order_response(void)
{
	static struct thermal_trace tr;
	struct dq_sim_profile p;
	struct dq_sim_drive *d;
	struct dq_sim_thermal before, after;
	double expected;
	uint64_t t;

	sim_test_load("test-thermal-throttle", &p);
	p.throttle_c = 150; /* no throttling here: only the heat */
	p.throttle_release_c = 149;
	p.warning_c = 160;
	p.critical_c = 170;
	d = sim_test_drive(&p);
	dq_sim_drive_thermal(d, &before);
	CHECK(before.enabled && fabs(before.temperature_c - idle_equilibrium_c(&p)) < 1e-9);
	memset(&tr, 0, sizeof(tr));
	t = thermal_run(d, 10, 0, &tr);
	dq_sim_drive_thermal(d, &before);
	CHECK(before.temperature_c > idle_equilibrium_c(&p) + 5.0);
	/* idle one time constant, starting on a step boundary */
	t = (t / 10000000ull + 1) * 10000000ull;
	dq_sim_drive_idle(d, t, t);
	dq_sim_drive_idle(d, t, t + (uint64_t)(p.time_constant_s * NS));
	dq_sim_drive_thermal(d, &after);
	expected = idle_equilibrium_c(&p) +
		   (before.temperature_c - idle_equilibrium_c(&p)) * exp(-1.0) *
			   exp(-(double)(after.updated_ns - before.updated_ns -
					 (uint64_t)(p.time_constant_s * NS)) /
			       (p.time_constant_s * NS));
	printf("cooling: %.3f C -> %.3f C after one time constant (expected %.3f)\n",
	       before.temperature_c, after.temperature_c, expected);
	/* the work of the step that was open when the idle began heats by a fraction of a degree */
	CHECK(fabs(after.temperature_c - expected) < 0.25);
	dq_sim_drive_destroy(d);
}

/*
 * With a time constant far below a second the temperature is the equilibrium of each second's
 * power: ambient + c_per_w x (idle_w + the energy of the second's commands, programs, reads and
 * erases), recomputed here from the SMART counters and the profile's energies.
 */
static void test_equilibrium_of_work(void)
{
	static struct thermal_trace tr;
	struct dq_sim_profile p;
	struct dq_sim_drive *d;
	struct dq_sim_smart s0, s1;
	double energy_j, expected;
	uint64_t t;

	sim_test_load("test-thermal-throttle", &p);
	p.time_constant_s = 0.1;
	p.throttle_c = 150;
	p.throttle_release_c = 149;
	p.warning_c = 160;
	p.critical_c = 170;
	d = sim_test_drive(&p);
	memset(&tr, 0, sizeof(tr));
	t = thermal_run(d, 5, 0, &tr);
	dq_sim_drive_smart(d, &s0);
	memset(&tr, 0, sizeof(tr));
	thermal_run(d, 5, t, &tr);
	dq_sim_drive_smart(d, &s1);
	energy_j =
		(double)(s1.host_write_commands - s0.host_write_commands) * p.command_uj * 1e-6 +
		(double)(s1.physical_media_units_written_bytes -
			 s0.physical_media_units_written_bytes) *
			p.program_nj_per_byte * 1e-9 +
		(double)(s1.physical_media_units_read_bytes - s0.physical_media_units_read_bytes) *
			p.read_nj_per_byte * 1e-9 +
		(double)(s1.nand_erase_count - s0.nand_erase_count) * p.channels *
			p.dies_per_channel * p.planes * p.erase_uj * 1e-6;
	expected = p.ambient_c + p.c_per_w * (p.idle_w + energy_j / 5.0);
	printf("equilibrium: %.2f C measured, %.2f C from the second's energy (%.2f W of work)\n",
	       tr.state[4].temperature_c, expected, energy_j / 5.0);
	CHECK(fabs(tr.state[4].temperature_c - expected) < 0.02 * (expected - p.ambient_c));
	dq_sim_drive_destroy(d);
}

/* The test profile heats past 70 C, throttles at half speed and holds below the warning. */
static void test_throttling(void)
{
	static struct thermal_trace tr;
	struct dq_sim_profile p;
	struct dq_sim_drive *d;
	struct dq_sim_smart smart;
	uint32_t first = 0, throttled_seconds = 0, i;
	double cool_iops, hot_iops = 0, max_c = 0;

	sim_test_load("test-thermal-throttle", &p);
	d = sim_test_drive(&p);
	memset(&tr, 0, sizeof(tr));
	thermal_run(d, 90, 0, &tr);
	for (i = 0; i < tr.n; i++) {
		if (tr.state[i].throttled && first == 0)
			first = i + 1;
		throttled_seconds += tr.state[i].throttled;
		max_c = fmax(max_c, tr.state[i].temperature_c);
	}
	CHECK(first > 5 && first < 40);
	/* the second before throttling started was still below throttle_c */
	CHECK(tr.state[first - 2].temperature_c < p.throttle_c);
	cool_iops =
		sim_series_mean(&(struct sim_series){ .iops = tr.iops, .n = tr.n }, 2, first - 2);
	for (i = first + 1; i < first + 31; i++)
		hot_iops += tr.iops[i] / 30;
	printf("throttling: starts in second %u, %.0f IOPS cool, %.0f IOPS throttled (%.0f %%), "
	       "max %.2f C, %u s throttled of %u\n",
	       first, cool_iops, hot_iops, 100.0 * hot_iops / cool_iops, max_c, throttled_seconds,
	       tr.n);
	CHECK(hot_iops < 0.6 * cool_iops && hot_iops > 0.4 * cool_iops);
	CHECK(max_c < p.warning_c);
	CHECK(max_c >= p.throttle_c);
	dq_sim_drive_smart(d, &smart);
	CHECK(smart.throttle_temperature_k == 343 && smart.warning_temperature_threshold_k == 348 &&
	      smart.critical_temperature_threshold_k == 358);
	CHECK(smart.throttle_transitions >= 1);
	CHECK(smart.throttle_time_s == tr.state[tr.n - 1].throttled_ns / NS);
	/* every second counted throttled at its end, give or take the second it started in */
	CHECK(llabs((long long)smart.throttle_time_s - (long long)throttled_seconds) <= 1);
	CHECK((smart.critical_warning & 2u) == 0 && smart.warning_temperature_time_min == 0);
	CHECK(smart.temperature_k == (uint32_t)floor(tr.state[tr.n - 1].temperature_c + 273.65));
	dq_sim_drive_destroy(d);
}

/* A throttle that does not slow the drive lets it pass its warning and critical thresholds. */
static void test_ineffective_throttle(void)
{
	static struct thermal_trace tr;
	struct dq_sim_profile p;
	struct dq_sim_drive *d;
	struct dq_sim_smart smart;
	struct dq_sim_thermal th;

	sim_test_load("test-thermal-throttle", &p);
	p.throttle_speed_pct = 100;
	CHECK_RC(dq_sim_profile_validate(&p, NULL, 0));
	d = sim_test_drive(&p);
	memset(&tr, 0, sizeof(tr));
	thermal_run(d, 200, 0, &tr);
	dq_sim_drive_smart(d, &smart);
	dq_sim_drive_thermal(d, &th);
	printf("no effective throttle: %.2f C, warning %llu min, critical %llu ns, warning bits "
	       "0x%x\n",
	       th.temperature_c, (unsigned long long)smart.warning_temperature_time_min,
	       (unsigned long long)th.critical_ns, smart.critical_warning);
	CHECK(th.temperature_c > p.critical_c);
	CHECK((smart.critical_warning & 2u) != 0);
	/* NVMe counts warning time only below the critical threshold: passed through on the way */
	CHECK(th.warning_ns > 0 && th.warning_ns < 60 * NS);
	CHECK(smart.warning_temperature_time_min == 0);
	CHECK(th.critical_ns > 120 * NS && smart.critical_temperature_time_min >= 2);
	CHECK(smart.critical_temperature_time_min == th.critical_ns / (60 * NS));
	dq_sim_drive_destroy(d);
}

/* Reading health (as the runner's poller does every second) changes no IO's timing. */
static void test_reading_changes_nothing(void)
{
	static struct thermal_trace quiet, polled;
	struct dq_sim_profile p;
	struct dq_sim_drive *a, *b;

	sim_test_load("test-thermal-throttle", &p);
	a = sim_test_drive(&p);
	b = sim_test_drive(&p);
	memset(&quiet, 0, sizeof(quiet));
	memset(&polled, 0, sizeof(polled));
	polled.read_smart = 1;
	thermal_run(a, 60, 0, &quiet);
	thermal_run(b, 60, 0, &polled);
	CHECK(quiet.n == polled.n);
	CHECK(memcmp(quiet.iops, polled.iops, sizeof(quiet.iops)) == 0);
	CHECK(quiet.state[59].temperature_c == polled.state[59].temperature_c);
	dq_sim_drive_destroy(a);
	dq_sim_drive_destroy(b);
}

/* Without a thermal section: 40 C forever, no thresholds, never throttled. */
static void test_no_thermal_model(void)
{
	static struct thermal_trace tr;
	struct dq_sim_profile p;
	struct dq_sim_drive *d;
	struct dq_sim_smart smart;

	sim_test_load("test-enterprise-eager", &p);
	CHECK(!p.thermal_enabled);
	d = sim_test_drive(&p);
	memset(&tr, 0, sizeof(tr));
	thermal_run(d, 20, 0, &tr);
	dq_sim_drive_smart(d, &smart);
	CHECK(smart.temperature_k == 313 && smart.warning_temperature_threshold_k == 0 &&
	      smart.throttle_temperature_k == 0 && smart.throttle_time_s == 0);
	CHECK(!tr.state[19].throttled && tr.state[19].temperature_c == 40.0);
	dq_sim_drive_destroy(d);
}

static void test_bad_thermal_profiles(void)
{
	struct dq_sim_profile p;
	char err[160];

	sim_test_load("test-thermal-throttle", &p);
	p.throttle_release_c = p.throttle_c;
	CHECK(dq_sim_profile_validate(&p, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "throttle_release_c") != NULL);
	sim_test_load("test-thermal-throttle", &p);
	p.critical_c = p.warning_c;
	CHECK(dq_sim_profile_validate(&p, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "critical_c") != NULL);
	sim_test_load("test-thermal-throttle", &p);
	p.throttle_speed_pct = 0;
	CHECK(dq_sim_profile_validate(&p, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "throttle_speed_pct") != NULL);
}

int main(void)
{
	test_first_order_response();
	test_equilibrium_of_work();
	test_throttling();
	test_ineffective_throttle();
	test_reading_changes_nothing();
	test_no_thermal_model();
	test_bad_thermal_profiles();
	printf("thermal: ok\n");
	return 0;
}
