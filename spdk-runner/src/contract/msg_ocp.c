/*
 * The OCP logs of a SMART snapshot (#/$defs/smartSnapshot ocp and latencyMonitor): one name table
 * drives both directions, so the C0h members are decoded and encoded in the schema's order from
 * one list.
 */
#include <string.h>

#include "msg_internal.h"

const char *const g_dq_ocp_field_names[DQ_OCP_FIELD_COUNT] = {
	[DQ_OCP_LOG_PAGE_VERSION] = "logPageVersion",
	[DQ_OCP_PHYSICAL_MEDIA_UNITS_WRITTEN_BYTES] = "physicalMediaUnitsWrittenBytes",
	[DQ_OCP_PHYSICAL_MEDIA_UNITS_READ_BYTES] = "physicalMediaUnitsReadBytes",
	[DQ_OCP_BAD_USER_NAND_BLOCKS] = "badUserNandBlocks",
	[DQ_OCP_BAD_USER_NAND_BLOCKS_NORMALIZED] = "badUserNandBlocksNormalized",
	[DQ_OCP_BAD_SYSTEM_NAND_BLOCKS] = "badSystemNandBlocks",
	[DQ_OCP_BAD_SYSTEM_NAND_BLOCKS_NORMALIZED] = "badSystemNandBlocksNormalized",
	[DQ_OCP_XOR_RECOVERY_COUNT] = "xorRecoveryCount",
	[DQ_OCP_UNCORRECTABLE_READ_ERRORS] = "uncorrectableReadErrors",
	[DQ_OCP_SOFT_ECC_ERRORS] = "softEccErrors",
	[DQ_OCP_END_TO_END_DETECTED_ERRORS] = "endToEndDetectedErrors",
	[DQ_OCP_END_TO_END_CORRECTED_ERRORS] = "endToEndCorrectedErrors",
	[DQ_OCP_SYSTEM_DATA_PERCENT_USED] = "systemDataPercentUsed",
	[DQ_OCP_REFRESH_COUNT] = "refreshCount",
	[DQ_OCP_USER_DATA_ERASE_COUNT_MAX] = "userDataEraseCountMax",
	[DQ_OCP_USER_DATA_ERASE_COUNT_MIN] = "userDataEraseCountMin",
	[DQ_OCP_THERMAL_THROTTLING_EVENTS] = "thermalThrottlingEvents",
	[DQ_OCP_THERMAL_THROTTLING_STATUS] = "thermalThrottlingStatus",
	[DQ_OCP_DSSD_SPEC_VERSION_MAJOR] = "dssdSpecVersionMajor",
	[DQ_OCP_DSSD_SPEC_VERSION_MINOR] = "dssdSpecVersionMinor",
	[DQ_OCP_DSSD_SPEC_VERSION_POINT] = "dssdSpecVersionPoint",
	[DQ_OCP_DSSD_SPEC_VERSION_ERRATA] = "dssdSpecVersionErrata",
	[DQ_OCP_PCIE_CORRECTABLE_ERRORS] = "pcieCorrectableErrors",
	[DQ_OCP_INCOMPLETE_SHUTDOWNS] = "incompleteShutdowns",
	[DQ_OCP_PERCENT_FREE_BLOCKS] = "percentFreeBlocks",
	[DQ_OCP_CAPACITOR_HEALTH] = "capacitorHealth",
	[DQ_OCP_NVME_BASE_ERRATA_VERSION] = "nvmeBaseErrataVersion",
	[DQ_OCP_NVME_COMMAND_SET_ERRATA_VERSION] = "nvmeCommandSetErrataVersion",
	[DQ_OCP_NVME_OVER_PCIE_ERRATA_VERSION] = "nvmeOverPcieErrataVersion",
	[DQ_OCP_NVME_MI_ERRATA_VERSION] = "nvmeMiErrataVersion",
	[DQ_OCP_UNALIGNED_IO] = "unalignedIo",
	[DQ_OCP_SECURITY_VERSION_NUMBER] = "securityVersionNumber",
	[DQ_OCP_TOTAL_NUSE] = "totalNuse",
	[DQ_OCP_PLP_START_COUNT] = "plpStartCount",
	[DQ_OCP_ENDURANCE_ESTIMATE] = "enduranceEstimate",
	[DQ_OCP_PCIE_LINK_RETRAINING_COUNT] = "pcieLinkRetrainingCount",
	[DQ_OCP_POWER_STATE_CHANGE_COUNT] = "powerStateChangeCount",
	[DQ_OCP_LOWEST_PERMITTED_FIRMWARE_REVISION] = "lowestPermittedFirmwareRevision",
	[DQ_OCP_TOTAL_MEDIA_DIES] = "totalMediaDies",
	[DQ_OCP_TOTAL_DIE_FAILURE_TOLERANCE] = "totalDieFailureTolerance",
	[DQ_OCP_MEDIA_DIES_OFFLINE] = "mediaDiesOffline",
	[DQ_OCP_MAX_TEMPERATURE_RECORDED] = "maxTemperatureRecorded",
	[DQ_OCP_FORM_FACTOR] = "formFactor",
	[DQ_OCP_NAND_AVERAGE_ERASE_COUNT] = "nandAverageEraseCount",
	[DQ_OCP_COMMAND_TIMEOUTS] = "commandTimeouts",
	[DQ_OCP_SYSTEM_AREA_PROGRAM_FAILS] = "systemAreaProgramFails",
	[DQ_OCP_SYSTEM_AREA_PROGRAM_FAILS_NORMALIZED] = "systemAreaProgramFailsNormalized",
	[DQ_OCP_SYSTEM_AREA_UNCORRECTABLE_READS] = "systemAreaUncorrectableReads",
	[DQ_OCP_SYSTEM_AREA_UNCORRECTABLE_READS_NORMALIZED] =
		"systemAreaUncorrectableReadsNormalized",
	[DQ_OCP_SYSTEM_AREA_ERASE_FAILS] = "systemAreaEraseFails",
	[DQ_OCP_SYSTEM_AREA_ERASE_FAILS_NORMALIZED] = "systemAreaEraseFailsNormalized",
	[DQ_OCP_MAX_PEAK_POWER_CAPABILITY] = "maxPeakPowerCapability",
	[DQ_OCP_CURRENT_MAX_AVERAGE_POWER] = "currentMaxAveragePower",
	[DQ_OCP_LIFETIME_POWER_CONSUMED] = "lifetimePowerConsumed",
	[DQ_OCP_DIE_IN_USE_BAD_NAND_BLOCKS] = "dieInUseBadNandBlocks",
	[DQ_OCP_DIE_IN_USE_BAD_NAND_BLOCKS_NORMALIZED] = "dieInUseBadNandBlocksNormalized",
	[DQ_OCP_NAND_ERASE_COUNT] = "nandEraseCount",
};

