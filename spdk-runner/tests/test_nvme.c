/*
 * The NVMe admin parsers on hand-built pages (no NVMe drive is needed): Identify Controller
 * fields and purge capabilities, SMART/Health 02h counters (128-bit, saturated), and OCP C0h read
 * only when its GUID matches; every snapshot must encode as a valid smart-snapshot event.
 */
#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "contract/msg_job_event.h"
#include "device/nvme_admin.h"
#include "test_util.h"

static void put_le(uint8_t *p, uint64_t value, size_t bytes)
{
	size_t i;

	for (i = 0; i < bytes; i++) {
		p[i] = (uint8_t)(value >> (8 * i));
	}
}

static void expect_encodes(struct test_ctx *t, const struct dq_smart_snapshot *smart)
{
	struct dq_job_event event = { .type = DQ_JOB_EVENT_SMART_SNAPSHOT,
				      .event_id = "j:1",
				      .job_id = "j",
				      .runner_id = "r",
				      .seq = 1,
				      .time = "2026-11-22T21:00:00.000Z" };
	char err[256], *json = NULL;
	size_t len;
	int rc;

	event.smart_snapshot.when = DQ_SMART_WHEN_AFTER;
	event.smart_snapshot.smart = *smart;
	rc = dq_job_event_encode(&event, &json, &len, err, sizeof(err));
	CHECK(t, rc == 0, "smart-snapshot does not encode: %s", err);
	if (rc == 0) {
		printf("ok   %s\n", json);
	}
	free(json);
}

static void test_identify(struct test_ctx *t)
{
	uint8_t data[DQ_NVME_IDENTIFY_BYTES] = { 0 };
	struct dq_nvme_controller controller;
	uint32_t methods;

	memcpy(data + 4, "S6CKNE0T801234      ", 20);
	memcpy(data + 24, "SAMSUNG MZQL23T8HCLS-00A07              ", 40);
	memcpy(data + 64, "GDC5602Q", 8);
	put_le(data + 256, 1u << 1, 2); /* OACS: Format NVM */
	put_le(data + 328, (1u << 0) | (1u << 1), 4); /* SANICAP: crypto, block */
	data[524] = 1u << 2; /* FNA: crypto erase */
	put_le(data + 266, 343, 2); /* WCTEMP 70 C */
	put_le(data + 268, 358, 2); /* CCTEMP 85 C */
	dq_nvme_controller_parse(data, &controller);
	CHECK(t, controller.wctemp_k == 343 && controller.cctemp_k == 358, "WCTEMP %u, CCTEMP %u",
	      controller.wctemp_k, controller.cctemp_k);
	CHECK(t, strcmp(controller.serial, "S6CKNE0T801234") == 0, "serial '%s'",
	      controller.serial);
	CHECK(t, strcmp(controller.model, "SAMSUNG MZQL23T8HCLS-00A07") == 0, "model '%s'",
	      controller.model);
	CHECK(t, strcmp(controller.firmware, "GDC5602Q") == 0, "firmware '%s'",
	      controller.firmware);
	methods = dq_nvme_purge_methods(&controller);
	CHECK(t,
	      methods == ((1u << DQ_PURGE_METHOD_FORMAT_USER_DATA) |
			  (1u << DQ_PURGE_METHOD_FORMAT_CRYPTO) |
			  (1u << DQ_PURGE_METHOD_SANITIZE_CRYPTO) |
			  (1u << DQ_PURGE_METHOD_SANITIZE_BLOCK)),
	      "purge methods 0x%x", methods);
	memset(data, 0, sizeof(data));
	dq_nvme_controller_parse(data, &controller);
	CHECK(t, dq_nvme_purge_methods(&controller) == 0, "no capabilities, no methods");
}

