/*
 * The power-cycle integrity phase against simulated drives whose truth is known: 100 cycles each
 * on a drive with power-loss protection, one with an honest volatile cache and one that
 * acknowledges flushes it does not keep. Every cycle's verdict and lost-write counts are checked
 * against what the simulator says its cut dropped (0 false PASS, 0 false FAIL), and every refusal
 * comes before a single write.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "io/engine.h"
#include "io/power_cycle.h"
#include "test_util.h"

#define CYCLES 100

struct cycle_check {
	struct test_ctx *t;
	const char *mode;
	uint32_t false_pass;
	uint32_t false_fail;
	uint64_t truth_lost;
	uint64_t truth_lost_promised;
	uint32_t cycles_losing_promised;
	uint32_t printed;
};

/* Opens sim:test-enterprise-eager with the given options (name=value pairs, NULL-terminated). */
static int open_sim(struct dq_io_engine *engine, const char *const *options, char *err,
		    size_t err_len)
{
	const struct dq_io_engine_ops *ops;
	struct dq_io_engine_open_args args = { .target = "sim:test-enterprise-eager@3",
					       .queue_depth = 8,
					       .writable = true };
	void *opts = NULL;
	int rc;

	rc = dq_io_engine_find("sim", &ops, err, err_len);
	rc = rc ? rc : dq_engine_options_new(ops, &opts);
	for (size_t i = 0; rc == 0 && options[i] != NULL; i += 2) {
		rc = dq_engine_options_set(ops, opts, options[i], options[i + 1], err, err_len);
	}
	args.options = opts;
	rc = rc ? rc : dq_io_engine_open(engine, ops, &args, err, err_len);
	free(opts); /* the engine copied what it keeps */
	return rc;
}

static uint64_t host_writes(struct dq_io_engine *engine)
{
	struct dq_smart_snapshot smart;

	engine->ops->smart(engine->data, &smart);
	return smart.host_write_commands;
}

static int on_cycle(const struct dq_power_cycle_result *r, void *arg)
{
	struct cycle_check *c = arg;
	bool broke_promise = r->truth.last_cut_lost_promised_units > 0;
	uint64_t seen_lost =
		r->counts.lost_allowed + r->counts.lost_durable + r->counts.in_flight_at_cut_lost;

	CHECK(c->t, r->has_truth, "%s cycle %u: the simulator reports its truth", c->mode,
	      r->cycle);
	c->false_pass += r->pass && broke_promise;
	c->false_fail += !r->pass && !broke_promise;
	c->truth_lost += r->truth.last_cut_lost_units;
	c->truth_lost_promised += r->truth.last_cut_lost_promised_units;
	c->cycles_losing_promised += broke_promise;
	/* every block the cut dropped is seen, and each broken promise is a lost durable write */
	CHECK(c->t, seen_lost == r->truth.last_cut_lost_units,
	      "%s cycle %u: %" PRIu64 " lost seen, the simulator dropped %" PRIu64, c->mode,
	      r->cycle, seen_lost, r->truth.last_cut_lost_units);
	CHECK(c->t, r->counts.lost_durable == r->truth.last_cut_lost_promised_units,
	      "%s cycle %u: %" PRIu64 " lost durable, %" PRIu64 " promised units dropped", c->mode,
	      r->cycle, r->counts.lost_durable, r->truth.last_cut_lost_promised_units);
	CHECK(c->t, r->counts.corrupt == 0, "%s cycle %u: %" PRIu64 " corrupt (%s)", c->mode,
	      r->cycle, r->counts.corrupt, r->first_failure);
	CHECK(c->t, r->cut_ns > 0 && r->counts.in_flight_at_cut == 8,
	      "%s cycle %u: cut at %" PRIu64 " ns with %" PRIu64 " in flight", c->mode, r->cycle,
	      r->cut_ns, r->counts.in_flight_at_cut);
	if (!r->pass && c->printed++ == 0) {
		printf("  %s, first failing cycle %u: %s\n", c->mode, r->cycle, r->first_failure);
	}
	return 0;
}