_Static_assert(DQ_OCP_FIELD_COUNT <= 64, "struct dq_smart_ocp's present mask has 64 bits");

int dq_smart_ocp_decode(struct dq_jctx *ctx, const struct dq_jpath *path, struct json_object *obj,
			struct dq_smart_ocp *ocp)
{
	const char *keys[DQ_OCP_FIELD_COUNT + 1];
	bool present;
	uint64_t value = 0;
	size_t i;

	memset(ocp, 0, sizeof(*ocp));
	memcpy(keys, g_dq_ocp_field_names, sizeof(g_dq_ocp_field_names));
	keys[DQ_OCP_FIELD_COUNT] = NULL;
	dq_json_check_keys(ctx, path, obj, keys, NULL);
	for (i = 0; i < DQ_OCP_FIELD_COUNT && ctx->rc == 0; i++) {
		bool required = i == DQ_OCP_PHYSICAL_MEDIA_UNITS_WRITTEN_BYTES ||
				i == DQ_OCP_PHYSICAL_MEDIA_UNITS_READ_BYTES;

		present = false;
		dq_json_u64(ctx, path, obj, g_dq_ocp_field_names[i], required, 0, INT64_MAX, &value,
			    &present);
		if (ctx->rc == 0 && (present || required)) {
			dq_smart_ocp_set(ocp, (enum dq_ocp_field)i, value);
		}
	}
	return ctx->rc;
}

void dq_smart_ocp_encode(struct dq_jbuild *b, struct json_object *obj,
			 const struct dq_smart_ocp *ocp)
{
	size_t i;

	for (i = 0; i < DQ_OCP_FIELD_COUNT; i++) {
		if (dq_smart_ocp_has(ocp, (enum dq_ocp_field)i)) {
			dq_jb_u64(b, obj, g_dq_ocp_field_names[i], ocp->value[i]);
		}
	}
}

static const char *const g_direction_keys[] = { "read", "write", "deallocate", NULL };

static void u64_array_decode(struct dq_jctx *ctx, const struct dq_jpath *path,
			     struct json_object *obj, const char *key, uint64_t *out, size_t n)
{
	struct json_object *array;
	size_t i, count = 0;
	int64_t value;

	dq_json_array(ctx, path, obj, key, true, n, n, &array, &count);
	for (i = 0; i < count && ctx->rc == 0; i++) {
		dq_json_int_value(ctx, DQ_JPATH_INDEX(DQ_JPATH_KEY(path, key), i),
				  json_object_array_get_idx(array, i), 0, INT64_MAX, &value);
		out[i] = (uint64_t)value;
	}
}

static void buckets_decode(struct dq_jctx *ctx, const struct dq_jpath *path,
			   struct json_object *obj, const char *key,
			   uint64_t buckets[DQ_LATENCY_DIRECTIONS][DQ_LATENCY_MONITOR_BUCKETS])
{
	const struct dq_jpath *member = DQ_JPATH_KEY(path, key);
	struct json_object *directions;
	size_t d;

	dq_json_object(ctx, path, obj, key, true, &directions);
	dq_json_check_keys(ctx, member, directions, g_direction_keys, NULL);
	for (d = 0; d < DQ_LATENCY_DIRECTIONS && ctx->rc == 0; d++) {
		u64_array_decode(ctx, member, directions, g_direction_keys[d], buckets[d],
				 DQ_LATENCY_MONITOR_BUCKETS);
	}
}

