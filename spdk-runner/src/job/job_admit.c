/*
 * Admission: open the engine, refuse the job unless every interlock passes (allowlist, serial,
 * mounts and signatures for a destructive plan), check that the phases fit the device, claim it,
 * set up the job's ledger, and configure the OCP latency monitor when asked. Nothing is written
 * to the drive before job_admit returns 1.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "contract/phase_rules.h"
#include "contract/strutil.h"
#include "device/nvme_admin.h"
#include "io/phase.h"
#include "job_internal.h"

/*
 * The job's ledger: the header unit for its block sizes, and the generation map when a phase
 * verifies (refused when the map would not fit).
 */
static int ledger_setup(struct job *job)
{
	const struct dq_device *device = &job->engine.target.device;
	uint32_t block_sizes[DQ_MAX_PHASES * (1 + DQ_STREAMS_MAX * DQ_BLOCK_SPLIT_MAX)];
	size_t i, j, k, count = 0;
	bool track = false;
	uint64_t map_bytes = 0;
	int rc;

	for (i = 0; i < job->spec->phase_count; i++) {
		const struct dq_phase_spec *p = &job->spec->phases[i];

		if (p->has_block_size_bytes) {
			block_sizes[count++] = p->block_size_bytes;
		}
		for (j = 0; j < p->stream_count; j++) {
			const struct dq_stream_spec *st = &p->streams[j];

			if (st->rw == DQ_RW_TRIM || st->rw == DQ_RW_RANDTRIM) {
				continue; /* trims carry no headers */
			}
			if (st->split_count == 0) {
				block_sizes[count++] = st->block_size_bytes;
			}
			for (k = 0; k < st->split_count; k++) {
				block_sizes[count++] = st->split[k].block_size_bytes;
			}
		}
		track |= p->kind == DQ_PHASE_KIND_VERIFY;
	}
	rc = dq_block_ledger_init(&job->ledger, job->spec->job_id,
				  dq_block_unit_for(device->lba_size_bytes, block_sizes, count),
				  device->lba_size_bytes, device->capacity_bytes, track,
				  &map_bytes);
	if (rc == -E2BIG) {
		return job_refuse(
			job, DQ_REFUSE_INVALID_COMMAND,
			"verifying data on %s needs a %llu MiB map of what the job wrote; the "
			"limit is %llu MiB",
			device->transport_address, (unsigned long long)(map_bytes >> 20),
			(unsigned long long)(DQ_BLOCK_LEDGER_MAX_BYTES >> 20));
	}
	return rc == 0 ? 1 : rc;
}

/*
 * Set Features C5h changes the drive's state, not its data: it is sent only to an allowlisted drive
 * whose serial is the job's (the first two interlocks; the mount and signature checks guard data,
 * which it leaves alone). A drive without the OCP latency monitor log (C3h) is left as it is: its
 * snapshots say why. Returns 1 when the job may go on, 0 when it was refused, or the sink's
 * -errno.
 */
static int configure_latency_monitor(struct job *job, const struct dq_allowlist *allowlist)
{
	const struct dq_job_spec *spec = job->spec;
	const struct dq_device *device = &job->engine.target.device;
	char err[512] = "";
	int rc;

	if (!spec->has_latency_monitor) {
		return 1;
	}
	if (dq_nvme_latency_monitor_check(&spec->latency_monitor, err, sizeof(err)) != 0) {
		return job_refuse(job, DQ_REFUSE_INVALID_COMMAND, "latencyMonitor: %s", err);
	}
	if (dq_allowlist_match(allowlist, device) == NULL) {
		return job_refuse(
			job, DQ_REFUSE_NOT_ALLOWLISTED,
			"%s (serial '%s') is not in the runner's allowlist: configuring its "
			"latency monitor (Set Features C5h) changes the drive's state and is "
			"refused; add {\"serial\": \"%s\"} to the allowlist to permit it",
			device->transport_address, device->serial, device->serial);
	}
	if (spec->expected_serial == NULL || spec->expected_serial[0] == '\0') {
		return job_refuse(job, DQ_REFUSE_SERIAL_MISMATCH,
				  "%s: the job names no device serial, and configuring the latency "
				  "monitor (Set Features C5h) needs one",
				  device->transport_address);
	}
	if (job->engine.ops->configure_latency_monitor == NULL) {
		return job_refuse(
			job, DQ_REFUSE_ENGINE_UNAVAILABLE,
			"the %s engine cannot configure an OCP latency monitor (Set Features "
			"C5h): run the job without latencyMonitor",
			job->engine.ops->name);
	}
	rc = job->engine.ops->configure_latency_monitor(job->engine.data, &spec->latency_monitor,
							err, sizeof(err));
	if (rc != 0 && rc != -EOPNOTSUPP) {
		return job_refuse(
			job, DQ_REFUSE_ENGINE_UNAVAILABLE,
			"%s has the OCP latency monitor log but configuring it failed: %s",
			device->transport_address, err);
	}
	return 1;
}