static const struct dq_power_cycle_config g_config = {
	.range_bytes = 16u << 20, /* 4096 blocks */
	.block_bytes = 4096,
	.queue_depth = 8,
	.writes_per_cycle = 2000,
	.flush_every = 128,
	.cycles = CYCLES,
	.seed = 42,
	.job_id = "power-cycle-test",
};

static void run_mode(struct test_ctx *t, const char *mode, bool expect_durable_on_flush,
		     struct cycle_check *check, struct dq_power_cycle_summary *summary)
{
	/* a 256 KiB cache (64 units) against a flush every 128 writes: a cut finds flushed
	 * writes still cached in some cycles and none in others */
	const char *options[] = {
		"sim_medium", "1", "sim_power", mode, "sim_cache_kib", "256", NULL
	};
	struct dq_io_engine engine;
	struct dq_power_driver driver;
	enum dq_power_durability durability;
	char err[512] = "";
	int rc;

	memset(check, 0, sizeof(*check));
	check->t = t;
	check->mode = mode;
	rc = open_sim(&engine, options, err, sizeof(err));
	CHECK(t, rc == 0, "open %s: %s", mode, err);
	if (rc != 0) {
		return;
	}
	rc = dq_power_cycle_admit(&engine, "sim", &g_config, &driver, &durability, err,
				  sizeof(err));
	CHECK(t, rc == 0, "%s admitted: %s", mode, err);
	CHECK(t,
	      durability == (expect_durable_on_flush ? DQ_POWER_DURABLE_ON_FLUSH :
						       DQ_POWER_DURABLE_ON_ACK),
	      "%s: the drive's volatile-write-cache answer sets the promise", mode);
	if (rc == 0) {
		rc = dq_power_cycle_run(&engine, &driver, durability, &g_config, on_cycle, check,
					summary, err, sizeof(err));
		CHECK(t, rc == 0 && summary->cycles == CYCLES, "%s ran: %s", mode, err);
	}
	dq_io_engine_close(&engine);
}

static void test_three_drives(struct test_ctx *t)
{
	static const char *const modes[] = { "plp", "volatile", "liar" };
	struct cycle_check checks[3];
	struct dq_power_cycle_summary sums[3];

	for (int i = 0; i < 3; i++) {
		run_mode(t, modes[i], i > 0, &checks[i], &sums[i]);
	}
	printf("\n%-9s %6s %5s %5s %8s %8s %10s %9s %8s %10s %11s %11s\n", "drive", "cycles",
	       "PASS", "FAIL", "false-P", "false-F", "acked", "intact", "lost-ok", "lost-dur",
	       "sim-lost", "sim-broken");
	for (int i = 0; i < 3; i++) {
		const struct dq_power_cycle_counts *c = &sums[i].totals;

		printf("%-9s %6u %5u %5u %8u %8u %10" PRIu64 " %9" PRIu64 " %8" PRIu64 " %10" PRIu64
		       " %11" PRIu64 " %11" PRIu64 "\n",
		       modes[i], sums[i].cycles, sums[i].passed, sums[i].failed,
		       checks[i].false_pass, checks[i].false_fail, c->acknowledged, c->intact,
		       c->lost_allowed + c->in_flight_at_cut_lost, c->lost_durable,
		       checks[i].truth_lost, checks[i].truth_lost_promised);
		CHECK(t, checks[i].false_pass == 0 && checks[i].false_fail == 0,
		      "%s: %u false PASS, %u false FAIL", modes[i], checks[i].false_pass,
		      checks[i].false_fail);
	}
	printf("(lost-ok: acknowledged-not-durable or in-flight writes lost, allowed; lost-dur: "
	       "durable writes lost; sim-*: the simulator's own count of units its cuts dropped "
	       "/ dropped after promising them)\n\n");
	/* protection: nothing lost, ever */
	CHECK(t,
	      sums[0].passed == CYCLES && sums[0].totals.lost_allowed == 0 &&
		      sums[0].totals.lost_durable == 0 && checks[0].truth_lost == 0,
	      "plp: %u/100 PASS, %" PRIu64 " lost", sums[0].passed,
	      sums[0].totals.lost_allowed + sums[0].totals.lost_durable);
	/* honest without protection: PASS with losses, all among writes no flush covered */
	CHECK(t,
	      sums[1].passed == CYCLES && checks[1].truth_lost > 0 &&
		      sums[1].totals.lost_allowed > 0 && sums[1].totals.lost_durable == 0,
	      "volatile: %u/100 PASS, %" PRIu64 " allowed losses", sums[1].passed,
	      sums[1].totals.lost_allowed);
	/* the liar: FAIL exactly in the cycles where it dropped a flushed write */
	CHECK(t,
	      sums[2].failed == checks[2].cycles_losing_promised && sums[2].failed > 0 &&
		      sums[2].totals.lost_durable == checks[2].truth_lost_promised,
	      "liar: %u FAIL, %u cycles broke a promise", sums[2].failed,
	      checks[2].cycles_losing_promised);
}