static void test_smart(struct test_ctx *t)
{
	uint8_t log[DQ_NVME_LOG_PAGE_BYTES] = { 0 }, ocp[DQ_NVME_LOG_PAGE_BYTES] = { 0 };
	static const uint8_t guid[16] = { 0xc5, 0xaf, 0x10, 0x28, 0xea, 0xbf, 0xf2, 0xa4,
					  0x9c, 0x4f, 0x6f, 0x7c, 0xc9, 0x14, 0xd5, 0xaf };
	struct dq_smart_snapshot smart;

	log[0] = 0x04; /* critical warning: reliability degraded */
	put_le(log + 1, 310, 2); /* 310 K */
	log[3] = 97;
	log[4] = 10;
	log[5] = 3;
	put_le(log + 32, 123456789, 8);
	put_le(log + 48, 987654321, 8);
	put_le(log + 64, 1111, 8);
	put_le(log + 80, 2222, 8);
	put_le(log + 128, 4321, 8);
	put_le(log + 160, 7, 8);
	put_le(log + 48 + 8, 1, 8); /* data units written beyond 2^64: saturates */
	put_le(log + 192, 61, 4); /* warning composite temperature time, minutes */
	put_le(log + 196, 2, 4); /* critical composite temperature time */
	put_le(log + 200, 0xbeef, 2); /* temperature sensor 1: not read */
	put_le(log + 216, 5, 4); /* TMT1 transitions */
	put_le(log + 220, 1, 4); /* TMT2 transitions */
	put_le(log + 224, 900, 4); /* seconds in TMT1 */
	put_le(log + 228, 30, 4); /* seconds in TMT2 */
	dq_nvme_smart_parse(log, &smart);
	CHECK(t,
	      smart.has_warning_temperature_time_min && smart.warning_temperature_time_min == 61 &&
		      smart.has_critical_temperature_time_min &&
		      smart.critical_temperature_time_min == 2,
	      "composite temperature times");
	CHECK(t,
	      smart.has_thermal_management && smart.thermal_management_temp1_transitions == 5 &&
		      smart.thermal_management_temp2_transitions == 1 &&
		      smart.thermal_management_temp1_time_s == 900 &&
		      smart.thermal_management_temp2_time_s == 30,
	      "thermal management counters");
	CHECK(t,
	      !smart.has_warning_temperature_threshold_k && !smart.has_thermal_management_temp1_k,
	      "thresholds come from Identify, not the log");
	{
		struct dq_nvme_controller limits = { .wctemp_k = 343, .cctemp_k = 0 };

		dq_nvme_smart_add_limits(&limits, &smart);
		CHECK(t,
		      smart.has_warning_temperature_threshold_k &&
			      smart.warning_temperature_threshold_k == 343 &&
			      !smart.has_critical_temperature_threshold_k,
		      "a declared WCTEMP is reported, an undeclared CCTEMP (0) is not");
	}
	CHECK(t, smart.available && smart.source == DQ_SMART_SOURCE_NVME_LOG_02H, "available");
	CHECK(t, smart.critical_warning == 4 && smart.temperature_k == 310, "warning, temperature");
	CHECK(t,
	      smart.available_spare_percent == 97 &&
		      smart.available_spare_threshold_percent == 10 && smart.percentage_used == 3,
	      "spare, used");
	CHECK(t, smart.data_units_read == 123456789 && smart.data_units_written == INT64_MAX,
	      "128-bit counters: %llu %llu", (unsigned long long)smart.data_units_read,
	      (unsigned long long)smart.data_units_written);
	CHECK(t,
	      smart.host_read_commands == 1111 && smart.host_write_commands == 2222 &&
		      smart.power_on_hours == 4321 && smart.media_errors == 7,
	      "commands, hours, errors");
	CHECK(t, !dq_nvme_ocp_parse(ocp, &smart) && !smart.has_ocp,
	      "a C0h page without the OCP GUID is not OCP");
	memcpy(ocp + 496, guid, sizeof(guid));
	put_le(ocp + 0, 5000000000000ULL, 8);
	put_le(ocp + 16, 6000000000000ULL, 8);
	put_le(ocp + 32, 12, 6);
	put_le(ocp + 38, 0xffff, 2); /* normalized value: not part of the raw count */
	CHECK(t, dq_nvme_ocp_parse(ocp, &smart) && smart.has_ocp, "OCP GUID accepted");
	CHECK(t,
	      smart.ocp.value[DQ_OCP_PHYSICAL_MEDIA_UNITS_WRITTEN_BYTES] == 5000000000000ULL &&
		      smart.ocp.value[DQ_OCP_PHYSICAL_MEDIA_UNITS_READ_BYTES] == 6000000000000ULL &&
		      smart.ocp.value[DQ_OCP_BAD_USER_NAND_BLOCKS] == 12,
	      "OCP counters");
	expect_encodes(t, &smart);
	smart.available_spare_percent = 200; /* reserved values */
	log[3] = 200;
	dq_nvme_smart_parse(log, &smart);
	CHECK(t, !smart.has_available_spare_percent, "an out-of-range spare is not reported");
	expect_encodes(t, &smart);
}

