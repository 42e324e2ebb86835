/*
 * Codecs of the definitions every message shares (schemas/messages/common.schema.json): the enum
 * names, device, latency percentiles and histograms, direction totals and the SMART snapshot.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "msg_internal.h"

static const char *const engine_names[] = { NULL, "spdk", "uring", "sim", "null" };
static const char *const phase_kind_names[] = { NULL,	    "purge",	  "precondition",
						"workload", "deallocate", "idle",
						"smart",    "verify",	  "power-cycle" };
static const char *const rw_names[] = { NULL,	    "read",	 "write", "rw",
					"randread", "randwrite", "randrw" };
/* the same values, with the streams' trims after the phase's six */
static const char *const stream_rw_names[] = { NULL,	 "read",     "write",
					       "rw",	 "randread", "randwrite",
					       "randrw", "trim",     "randtrim" };
static const char *const arrivals_names[] = { NULL, "uniform", "poisson" };
static const char *const data_pattern_names[] = { NULL, "random", "zeros" };
static const char *const purge_method_names[] = { NULL,
						  "auto",
						  "format-user-data",
						  "format-crypto",
						  "sanitize-block",
						  "sanitize-crypto",
						  "sanitize-overwrite",
						  "deallocate" };
static const char *const smart_source_names[] = { NULL, "nvme-log-02h", "sim", "unavailable" };

const struct dq_enum_names g_dq_engine_names = DQ_ENUM_NAMES(engine_names);
const struct dq_enum_names g_dq_phase_kind_names = DQ_ENUM_NAMES(phase_kind_names);
const struct dq_enum_names g_dq_rw_names = DQ_ENUM_NAMES(rw_names);
const struct dq_enum_names g_dq_stream_rw_names = DQ_ENUM_NAMES(stream_rw_names);
const struct dq_enum_names g_dq_arrivals_names = DQ_ENUM_NAMES(arrivals_names);
const struct dq_enum_names g_dq_data_pattern_names = DQ_ENUM_NAMES(data_pattern_names);
const struct dq_enum_names g_dq_purge_method_names = DQ_ENUM_NAMES(purge_method_names);
const struct dq_enum_names g_dq_smart_source_names = DQ_ENUM_NAMES(smart_source_names);

const char *dq_engine_to_str(enum dq_engine engine)
{
	return dq_enum_to_str(&g_dq_engine_names, engine);
}

const char *dq_phase_kind_to_str(enum dq_phase_kind kind)
{
	return dq_enum_to_str(&g_dq_phase_kind_names, kind);
}

const char *dq_rw_to_str(enum dq_rw rw)
{
	return dq_enum_to_str(&g_dq_stream_rw_names, rw);
}

const char *dq_arrivals_to_str(enum dq_arrivals arrivals)
{
	return dq_enum_to_str(&g_dq_arrivals_names, arrivals);
}

const char *dq_data_pattern_to_str(enum dq_data_pattern pattern)
{
	return dq_enum_to_str(&g_dq_data_pattern_names, pattern);
}

const char *dq_purge_method_to_str(enum dq_purge_method method)
{
	return dq_enum_to_str(&g_dq_purge_method_names, method);
}

static const char *const device_keys[] = { "serial",	       "model",
					   "firmware",	       "capacityBytes",
					   "lbaSizeBytes",     "engine",
					   "transportAddress", NULL };

