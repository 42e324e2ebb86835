/*
 * Adaptive rounds through dq_job_run on the simulated drive (fluid model, virtual clock):
 * - an enterprise drive, purged and filled, runs rounds of three steps until its 4KiB random-write
 *   IOPS are steady over five eligible rounds, and stops there, well before 25 rounds;
 * - a client drive whose write IOPS keep climbing while its reads let it recover never settles and
 *   stops at maxRounds, reported without reachedAtRound;
 * - in both, every sample names its round and step, t counts on across steps, and the stop agrees
 *   with the steady-state rule recomputed from the samples alone (the same rule the service
 *   applies, pinned by the shared vectors in test_steady_state.c);
 * - tracking the mean latency of a QD1 4KiB write step (SNIA's Latency test), each round's value
 *   is its step's IOs' mean latency: weighted by those IOs it adds up to the phase's write
 *   latency, and the stop agrees with the rule applied to the reported values;
 * - every run's phase-completed carries each IO step's latency over the measurement window (the
 *   last five rounds): IOs and maximum per direction as the window's seconds add them up, mean <=
 *   p99.999 <= max, and for the tracked latency step a mean its rounds' values give.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "contract/msg_job_event.h"
#include "job/job_runner.h"
#include "job/steady_state.h"
#include "test_encode.h"

#define MAX_SAMPLES 8192
#define ROUNDS_PHASE 2

struct capture {
	struct test_ctx *t;
	size_t samples;
	struct dq_sample sample[MAX_SAMPLES];
	bool has_rounds;
	struct dq_rounds_result rounds;
	uint64_t write_ios; /* the rounds phase's write totals */
	uint64_t write_mean_latency_ns;
	enum dq_job_event_type last_type;
};

static int capture_sample(void *arg, const struct dq_sample *sample)
{
	struct capture *c = arg;

	test_encode_sample(c->t, sample);
	if (sample->phase_index == ROUNDS_PHASE && c->samples < MAX_SAMPLES) {
		c->sample[c->samples++] = *sample;
	}
	return 0;
}

static int capture_event(void *arg, const struct dq_job_event *event)
{
	struct capture *c = arg;

	free(test_encode_event(c->t, event));
	c->last_type = event->type;
	if (event->type == DQ_JOB_EVENT_PHASE_COMPLETED && event->phase_completed.has_rounds) {
		c->has_rounds = true;
		c->rounds = event->phase_completed.rounds;
		c->write_ios = event->phase_completed.write.ios;
		c->write_mean_latency_ns = event->phase_completed.write.mean_latency_ns;
	}
	return 0;
}

static void *sim_fluid(struct test_ctx *t)
{
	const struct dq_io_engine_ops *ops = NULL;
	void *options = NULL;
	char err[256];

	CHECK(t, dq_io_engine_find("sim", &ops, err, sizeof(err)) == 0, "sim engine: %s", err);
	CHECK(t, ops != NULL && dq_engine_options_new(ops, &options) == 0, "sim options");
	CHECK(t, dq_engine_options_set(ops, options, "sim_model", "fluid", err, sizeof(err)) == 0,
	      "set: %s", err);
	return options;
}

static struct dq_round_step step_qd(enum dq_rw rw, uint32_t read_percent, uint32_t block_size,
				    uint32_t queue_depth)
{
	return (struct dq_round_step){ .rw = rw,
				       .has_read_percent = rw == DQ_RW_RANDRW,
				       .read_percent = read_percent,
				       .block_size_bytes = block_size,
				       .queue_depth = queue_depth };
}

static struct dq_round_step step(enum dq_rw rw, uint32_t read_percent, uint32_t block_size)
{
	return step_qd(rw, read_percent, block_size, 32);
}

