/*
 * The OCP logs decoded byte for byte: pages built here from the OCP Datacenter NVMe SSD spec's
 * published layouts (SMART / Health Information Extended C0h; Latency Monitor C3h), every member
 * at its own offset with a value no other member has, so a member read from the wrong offset, with
 * the wrong width or under the wrong name fails. The expectations are this file's own table (the
 * spec's offsets as nvme-cli's ocp plugin documents them), not the decoder's. Also: a page with
 * another GUID is refused and the reason names it; members a log page version does not define are
 * absent; 128-bit counters saturate; the snapshot encodes as a valid event; the Set Features C5h
 * data; threshold checks.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "contract/msg_job_event.h"
#include "device/nvme_admin.h"
#include "test_util.h"

static void put_le(uint8_t *p, uint64_t value, size_t bytes)
{
	size_t i;

	for (i = 0; i < bytes && i < 8; i++) {
		p[i] = (uint8_t)(value >> (8 * i));
	}
}

static const uint8_t g_c0_guid[16] = { 0xc5, 0xaf, 0x10, 0x28, 0xea, 0xbf, 0xf2, 0xa4,
				       0x9c, 0x4f, 0x6f, 0x7c, 0xc9, 0x14, 0xd5, 0xaf };
static const uint8_t g_c3_guid[16] = { 0x92, 0x7a, 0xc0, 0x8c, 0xd0, 0x84, 0x6c, 0x9c,
				       0x70, 0x43, 0xe6, 0xd4, 0x58, 0x5e, 0xd4, 0x85 };

/* The spec's C0h members: JSON name, byte offset, width, first log page version defining it. */
static const struct c0_member {
	const char *name;
	unsigned offset, bytes, since;
} g_c0[] = {
	{ "physicalMediaUnitsWrittenBytes", 0, 16, 0 },
	{ "physicalMediaUnitsReadBytes", 16, 16, 0 },
	{ "badUserNandBlocks", 32, 6, 0 },
	{ "badUserNandBlocksNormalized", 38, 2, 0 },
	{ "badSystemNandBlocks", 40, 6, 0 },
	{ "badSystemNandBlocksNormalized", 46, 2, 0 },
	{ "xorRecoveryCount", 48, 8, 0 },
	{ "uncorrectableReadErrors", 56, 8, 0 },
	{ "softEccErrors", 64, 8, 0 },
	{ "endToEndDetectedErrors", 72, 4, 0 },
	{ "endToEndCorrectedErrors", 76, 4, 0 },
	{ "systemDataPercentUsed", 80, 1, 0 },
	{ "refreshCount", 81, 7, 0 },
	{ "userDataEraseCountMax", 88, 4, 0 },
	{ "userDataEraseCountMin", 92, 4, 0 },
	{ "thermalThrottlingEvents", 96, 1, 0 },
	{ "thermalThrottlingStatus", 97, 1, 0 },
	{ "dssdSpecVersionErrata", 98, 1, 2 },
	{ "dssdSpecVersionPoint", 99, 2, 2 },
	{ "dssdSpecVersionMinor", 101, 2, 2 },
	{ "dssdSpecVersionMajor", 103, 1, 2 },
	{ "pcieCorrectableErrors", 104, 8, 0 },
	{ "incompleteShutdowns", 112, 4, 0 },
	{ "percentFreeBlocks", 120, 1, 0 },
	{ "capacitorHealth", 128, 2, 0 },
	{ "nvmeBaseErrataVersion", 130, 1, 2 },
	{ "nvmeCommandSetErrataVersion", 131, 1, 4 },
	{ "nvmeOverPcieErrataVersion", 132, 1, 5 },
	{ "nvmeMiErrataVersion", 133, 1, 5 },
	{ "unalignedIo", 136, 8, 0 },
	{ "securityVersionNumber", 144, 8, 0 },
	{ "totalNuse", 152, 8, 0 },
	{ "plpStartCount", 160, 16, 0 },
	{ "enduranceEstimate", 176, 16, 0 },
	{ "pcieLinkRetrainingCount", 192, 8, 2 },
	{ "powerStateChangeCount", 200, 8, 2 },
	{ "lowestPermittedFirmwareRevision", 208, 8, 4 },
	{ "totalMediaDies", 216, 2, 5 },
	{ "totalDieFailureTolerance", 218, 2, 5 },
	{ "mediaDiesOffline", 220, 2, 5 },
	{ "maxTemperatureRecorded", 222, 1, 5 },
	{ "formFactor", 223, 1, 6 },
	{ "nandAverageEraseCount", 224, 8, 5 },
	{ "commandTimeouts", 232, 4, 5 },
	{ "systemAreaProgramFails", 236, 4, 5 },
	{ "systemAreaProgramFailsNormalized", 240, 1, 5 },
	{ "systemAreaUncorrectableReads", 244, 4, 5 },
	{ "systemAreaUncorrectableReadsNormalized", 248, 1, 5 },
	{ "systemAreaEraseFails", 252, 4, 5 },
	{ "systemAreaEraseFailsNormalized", 256, 1, 5 },
	{ "maxPeakPowerCapability", 260, 2, 5 },
	{ "currentMaxAveragePower", 262, 2, 5 },
	{ "lifetimePowerConsumed", 264, 6, 5 },
	{ "dieInUseBadNandBlocks", 358, 6, 6 },
	{ "dieInUseBadNandBlocksNormalized", 364, 2, 6 },
};