static const char *const g_latency_monitor_keys[] = { "logPageVersion",
						      "featureStatus",
						      "activeBucketTimerMin",
						      "activeBucketTimerThresholdMin",
						      "activeThresholdsMs",
						      "activeLatencyConfig",
						      "activeLatencyMinimumWindowMs",
						      "activeBuckets",
						      "staticBuckets",
						      NULL };

int dq_latency_monitor_decode(struct dq_jctx *ctx, const struct dq_jpath *path,
			      struct json_object *obj, struct dq_latency_monitor *monitor)
{
	uint64_t thresholds[DQ_LATENCY_MONITOR_BUCKETS] = { 0 };
	size_t i;

	memset(monitor, 0, sizeof(*monitor));
	dq_json_check_keys(ctx, path, obj, g_latency_monitor_keys, NULL);
	dq_json_u32(ctx, path, obj, "logPageVersion", true, 0, 65535, &monitor->log_page_version,
		    NULL);
	dq_json_u32(ctx, path, obj, "featureStatus", true, 0, 255, &monitor->feature_status, NULL);
	dq_json_u64(ctx, path, obj, "activeBucketTimerMin", true, 0, INT64_MAX,
		    &monitor->active_bucket_timer_min, NULL);
	dq_json_u64(ctx, path, obj, "activeBucketTimerThresholdMin", true, 0, INT64_MAX,
		    &monitor->active_bucket_timer_threshold_min, NULL);
	u64_array_decode(ctx, path, obj, "activeThresholdsMs", thresholds,
			 DQ_LATENCY_MONITOR_BUCKETS);
	for (i = 0; i < DQ_LATENCY_MONITOR_BUCKETS && ctx->rc == 0; i++) {
		if (thresholds[i] < 5 || thresholds[i] > 1280) {
			dq_json_fail(ctx,
				     DQ_JPATH_INDEX(DQ_JPATH_KEY(path, "activeThresholdsMs"), i),
				     "%llu is outside 5..1280", (unsigned long long)thresholds[i]);
		}
		monitor->active_thresholds_ms[i] = (uint32_t)thresholds[i];
	}
	dq_json_u32(ctx, path, obj, "activeLatencyConfig", true, 0, 65535,
		    &monitor->active_latency_config, NULL);
	dq_json_u32(ctx, path, obj, "activeLatencyMinimumWindowMs", true, 0, 25500,
		    &monitor->active_latency_minimum_window_ms, NULL);
	buckets_decode(ctx, path, obj, "activeBuckets", monitor->active_buckets);
	buckets_decode(ctx, path, obj, "staticBuckets", monitor->static_buckets);
	return ctx->rc;
}

static void
buckets_encode(struct dq_jbuild *b, struct json_object *obj, const char *key,
	       const uint64_t buckets[DQ_LATENCY_DIRECTIONS][DQ_LATENCY_MONITOR_BUCKETS])
{
	struct json_object *directions = dq_jb_object(b, obj, key), *array;
	size_t d, i;

	for (d = 0; d < DQ_LATENCY_DIRECTIONS; d++) {
		array = dq_jb_array(b, directions, g_direction_keys[d]);
		for (i = 0; i < DQ_LATENCY_MONITOR_BUCKETS; i++) {
			dq_jb_append_u64(b, array, buckets[d][i]);
		}
	}
}

void dq_latency_monitor_encode(struct dq_jbuild *b, struct json_object *obj,
			       const struct dq_latency_monitor *monitor)
{
	struct json_object *thresholds;
	size_t i;

	dq_jb_u64(b, obj, "logPageVersion", monitor->log_page_version);
	dq_jb_u64(b, obj, "featureStatus", monitor->feature_status);
	dq_jb_u64(b, obj, "activeBucketTimerMin", monitor->active_bucket_timer_min);
	dq_jb_u64(b, obj, "activeBucketTimerThresholdMin",
		  monitor->active_bucket_timer_threshold_min);
	thresholds = dq_jb_array(b, obj, "activeThresholdsMs");
	for (i = 0; i < DQ_LATENCY_MONITOR_BUCKETS; i++) {
		dq_jb_append_u64(b, thresholds, monitor->active_thresholds_ms[i]);
	}
	dq_jb_u64(b, obj, "activeLatencyConfig", monitor->active_latency_config);
	dq_jb_u64(b, obj, "activeLatencyMinimumWindowMs",
		  monitor->active_latency_minimum_window_ms);
	buckets_encode(b, obj, "activeBuckets", monitor->active_buckets);
	buckets_encode(b, obj, "staticBuckets", monitor->static_buckets);
}