/* purge, one sequential fill, then the rounds (tracking step 0's metric). */
static void run_tracking(struct test_ctx *t, struct capture *c, const char *target,
			 const struct dq_round_step *steps, size_t step_count, uint32_t step_s,
			 double w, enum dq_tracking_metric metric)
{
	static atomic_int cancel;
	static struct dq_phase_spec phases[3];
	struct dq_sink sink = { .sample = capture_sample, .event = capture_event, .arg = c };
	void *options = sim_fluid(t);
	struct dq_job_spec spec = { .job_id = "job-rounds",
				    .runner_id = "runner-r",
				    .engine_name = "sim",
				    .target = target,
				    .engine_options = options,
				    .seed = 17,
				    .phases = phases,
				    .phase_count = 3 };
	struct dq_job_outcome outcome;
	struct dq_round_spec *r = &phases[2].rounds;

	memset(phases, 0, sizeof(phases));
	phases[0] = (struct dq_phase_spec){ .index = 0,
					    .name = "purge",
					    .kind = DQ_PHASE_KIND_PURGE,
					    .purge_method = DQ_PURGE_METHOD_AUTO };
	phases[1] = (struct dq_phase_spec){ .index = 1,
					    .name = "fill",
					    .kind = DQ_PHASE_KIND_PRECONDITION,
					    .has_block_size_bytes = true,
					    .block_size_bytes = 131072,
					    .has_queue_depth = true,
					    .queue_depth = 32,
					    .has_range_percent = true,
					    .range_percent = 100,
					    .has_passes = true,
					    .passes = 1 };
	phases[2] = (struct dq_phase_spec){ .index = 2,
					    .name = "rounds",
					    .kind = DQ_PHASE_KIND_WORKLOAD,
					    .has_range_percent = true,
					    .range_percent = 100,
					    .has_rounds = true };
	memcpy(r->steps, steps, step_count * sizeof(*steps));
	r->step_count = step_count;
	r->step_runtime_s = step_s;
	r->has_tracking = w >= 0;
	r->tracking_step = 0;
	r->tracking_metric = metric;
	r->max_rounds = w >= 0 ? 25 : 6;
	r->range_writes_required = w >= 0 ? w : 1;
	memset(c, 0, sizeof(*c));
	c->t = t;
	atomic_store(&cancel, 0);
	CHECK(t, dq_job_run(&spec, NULL, &sink, &cancel, &outcome) == 0, "job ran");
	CHECK(t, outcome.type == DQ_JOB_EVENT_COMPLETED, "completed: %s", outcome.message);
	CHECK(t, c->has_rounds, "phase-completed carries rounds");
	free(options);
}

static void run(struct test_ctx *t, struct capture *c, const char *target,
		const struct dq_round_step *steps, size_t step_count, uint32_t step_s, double w)
{
	run_tracking(t, c, target, steps, step_count, step_s, w, DQ_TRACKING_METRIC_IOPS);
}

/* The rounds' eligibility as the runner applies it: W x the drive's whole capacity. */
static struct dq_ss_eligibility eligibility_of(double w, uint64_t capacity_bytes)
{
	return (struct dq_ss_eligibility){ .applies = true,
					   .range_writes_required = w,
					   .has_tested_range = true,
					   .tested_range_bytes = capacity_bytes };
}

/* The evidence phase-completed reports is the rule's, by name. */
static bool check_evidence(const struct dq_rounds_result *r, const struct dq_ss_result *ss)
{
	const char *reported = dq_fresh_state_evidence_to_str(r->fresh_state_evidence);

	return reported != NULL && strcmp(reported, dq_ss_evidence_to_str(ss->evidence)) == 0;
}