#define C0_MEMBERS (sizeof(g_c0) / sizeof(g_c0[0]))

/* A value for member i that fits its width and that no other member has: i + 1 in its low byte,
 * and for wider members a high byte too, so a width error shows. */
static uint64_t distinct_value(size_t i)
{
	uint64_t value = i + 1;

	if (g_c0[i].bytes >= 2) {
		value |= (uint64_t)(0x40 + i) << (8 * (g_c0[i].bytes > 8 ? 7 : g_c0[i].bytes - 1));
	}
	return value;
}

static void build_c0(uint8_t *log, uint16_t version)
{
	size_t i;

	memset(log, 0, DQ_NVME_LOG_PAGE_BYTES);
	for (i = 0; i < C0_MEMBERS; i++) {
		put_le(log + g_c0[i].offset, distinct_value(i),
		       g_c0[i].bytes > 8 ? 8 : g_c0[i].bytes);
	}
	put_le(log + 494, version, 2);
	memcpy(log + 496, g_c0_guid, 16);
}

static int field_of(const char *name)
{
	size_t f;

	for (f = 0; f < DQ_OCP_FIELD_COUNT; f++) {
		if (strcmp(g_dq_ocp_field_names[f], name) == 0) {
			return (int)f;
		}
	}
	return -1;
}

/* Encode smart in a smart-snapshot event (the contract's validation included); the JSON. */
static char *encode(struct test_ctx *t, const struct dq_smart_snapshot *smart)
{
	struct dq_job_event event = { .type = DQ_JOB_EVENT_SMART_SNAPSHOT,
				      .event_id = "j:1",
				      .job_id = "j",
				      .runner_id = "r",
				      .seq = 1,
				      .time = "2026-11-29T02:00:00.000Z" };
	struct dq_job_event back;
	char err[256], *json = NULL;
	size_t len;
	int rc;

	event.smart_snapshot.when = DQ_SMART_WHEN_AFTER;
	event.smart_snapshot.smart = *smart;
	/* the 02h part the OCP logs come beside */
	event.smart_snapshot.smart.available = true;
	event.smart_snapshot.smart.source = DQ_SMART_SOURCE_NVME_LOG_02H;
	event.smart_snapshot.smart.has_data_units_written = true;
	event.smart_snapshot.smart.has_data_units_read = true;
	rc = dq_job_event_encode(&event, &json, &len, err, sizeof(err));
	CHECK(t, rc == 0, "smart-snapshot does not encode: %s", err);
	if (rc != 0) {
		return NULL;
	}
	rc = dq_job_event_decode(json, len, &back, err, sizeof(err));
	CHECK(t, rc == 0, "its encoding does not decode: %s", err);
	CHECK(t,
	      rc != 0 || (back.smart_snapshot.smart.has_ocp == smart->has_ocp &&
			  memcmp(&back.smart_snapshot.smart.ocp, &smart->ocp, sizeof(smart->ocp)) ==
				  0 &&
			  back.smart_snapshot.smart.has_latency_monitor ==
				  smart->has_latency_monitor &&
			  memcmp(&back.smart_snapshot.smart.latency_monitor,
				 &smart->latency_monitor, sizeof(smart->latency_monitor)) == 0),
	      "the OCP members do not survive a round trip: %s", json);
	if (rc == 0) {
		dq_job_event_fini(&back);
	}
	return json;
}