int dq_device_decode(struct dq_jctx *ctx, const struct dq_jpath *path, struct json_object *obj,
		     struct dq_device *device)
{
	memset(device, 0, sizeof(*device));
	dq_json_check_keys(ctx, path, obj, device_keys, NULL);
	dq_json_str(ctx, path, obj, "serial", true, DQ_STR_SERIAL, 0, 0, device->serial,
		    sizeof(device->serial), NULL);
	dq_json_str(ctx, path, obj, "model", true, DQ_STR_ANY, 0, DQ_MODEL_MAX_CHARS, device->model,
		    sizeof(device->model), NULL);
	dq_json_str(ctx, path, obj, "firmware", true, DQ_STR_ANY, 0, DQ_FIRMWARE_MAX_CHARS,
		    device->firmware, sizeof(device->firmware), NULL);
	dq_json_u64(ctx, path, obj, "capacityBytes", true, 1, INT64_MAX, &device->capacity_bytes,
		    NULL);
	dq_json_u32(ctx, path, obj, "lbaSizeBytes", true, 512, 65536, &device->lba_size_bytes,
		    NULL);
	device->engine = dq_json_enum(ctx, path, obj, "engine", true, &g_dq_engine_names);
	dq_json_str(ctx, path, obj, "transportAddress", true, DQ_STR_ANY, 1, DQ_TRANSPORT_MAX_CHARS,
		    device->transport_address, sizeof(device->transport_address), NULL);
	return ctx->rc;
}

void dq_device_encode(struct dq_jbuild *b, struct json_object *obj, const struct dq_device *device)
{
	dq_jb_str(b, obj, "serial", device->serial, sizeof(device->serial));
	dq_jb_str(b, obj, "model", device->model, sizeof(device->model));
	dq_jb_str(b, obj, "firmware", device->firmware, sizeof(device->firmware));
	dq_jb_u64(b, obj, "capacityBytes", device->capacity_bytes);
	dq_jb_u64(b, obj, "lbaSizeBytes", device->lba_size_bytes);
	dq_jb_enum(b, obj, "engine", &g_dq_engine_names, device->engine);
	dq_jb_str(b, obj, "transportAddress", device->transport_address,
		  sizeof(device->transport_address));
}

static const char *const latency_keys[] = { "p50", "p99", "p999", "max", NULL };

int dq_latency_percentiles_decode(struct dq_jctx *ctx, const struct dq_jpath *path,
				  struct json_object *obj, struct dq_latency_percentiles *latency)
{
	memset(latency, 0, sizeof(*latency));
	dq_json_check_keys(ctx, path, obj, latency_keys, NULL);
	dq_json_u64(ctx, path, obj, "p50", true, 0, INT64_MAX, &latency->p50, NULL);
	dq_json_u64(ctx, path, obj, "p99", true, 0, INT64_MAX, &latency->p99, NULL);
	dq_json_u64(ctx, path, obj, "p999", true, 0, INT64_MAX, &latency->p999, NULL);
	dq_json_u64(ctx, path, obj, "max", true, 0, INT64_MAX, &latency->max, NULL);
	return ctx->rc;
}

void dq_latency_percentiles_encode(struct dq_jbuild *b, struct json_object *obj,
				   const struct dq_latency_percentiles *latency)
{
	dq_jb_u64(b, obj, "p50", latency->p50);
	dq_jb_u64(b, obj, "p99", latency->p99);
	dq_jb_u64(b, obj, "p999", latency->p999);
	dq_jb_u64(b, obj, "max", latency->max);
}

/* One [value, count] pair: prefixItems with items:false, so exactly two integers. */
static int bucket_decode(struct dq_jctx *ctx, const struct dq_jpath *path, struct json_object *pair,
			 struct dq_histogram_bucket *bucket)
{
	int64_t value = 0, count = 0;

	if (!json_object_is_type(pair, json_type_array) || json_object_array_length(pair) != 2) {
		return dq_json_fail(ctx, path, "must be a [valueNs, count] pair");
	}
	dq_json_int_value(ctx, DQ_JPATH_INDEX(path, 0), json_object_array_get_idx(pair, 0), 0,
			  INT64_MAX, &value);
	dq_json_int_value(ctx, DQ_JPATH_INDEX(path, 1), json_object_array_get_idx(pair, 1), 1,
			  INT64_MAX, &count);
	bucket->value_ns = (uint64_t)value;
	bucket->count = (uint64_t)count;
	return ctx->rc;
}

static const char *const histogram_keys[] = {
	"significantDigits", "totalCount", "minNs", "maxNs", "counts", NULL
};

static int histogram_decode(struct dq_jctx *ctx, const struct dq_jpath *path,
			    struct json_object *obj, struct dq_latency_histogram *histogram)
{
	struct json_object *counts;
	int64_t digits;
	size_t i, n = 0;