/* Labels and time line, and the stop recomputed from the samples by the steady-state rule. */
static void check_against_samples(struct test_ctx *t, const struct capture *c, size_t step_count,
				  uint32_t step_s, double w, uint64_t capacity_bytes)
{
	static struct dq_ss_round rounds[25];
	static struct dq_ss_round_verdict verdicts[25];
	const struct dq_ss_eligibility eligibility = eligibility_of(w, capacity_bytes);
	const struct dq_rounds_result *r = &c->rounds;
	uint32_t n = r->rounds_run, x, round_s = (uint32_t)step_count * step_s, labels_wrong = 0;
	const struct dq_sample *s;
	struct dq_ss_result ss;
	size_t i;

	CHECK(t, n >= 5 && n <= 25 && c->samples == (size_t)n * round_s,
	      "%u rounds of %u s: %zu samples", n, round_s, c->samples);
	memset(rounds, 0, sizeof(rounds));
	for (i = 0; i < c->samples && n <= 25; i++) {
		s = &c->sample[i];
		if (!s->has_round || s->t != i + 1 || s->round != i / round_s ||
		    s->step != (i % round_s) / step_s) {
			labels_wrong++;
			continue;
		}
		if (s->step == 0) {
			rounds[s->round].sum += s->read.ios + s->write.ios;
			rounds[s->round].seconds_present++;
		}
		rounds[s->round].random_write_bytes += s->write.bytes; /* every step is random */
	}
	CHECK(t, labels_wrong == 0, "%u samples with a wrong t, round or step", labels_wrong);
	for (x = 0; x < n && x < 25; x++) {
		CHECK(t,
		      r->tracking_milli[x] ==
			      (int64_t)((rounds[x].sum * 1000 + step_s / 2) / step_s),
		      "round %u's tracking value %lld", x, (long long)r->tracking_milli[x]);
	}
	/* The phase stopped at the first round after which the rule holds, and not before. */
	CHECK(t, dq_steady_state_detect(rounds, n, step_s, 25, &eligibility, verdicts, &ss) == 0,
	      "detect");
	CHECK(t, ss.reached == (r->stopped_because == DQ_ROUNDS_STOP_STEADY),
	      "the rule and the runner agree on reaching steady state");
	if (ss.reached) {
		CHECK(t,
		      r->has_reached_at_round && ss.reached_at_round == r->reached_at_round &&
			      n == r->reached_at_round + 1,
		      "stopped right after round %u", ss.reached_at_round);
	} else {
		CHECK(t, n == 25 && !r->has_reached_at_round, "ran all 25 rounds");
	}
	CHECK(t,
	      ss.has_first_eligible == r->has_first_eligible_round &&
		      (!ss.has_first_eligible ||
		       ss.first_eligible_round == r->first_eligible_round),
	      "first eligible round");
	CHECK(t, check_evidence(r, &ss), "evidence %s",
	      dq_fresh_state_evidence_to_str(r->fresh_state_evidence));
}

/*
 * Mean-latency tracking: step 0 (the only step that writes) is tracked, so its rounds' values
 * weighted by their write IOs give the phase's write latency sum; the stop is the rule's on the
 * reported values (thousandths of a nanosecond).
 */
static void check_latency_rounds(struct test_ctx *t, const struct capture *c, size_t step_count,
				 uint32_t step_s, double w, uint64_t capacity_bytes)
{
	static struct dq_ss_round rounds[25];
	static struct dq_ss_round_verdict verdicts[25];
	struct dq_ss_eligibility eligibility = eligibility_of(w, capacity_bytes);
	const struct dq_rounds_result *r = &c->rounds;
	uint32_t n = r->rounds_run, x;
	uint64_t ios[25] = { 0 };
	long double weighted = 0, phase_sum;
	struct dq_ss_result ss;
	size_t i;

	CHECK(t, n >= 5 && n <= 25 && c->samples == (size_t)n * step_count * step_s,
	      "%u rounds: %zu samples", n, c->samples);
	memset(rounds, 0, sizeof(rounds));
	for (i = 0; i < c->samples; i++) {
		const struct dq_sample *s = &c->sample[i];

		if (s->round < 25 && s->step == 0) {
			ios[s->round] += s->write.ios;
			rounds[s->round].seconds_present++;
		}
		if (s->round < 25) {
			rounds[s->round].random_write_bytes += s->write.bytes;
		}
	}
	for (x = 0; x < n && x < 25; x++) {
		CHECK(t, r->tracking_milli[x] > 0 && ios[x] > 0, "round %u has a mean latency", x);
		weighted += (long double)r->tracking_milli[x] * ios[x] / 1000;
		rounds[x].sum = (uint64_t)r->tracking_milli[x];
		rounds[x].divisor = 1000;
	}
	/* The phase's mean is rounded down to whole ns, each round's to 1/1000 ns. */
	phase_sum = (long double)c->write_mean_latency_ns * c->write_ios;
	CHECK(t,
	      c->write_ios > 0 && weighted >= phase_sum - 1 && weighted < phase_sum + c->write_ios,
	      "rounds x IOs %.0Lf ns, the phase's write latency sum %.0Lf ns", weighted, phase_sum);
	/* A mean latency has no cliff in the rule: its written bytes decide. */
	eligibility.lower_is_better = true;
	CHECK(t, dq_steady_state_detect(rounds, n, step_s, 25, &eligibility, verdicts, &ss) == 0,
	      "detect");
	CHECK(t, ss.reached == (r->stopped_because == DQ_ROUNDS_STOP_STEADY),
	      "the rule on the reported values and the runner agree on reaching steady state");
	CHECK(t, check_evidence(r, &ss), "evidence %s",
	      dq_fresh_state_evidence_to_str(r->fresh_state_evidence));
	CHECK(t,
	      !ss.reached ||
		      (r->has_reached_at_round && ss.reached_at_round == r->reached_at_round &&
		       n == r->reached_at_round + 1),
	      "stopped right after round %u", ss.reached_at_round);
}

