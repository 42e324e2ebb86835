/*
 * The FDP decoders on hand-built pages laid out as NVMe 2.0 (TP4146) defines them: the FDP
 * Configurations log (20h) walked to the descriptor Get Features 1Dh names, the Statistics log's
 * 128-bit counters (22h), the Events log's count (23h), the placement identifier a placed write
 * carries, and every malformed page refused with why.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "device/nvme_fdp.h"
#include "test_util.h"

static void put_le(uint8_t *p, uint64_t value, size_t bytes)
{
	size_t i;

	for (i = 0; i < bytes; i++) {
		p[i] = (uint8_t)(value >> (8 * i));
	}
}

/* One configuration descriptor at d: 64 bytes + 4 per handle; returns its size. */
static uint32_t put_config(uint8_t *d, uint8_t fdpa, uint32_t nrg, uint16_t nruh, uint16_t maxpids,
			   uint64_t runs)
{
	uint32_t size = 64u + 4u * nruh, i;

	put_le(d, size, 2); /* DSZE */
	d[2] = fdpa; /* FDPA */
	d[3] = 0; /* VSS */
	put_le(d + 4, nrg, 4); /* NRG */
	put_le(d + 8, nruh, 2); /* NRUH */
	put_le(d + 10, maxpids, 2); /* MAXPIDS, 0-based */
	put_le(d + 12, 1, 4); /* NNSS */
	put_le(d + 16, runs, 8); /* RUNS */
	put_le(d + 24, 0, 4); /* ERUTL */
	for (i = 0; i < nruh; i++) {
		d[64 + 4 * i] = 1; /* RUHT: initially isolated */
	}
	return size;
}

static void test_configs(struct test_ctx *t)
{
	uint8_t log[DQ_NVME_FDP_CONFIGS_BYTES] = { 0 };
	struct dq_nvme_fdp_config config;
	char err[200], described[200];
	uint32_t first, second;
	int rc;

	/* What QEMU 10 answers for fdp.nrg=2, fdp.nruh=8, fdp.runs=96M: one configuration. */
	first = put_config(log + 16, 0x80u | 2u, 2, 8, 127, 100663296ull);
	put_le(log, 0, 2); /* NUMFDPC: 0-based, one configuration */
	log[2] = 0; /* version */
	put_le(log + 4, 16 + first, 4); /* SIZE */
	memset(&config, 0, sizeof(config));
	rc = dq_nvme_fdp_configs_parse(log, sizeof(log), 0, &config, err, sizeof(err));
	CHECK(t, rc == 0, "one configuration: %d %s", rc, err);
	CHECK(t, first == 96, "descriptor of 8 handles is 96 bytes: %u", first);
	CHECK(t,
	      config.configurations == 1 && config.reclaim_groups == 2 &&
		      config.reclaim_unit_handles == 8 && config.max_placement_ids == 128 &&
		      config.reclaim_unit_bytes == 100663296ull && config.rgif == 2 &&
		      !config.volatile_write_cache,
	      "decoded: %u configs, %u groups, %u handles, %u pids, %llu bytes, rgif %u",
	      config.configurations, config.reclaim_groups, config.reclaim_unit_handles,
	      config.max_placement_ids, (unsigned long long)config.reclaim_unit_bytes, config.rgif);
	dq_nvme_fdp_describe(&config, described, sizeof(described));
	CHECK(t,
	      strcmp(described, "2 reclaim groups, 8 reclaim unit handles, reclaim unit 100663296 "
				"bytes (configuration 0 of 1)") == 0,
	      "described: %s", described);
	/* The placement identifier: the reclaim group in the top RGIF bits (QEMU: 2 bits for 2
	 * groups, so its second group's handles are 16384 + handle), the handle below. */
	CHECK(t, dq_nvme_fdp_placement_id(&config, 0, 5) == 5, "rg 0 handle 5");
	CHECK(t, dq_nvme_fdp_placement_id(&config, 1, 5) == 0x4005, "rg 1 handle 5: %#x",
	      dq_nvme_fdp_placement_id(&config, 1, 5));
	config.rgif = 0;
	CHECK(t, dq_nvme_fdp_placement_id(&config, 0, 7) == 7, "rgif 0: the handle alone");

	/* Two configurations: the second one found by walking DSZE, with FDPVWC set. */
	second = put_config(log + 16 + first, 0x80u | 0x10u | 3u, 4, 2, 3, 1u << 30);
	put_le(log, 1, 2);
	put_le(log + 4, 16 + first + second, 4);
	memset(&config, 0, sizeof(config));
	rc = dq_nvme_fdp_configs_parse(log, sizeof(log), 1, &config, err, sizeof(err));
	CHECK(t,
	      rc == 0 && config.index == 1 && config.configurations == 2 &&
		      config.reclaim_groups == 4 && config.reclaim_unit_handles == 2 &&
		      config.max_placement_ids == 4 && config.reclaim_unit_bytes == (1ull << 30) &&
		      config.rgif == 3 && config.volatile_write_cache,
	      "second configuration: rc %d, %u groups, %u handles", rc, config.reclaim_groups,
	      config.reclaim_unit_handles);

	/* Refusals, each naming why. */
	rc = dq_nvme_fdp_configs_parse(log, sizeof(log), 2, &config, err, sizeof(err));
	CHECK(t, rc == -EPROTO && strstr(err, "configuration 2 in force but the log lists 2"),
	      "index beyond NUMFDPC: %d %s", rc, err);
	put_le(log + 4, 16 + first + 32, 4); /* SIZE cuts the second descriptor */
	rc = dq_nvme_fdp_configs_parse(log, sizeof(log), 1, &config, err, sizeof(err));
	CHECK(t, rc == -EPROTO && strstr(err, "runs past"), "cut page: %d %s", rc, err);
	put_le(log + 4, 16 + first + second, 4);
	put_le(log + 16, 12, 2); /* DSZE below 64 */
	rc = dq_nvme_fdp_configs_parse(log, sizeof(log), 1, &config, err, sizeof(err));
	CHECK(t, rc == -EPROTO && strstr(err, "declares 12 bytes"), "short DSZE: %d %s", rc, err);
	put_le(log + 16, first, 2);
	log[16 + 2] = 1u; /* FDPA valid bit clear */
	rc = dq_nvme_fdp_configs_parse(log, sizeof(log), 0, &config, err, sizeof(err));
	CHECK(t, rc == -EPROTO && strstr(err, "not valid"), "invalid descriptor: %d %s", rc, err);
	rc = dq_nvme_fdp_configs_parse(log, 8, 0, &config, err, sizeof(err));
	CHECK(t, rc == -EPROTO && strstr(err, "shorter than its header"), "8 bytes: %d %s", rc,
	      err);
}

