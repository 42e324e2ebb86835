/*
 * What the per-message codecs share: the enum name tables and the decode/encode functions of the
 * common.schema.json definitions (device, phaseSpec, histogram, totals, SMART snapshot).
 */
#ifndef DRIVEQUAL_MSG_INTERNAL_H
#define DRIVEQUAL_MSG_INTERNAL_H

#include "contract/capabilities.h"
#include "contract/msg_common.h"
#include "json_util.h"

extern const struct dq_enum_names g_dq_engine_names;
extern const struct dq_enum_names g_dq_phase_kind_names;
extern const struct dq_enum_names g_dq_rw_names;
extern const struct dq_enum_names g_dq_stream_rw_names;
extern const struct dq_enum_names g_dq_arrivals_names;
extern const struct dq_enum_names g_dq_data_pattern_names;
extern const struct dq_enum_names g_dq_purge_method_names;
extern const struct dq_enum_names g_dq_smart_source_names;
extern const struct dq_enum_names g_dq_capability_names;
extern const struct dq_enum_names g_dq_capability_missing_names;

/* A device's capabilities array (decode: array already checked to be one). */
int dq_capabilities_decode(struct dq_jctx *ctx, const struct dq_jpath *path,
			   struct json_object *array, struct dq_capabilities *caps);
void dq_capabilities_encode(struct dq_jbuild *b, struct json_object *array,
			    const struct dq_capabilities *caps);

int dq_device_decode(struct dq_jctx *ctx, const struct dq_jpath *path, struct json_object *obj,
		     struct dq_device *device);
void dq_device_encode(struct dq_jbuild *b, struct json_object *obj, const struct dq_device *device);

int dq_phase_spec_decode(struct dq_jctx *ctx, const struct dq_jpath *path, struct json_object *obj,
			 struct dq_phase_spec *phase);
void dq_phase_spec_encode(struct dq_jbuild *b, struct json_object *obj,
			  const struct dq_phase_spec *phase);

/* Power-cycle phases (msg_power_cycle.c): the phaseSpec's powerCycle and the result. */
int dq_power_cycle_spec_decode(struct dq_jctx *ctx, const struct dq_jpath *path,
			       struct json_object *obj, struct dq_power_cycle_spec *spec);
void dq_power_cycle_spec_encode(struct dq_jbuild *b, struct json_object *obj,
				const struct dq_power_cycle_spec *spec);
int dq_power_cycle_report_decode(struct dq_jctx *ctx, const struct dq_jpath *path,
				 struct json_object *obj, struct dq_power_cycle_report *report);
void dq_power_cycle_report_encode(struct dq_jbuild *b, struct json_object *obj,
				  const struct dq_power_cycle_report *report);

int dq_round_spec_decode(struct dq_jctx *ctx, const struct dq_jpath *path, struct json_object *obj,
			 struct dq_round_spec *rounds);
void dq_round_spec_encode(struct dq_jbuild *b, struct json_object *obj,
			  const struct dq_round_spec *rounds);
int dq_rounds_result_decode(struct dq_jctx *ctx, const struct dq_jpath *path,
			    struct json_object *obj, struct dq_rounds_result *rounds);
void dq_rounds_result_encode(struct dq_jbuild *b, struct json_object *obj,
			     const struct dq_rounds_result *rounds);

int dq_latency_percentiles_decode(struct dq_jctx *ctx, const struct dq_jpath *path,
				  struct json_object *obj, struct dq_latency_percentiles *latency);
void dq_latency_percentiles_encode(struct dq_jbuild *b, struct json_object *obj,
				   const struct dq_latency_percentiles *latency);

/* Allocates totals->latency_histogram.buckets; dq_direction_totals_fini() frees them. */
int dq_direction_totals_decode(struct dq_jctx *ctx, const struct dq_jpath *path,
			       struct json_object *obj, struct dq_direction_totals *totals);
void dq_direction_totals_encode(struct dq_jbuild *b, struct json_object *obj,
				const struct dq_direction_totals *totals);
void dq_direction_totals_fini(struct dq_direction_totals *totals);

/* Multi-stream phases (msg_streams.c): the phaseSpec's streams and phase-completed's streams. */
int dq_streams_decode(struct dq_jctx *ctx, const struct dq_jpath *path, struct json_object *array,
		      struct dq_phase_spec *p);
void dq_streams_encode(struct dq_jbuild *b, struct json_object *array,
		       const struct dq_phase_spec *p);
/* Allocates the totals' histograms; dq_stream_totals_fini() frees them. */
int dq_stream_totals_decode(struct dq_jctx *ctx, const struct dq_jpath *path,
			    struct json_object *obj, struct dq_stream_totals *totals);
void dq_stream_totals_encode(struct dq_jbuild *b, struct json_object *obj,
			     const struct dq_stream_totals *totals);
void dq_stream_totals_fini(struct dq_stream_totals *totals);

int dq_smart_snapshot_decode(struct dq_jctx *ctx, const struct dq_jpath *path,
			     struct json_object *obj, struct dq_smart_snapshot *smart);
void dq_smart_snapshot_encode(struct dq_jbuild *b, struct json_object *obj,
			      const struct dq_smart_snapshot *smart);

int dq_smart_ocp_decode(struct dq_jctx *ctx, const struct dq_jpath *path, struct json_object *obj,
			struct dq_smart_ocp *ocp);
void dq_smart_ocp_encode(struct dq_jbuild *b, struct json_object *obj,
			 const struct dq_smart_ocp *ocp);
int dq_latency_monitor_decode(struct dq_jctx *ctx, const struct dq_jpath *path,
			      struct json_object *obj, struct dq_latency_monitor *monitor);
void dq_latency_monitor_encode(struct dq_jbuild *b, struct json_object *obj,
			       const struct dq_latency_monitor *monitor);

int dq_verify_result_decode(struct dq_jctx *ctx, const struct dq_jpath *path,
			    struct json_object *obj, struct dq_verify_result *verify);
void dq_verify_result_encode(struct dq_jbuild *b, struct json_object *obj,
			     const struct dq_verify_result *verify);
int dq_purge_verification_decode(struct dq_jctx *ctx, const struct dq_jpath *path,
				 struct json_object *obj, struct dq_purge_verification *purge);
void dq_purge_verification_encode(struct dq_jbuild *b, struct json_object *obj,
				  const struct dq_purge_verification *purge);

#endif /* DRIVEQUAL_MSG_INTERNAL_H */