	memset(histogram, 0, sizeof(*histogram));
	dq_json_check_keys(ctx, path, obj, histogram_keys, NULL);
	dq_json_int(ctx, path, obj, "significantDigits", true, DQ_HISTOGRAM_SIGNIFICANT_DIGITS,
		    DQ_HISTOGRAM_SIGNIFICANT_DIGITS, &digits, NULL);
	dq_json_u64(ctx, path, obj, "totalCount", true, 0, INT64_MAX, &histogram->total_count,
		    NULL);
	dq_json_u64(ctx, path, obj, "minNs", true, 0, INT64_MAX, &histogram->min_ns, NULL);
	dq_json_u64(ctx, path, obj, "maxNs", true, 0, INT64_MAX, &histogram->max_ns, NULL);
	dq_json_array(ctx, path, obj, "counts", true, 0, DQ_HISTOGRAM_MAX_BUCKETS, &counts, &n);
	if (ctx->rc != 0 || n == 0) {
		return ctx->rc;
	}
	histogram->buckets = calloc(n, sizeof(*histogram->buckets));
	if (histogram->buckets == NULL) {
		ctx->rc = -ENOMEM;
		return ctx->rc;
	}
	histogram->bucket_count = n;
	for (i = 0; i < n && ctx->rc == 0; i++) {
		bucket_decode(ctx, DQ_JPATH_INDEX(DQ_JPATH_KEY(path, "counts"), i),
			      json_object_array_get_idx(counts, i), &histogram->buckets[i]);
	}
	return ctx->rc;
}

static void histogram_encode(struct dq_jbuild *b, struct json_object *obj,
			     const struct dq_latency_histogram *histogram)
{
	struct json_object *counts, *pair;
	size_t i;

	dq_jb_u64(b, obj, "significantDigits", DQ_HISTOGRAM_SIGNIFICANT_DIGITS);
	dq_jb_u64(b, obj, "totalCount", histogram->total_count);
	dq_jb_u64(b, obj, "minNs", histogram->min_ns);
	dq_jb_u64(b, obj, "maxNs", histogram->max_ns);
	counts = dq_jb_array(b, obj, "counts");
	for (i = 0; i < histogram->bucket_count && b->rc == 0; i++) {
		pair = dq_jb_append_array(b, counts);
		dq_jb_append_u64(b, pair, histogram->buckets[i].value_ns);
		dq_jb_append_u64(b, pair, histogram->buckets[i].count);
	}
}

static const char *const totals_keys[] = {
	"ios", "bytes", "errors", "meanLatencyNs", "latencyHistogram", "responseTime", NULL
};
static const char *const response_keys[] = { "meanLatencyNs", "latencyHistogram", NULL };

int dq_direction_totals_decode(struct dq_jctx *ctx, const struct dq_jpath *path,
			       struct json_object *obj, struct dq_direction_totals *totals)
{
	struct json_object *histogram, *response = NULL;

	memset(totals, 0, sizeof(*totals));
	dq_json_check_keys(ctx, path, obj, totals_keys, NULL);
	dq_json_u64(ctx, path, obj, "ios", true, 0, INT64_MAX, &totals->ios, NULL);
	dq_json_u64(ctx, path, obj, "bytes", true, 0, INT64_MAX, &totals->bytes, NULL);
	dq_json_u64(ctx, path, obj, "errors", false, 0, INT64_MAX, &totals->errors,
		    &totals->has_errors);
	dq_json_u64(ctx, path, obj, "meanLatencyNs", false, 0, INT64_MAX, &totals->mean_latency_ns,
		    &totals->has_mean_latency_ns);
	dq_json_object(ctx, path, obj, "latencyHistogram", false, &histogram);
	if (ctx->rc == 0 && histogram != NULL) {
		totals->has_latency_histogram = true;
		histogram_decode(ctx, DQ_JPATH_KEY(path, "latencyHistogram"), histogram,
				 &totals->latency_histogram);
	}
	dq_json_object(ctx, path, obj, "responseTime", false, &response);
	if (ctx->rc == 0 && response != NULL) {
		const struct dq_jpath *rpath = DQ_JPATH_KEY(path, "responseTime");

		totals->has_response_time = true;
		dq_json_check_keys(ctx, rpath, response, response_keys, NULL);
		dq_json_u64(ctx, rpath, response, "meanLatencyNs", true, 0, INT64_MAX,
			    &totals->response_mean_latency_ns, NULL);
		dq_json_object(ctx, rpath, response, "latencyHistogram", true, &histogram);
		if (ctx->rc == 0) {
			histogram_decode(ctx, DQ_JPATH_KEY(rpath, "latencyHistogram"), histogram,
					 &totals->response_histogram);
		}
	}
	return ctx->rc;
}

