/*
 * The NVMe admin parsers on hand-built pages (no NVMe drive is needed): Identify Controller
 * fields and purge capabilities, SMART/Health 02h counters (128-bit, saturated), and OCP C0h read
 * only when its GUID matches; every snapshot must encode as a valid smart-snapshot event.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "drivequal/msg_job_event.h"
#include "nvme_admin.h"
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
	dq_nvme_controller_parse(data, &controller);
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
	dq_nvme_smart_parse(log, &smart);
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
	      smart.ocp.physical_media_units_written_bytes == 5000000000000ULL &&
		      smart.ocp.physical_media_units_read_bytes == 6000000000000ULL &&
		      smart.ocp.bad_user_nand_blocks == 12,
	      "OCP counters");
	expect_encodes(t, &smart);
	smart.available_spare_percent = 200; /* reserved values */
	log[3] = 200;
	dq_nvme_smart_parse(log, &smart);
	CHECK(t, !smart.has_available_spare_percent, "an out-of-range spare is not reported");
	expect_encodes(t, &smart);
}

int main(void)
{
	struct test_ctx t = { 0 };

	test_identify(&t);
	test_smart(&t);
	return test_report(&t, "nvme");
}
