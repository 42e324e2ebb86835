/*
 * Whether a job's phases fit the device that was opened for them, decided before anything is
 * written: every refusal names the phase and what the device lacks.
 */
#include <stdio.h>

#include "contract/phase_rules.h"
#include "io/phase.h"
#include "io/power_cycle.h"
#include "job_internal.h"
#include "rounds_phase.h"

/* "deallocate, format-user-data" for a refusal: what an operator can ask for instead. */
static void purge_methods_text(uint32_t methods, char *out, size_t out_len)
{
	size_t used = 0;
	int method;

	out[0] = '\0';
	for (method = DQ_PURGE_METHOD_FORMAT_USER_DATA; method <= DQ_PURGE_METHOD_DEALLOCATE;
	     method++) {
		if ((methods & (1u << method)) && used < out_len) {
			used += (size_t)snprintf(
				out + used, out_len - used, "%s%s", used > 0 ? ", " : "",
				dq_purge_method_to_str((enum dq_purge_method)method));
		}
	}
	if (used == 0) {
		snprintf(out, out_len, "nothing");
	}
}

/* The capability a purge method needs, named as a drive's datasheet would. */
static const char *purge_capability(enum dq_purge_method method)
{
	switch (method) {
	case DQ_PURGE_METHOD_FORMAT_USER_DATA:
		return "Format NVM with user-data erase";
	case DQ_PURGE_METHOD_FORMAT_CRYPTO:
		return "Format NVM with cryptographic erase";
	case DQ_PURGE_METHOD_SANITIZE_BLOCK:
		return "Sanitize (block erase)";
	case DQ_PURGE_METHOD_SANITIZE_CRYPTO:
		return "Sanitize (crypto erase)";
	case DQ_PURGE_METHOD_SANITIZE_OVERWRITE:
		return "Sanitize (overwrite)";
	case DQ_PURGE_METHOD_DEALLOCATE:
		return "deallocate (TRIM / Dataset Management)";
	default:
		return "any purge method";
	}
}

/*
 * A purge the device cannot do and the plan gave no fallback for: name what was asked, what the
 * device lacks and why (the probed capability's reason), what it offers, and the way out.
 */
static int refuse_purge(struct job *job, const struct dq_phase_spec *p)
{
	const struct dq_device_target *target = &job->engine.target;
	enum dq_purge_method method = p->purge_method;
	char offered[160], why[320] = "";
	enum dq_capability capability;

	if (method == DQ_PURGE_METHOD_AUTO) {
		/* auto: the strongest method a drive of this kind would have, to say why not */
		method = DQ_PURGE_METHOD_FORMAT_USER_DATA;
	}
	capability = dq_capability_of_purge(method);
	if (capability != DQ_CAPABILITY_NONE && target->capabilities.probed) {
		char explained[300];

		dq_capability_explain(&target->capabilities, capability, explained,
				      sizeof(explained));
		snprintf(why, sizeof(why), " [%s]", explained);
	}
	purge_methods_text(target->purge_methods, offered, sizeof(offered));
	return job_refuse(job, DQ_REFUSE_INVALID_COMMAND,
			  "phase %s: %s cannot purge with %s: it lacks %s%s (the device offers: "
			  "%s)%s; nothing was written",
			  p->name, target->device.transport_address,
			  dq_purge_method_to_str(p->purge_method),
			  p->purge_method == DQ_PURGE_METHOD_AUTO ? "Sanitize and Format NVM" :
								    purge_capability(method),
			  why, offered,
			  (target->purge_methods & (1u << DQ_PURGE_METHOD_DEALLOCATE)) &&
					  p->purge_fallback == DQ_PURGE_METHOD_NONE ?
				  "; purgeFallback deallocate would accept a TRIM instead, which "
				  "SNIA PTS does not count as a purge" :
				  "");
}

/* Does a phase leave this job's headers on the medium (random data written over its range)? */
static bool writes_headers(const struct dq_phase_spec *p)
{
	return (p->kind == DQ_PHASE_KIND_WORKLOAD || p->kind == DQ_PHASE_KIND_PRECONDITION) &&
	       dq_phase_is_destructive(p) && p->data_pattern != DQ_DATA_PATTERN_ZEROS;
}

/* Whether an earlier phase of the job writes where verify phase i reads, since the last erase. */
static bool written_before(const struct job *job, size_t i, uint64_t range)
{
	const struct dq_device *device = &job->engine.target.device;
	const struct dq_phase_spec *p;

	while (i-- > 0) {
		p = &job->spec->phases[i];
		if (writes_headers(p)) {
			return true; /* every range starts at LBA 0: it overlaps */
		}
		if (p->kind == DQ_PHASE_KIND_PURGE || (p->kind == DQ_PHASE_KIND_DEALLOCATE &&
						       dq_phase_range_bytes(p, device) >= range)) {
			return false;
		}
	}
	return false;
}