/* Every member at its offset, under its name, in the JSON too, for each log page version. */
static void test_c0_every_member(struct test_ctx *t)
{
	static const uint16_t versions[] = { 1, 3, 4, 5, 6 };
	uint8_t log[DQ_NVME_LOG_PAGE_BYTES];
	struct dq_smart_snapshot smart;
	char key[96];
	size_t v, i;

	for (v = 0; v < sizeof(versions) / sizeof(versions[0]); v++) {
		size_t expected_present = 1; /* logPageVersion */
		char *json;

		build_c0(log, versions[v]);
		memset(&smart, 0, sizeof(smart));
		CHECK(t, dq_nvme_ocp_parse(log, &smart) && smart.has_ocp && !smart.has_ocp_reason,
		      "version %u: the OCP GUID is accepted", versions[v]);
		CHECK(t,
		      dq_smart_ocp_has(&smart.ocp, DQ_OCP_LOG_PAGE_VERSION) &&
			      smart.ocp.value[DQ_OCP_LOG_PAGE_VERSION] == versions[v],
		      "log page version %llu, page says %u",
		      (unsigned long long)smart.ocp.value[DQ_OCP_LOG_PAGE_VERSION], versions[v]);
		json = encode(t, &smart);
		for (i = 0; i < C0_MEMBERS; i++) {
			int f = field_of(g_c0[i].name);
			bool defined = versions[v] >= g_c0[i].since;

			CHECK(t, f >= 0, "%s is not a member of the contract", g_c0[i].name);
			if (f < 0) {
				continue;
			}
			expected_present += defined;
			CHECK(t, dq_smart_ocp_has(&smart.ocp, f) == defined,
			      "version %u: %s (offset %u, since version %u) %s", versions[v],
			      g_c0[i].name, g_c0[i].offset, g_c0[i].since,
			      defined ? "missing" : "decoded though the version lacks it");
			CHECK(t, !defined || smart.ocp.value[f] == distinct_value(i),
			      "version %u: %s = %llu, bytes %u..%u hold %llu", versions[v],
			      g_c0[i].name, (unsigned long long)smart.ocp.value[f], g_c0[i].offset,
			      g_c0[i].offset + g_c0[i].bytes - 1,
			      (unsigned long long)distinct_value(i));
			snprintf(key, sizeof(key), "\"%s\":%llu", g_c0[i].name,
				 (unsigned long long)distinct_value(i));
			CHECK(t, json == NULL || (strstr(json, key) != NULL) == defined,
			      "version %u: %s %s in %s", versions[v], key,
			      defined ? "missing" : "present", json);
		}
		CHECK(t,
		      (size_t)__builtin_popcountll(smart.ocp.present) == expected_present &&
			      !dq_smart_ocp_has(&smart.ocp, DQ_OCP_NAND_ERASE_COUNT),
		      "version %u: %d members present, %zu expected", versions[v],
		      __builtin_popcountll(smart.ocp.present), expected_present);
		free(json);
	}
}

static void test_c0_saturation_and_guid(struct test_ctx *t)
{
	uint8_t log[DQ_NVME_LOG_PAGE_BYTES];
	struct dq_smart_snapshot smart;
	char *json;

	build_c0(log, 5);
	put_le(log + 0, 1000, 8);
	put_le(log + 8, 1, 8); /* written: 2^64 + 1000 */
	put_le(log + 16, UINT64_MAX, 8); /* read: beyond INT64_MAX in 64 bits */
	put_le(log + 56, UINT64_MAX, 8); /* uncorrectable reads: all ones */
	memset(&smart, 0, sizeof(smart));
	CHECK(t, dq_nvme_ocp_parse(log, &smart), "accepted");
	CHECK(t,
	      smart.ocp.value[DQ_OCP_PHYSICAL_MEDIA_UNITS_WRITTEN_BYTES] == INT64_MAX &&
		      smart.ocp.value[DQ_OCP_PHYSICAL_MEDIA_UNITS_READ_BYTES] == INT64_MAX &&
		      smart.ocp.value[DQ_OCP_UNCORRECTABLE_READ_ERRORS] == INT64_MAX,
	      "counters beyond the contract's integers saturate at INT64_MAX");
	free(encode(t, &smart));

	/* one byte of the GUID wrong: another vendor's C0h page, never decoded as OCP */
	log[511] ^= 0x01;
	memset(&smart, 0, sizeof(smart));
	CHECK(t, !dq_nvme_ocp_parse(log, &smart) && !smart.has_ocp && smart.ocp.present == 0,
	      "a page with another GUID is refused");
	CHECK(t,
	      smart.has_ocp_reason &&
		      strstr(smart.ocp_reason, "AED514C97C6F4F9CA4F2BFEA2810AFC5") != NULL &&
		      strstr(smart.ocp_reason, "AFD514C97C6F4F9CA4F2BFEA2810AFC5") != NULL &&
		      strstr(smart.ocp_reason, "not decoded") != NULL,
	      "the reason names the GUID found and the one expected: %s", smart.ocp_reason);
	json = encode(t, &smart);
	CHECK(t, json == NULL || (strstr(json, "\"ocpReason\":") && !strstr(json, "\"ocp\":")),
	      "the event says why and carries no ocp: %s", json);
	free(json);

	/* an all-zero page (a drive that answers C0h with nothing) */
	memset(log, 0, sizeof(log));
	memset(&smart, 0, sizeof(smart));
	CHECK(t, !dq_nvme_ocp_parse(log, &smart) && smart.has_ocp_reason, "zeros are not OCP");

	memset(&smart, 0, sizeof(smart));
	dq_nvme_ocp_unavailable(&smart, DQ_NVME_LOG_OCP_SMART_EXTENDED,
				"Get Log Page C0h: the drive answered NVMe status 0x4002");
	CHECK(t,
	      smart.has_ocp_reason && !smart.has_ocp &&
		      strstr(smart.ocp_reason, "NVMe status 0x4002") != NULL,
	      "a refused Get Log Page is recorded: %s", smart.ocp_reason);
}