/* Each refusal names why and comes before any write reaches the drive. */
static void test_refusals(struct test_ctx *t)
{
	const char *plp[] = { "sim_medium", "1", "sim_power", "plp", NULL };
	const char *no_power[] = { "sim_medium", "1", NULL };
	const char *no_medium[] = { "sim_power", "volatile", NULL };
	struct dq_io_engine engine;
	struct dq_power_driver driver;
	enum dq_power_durability durability;
	struct dq_power_cycle_config bad = g_config;
	char err[512] = "";
	int rc;

	CHECK(t, open_sim(&engine, plp, err, sizeof(err)) == 0, "open: %s", err);
	rc = dq_power_cycle_admit(&engine, "none", &g_config, &driver, &durability, err,
				  sizeof(err));
	CHECK(t, rc == -ENODEV && strstr(err, "no power driver configured") != NULL, "none: %s",
	      err);
	rc = dq_power_cycle_admit(&engine, "", &g_config, &driver, &durability, err, sizeof(err));
	CHECK(t, rc == -ENODEV, "empty driver: %s", err);
	rc = dq_power_cycle_admit(&engine, "pdu", &g_config, &driver, &durability, err,
				  sizeof(err));
	CHECK(t, rc == -ENOENT && strstr(err, "pdu") != NULL, "unknown driver: %s", err);
	bad.block_bytes = 8192;
	rc = dq_power_cycle_admit(&engine, "sim", &bad, &driver, &durability, err, sizeof(err));
	CHECK(t, rc == -EINVAL && strncmp(err, "blockBytes", 10) == 0, "block size: %s", err);
	bad = g_config;
	bad.range_bytes = 1ull << 40;
	rc = dq_power_cycle_admit(&engine, "sim", &bad, &driver, &durability, err, sizeof(err));
	CHECK(t, rc == -EINVAL && strncmp(err, "rangeBytes", 10) == 0, "range: %s", err);
	/* a drive whose volatile-write-cache answer is missing (a probe that failed) */
	dq_capability_lack(&engine.target.capabilities, DQ_CAPABILITY_VOLATILE_WRITE_CACHE,
			   DQ_CAPABILITY_MISSING_PROBE_FAILED, "Identify Controller failed");
	rc = dq_power_cycle_admit(&engine, "sim", &g_config, &driver, &durability, err,
				  sizeof(err));
	CHECK(t, rc == -ENOTSUP && strstr(err, "volatile-write-cache answer is missing") != NULL,
	      "no VWC answer: %s", err);
	CHECK(t, host_writes(&engine) == 0, "nothing written before the refusals");
	dq_io_engine_close(&engine);

	/* a simulated drive without a power model brings no driver */
	CHECK(t, open_sim(&engine, no_power, err, sizeof(err)) == 0, "open: %s", err);
	rc = dq_power_cycle_admit(&engine, "sim", &g_config, &driver, &durability, err,
				  sizeof(err));
	CHECK(t, rc == -ENOTSUP && strstr(err, "no power model") != NULL, "no model: %s", err);
	CHECK(t, host_writes(&engine) == 0, "nothing written");
	dq_io_engine_close(&engine);

	/* a power model without a medium is refused when the drive is opened */
	rc = open_sim(&engine, no_medium, err, sizeof(err));
	CHECK(t, rc == -EINVAL && strstr(err, "sim_medium=1") != NULL, "no medium: %s", err);
}

int main(void)
{
	struct test_ctx t = { 0 };

	test_refusals(&t);
	test_three_drives(&t);
	return test_report(&t, "power-cycle");
}