/* One direction of a step over the window, from its samples: IOs and the largest second's max. */
struct window_seconds {
	uint64_t ios[2];
	uint64_t max_ns[2];
};

static void check_direction(struct test_ctx *t, uint32_t step, const char *what, bool has,
			    const struct dq_latency_figures *f, uint64_t ios, uint64_t max_ns)
{
	CHECK(t, has == (ios > 0), "step %u %s: present exactly when it has IOs", step, what);
	if (!has) {
		return;
	}
	CHECK(t, f->ios == ios && f->max_ns == max_ns,
	      "step %u %s: %llu IOs, max %llu ns; its seconds say %llu, %llu", step, what,
	      (unsigned long long)f->ios, (unsigned long long)f->max_ns, (unsigned long long)ios,
	      (unsigned long long)max_ns);
	CHECK(t,
	      f->mean_ns > 0 && f->mean_ns <= f->p99999_ns && f->p99_ns <= f->p999_ns &&
		      f->p999_ns <= f->p99999_ns && f->p99999_ns <= f->max_ns,
	      "step %u %s: mean %llu <= p99 %llu <= p99.9 %llu <= p99.999 %llu <= max %llu", step,
	      what, (unsigned long long)f->mean_ns, (unsigned long long)f->p99_ns,
	      (unsigned long long)f->p999_ns, (unsigned long long)f->p99999_ns,
	      (unsigned long long)f->max_ns);
}

/*
 * The window latency: the last five rounds (where steady state was reached, when it was), every
 * step that did IO with its IOs and maximum as its seconds in those rounds add up; with a tracked
 * mean latency (step 0), the step's window mean is its rounds' values weighted by their IOs.
 */