static void test_namespace_and_format(struct test_ctx *t)
{
	uint8_t data[DQ_NVME_IDENTIFY_BYTES] = { 0 };
	struct dq_nvme_namespace ns;
	uint32_t cdw10;

	put_le(data, 1953525168ULL, 8); /* NSZE */
	data[25] = 1; /* NLBAF: two formats */
	data[26] = 0x11; /* FLBAS: format 1, metadata extended (MSET) */
	data[29] = 0x09; /* DPS: PI type 1, PIL first bytes */
	put_le(data + 128, 9u << 16, 4); /* LBAF0: 512 B */
	put_le(data + 132, 12u << 16 | 8, 4); /* LBAF1: 4096 B + 8 B metadata */
	dq_nvme_namespace_parse(data, &ns);
	CHECK(t, ns.size_blocks == 1953525168ULL, "NSZE %llu", (unsigned long long)ns.size_blocks);
	CHECK(t, ns.lba_size_bytes == 4096 && ns.metadata_bytes == 8, "LBA format: %u + %u",
	      ns.lba_size_bytes, ns.metadata_bytes);
	CHECK(t,
	      dq_nvme_format_cdw10(&ns, DQ_PURGE_METHOD_FORMAT_USER_DATA, &cdw10) == 0 &&
		      cdw10 == (1u | 1u << 4 | 1u << 5 | 1u << 8 | 1u << 9),
	      "SES 1 keeps LBAF 1, MSET, PI 1, PIL: 0x%x", cdw10);
	CHECK(t,
	      dq_nvme_format_cdw10(&ns, DQ_PURGE_METHOD_FORMAT_CRYPTO, &cdw10) == 0 &&
		      (cdw10 >> 9 & 7u) == 2 && (cdw10 & 0xfu) == 1,
	      "SES 2: 0x%x", cdw10);
	CHECK(t, dq_nvme_format_cdw10(&ns, DQ_PURGE_METHOD_SANITIZE_BLOCK, &cdw10) == -EINVAL,
	      "a sanitize method is no format");
	CHECK(t,
	      dq_nvme_sanitize_cdw10(DQ_PURGE_METHOD_SANITIZE_BLOCK, &cdw10) == 0 &&
		      cdw10 == (2u | 1u << 3),
	      "block erase, AUSE: 0x%x", cdw10);
	CHECK(t,
	      dq_nvme_sanitize_cdw10(DQ_PURGE_METHOD_SANITIZE_CRYPTO, &cdw10) == 0 &&
		      cdw10 == (4u | 1u << 3),
	      "crypto erase: 0x%x", cdw10);
	CHECK(t,
	      dq_nvme_sanitize_cdw10(DQ_PURGE_METHOD_SANITIZE_OVERWRITE, &cdw10) == 0 &&
		      cdw10 == (3u | 1u << 3 | 1u << 4),
	      "overwrite, one pass: 0x%x", cdw10);
	CHECK(t, dq_nvme_sanitize_cdw10(DQ_PURGE_METHOD_DEALLOCATE, &cdw10) == -EINVAL,
	      "deallocate is no sanitize");
}