static void test_feature_stats_events(struct test_ctx *t)
{
	uint8_t stats[DQ_NVME_FDP_STATS_BYTES] = { 0 },
		events[DQ_NVME_FDP_EVENTS_HEADER_BYTES] = { 0 };
	struct dq_nvme_fdp_config config = { 0 };
	struct dq_nvme_fdp_stats decoded;

	dq_nvme_fdp_feature_parse(0x0301u, &config); /* FDPE, FDPCIDX 3 */
	CHECK(t, config.enabled && config.index == 3, "feature: %d %u", config.enabled,
	      config.index);
	dq_nvme_fdp_feature_parse(0x0200u, &config);
	CHECK(t, !config.enabled && config.index == 2, "feature off: %d %u", config.enabled,
	      config.index);

	put_le(stats, 1073741824ull, 8); /* HBMW: 1 GiB */
	put_le(stats + 16, 1073745920ull, 8); /* MBMW */
	put_le(stats + 32, 100663296ull, 8); /* MBE: one reclaim unit */
	dq_nvme_fdp_stats_parse(stats, &decoded);
	CHECK(t,
	      decoded.host_bytes_written == 1073741824ull &&
		      decoded.media_bytes_written == 1073745920ull &&
		      decoded.media_bytes_erased == 100663296ull,
	      "stats: %llu %llu %llu", (unsigned long long)decoded.host_bytes_written,
	      (unsigned long long)decoded.media_bytes_written,
	      (unsigned long long)decoded.media_bytes_erased);
	put_le(stats + 16 + 8, 1, 8); /* MBMW's upper 64 bits: saturates */
	dq_nvme_fdp_stats_parse(stats, &decoded);
	CHECK(t, decoded.media_bytes_written == (uint64_t)INT64_MAX, "saturated: %llu",
	      (unsigned long long)decoded.media_bytes_written);

	put_le(events, 0x01020304u, 4);
	CHECK(t, dq_nvme_fdp_events_count(events) == 0x01020304u, "events: %u",
	      dq_nvme_fdp_events_count(events));
}

int main(void)
{
	struct test_ctx t = { 0 };

	test_configs(&t);
	test_feature_stats_events(&t);
	return test_report(&t, "fdp");
}