void dq_direction_totals_encode(struct dq_jbuild *b, struct json_object *obj,
				const struct dq_direction_totals *totals)
{
	dq_jb_u64(b, obj, "ios", totals->ios);
	dq_jb_u64(b, obj, "bytes", totals->bytes);
	if (totals->has_errors) {
		dq_jb_u64(b, obj, "errors", totals->errors);
	}
	if (totals->has_mean_latency_ns) {
		dq_jb_u64(b, obj, "meanLatencyNs", totals->mean_latency_ns);
	}
	if (totals->has_latency_histogram) {
		histogram_encode(b, dq_jb_object(b, obj, "latencyHistogram"),
				 &totals->latency_histogram);
	}
	if (totals->has_response_time) {
		struct json_object *response = dq_jb_object(b, obj, "responseTime");

		dq_jb_u64(b, response, "meanLatencyNs", totals->response_mean_latency_ns);
		histogram_encode(b, dq_jb_object(b, response, "latencyHistogram"),
				 &totals->response_histogram);
	}
}

void dq_direction_totals_fini(struct dq_direction_totals *totals)
{
	free(totals->latency_histogram.buckets);
	totals->latency_histogram.buckets = NULL;
	totals->latency_histogram.bucket_count = 0;
	free(totals->response_histogram.buckets);
	totals->response_histogram.buckets = NULL;
	totals->response_histogram.bucket_count = 0;
}

static const char *const thermal_management_keys[] = { "temp1Transitions", "temp2Transitions",
						       "temp1TimeS", "temp2TimeS", NULL };

static void thermal_decode(struct dq_jctx *ctx, const struct dq_jpath *path,
			   struct json_object *obj, struct dq_smart_snapshot *s)
{
	const struct dq_jpath *tm_path = DQ_JPATH_KEY(path, "thermalManagement");
	struct json_object *tm;

	dq_json_u64(ctx, path, obj, "warningTemperatureTimeMin", false, 0, INT64_MAX,
		    &s->warning_temperature_time_min, &s->has_warning_temperature_time_min);
	dq_json_u64(ctx, path, obj, "criticalTemperatureTimeMin", false, 0, INT64_MAX,
		    &s->critical_temperature_time_min, &s->has_critical_temperature_time_min);
	dq_json_u32(ctx, path, obj, "warningTemperatureThresholdK", false, 1, 65535,
		    &s->warning_temperature_threshold_k, &s->has_warning_temperature_threshold_k);
	dq_json_u32(ctx, path, obj, "criticalTemperatureThresholdK", false, 1, 65535,
		    &s->critical_temperature_threshold_k, &s->has_critical_temperature_threshold_k);
	dq_json_u32(ctx, path, obj, "thermalManagementTemp1K", false, 1, 65535,
		    &s->thermal_management_temp1_k, &s->has_thermal_management_temp1_k);
	dq_json_object(ctx, path, obj, "thermalManagement", false, &tm);
	if (ctx->rc != 0 || tm == NULL) {
		return;
	}
	s->has_thermal_management = true;
	dq_json_check_keys(ctx, tm_path, tm, thermal_management_keys, NULL);
	dq_json_u64(ctx, tm_path, tm, "temp1Transitions", true, 0, INT64_MAX,
		    &s->thermal_management_temp1_transitions, NULL);
	dq_json_u64(ctx, tm_path, tm, "temp2Transitions", true, 0, INT64_MAX,
		    &s->thermal_management_temp2_transitions, NULL);
	dq_json_u64(ctx, tm_path, tm, "temp1TimeS", true, 0, INT64_MAX,
		    &s->thermal_management_temp1_time_s, NULL);
	dq_json_u64(ctx, tm_path, tm, "temp2TimeS", true, 0, INT64_MAX,
		    &s->thermal_management_temp2_time_s, NULL);
}