static void check_window_latency(struct test_ctx *t, const struct capture *c, size_t step_count,
				 bool tracks_latency)
{
	const struct dq_rounds_result *r = &c->rounds;
	const struct dq_window_latency *w = &r->window_latency;
	struct window_seconds seconds[4] = { 0 };
	const struct dq_sample_direction *dir;
	const struct dq_step_window_latency *e;
	long double weighted = 0, mean_ios;
	uint64_t round_ios[25] = { 0 }, tracked_ios = 0;
	size_t i, entry = 0;
	int d;

	CHECK(t, r->has_window_latency, "phase-completed carries the window latency");
	CHECK(t,
	      w->last_round == r->rounds_run - 1 && w->first_round == w->last_round - 4 &&
		      (!r->has_reached_at_round || w->last_round == r->reached_at_round),
	      "window rounds %u..%u of %u", w->first_round, w->last_round, r->rounds_run);
	for (i = 0; i < c->samples; i++) {
		const struct dq_sample *s = &c->sample[i];

		if (s->step >= 4 || s->round < w->first_round || s->round > w->last_round ||
		    s->round >= 25) {
			continue;
		}
		round_ios[s->round] += s->step == 0 ? s->read.ios + s->write.ios : 0;
		for (d = 0; d < 2; d++) {
			dir = d == 0 ? &s->read : &s->write;
			seconds[s->step].ios[d] += dir->ios;
			if (dir->ios > 0 && dir->latency_ns.max > seconds[s->step].max_ns[d]) {
				seconds[s->step].max_ns[d] = dir->latency_ns.max;
			}
		}
	}
	for (i = 0; i < step_count && i < 4; i++) {
		if (seconds[i].ios[0] + seconds[i].ios[1] == 0) {
			continue; /* an idle step has no entry */
		}
		CHECK(t, entry < w->step_count && w->steps[entry].step == i,
		      "step %zu has an entry", i);
		if (entry >= w->step_count) {
			return;
		}
		e = &w->steps[entry++];
		check_direction(t, e->step, "read", e->has_read, &e->read, seconds[i].ios[0],
				seconds[i].max_ns[0]);
		check_direction(t, e->step, "write", e->has_write, &e->write, seconds[i].ios[1],
				seconds[i].max_ns[1]);
		check_direction(t, e->step, "total", true, &e->total,
				seconds[i].ios[0] + seconds[i].ios[1],
				seconds[i].max_ns[0] > seconds[i].max_ns[1] ? seconds[i].max_ns[0] :
									      seconds[i].max_ns[1]);
	}
	CHECK(t, entry == w->step_count, "%zu entries for %zu steps with IOs", w->step_count,
	      entry);
	if (!tracks_latency || w->step_count == 0) {
		return;
	}
	for (i = w->first_round; i <= w->last_round; i++) {
		weighted += (long double)r->tracking_milli[i] * round_ios[i] / 1000;
		tracked_ios += round_ios[i];
	}
	/* Each round's value is rounded to 1/1000 ns, the window's mean down to 1 ns. */
	mean_ios = (long double)w->steps[0].total.mean_ns * tracked_ios;
	CHECK(t,
	      tracked_ios == w->steps[0].total.ios &&
			      weighted >= mean_ios - tracked_ios / 1000.0L - 1 &&
			      weighted<mean_ios + tracked_ios + tracked_ios / 1000.0L + 1,
				       "the tracked step's window mean %llu ns is its rounds' values weighted by IOs (%.3Lf)",
				       (unsigned long long)w->steps[0].total.mean_ns, tracked_ios> 0 ?
		      weighted / tracked_ios :
		      0);
}

static void check_wait_states(struct test_ctx *t, const struct capture *c)
{
	size_t i, wrong = 0;

	CHECK(t,
	      c->rounds.stopped_because == DQ_ROUNDS_STOP_MAX_ROUNDS && c->rounds.rounds_run == 6 &&
		      !c->rounds.has_reached_at_round && c->rounds.tracking_count == 0,
	      "6 fixed rounds, no tracking (%u rounds)", c->rounds.rounds_run);
	CHECK(t, c->samples == 12, "2 samples a round: %zu", c->samples);
	for (i = 0; i < c->samples; i++) {
		/* round r: write seconds t = 5r + 1, 5r + 2; idle 5r + 3 .. 5r + 5 */
		if (c->sample[i].round != i / 2 || c->sample[i].step != 0 ||
		    c->sample[i].t != 5 * (i / 2) + i % 2 + 1 || c->sample[i].write.ios == 0) {
			wrong++;
		}
	}
	CHECK(t, wrong == 0, "%zu wait-state samples off the time line", wrong);
}

