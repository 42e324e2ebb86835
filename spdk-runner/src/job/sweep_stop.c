/*
 * Stopping a latency-at-load sweep at saturation (sweep_stop.h): the steps above the rate the drive
 * keeps up with would only measure the same overload longer, so they are skipped and say why.
 */
#include <stdio.h>
#include <string.h>

#include "contract/strutil.h"
#include "sweep_stop.h"

bool dq_sweep_step_saturated(const struct dq_phase_stats *stats, uint64_t *offered_ios,
			     uint64_t *achieved_ios)
{
	uint64_t offered = 0, achieved = 0;
	size_t i;
	int d;

	for (i = 0; i < stats->stream_count; i++) {
		const struct dq_stream_phase_stats *ss = &stats->streams[i];

		if (!ss->open_loop) {
			continue;
		}
		offered += ss->offered_ios;
		for (d = 0; d < 3; d++) {
			achieved += ss->dir[d].ios;
		}
	}
	*offered_ios = offered;
	*achieved_ios = achieved;
	return offered > 0 && achieved * 100 < offered * DQ_SWEEP_SATURATED_PERCENT;
}

void dq_sweep_stops_note(struct dq_sweep_stops *stops, const struct dq_phase_spec *spec,
			 const struct dq_phase_stats *stats)
{
	struct dq_sweep_stop *stop;
	uint64_t offered, achieved;

	if (!spec->has_sweep_group || stops->count == DQ_SWEEP_STOPS_MAX ||
	    !dq_sweep_step_saturated(stats, &offered, &achieved)) {
		return; /* a full table (more groups than phases allow) only runs steps, never hides */
	}
	stop = &stops->stops[stops->count++];
	dq_strlcpy(stop->group, spec->sweep_group, sizeof(stop->group));
	stop->phase_index = spec->index;
	dq_strlcpy(stop->phase_name, spec->name, sizeof(stop->phase_name));
	stop->offered_ios = offered;
	stop->achieved_ios = achieved;
}

bool dq_sweep_stops_skip(const struct dq_sweep_stops *stops, const struct dq_phase_spec *spec,
			 struct dq_phase_skipped *skipped)
{
	const struct dq_sweep_stop *stop;
	size_t i;

	if (!spec->has_sweep_group) {
		return false;
	}
	for (i = 0; i < stops->count; i++) {
		stop = &stops->stops[i];
		if (strcmp(stop->group, spec->sweep_group) != 0) {
			continue;
		}
		skipped->reason = DQ_SKIP_SWEEP_SATURATED;
		skipped->saturated_phase_index = stop->phase_index;
		snprintf(skipped->message, sizeof(skipped->message),
			 "skipped: sweep %s saturated at phase %u (%s: %llu of %llu offered IOs, "
			 "%.1f %%, below %d %%)",
			 stop->group, stop->phase_index, stop->phase_name,
			 (unsigned long long)stop->achieved_ios,
			 (unsigned long long)stop->offered_ios,
			 100.0 * (double)stop->achieved_ios / (double)stop->offered_ios,
			 DQ_SWEEP_SATURATED_PERCENT);
		return true;
	}
	return false;
}