static const char *const smart_keys[] = { "available",
					  "source",
					  "reason",
					  "dataUnitsWritten",
					  "dataUnitsRead",
					  "hostWriteCommands",
					  "hostReadCommands",
					  "percentageUsed",
					  "availableSparePercent",
					  "availableSpareThresholdPercent",
					  "criticalWarning",
					  "temperatureK",
					  "powerOnHours",
					  "mediaErrors",
					  "warningTemperatureTimeMin",
					  "criticalTemperatureTimeMin",
					  "warningTemperatureThresholdK",
					  "criticalTemperatureThresholdK",
					  "thermalManagementTemp1K",
					  "thermalManagement",
					  "ocp",
					  "ocpReason",
					  "latencyMonitor",
					  "latencyMonitorReason",
					  "fdp",
					  "fdpReason",
					  NULL };

static const char *const fdp_keys[] = { "hostBytesWritten", "mediaBytesWritten", "mediaBytesErased",
					"hostEvents",	    "controllerEvents",	 NULL };

static void fdp_decode(struct dq_jctx *ctx, const struct dq_jpath *path, struct json_object *obj,
		       struct dq_smart_fdp *fdp)
{
	dq_json_check_keys(ctx, path, obj, fdp_keys, NULL);
	dq_json_u64(ctx, path, obj, "hostBytesWritten", true, 0, INT64_MAX,
		    &fdp->host_bytes_written, NULL);
	dq_json_u64(ctx, path, obj, "mediaBytesWritten", true, 0, INT64_MAX,
		    &fdp->media_bytes_written, NULL);
	dq_json_u64(ctx, path, obj, "mediaBytesErased", true, 0, INT64_MAX,
		    &fdp->media_bytes_erased, NULL);
	dq_json_u64(ctx, path, obj, "hostEvents", false, 0, INT64_MAX, &fdp->host_events,
		    &fdp->has_host_events);
	dq_json_u64(ctx, path, obj, "controllerEvents", false, 0, INT64_MAX,
		    &fdp->controller_events, &fdp->has_controller_events);
}

static void fdp_encode(struct dq_jbuild *b, struct json_object *obj, const struct dq_smart_fdp *fdp)
{
	dq_jb_u64(b, obj, "hostBytesWritten", fdp->host_bytes_written);
	dq_jb_u64(b, obj, "mediaBytesWritten", fdp->media_bytes_written);
	dq_jb_u64(b, obj, "mediaBytesErased", fdp->media_bytes_erased);
	if (fdp->has_host_events) {
		dq_jb_u64(b, obj, "hostEvents", fdp->host_events);
	}
	if (fdp->has_controller_events) {
		dq_jb_u64(b, obj, "controllerEvents", fdp->controller_events);
	}
}

int dq_smart_snapshot_decode(struct dq_jctx *ctx, const struct dq_jpath *path,
			     struct json_object *obj, struct dq_smart_snapshot *s)
{
	struct json_object *ocp, *monitor, *fdp;