/* C3h's counters: [bucket][type] dwords at 20h (active) and F0h (static); type 3 read, 2 write,
 * 1 deallocate, 0 reserved. */
static uint32_t bucket_value(unsigned table, unsigned bucket, unsigned type)
{
	return 100000u * (table + 1) + 1000u * (bucket + 1) + type;
}

static void test_c3(struct test_ctx *t)
{
	static const unsigned type_of[DQ_LATENCY_DIRECTIONS] = { 3, 2, 1 };
	static const char *const direction_names[DQ_LATENCY_DIRECTIONS] = { "read", "write",
									    "deallocate" };
	uint8_t log[DQ_NVME_LOG_PAGE_BYTES] = { 0 };
	struct dq_smart_snapshot smart;
	const struct dq_latency_monitor *m = &smart.latency_monitor;
	unsigned table, bucket, type, d;
	char *json;

	log[0] = 0x01; /* feature status: enabled */
	put_le(log + 2, 3, 2); /* active bucket timer: 3 x 5 min */
	put_le(log + 4, 2016, 2); /* its threshold: 2016 x 5 min (7 days) */
	log[6] = 0; /* threshold A: (0 + 1) x 5 ms */
	log[7] = 1; /* B: 10 ms */
	log[8] = 3; /* C: 20 ms */
	log[9] = 9; /* D: 50 ms */
	put_le(log + 10, 0x0abc, 2); /* active latency configuration */
	log[12] = 7; /* minimum window: 7 x 100 ms */
	for (table = 0; table < 2; table++) {
		for (bucket = 0; bucket < 4; bucket++) {
			for (type = 0; type < 4; type++) {
				put_le(log + (table ? 0xf0 : 0x20) + (bucket * 4 + type) * 4,
				       bucket_value(table, bucket, type), 4);
			}
		}
	}
	memset(log + 0x60, 0xee, 0x78); /* latency stamps and measured latencies: not carried */
	put_le(log + 0x1ee, 4, 2);
	memset(&smart, 0, sizeof(smart));
	CHECK(t, !dq_nvme_latency_monitor_parse(log, &smart) && smart.has_latency_monitor_reason,
	      "a C3h page without the OCP GUID is refused");
	CHECK(t, strstr(smart.latency_monitor_reason, "85D45E58D4E643709C6C84D08CC07A92") != NULL,
	      "the reason names the expected GUID: %s", smart.latency_monitor_reason);
	memcpy(log + 0x1f0, g_c3_guid, 16);
	memset(&smart, 0, sizeof(smart));
	CHECK(t, dq_nvme_latency_monitor_parse(log, &smart) && smart.has_latency_monitor,
	      "the OCP GUID is accepted");
	CHECK(t, m->log_page_version == 4 && m->feature_status == 1, "version %u, status %u",
	      m->log_page_version, m->feature_status);
	CHECK(t, m->active_bucket_timer_min == 15 && m->active_bucket_timer_threshold_min == 10080,
	      "timer %llu min, threshold %llu min", (unsigned long long)m->active_bucket_timer_min,
	      (unsigned long long)m->active_bucket_timer_threshold_min);
	CHECK(t,
	      m->active_thresholds_ms[0] == 5 && m->active_thresholds_ms[1] == 10 &&
		      m->active_thresholds_ms[2] == 20 && m->active_thresholds_ms[3] == 50,
	      "thresholds %u %u %u %u ms", m->active_thresholds_ms[0], m->active_thresholds_ms[1],
	      m->active_thresholds_ms[2], m->active_thresholds_ms[3]);
	CHECK(t, m->active_latency_config == 0x0abc && m->active_latency_minimum_window_ms == 700,
	      "configuration 0x%x, window %u ms", m->active_latency_config,
	      m->active_latency_minimum_window_ms);
	for (d = 0; d < DQ_LATENCY_DIRECTIONS; d++) {
		for (bucket = 0; bucket < 4; bucket++) {
			CHECK(t,
			      m->active_buckets[d][bucket] == bucket_value(0, bucket, type_of[d]),
			      "active %s bucket %u = %llu", direction_names[d], bucket,
			      (unsigned long long)m->active_buckets[d][bucket]);
			CHECK(t,
			      m->static_buckets[d][bucket] == bucket_value(1, bucket, type_of[d]),
			      "static %s bucket %u = %llu", direction_names[d], bucket,
			      (unsigned long long)m->static_buckets[d][bucket]);
		}
	}
	json = encode(t, &smart);
	CHECK(t,
	      json != NULL &&
		      strstr(json, "\"latencyMonitor\":{\"logPageVersion\":4,\"featureStatus\":1,"
				   "\"activeBucketTimerMin\":15,\"activeBucketTimerThresholdMin\":"
				   "10080,\"activeThresholdsMs\":[5,10,20,50],"
				   "\"activeLatencyConfig\":2748,\"activeLatencyMinimumWindowMs\":"
				   "700,\"activeBuckets\":{\"read\":[101003,102003,103003,104003],"
				   "\"write\":[101002,102002,103002,104002],\"deallocate\":[101001,"
				   "102001,103001,104001]},\"staticBuckets\":{\"read\":[201003,"
				   "202003,203003,204003],\"write\":[201002,202002,203002,204002],"
				   "\"deallocate\":[201001,202001,203001,204001]}}") != NULL,
	      "the event's latencyMonitor: %s", json);
	free(json);
}