/* Format SES selection by the controller's capability bits, and the refusal's words. */
static void test_purge_check(struct test_ctx *t)
{
	struct dq_nvme_controller controller = { 0 };
	char err[256] = "";

	CHECK(t,
	      dq_nvme_purge_check(&controller, DQ_PURGE_METHOD_FORMAT_USER_DATA, err,
				  sizeof(err)) == -EOPNOTSUPP &&
		      strstr(err, "OACS bit 1") != NULL,
	      "no Format NVM: %s", err);
	controller.oacs = 1u << 1;
	CHECK(t,
	      dq_nvme_purge_check(&controller, DQ_PURGE_METHOD_FORMAT_USER_DATA, err,
				  sizeof(err)) == 0,
	      "SES 1 with Format NVM");
	CHECK(t,
	      dq_nvme_purge_check(&controller, DQ_PURGE_METHOD_FORMAT_CRYPTO, err, sizeof(err)) ==
			      -EOPNOTSUPP &&
		      strstr(err, "FNA bit 2") != NULL,
	      "no crypto erase without FNA bit 2: %s", err);
	controller.fna = 1u << 2;
	CHECK(t,
	      dq_nvme_purge_check(&controller, DQ_PURGE_METHOD_FORMAT_CRYPTO, err, sizeof(err)) ==
		      0,
	      "SES 2 with FNA bit 2");
	CHECK(t,
	      dq_nvme_purge_check(&controller, DQ_PURGE_METHOD_SANITIZE_BLOCK, err, sizeof(err)) ==
			      -EOPNOTSUPP &&
		      strstr(err, "SANICAP bit 1") != NULL,
	      "no sanitize: %s", err);
	controller.sanicap = 1u << 2;
	CHECK(t,
	      dq_nvme_purge_check(&controller, DQ_PURGE_METHOD_SANITIZE_OVERWRITE, err,
				  sizeof(err)) == 0 &&
		      dq_nvme_purge_check(&controller, DQ_PURGE_METHOD_SANITIZE_CRYPTO, err,
					  sizeof(err)) == -EOPNOTSUPP,
	      "overwrite only");
	CHECK(t,
	      dq_nvme_purge_check(&controller, DQ_PURGE_METHOD_DEALLOCATE, err, sizeof(err)) ==
		      -EINVAL,
	      "deallocate is not an admin purge");
	CHECK(t,
	      dq_nvme_purge_check(&controller, DQ_PURGE_METHOD_NONE, err, sizeof(err)) == -EINVAL,
	      "none");
}