	memset(s, 0, sizeof(*s));
	dq_json_check_keys(ctx, path, obj, smart_keys, NULL);
	dq_json_bool(ctx, path, obj, "available", true, &s->available, NULL);
	s->source = dq_json_enum(ctx, path, obj, "source", true, &g_dq_smart_source_names);
	/* if available then dataUnitsWritten and dataUnitsRead are required, else reason is */
	dq_json_str(ctx, path, obj, "reason", !s->available, DQ_STR_ANY, 0, DQ_REASON_MAX_CHARS,
		    s->reason, sizeof(s->reason), &s->has_reason);
	dq_json_u64(ctx, path, obj, "dataUnitsWritten", s->available, 0, INT64_MAX,
		    &s->data_units_written, &s->has_data_units_written);
	dq_json_u64(ctx, path, obj, "dataUnitsRead", s->available, 0, INT64_MAX,
		    &s->data_units_read, &s->has_data_units_read);
	dq_json_u64(ctx, path, obj, "hostWriteCommands", false, 0, INT64_MAX,
		    &s->host_write_commands, &s->has_host_write_commands);
	dq_json_u64(ctx, path, obj, "hostReadCommands", false, 0, INT64_MAX, &s->host_read_commands,
		    &s->has_host_read_commands);
	dq_json_u32(ctx, path, obj, "percentageUsed", false, 0, 255, &s->percentage_used,
		    &s->has_percentage_used);
	dq_json_u32(ctx, path, obj, "availableSparePercent", false, 0, 100,
		    &s->available_spare_percent, &s->has_available_spare_percent);
	dq_json_u32(ctx, path, obj, "availableSpareThresholdPercent", false, 0, 100,
		    &s->available_spare_threshold_percent,
		    &s->has_available_spare_threshold_percent);
	dq_json_u32(ctx, path, obj, "criticalWarning", false, 0, 255, &s->critical_warning,
		    &s->has_critical_warning);
	dq_json_u32(ctx, path, obj, "temperatureK", false, 0, 65535, &s->temperature_k,
		    &s->has_temperature_k);
	dq_json_u64(ctx, path, obj, "powerOnHours", false, 0, INT64_MAX, &s->power_on_hours,
		    &s->has_power_on_hours);
	dq_json_u64(ctx, path, obj, "mediaErrors", false, 0, INT64_MAX, &s->media_errors,
		    &s->has_media_errors);
	thermal_decode(ctx, path, obj, s);
	dq_json_object(ctx, path, obj, "ocp", false, &ocp);
	if (ctx->rc == 0 && ocp != NULL) {
		s->has_ocp = true;
		dq_smart_ocp_decode(ctx, DQ_JPATH_KEY(path, "ocp"), ocp, &s->ocp);
	}
	dq_json_str(ctx, path, obj, "ocpReason", false, DQ_STR_ANY, 1, DQ_REASON_MAX_CHARS,
		    s->ocp_reason, sizeof(s->ocp_reason), &s->has_ocp_reason);
	dq_json_object(ctx, path, obj, "latencyMonitor", false, &monitor);
	if (ctx->rc == 0 && monitor != NULL) {
		s->has_latency_monitor = true;
		dq_latency_monitor_decode(ctx, DQ_JPATH_KEY(path, "latencyMonitor"), monitor,
					  &s->latency_monitor);
	}
	dq_json_str(ctx, path, obj, "latencyMonitorReason", false, DQ_STR_ANY, 1,
		    DQ_REASON_MAX_CHARS, s->latency_monitor_reason,
		    sizeof(s->latency_monitor_reason), &s->has_latency_monitor_reason);
	dq_json_object(ctx, path, obj, "fdp", false, &fdp);
	if (ctx->rc == 0 && fdp != NULL) {
		s->has_fdp = true;
		fdp_decode(ctx, DQ_JPATH_KEY(path, "fdp"), fdp, &s->fdp);
	}
	dq_json_str(ctx, path, obj, "fdpReason", false, DQ_STR_ANY, 1, DQ_REASON_MAX_CHARS,
		    s->fdp_reason, sizeof(s->fdp_reason), &s->has_fdp_reason);
	return ctx->rc;
}

