/*
 * JSON-lines and human output of a job for `drivequal-runner run`: the JSON is the codecs'
 * canonical encoding (what Kafka would carry); the text is fio-like progress and summaries with
 * the tail percentiles from the phase's full histogram.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_run_output.h"
#include "io/phase.h"

#define PROGRESS_WIDTH 30
#define PIPE_PROGRESS_EVERY_S 10

int dq_output_init(struct dq_output *output, enum dq_output_format format, FILE *out,
		   const struct dq_phase_spec *phases, size_t phase_count)
{
	memset(output, 0, sizeof(*output));
	output->format = format;
	output->out = out;
	output->tty = isatty(fileno(out));
	output->phases = phases;
	output->phase_count = phase_count;
	output->scratch = malloc(sizeof(*output->scratch));
	if (output->scratch == NULL) {
		return -ENOMEM;
	}
	dq_histogram_init(output->scratch);
	return 0;
}

void dq_output_fini(struct dq_output *output)
{
	free(output->scratch);
	output->scratch = NULL;
}

static int write_line(struct dq_output *output, char *json, size_t len)
{
	int rc = 0;

	if (fwrite(json, 1, len, output->out) != len || fputc('\n', output->out) == EOF ||
	    fflush(output->out) != 0) {
		rc = errno != 0 ? -errno : -EIO;
	}
	free(json);
	return rc;
}

static int json_sample(void *arg, const struct dq_sample *sample)
{
	char err[256], *json = NULL;
	size_t len;
	int rc = dq_sample_encode(sample, &json, &len, err, sizeof(err));

	if (rc != 0) {
		fprintf(stderr, "drivequal-runner: internal error encoding a sample: %s\n", err);
		return rc;
	}
	return write_line(arg, json, len);
}

static int json_event(void *arg, const struct dq_job_event *event)
{
	char err[256], *json = NULL;
	size_t len;
	int rc = dq_job_event_encode(event, &json, &len, err, sizeof(err));

	if (rc != 0) {
		fprintf(stderr, "drivequal-runner: internal error encoding an event: %s\n", err);
		return rc;
	}
	return write_line(arg, json, len);
}

static void end_progress(struct dq_output *output)
{
	if (output->progress_open) {
		fputc('\n', output->out);
		output->progress_open = false;
	}
}

static void format_latency(char *out, size_t len, uint64_t ns)
{
	if (ns < 10000) {
		snprintf(out, len, "%" PRIu64 " ns", ns);
	} else if (ns < 10000000) {
		snprintf(out, len, "%.1f us", (double)ns / 1e3);
	} else {
		snprintf(out, len, "%.2f ms", (double)ns / 1e6);
	}
}

static int text_sample(void *arg, const struct dq_sample *sample)
{
	struct dq_output *output = arg;
	const struct dq_phase_spec *phase = output->phase;
	char bar[PROGRESS_WIDTH + 1], p99[32];
	double fraction = 0;
	uint64_t p99_ns;
	int filled, i;

	output->phase_bytes_done += sample->read.bytes + sample->write.bytes;
	if (phase != NULL && phase->has_runtime_s) {
		fraction = (double)sample->t / phase->runtime_s;
	}
	if (output->phase_bytes_total > 0 &&
	    (double)output->phase_bytes_done / (double)output->phase_bytes_total > fraction) {
		/* with both limits, the nearer one */
		fraction = (double)output->phase_bytes_done / (double)output->phase_bytes_total;
	}
	fraction = fraction > 1 ? 1 : fraction;
	if (!output->tty && sample->t - output->last_progress_t < PIPE_PROGRESS_EVERY_S &&
	    fraction < 1) {
		return 0;
	}
	output->last_progress_t = sample->t;
	filled = (int)(fraction * PROGRESS_WIDTH);
	for (i = 0; i < PROGRESS_WIDTH; i++) {
		bar[i] = i < filled ? '#' : '.';
	}
	bar[PROGRESS_WIDTH] = '\0';
	p99_ns = sample->read.latency_ns.p99 > sample->write.latency_ns.p99 ?
			 sample->read.latency_ns.p99 :
			 sample->write.latency_ns.p99;
	format_latency(p99, sizeof(p99), p99_ns);
	fprintf(output->out,
		"%s  [%s] %3.0f%% t=%" PRIu32 "s  read %" PRIu64 " IOPS %.1f MB/s  write %" PRIu64
		" IOPS %.1f MB/s  p99 %s%s",
		output->tty ? "\r" : "", bar, fraction * 100, sample->t, sample->read.ios,
		(double)sample->read.bytes / 1e6, sample->write.ios,
		(double)sample->write.bytes / 1e6, p99, output->tty ? "\033[K" : "\n");
	output->progress_open = output->tty;
	fflush(output->out);
	return 0;
}