/* A verify phase needs a medium to read and something this job wrote there before it. */
static int check_verify_fits(struct job *job, size_t i)
{
	const struct dq_device_target *target = &job->engine.target;
	const struct dq_phase_spec *p = &job->spec->phases[i];
	uint64_t range = dq_phase_range_bytes(p, &target->device);

	if (!target->keeps_data) {
		return job_refuse(job, DQ_REFUSE_INVALID_COMMAND,
				  "phase %s: nothing written to %s can be read back to verify: %s",
				  p->name, target->device.transport_address,
				  target->no_data_reason);
	}
	if (!written_before(job, i, range)) {
		return job_refuse(
			job, DQ_REFUSE_INVALID_COMMAND,
			"phase %s: verify of [0, %llu): no earlier phase of this job writes "
			"random data there after the last purge, so nothing there was written "
			"by this job: nothing to verify",
			p->name, (unsigned long long)range);
	}
	return 1;
}

/* What the opened device must offer the phases; a refusal (invalid-command) otherwise. */
int job_check_phases_fit(struct job *job)
{
	const struct dq_device_target *target = &job->engine.target;
	const struct dq_io_engine_ops *ops = job->engine.ops;
	uint32_t lba = target->device.lba_size_bytes;
	const struct dq_phase_spec *p;
	char why[256];
	uint64_t range;
	size_t i;

	for (i = 0; i < job->spec->phase_count; i++) {
		p = &job->spec->phases[i];
		range = dq_phase_range_bytes(p, &target->device);
		if (p->has_rounds &&
		    dq_rounds_phase_check_fit(p, &target->device, target->max_queue_depth, why,
					      sizeof(why)) != 0) {
			return job_refuse(job, DQ_REFUSE_INVALID_COMMAND, "phase %s: %s", p->name,
					  why);
		}
		if (p->stream_count > 0 &&
		    dq_stream_phase_check(&job->engine, p, why, sizeof(why)) != 0) {
			return job_refuse(job, DQ_REFUSE_INVALID_COMMAND, "phase %s: %s", p->name,
					  why);
		}
		if (p->has_block_size_bytes && p->block_size_bytes % lba != 0) {
			return job_refuse(
				job, DQ_REFUSE_INVALID_COMMAND,
				"phase %s: blockSizeBytes %u is not a multiple of the device's "
				"%u-byte LBA",
				p->name, p->block_size_bytes, lba);
		}
		if (p->has_queue_depth && p->queue_depth > target->max_queue_depth) {
			return job_refuse(job, DQ_REFUSE_INVALID_COMMAND,
					  "phase %s: queueDepth %u exceeds the engine's %u",
					  p->name, p->queue_depth, target->max_queue_depth);
		}
		if ((p->kind == DQ_PHASE_KIND_WORKLOAD || p->kind == DQ_PHASE_KIND_PRECONDITION) &&
		    !p->has_rounds && range < p->block_size_bytes) {
			return job_refuse(
				job, DQ_REFUSE_INVALID_COMMAND,
				"phase %s: the tested range (%llu bytes) is smaller than one "
				"block",
				p->name, (unsigned long long)range);
		}
		if (p->kind == DQ_PHASE_KIND_WORKLOAD && p->has_size_bytes &&
		    p->size_bytes < p->block_size_bytes) {
			return job_refuse(job, DQ_REFUSE_INVALID_COMMAND,
					  "phase %s: sizeBytes is smaller than one block", p->name);
		}
		if (p->kind == DQ_PHASE_KIND_DEALLOCATE &&
		    !(ops->flags & DQ_ENGINE_CAN_DEALLOCATE)) {
			return job_refuse(job, DQ_REFUSE_INVALID_COMMAND,
					  "phase %s: engine %s cannot deallocate", p->name,
					  ops->name);
		}
		if (p->kind == DQ_PHASE_KIND_PURGE &&
		    dq_device_target_resolve_purge(target, p->purge_method, p->purge_fallback) ==
			    DQ_PURGE_METHOD_NONE) {
			return refuse_purge(job, p);
		}
		if (p->kind == DQ_PHASE_KIND_POWER_CYCLE &&
		    dq_power_cycle_phase_check(&job->engine, p, &job->power_site, why,
					       sizeof(why)) != 0) {
			return job_refuse(job, DQ_REFUSE_INVALID_COMMAND, "phase %s: %s", p->name,
					  why);
		}
		if (p->kind == DQ_PHASE_KIND_VERIFY && check_verify_fits(job, i) != 1) {
			return 0;
		}
	}
	return 1; /* fits */
}