static void thermal_encode(struct dq_jbuild *b, struct json_object *obj,
			   const struct dq_smart_snapshot *s)
{
	if (s->has_warning_temperature_time_min) {
		dq_jb_u64(b, obj, "warningTemperatureTimeMin", s->warning_temperature_time_min);
	}
	if (s->has_critical_temperature_time_min) {
		dq_jb_u64(b, obj, "criticalTemperatureTimeMin", s->critical_temperature_time_min);
	}
	if (s->has_warning_temperature_threshold_k) {
		dq_jb_u64(b, obj, "warningTemperatureThresholdK",
			  s->warning_temperature_threshold_k);
	}
	if (s->has_critical_temperature_threshold_k) {
		dq_jb_u64(b, obj, "criticalTemperatureThresholdK",
			  s->critical_temperature_threshold_k);
	}
	if (s->has_thermal_management_temp1_k) {
		dq_jb_u64(b, obj, "thermalManagementTemp1K", s->thermal_management_temp1_k);
	}
	if (s->has_thermal_management) {
		struct json_object *tm = dq_jb_object(b, obj, "thermalManagement");

		dq_jb_u64(b, tm, "temp1Transitions", s->thermal_management_temp1_transitions);
		dq_jb_u64(b, tm, "temp2Transitions", s->thermal_management_temp2_transitions);
		dq_jb_u64(b, tm, "temp1TimeS", s->thermal_management_temp1_time_s);
		dq_jb_u64(b, tm, "temp2TimeS", s->thermal_management_temp2_time_s);
	}
}

void dq_smart_snapshot_encode(struct dq_jbuild *b, struct json_object *obj,
			      const struct dq_smart_snapshot *s)
{
	dq_jb_bool(b, obj, "available", s->available);
	dq_jb_enum(b, obj, "source", &g_dq_smart_source_names, s->source);
	if (s->has_reason) {
		dq_jb_str(b, obj, "reason", s->reason, sizeof(s->reason));
	}
	if (s->has_data_units_written) {
		dq_jb_u64(b, obj, "dataUnitsWritten", s->data_units_written);
	}
	if (s->has_data_units_read) {
		dq_jb_u64(b, obj, "dataUnitsRead", s->data_units_read);
	}
	if (s->has_host_write_commands) {
		dq_jb_u64(b, obj, "hostWriteCommands", s->host_write_commands);
	}
	if (s->has_host_read_commands) {
		dq_jb_u64(b, obj, "hostReadCommands", s->host_read_commands);
	}
	if (s->has_percentage_used) {
		dq_jb_u64(b, obj, "percentageUsed", s->percentage_used);
	}
	if (s->has_available_spare_percent) {
		dq_jb_u64(b, obj, "availableSparePercent", s->available_spare_percent);
	}
	if (s->has_available_spare_threshold_percent) {
		dq_jb_u64(b, obj, "availableSpareThresholdPercent",
			  s->available_spare_threshold_percent);
	}
	if (s->has_critical_warning) {
		dq_jb_u64(b, obj, "criticalWarning", s->critical_warning);
	}
	if (s->has_temperature_k) {
		dq_jb_u64(b, obj, "temperatureK", s->temperature_k);
	}
	if (s->has_power_on_hours) {
		dq_jb_u64(b, obj, "powerOnHours", s->power_on_hours);
	}
	if (s->has_media_errors) {
		dq_jb_u64(b, obj, "mediaErrors", s->media_errors);
	}
	thermal_encode(b, obj, s);
	if (s->has_ocp) {
		dq_smart_ocp_encode(b, dq_jb_object(b, obj, "ocp"), &s->ocp);
	}
	if (s->has_ocp_reason) {
		dq_jb_str(b, obj, "ocpReason", s->ocp_reason, sizeof(s->ocp_reason));
	}
	if (s->has_latency_monitor) {
		dq_latency_monitor_encode(b, dq_jb_object(b, obj, "latencyMonitor"),
					  &s->latency_monitor);
	}
	if (s->has_latency_monitor_reason) {
		dq_jb_str(b, obj, "latencyMonitorReason", s->latency_monitor_reason,
			  sizeof(s->latency_monitor_reason));
	}
	if (s->has_fdp) {
		fdp_encode(b, dq_jb_object(b, obj, "fdp"), &s->fdp);
	}
	if (s->has_fdp_reason) {
		dq_jb_str(b, obj, "fdpReason", s->fdp_reason, sizeof(s->fdp_reason));
	}
}