/* Open, identify and check; returns 1 when the job may start, 0 when it was refused, or the
 * sink's -errno. */
int job_admit(struct job *job, const struct dq_allowlist *allowlist)
{
	const struct dq_job_spec *spec = job->spec;
	const struct dq_io_engine_ops *ops;
	struct dq_io_engine_open_args args = { 0 };
	struct dq_interlock_verdict verdict;
	bool destructive = false;
	char err[512] = "";
	size_t i;
	int rc;

	rc = dq_phase_list_check(spec->phases, spec->phase_count, err, sizeof(err));
	if (rc != 0) {
		return job_refuse(job, DQ_REFUSE_INVALID_COMMAND, "%s", err);
	}
	if (spec->first_phase_from_s > 0 &&
	    (spec->first_phase >= spec->phase_count ||
	     spec->phases[spec->first_phase].kind != DQ_PHASE_KIND_WORKLOAD ||
	     spec->phases[spec->first_phase].has_rounds ||
	     spec->phases[spec->first_phase].has_size_bytes ||
	     !spec->phases[spec->first_phase].has_runtime_s ||
	     spec->first_phase_from_s >= spec->phases[spec->first_phase].runtime_s)) {
		return job_refuse(job, DQ_REFUSE_INVALID_COMMAND,
				  "resume from second %u of phase %u: only a timed workload phase "
				  "without rounds resumes inside, before its end",
				  spec->first_phase_from_s, spec->first_phase);
	}
	ops = spec->engine_ops;
	rc = 0;
	if (ops == NULL) {
		rc = dq_io_engine_find(spec->engine_name, &ops, err, sizeof(err));
	} else if (ops->version != DQ_IO_ENGINE_OPS_VERSION) {
		rc = -ENOTSUP;
		snprintf(err, sizeof(err), "engine %s has ops version %u, the core speaks %u",
			 ops->name, ops->version, DQ_IO_ENGINE_OPS_VERSION);
	}
	if (rc != 0) {
		return job_refuse(job, DQ_REFUSE_ENGINE_UNAVAILABLE, "%s", err);
	}
	for (i = 0; i < spec->phase_count; i++) {
		destructive |= dq_phase_is_destructive(&spec->phases[i]);
		if (spec->phases[i].has_queue_depth &&
		    spec->phases[i].queue_depth > args.queue_depth) {
			args.queue_depth = spec->phases[i].queue_depth;
		}
		/* a multi-stream phase keeps every stream's IOs in flight at once */
		uint32_t streams_depth = 0;

		for (size_t s = 0; s < spec->phases[i].stream_count; s++) {
			streams_depth += spec->phases[i].streams[s].queue_depth;
		}
		if (streams_depth > args.queue_depth) {
			args.queue_depth = streams_depth;
		}
	}
	for (i = 0; i < spec->phase_count; i++) {
		/* read-backs (purge proofs, verify phases) keep this many IOs in flight */
		if ((spec->phases[i].kind == DQ_PHASE_KIND_PURGE ||
		     spec->phases[i].kind == DQ_PHASE_KIND_VERIFY) &&
		    args.queue_depth < DQ_READBACK_QUEUE_DEPTH) {
			args.queue_depth = DQ_READBACK_QUEUE_DEPTH;
		}
	}
	args.target = spec->target;
	args.options = spec->engine_options;
	args.writable = destructive;
	args.direct = spec->direct;
	args.queue_depth = args.queue_depth == 0 ? 1 : args.queue_depth;
	rc = dq_io_engine_open(&job->engine, ops, &args, err, sizeof(err));
	if (rc == -ENOENT || rc == -ENXIO || rc == -ENODEV || rc == -ENOTDIR) {
		return job_refuse(job, DQ_REFUSE_DEVICE_NOT_FOUND, "%s", err);
	} else if (rc == -EBUSY) {
		return job_refuse(job, DQ_REFUSE_DEVICE_BUSY, "%s", err);
	} else if (rc != 0) {
		return job_refuse(job, DQ_REFUSE_ENGINE_UNAVAILABLE, "%s", err);
	}
	job->outcome->device = job->engine.target.device;
	if (spec->expected_serial != NULL &&
	    strcmp(spec->expected_serial, job->engine.target.device.serial) != 0) {
		return job_refuse(
			job, DQ_REFUSE_SERIAL_MISMATCH,
			"%s has serial '%s', the job names '%s': refusing to touch the wrong "
			"device",
			job->engine.target.device.transport_address,
			job->engine.target.device.serial, spec->expected_serial);
	}
	/* A diskless engine has no medium: nothing to destroy, nothing to interlock. */
	if (destructive && !dq_io_engine_has(&job->engine, DQ_ENGINE_DISKLESS)) {
		rc = dq_interlock_check(allowlist, &job->engine.target, spec->expected_serial,
					spec->require_serial, &verdict);
		if (rc != 0) {
			return job_refuse(job, verdict.reason, "%s", verdict.message);
		}
		if (verdict.entry != NULL) {
			const struct dq_allowlist_entry *e = &job->power_entry;

			job->power_entry = *verdict.entry;
			job->power_site = (struct dq_power_site){
				.slot = e->has_power_slot ? e->power_slot : NULL,
				.redfish_url = e->redfish_url[0] != '\0' ? e->redfish_url : NULL,
				.redfish_credentials = e->redfish_credentials[0] != '\0' ?
							       e->redfish_credentials :
							       NULL,
				.ipmi_host = e->ipmi_host[0] != '\0' ? e->ipmi_host : NULL,
				.ipmi_credentials =
					e->ipmi_credentials[0] != '\0' ? e->ipmi_credentials : NULL,
				.ipmi_cipher_suite = e->ipmi_cipher_suite[0] != '\0' ?
							     e->ipmi_cipher_suite :
							     NULL,
				.pdu_host = e->pdu_host[0] != '\0' ? e->pdu_host : NULL,
				.pdu_outlet = e->pdu_outlet[0] != '\0' ? e->pdu_outlet : NULL,
				.pdu_credentials =
					e->pdu_credentials[0] != '\0' ? e->pdu_credentials : NULL,
				.pdu_oid = e->pdu_oid[0] != '\0' ? e->pdu_oid : NULL,
				.pdu_off_value = e->pdu_off_value[0] != '\0' ? e->pdu_off_value :
									       NULL,
				.pdu_on_value = e->pdu_on_value[0] != '\0' ? e->pdu_on_value : NULL,
			};
		}
		if (job->engine.ops->claim != NULL) {
			rc = job->engine.ops->claim(job->engine.data, err, sizeof(err));
			if (rc != 0) {
				return job_refuse(job, DQ_REFUSE_DEVICE_BUSY, "%s", err);
			}
		}
	}
	rc = configure_latency_monitor(job, allowlist);
	if (rc != 1) {
		return rc;
	}
	rc = job_check_phases_fit(job);
	return rc == 1 ? ledger_setup(job) : rc;
}