static void test_sanitize_status(struct test_ctx *t)
{
	uint8_t log[DQ_NVME_LOG_PAGE_BYTES] = { 0 };
	uint32_t progress;
	char err[256] = "";

	put_le(log, 32768, 2); /* SPROG: half way */
	put_le(log + 2, 0x0102, 2); /* SSTAT: in progress, global data erased bit (8) set */
	CHECK(t,
	      dq_nvme_sanitize_status(log, &progress) == DQ_NVME_SANITIZE_IN_PROGRESS &&
		      progress == 32768,
	      "in progress at 50%%");
	CHECK(t, dq_nvme_sanitize_outcome(DQ_NVME_SANITIZE_IN_PROGRESS, err, sizeof(err)) == 1,
	      "keep waiting");
	put_le(log + 2, 0x0101, 2);
	CHECK(t, dq_nvme_sanitize_status(log, NULL) == DQ_NVME_SANITIZE_DONE, "done");
	CHECK(t,
	      dq_nvme_sanitize_outcome(DQ_NVME_SANITIZE_DONE, err, sizeof(err)) == 0 &&
		      dq_nvme_sanitize_outcome(DQ_NVME_SANITIZE_DONE_NO_DEALLOCATE, err,
					       sizeof(err)) == 0,
	      "done, with or without deallocation");
	put_le(log + 2, 3, 2);
	CHECK(t, dq_nvme_sanitize_status(log, NULL) == DQ_NVME_SANITIZE_FAILED, "failed");
	CHECK(t,
	      dq_nvme_sanitize_outcome(DQ_NVME_SANITIZE_FAILED, err, sizeof(err)) == -EIO &&
		      strstr(err, "Sanitize failed") != NULL,
	      "failure: %s", err);
	CHECK(t, dq_nvme_sanitize_outcome(DQ_NVME_SANITIZE_NEVER, err, sizeof(err)) == -EPROTO,
	      "accepted but never ran: %s", err);
	CHECK(t,
	      dq_nvme_sanitize_outcome((enum dq_nvme_sanitize_state)6, err, sizeof(err)) == -EPROTO,
	      "reserved state");
}

static void test_dsm_ranges(struct test_ctx *t)
{
	struct dq_nvme_dsm_range ranges[DQ_NVME_DSM_MAX_RANGES];
	uint64_t covered, blocks = 3ULL * DQ_NVME_DSM_RANGE_BLOCKS + 5;
	uint32_t n;

	n = dq_nvme_dsm_ranges(100, 8, ranges, DQ_NVME_DSM_MAX_RANGES, &covered);
	CHECK(t,
	      n == 1 && covered == 8 && ranges[0].start_lba == 100 && ranges[0].length_blocks == 8,
	      "one small range");
	n = dq_nvme_dsm_ranges(0, blocks, ranges, DQ_NVME_DSM_MAX_RANGES, &covered);
	CHECK(t,
	      n == 4 && covered == blocks && ranges[3].length_blocks == 5 &&
		      ranges[3].start_lba == 3ULL * DQ_NVME_DSM_RANGE_BLOCKS,
	      "split at 2^31 blocks: %u ranges", n);
	n = dq_nvme_dsm_ranges(0, blocks, ranges, 2, &covered);
	CHECK(t, n == 2 && covered == 2ULL * DQ_NVME_DSM_RANGE_BLOCKS, "max ranges per command");
	n = dq_nvme_dsm_ranges(0, 0, ranges, 2, &covered);
	CHECK(t, n == 0 && covered == 0, "nothing");
}

/* "true" or "false <missing>" of one capability, for compact checks. */
static const char *capability_state(const struct dq_capabilities *caps, enum dq_capability name)
{
	static char out[64];
	const struct dq_capability_state *state = &caps->items[name];

	if (!state->available && state->missing == DQ_CAPABILITY_MISSING_NONE) {
		return "not probed";
	}
	snprintf(out, sizeof(out), "%s%s%s", state->available ? "true" : "false",
		 state->available ? "" : " ",
		 state->available ? "" : dq_capability_missing_to_str(state->missing));
	return out;
}

