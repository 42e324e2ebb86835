/*
 * Where a latency-at-load sweep stops (sweep_stop.c): a step saturates below 98 % of its open-loop
 * offer counted over every direction (98 % exactly keeps up), closed-loop streams never count, and
 * only the saturated step's own group is skipped, each skip naming that step.
 */
#include <stdlib.h>
#include <string.h>

#include "sweep_stop.h"
#include "test_util.h"

/* stats with one stream: open or closed loop, offered, and completed reads / trims */
static void one_stream(struct dq_phase_stats *stats, struct dq_stream_phase_stats *stream,
		       bool open_loop, uint64_t offered, uint64_t reads, uint64_t trims)
{
	memset(stats, 0, sizeof(*stats));
	memset(stream, 0, sizeof(*stream));
	stream->open_loop = open_loop;
	stream->offered_ios = offered;
	stream->dir[0].ios = reads;
	stream->dir[2].ios = trims;
	stats->streams = stream;
	stats->stream_count = 1;
}

static void step(struct dq_phase_spec *spec, uint32_t index, const char *name, const char *group)
{
	memset(spec, 0, sizeof(*spec));
	spec->index = index;
	strcpy(spec->name, name);
	spec->has_sweep_group = group != NULL;
	if (group != NULL) {
		strcpy(spec->sweep_group, group);
	}
}

static void test_margin(struct test_ctx *t)
{
	struct dq_phase_stats stats;
	struct dq_stream_phase_stats stream;
	uint64_t offered, achieved;

	one_stream(&stats, &stream, true, 100000, 98000, 0);
	CHECK(t, !dq_sweep_step_saturated(&stats, &offered, &achieved), "98 %% keeps up");
	one_stream(&stats, &stream, true, 100000, 97999, 0);
	CHECK(t, dq_sweep_step_saturated(&stats, &offered, &achieved), "97.999 %% saturates");
	CHECK(t, offered == 100000 && achieved == 97999, "offered %llu achieved %llu",
	      (unsigned long long)offered, (unsigned long long)achieved);
	/* every direction counts: reads and trims together reach the offer */
	one_stream(&stats, &stream, true, 100000, 60000, 40000);
	CHECK(t, !dq_sweep_step_saturated(&stats, &offered, &achieved), "reads + trims keep up");
	/* a closed loop offers nothing, so it never saturates a sweep */
	one_stream(&stats, &stream, false, 0, 5, 0);
	CHECK(t, !dq_sweep_step_saturated(&stats, &offered, &achieved), "closed loop");
}

static void test_skips_only_the_group(struct test_ctx *t)
{
	struct dq_sweep_stops *stops = calloc(1, sizeof(*stops));
	struct dq_phase_stats stats;
	struct dq_stream_phase_stats stream;
	struct dq_phase_spec spec;
	struct dq_phase_skipped skipped = { 0 };

	if (stops == NULL) {
		abort();
	}
	one_stream(&stats, &stream, true, 2000000, 1229271, 0);
	step(&spec, 5, "reads-200k", NULL);
	dq_sweep_stops_note(stops, &spec, &stats);
	CHECK(t, stops->count == 0, "a saturated phase outside a group stops nothing");
	step(&spec, 6, "reads-200k", "reads");
	dq_sweep_stops_note(stops, &spec, &stats);
	CHECK(t, stops->count == 1, "the group saturated");
	step(&spec, 7, "reads-500k", "reads");
	CHECK(t, dq_sweep_stops_skip(stops, &spec, &skipped), "the group's next step is skipped");
	CHECK(t, skipped.reason == DQ_SKIP_SWEEP_SATURATED && skipped.saturated_phase_index == 6,
	      "reason %d phase %u", skipped.reason, skipped.saturated_phase_index);
	CHECK(t,
	      strstr(skipped.message, "saturated at phase 6 (reads-200k: 1229271 of 2000000") !=
		      NULL,
	      "message: %s", skipped.message);
	step(&spec, 8, "writes-500k", "writes");
	CHECK(t, !dq_sweep_stops_skip(stops, &spec, &skipped), "another group runs on");
	step(&spec, 9, "idle", NULL);
	CHECK(t, !dq_sweep_stops_skip(stops, &spec, &skipped), "a phase outside any group runs");
	free(stops);
}

int main(void)
{
	struct test_ctx t = { 0 };

	test_margin(&t);
	test_skips_only_the_group(&t);
	return test_report(&t, "sweep-stop");
}