int main(void)
{
	static struct capture c;
	struct test_ctx t = { 0 };
	const struct dq_round_step iops_like[3] = { step(DQ_RW_RANDWRITE, 0, 4096),
						    step(DQ_RW_RANDREAD, 100, 4096),
						    step(DQ_RW_RANDRW, 50, 65536) };
	struct dq_round_step wait_state[2] = { step(DQ_RW_RANDWRITE, 0, 4096), { .idle_s = 3 } };
	const struct dq_round_step recovering[2] = { step(DQ_RW_RANDWRITE, 0, 4096),
						     step(DQ_RW_RANDREAD, 100, 4096) };
	const struct dq_round_step latency_like[2] = { step_qd(DQ_RW_RANDWRITE, 0, 4096, 1),
						       step_qd(DQ_RW_RANDREAD, 100, 8192, 1) };

	/* 8 GB enterprise twin: eligible once 1 x 8 GB was written at random, then steady. */
	run(&t, &c, "sim:test-enterprise-eager", iops_like, 3, 5, 1.0);
	CHECK(&t, c.rounds.stopped_because == DQ_ROUNDS_STOP_STEADY && c.rounds.rounds_run < 25,
	      "stops at steady state before 25 rounds (%u rounds)", c.rounds.rounds_run);
	CHECK(&t, c.rounds.has_first_eligible_round && c.rounds.first_eligible_round > 0,
	      "its fresh rounds are not eligible");
	printf("enterprise: %u rounds, first eligible round %u (%s), reached at round %u\n",
	       c.rounds.rounds_run, c.rounds.first_eligible_round,
	       dq_fresh_state_evidence_to_str(c.rounds.fresh_state_evidence),
	       c.rounds.reached_at_round);
	check_against_samples(&t, &c, 3, 5, 1.0, 8000000000ull);
	check_window_latency(&t, &c, 3, false);

	/* 8 GB client twin with W = 0: its write IOPS climb ~3%/round, the slope never settles. */
	run(&t, &c, "sim:test-client-7pct", recovering, 2, 4, 0);
	CHECK(&t,
	      c.rounds.stopped_because == DQ_ROUNDS_STOP_MAX_ROUNDS && c.rounds.rounds_run == 25,
	      "stops at 25 rounds, not reached (%u rounds)", c.rounds.rounds_run);
	printf("client: %u rounds, stopped because %s\n", c.rounds.rounds_run,
	       dq_rounds_stop_to_str(c.rounds.stopped_because));
	check_against_samples(&t, &c, 2, 4, 0, 8000000000ull);
	check_window_latency(&t, &c, 2, false);

	/* SNIA's Latency test: QD1, tracking the 4KiB 100% write step's mean latency. */
	run_tracking(&t, &c, "sim:test-enterprise-eager", latency_like, 2, 20, 1.0,
		     DQ_TRACKING_METRIC_MEAN_LATENCY_NS);
	printf("latency: %u rounds, stopped because %s, first eligible round %u, round values "
	       "(ns):",
	       c.rounds.rounds_run, dq_rounds_stop_to_str(c.rounds.stopped_because),
	       c.rounds.first_eligible_round);
	for (uint32_t x = 0; x < c.rounds.rounds_run; x++) {
		printf(" %.3f", c.rounds.tracking_milli[x] / 1000.0);
	}
	printf("\n");
	CHECK(&t, c.rounds.stopped_because == DQ_ROUNDS_STOP_STEADY,
	      "the QD1 write latency settles before 25 rounds (%u rounds)", c.rounds.rounds_run);
	check_latency_rounds(&t, &c, 2, 20, 1.0, 8000000000ull);
	check_window_latency(&t, &c, 2, true);
	for (size_t i = 0; i < c.rounds.window_latency.step_count; i++) {
		const struct dq_step_window_latency *e = &c.rounds.window_latency.steps[i];

		printf("latency window %u..%u step %u: %llu IOs, mean %llu, p99.999 %llu, max %llu ns\n",
		       c.rounds.window_latency.first_round, c.rounds.window_latency.last_round,
		       e->step, (unsigned long long)e->total.ios,
		       (unsigned long long)e->total.mean_ns, (unsigned long long)e->total.p99999_ns,
		       (unsigned long long)e->total.max_ns);
	}

	/* No tracking (w < 0 here): exactly maxRounds rounds of 2 s writes and a 3 s host idle,
	 * as SNIA's host idle recovery wait states; idle seconds carry no sample but count in t. */
	run(&t, &c, "sim:test-client-7pct", wait_state, 2, 2, -1);
	check_wait_states(&t, &c);
	check_window_latency(&t, &c, 2, false);
	return test_report(&t, "rounds");
}