static void print_direction(struct dq_output *output, const char *name,
			    const struct dq_direction_totals *totals, uint64_t duration_ns)
{
	static const double percentiles[] = { 50, 90, 99, 99.9, 99.99, 99.9999 };
	static const char *const labels[] = { "p50", "p90", "p99", "p99.9", "p99.99", "p99.9999" };
	double seconds = (double)duration_ns / 1e9;
	char value[32];
	size_t i;

	if (totals->ios == 0 && (!totals->has_errors || totals->errors == 0)) {
		return;
	}
	fprintf(output->out,
		"    %-5s %" PRIu64 " IOs  %.0f IOPS  %.1f MB/s (%.1f MiB/s)  %" PRIu64
		" bytes  errors %" PRIu64 "\n",
		name, totals->ios, seconds > 0 ? (double)totals->ios / seconds : 0,
		seconds > 0 ? (double)totals->bytes / seconds / 1e6 : 0,
		seconds > 0 ? (double)totals->bytes / seconds / 1048576.0 : 0, totals->bytes,
		totals->errors);
	if (!totals->has_latency_histogram ||
	    dq_histogram_import(output->scratch, &totals->latency_histogram) != 0) {
		return;
	}
	fprintf(output->out, "          latency:");
	format_latency(value, sizeof(value), totals->latency_histogram.min_ns);
	fprintf(output->out, " min %s", value);
	for (i = 0; i < sizeof(percentiles) / sizeof(percentiles[0]); i++) {
		uint64_t ns = dq_histogram_value_at_percentile(output->scratch, percentiles[i]);

		/* a bucket's highest value can exceed the exact maximum */
		format_latency(value, sizeof(value),
			       ns < totals->latency_histogram.max_ns ?
				       ns :
				       totals->latency_histogram.max_ns);
		fprintf(output->out, "  %s %s", labels[i], value);
	}
	format_latency(value, sizeof(value), totals->latency_histogram.max_ns);
	fprintf(output->out, "  max %s\n", value);
}

static void print_smart(struct dq_output *output, const struct dq_job_event_smart_snapshot *s)
{
	const struct dq_smart_snapshot *smart = &s->smart;

	fprintf(output->out, "  SMART (%s phase %" PRIu32 "): ",
		s->when == DQ_SMART_WHEN_BEFORE ? "before" : "after", s->phase_index);
	if (!smart->available) {
		fprintf(output->out, "unavailable: %s\n", smart->reason);
		return;
	}
	fprintf(output->out,
		"data units written %" PRIu64 " read %" PRIu64 ", %" PRIu32 "%% used, %" PRIu32
		" K, power-on %" PRIu64 " h",
		smart->data_units_written, smart->data_units_read, smart->percentage_used,
		smart->temperature_k, smart->power_on_hours);
	if (smart->has_ocp) {
		fprintf(output->out, ", media written %" PRIu64 " bytes (OCP C0h)",
			smart->ocp.value[DQ_OCP_PHYSICAL_MEDIA_UNITS_WRITTEN_BYTES]);
	}
	fputc('\n', output->out);
}

/* The effective queue depth beside Little's law, and what a purge proof or a verify found. */
static void print_readback(struct dq_output *output,
			   const struct dq_job_event_phase_completed *done)
{
	const struct dq_purge_verification *p = &done->purge_verification;
	const struct dq_verify_result *v = &done->verify;
	double latency_sum = (double)done->read.mean_latency_ns * (double)done->read.ios +
			     (double)done->write.mean_latency_ns * (double)done->write.ios;
	size_t i;

	if (done->has_effective_queue_depth_milli && done->duration_ns > 0) {
		fprintf(output->out,
			"    effective queue depth %.3f (mean latency x IOPS %.3f: Little's law)\n",
			done->effective_queue_depth_milli / 1000.0,
			latency_sum / (double)done->duration_ns);
	}
	if (done->has_purge_verification) {
		fprintf(output->out,
			"    purge verification %s (%s): %" PRIu64 " canary blocks, %" PRIu64
			" blocks (%" PRIu64 " LBAs) read back, %" PRIu64
			" still hold pre-purge data%s%s\n",
			p->status == DQ_PURGE_VERIFY_FAILED ?
				"FAILED" :
				dq_purge_verify_status_to_str(p->status),
			dq_readback_coverage_to_str(p->coverage), p->canary_blocks, p->blocks_read,
			p->lbas_read, p->blocks_found, p->has_reason ? ": " : "",
			p->has_reason ? p->reason : "");
		for (i = 0; i < p->found_reported; i++) {
			fprintf(output->out, "      pre-purge data at LBA %" PRIu64 "\n",
				p->first_found_lbas[i]);
		}
	}
	if (done->has_verify) {
		fprintf(output->out,
			"    verify: %" PRIu64 " blocks checked, %" PRIu64
			" not written by this job, %" PRIu64 " mismatches\n",
			v->blocks_checked, v->unwritten_blocks, v->mismatches);
		for (i = 0; i < v->reported; i++) {
			fprintf(output->out, "      LBA %" PRIu64 ": expected %s, found %s\n",
				v->first_mismatches[i].lba, v->first_mismatches[i].expected,
				v->first_mismatches[i].found);
		}
	}
}