/* What Identify Controller's bits say a controller can do, and every reason a probe gives. */
static void test_capabilities(struct test_ctx *t)
{
	static const struct {
		enum dq_capability name;
		const char *expected;
	} single[] = {
		{ DQ_CAPABILITY_FORMAT, "true" },
		{ DQ_CAPABILITY_FORMAT_USER_DATA, "true" },
		{ DQ_CAPABILITY_FORMAT_CRYPTO, "false device-lacks-it" },
		{ DQ_CAPABILITY_SANITIZE_BLOCK, "true" },
		{ DQ_CAPABILITY_SANITIZE_CRYPTO, "false device-lacks-it" },
		{ DQ_CAPABILITY_SANITIZE_OVERWRITE, "false device-lacks-it" },
		{ DQ_CAPABILITY_TEMPERATURE_THRESHOLDS, "true" },
		{ DQ_CAPABILITY_VOLATILE_WRITE_CACHE, "true" },
		{ DQ_CAPABILITY_FDP, "true" },
	};
	uint8_t data[DQ_NVME_IDENTIFY_BYTES] = { 0 };
	struct dq_nvme_controller controller;
	struct dq_capabilities caps;
	char explained[300];
	size_t i;

	put_le(data + 256, 1u << 1, 2); /* OACS: Format NVM */
	put_le(data + 328, 1u << 1, 4); /* SANICAP: block erase only */
	put_le(data + 266, 343, 2); /* WCTEMP */
	put_le(data + 96, 1u << 19, 4); /* CTRATT: FDP */
	data[525] = 1; /* VWC present */
	dq_nvme_controller_parse(data, &controller);
	memset(&caps, 0, sizeof(caps));
	dq_nvme_capabilities_from_controller(&controller, true, &caps);
	for (i = 0; i < sizeof(single) / sizeof(single[0]); i++) {
		CHECK(t, strcmp(capability_state(&caps, single[i].name), single[i].expected) == 0,
		      "%s: %s, expected %s", dq_capability_to_str(single[i].name),
		      capability_state(&caps, single[i].name), single[i].expected);
	}
	/* Two namespaces: the runner will not erase them all for one drive's test. */
	memset(&caps, 0, sizeof(caps));
	dq_nvme_capabilities_from_controller(&controller, false, &caps);
	CHECK(t,
	      strcmp(capability_state(&caps, DQ_CAPABILITY_FORMAT_USER_DATA),
		     "false runner-policy") == 0 &&
		      strcmp(capability_state(&caps, DQ_CAPABILITY_FORMAT_CRYPTO),
			     "false device-lacks-it") == 0,
	      "multi-namespace: format-user-data %s",
	      capability_state(&caps, DQ_CAPABILITY_FORMAT_USER_DATA));
	/* Identify refused for want of CAP_SYS_ADMIN: every admin capability says so, not deallocate. */
	memset(&caps, 0, sizeof(caps));
	dq_nvme_probe_capabilities(-1, 1, NULL, -EACCES, "Identify Controller: Permission denied",
				   false, &caps, NULL);
	for (i = DQ_CAPABILITY_FORMAT; i < DQ_CAPABILITY_COUNT; i++) {
		const char *expected = i == DQ_CAPABILITY_DEALLOCATE ?
					       "not probed" :
					       "false runner-lacks-sys-admin";

		CHECK(t, strcmp(capability_state(&caps, (enum dq_capability)i), expected) == 0,
		      "%s: %s", dq_capability_to_str((enum dq_capability)i),
		      capability_state(&caps, (enum dq_capability)i));
	}
	dq_capability_explain(&caps, DQ_CAPABILITY_SMART, explained, sizeof(explained));
	CHECK(t,
	      strcmp(explained,
		     "smart: runner-lacks-sys-admin (Identify Controller: Permission denied "
		     "(NVMe admin passthrough needs CAP_SYS_ADMIN))") == 0,
	      "explained: %s", explained);
	CHECK(t,
	      dq_nvme_missing_for(-EPERM) == DQ_CAPABILITY_MISSING_PRIVILEGE &&
		      dq_nvme_missing_for(-EIO) == DQ_CAPABILITY_MISSING_DEVICE &&
		      dq_nvme_missing_for(-ENOTTY) == DQ_CAPABILITY_MISSING_PROBE_FAILED,
	      "reasons by errno");
}

int main(void)
{
	struct test_ctx t = { 0 };

	test_identify(&t);
	test_smart(&t);
	test_namespace_and_format(&t);
	test_purge_check(&t);
	test_sanitize_status(&t);
	test_dsm_ranges(&t);
	test_capabilities(&t);
	return test_report(&t, "nvme");
}