static void test_c5(struct test_ctx *t)
{
	struct dq_latency_monitor_config config = { .thresholds_ms = { 5, 10, 20, 1280 } };
	uint8_t data[DQ_NVME_LATENCY_MONITOR_FEATURE_BYTES];
	static const uint8_t expected[13] = { 0xff, 0xff, 0, 1, 3, 255, 0xff, 0x0f, 10, 0, 0, 0, 1 };
	char err[256] = "";
	size_t i, nonzero = 0;

	CHECK(t, dq_nvme_latency_monitor_check(&config, err, sizeof(err)) == 0, "%s", err);
	memset(data, 0x5a, sizeof(data));
	dq_nvme_latency_monitor_feature(&config, data);
	CHECK(t, memcmp(data, expected, sizeof(expected)) == 0,
	      "Set Features C5h data: %02x %02x | %02x %02x %02x %02x | %02x %02x | %02x | ... %02x",
	      data[0], data[1], data[2], data[3], data[4], data[5], data[6], data[7], data[8],
	      data[12]);
	for (i = sizeof(expected); i < sizeof(data); i++) {
		nonzero += data[i] != 0;
	}
	CHECK(t, nonzero == 0, "%zu reserved bytes are not zero", nonzero);

	config.thresholds_ms[1] = 12;
	CHECK(t,
	      dq_nvme_latency_monitor_check(&config, err, sizeof(err)) == -EINVAL &&
		      strstr(err, "threshold B = 12 ms") != NULL,
	      "not a 5 ms step: %s", err);
	config.thresholds_ms[1] = 5;
	CHECK(t,
	      dq_nvme_latency_monitor_check(&config, err, sizeof(err)) == -EINVAL &&
		      strstr(err, "not above threshold A") != NULL,
	      "not increasing: %s", err);
	config.thresholds_ms[1] = 10;
	config.thresholds_ms[3] = 1285;
	CHECK(t,
	      dq_nvme_latency_monitor_check(&config, err, sizeof(err)) == -EINVAL &&
		      strstr(err, "threshold D") != NULL,
	      "beyond 1280 ms: %s", err);
}

int main(void)
{
	struct test_ctx t = { 0 };

	test_c0_every_member(&t);
	test_c0_saturation_and_guid(&t);
	test_c3(&t);
	test_c5(&t);
	return test_report(&t, "ocp");
}