static int text_event(void *arg, const struct dq_job_event *event)
{
	struct dq_output *output = arg;
	const struct dq_job_event_phase_completed *done = &event->phase_completed;
	const struct dq_device *device = &event->accepted.device;

	end_progress(output);
	switch (event->type) {
	case DQ_JOB_EVENT_ACCEPTED:
		output->device = *device;
		fprintf(output->out,
			"%s: serial %s, model %s, firmware %s, %" PRIu64 " bytes, %" PRIu32
			"-byte LBA, engine %s; %" PRIu32 " phase(s)\n",
			device->transport_address, device->serial, device->model, device->firmware,
			device->capacity_bytes, device->lba_size_bytes,
			dq_engine_to_str(device->engine), event->accepted.phase_count);
		break;
	case DQ_JOB_EVENT_REFUSED:
		fprintf(output->out, "REFUSED (%s): %s\n",
			dq_refuse_reason_to_str(event->refused.reason), event->refused.message);
		break;
	case DQ_JOB_EVENT_PHASE_STARTED:
		output->phase = event->phase_started.phase_index < output->phase_count ?
					&output->phases[event->phase_started.phase_index] :
					NULL;
		output->phase_bytes_done = 0;
		output->phase_bytes_total = 0;
		output->last_progress_t = 0;
		if (output->phase != NULL) {
			uint64_t range = dq_phase_range_bytes(output->phase, &output->device);

			output->phase_bytes_total =
				output->phase->kind == DQ_PHASE_KIND_PRECONDITION ?
					range * output->phase->passes :
				output->phase->has_size_bytes ? output->phase->size_bytes :
								0;
		}
		fprintf(output->out, "phase %" PRIu32 " %s (%s, %s clock)\n",
			event->phase_started.phase_index, event->phase_started.phase_name,
			dq_phase_kind_to_str(event->phase_started.kind),
			event->phase_started.clock == DQ_CLOCK_SIMULATED ? "simulated" : "real");
		break;
	case DQ_JOB_EVENT_PHASE_COMPLETED:
		if (done->skipped.reason != DQ_SKIP_NONE) {
			/* no phase-started came before it: name the phase here */
			fprintf(output->out, "phase %" PRIu32 " %s %s\n", done->phase_index,
				done->phase_name, done->skipped.message);
			break;
		}
		fprintf(output->out, "  done in %.2f s, %" PRIu64 " sample(s)",
			done->duration_ns / 1e9, done->samples);
		if (done->has_deallocated_bytes) {
			fprintf(output->out, ", %" PRIu64 " bytes deallocated",
				done->deallocated_bytes);
		}
		if (done->limit_reached != DQ_PHASE_LIMIT_NONE) {
			fprintf(output->out, ", ended by its %s",
				done->limit_reached == DQ_PHASE_LIMIT_RUNTIME ? "runtime" : "size");
		}
		fputc('\n', output->out);
		print_direction(output, "read", &done->read, done->duration_ns);
		print_direction(output, "write", &done->write, done->duration_ns);
		print_readback(output, done);
		break;
	case DQ_JOB_EVENT_SMART_SNAPSHOT:
		print_smart(output, &event->smart_snapshot);
		break;
	case DQ_JOB_EVENT_COMPLETED:
		fprintf(output->out, "job %s completed in %.2f s\n", event->job_id,
			event->completed.duration_ns / 1e9);
		break;
	case DQ_JOB_EVENT_FAILED:
		fprintf(output->out, "job %s FAILED (%s): %s\n", event->job_id,
			dq_fail_reason_to_str(event->failed.reason), event->failed.message);
		break;
	case DQ_JOB_EVENT_CANCELLED:
		fprintf(output->out, "job %s cancelled: %s\n", event->job_id,
			event->cancelled.message);
		break;
	default:
		break;
	}
	fflush(output->out);
	return 0;
}

struct dq_sink dq_output_sink(struct dq_output *output)
{
	if (output->format == DQ_OUTPUT_JSON) {
		return (struct dq_sink){ .sample = json_sample,
					 .event = json_event,
					 .arg = output };
	}
	return (struct dq_sink){ .sample = text_sample, .event = text_event, .arg = output };
}
