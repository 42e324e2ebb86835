/*
 * Flexible Data Placement (NVMe 2.0 TP4146) on a kernel NVMe namespace: the FDP Configurations
 * log (20h) and whether FDP is on (Get Features 1Dh), both scoped to the namespace's endurance
 * group, for the inventory and the placement refusals; the FDP Statistics (22h) and Events (23h)
 * logs for the health readings; the placement identifier a placed write carries. The decoders take
 * the pages as bytes so tests can build them by hand.
 */
#ifndef DRIVEQUAL_NVME_FDP_H
#define DRIVEQUAL_NVME_FDP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "contract/capabilities.h"
#include "contract/msg_common.h"

#define DQ_NVME_LOG_FDP_CONFIGURATIONS 0x20
#define DQ_NVME_LOG_FDP_STATISTICS 0x22
#define DQ_NVME_LOG_FDP_EVENTS 0x23
#define DQ_NVME_FEATURE_FDP 0x1d
/* Enough for the header and a few descriptors of 64 bytes + 4 per handle. */
#define DQ_NVME_FDP_CONFIGS_BYTES 4096u
#define DQ_NVME_FDP_STATS_BYTES 64u
/* The events log's header (the event count) and no events. */
#define DQ_NVME_FDP_EVENTS_HEADER_BYTES 64u

/* The FDP configuration in force (the descriptor Get Features 1Dh's FDPCIDX names). */
struct dq_nvme_fdp_config {
	bool enabled; /* Get Features 1Dh FDPE */
	uint8_t index; /* FDPCIDX: which descriptor of the log */
	uint16_t configurations; /* descriptors in the log (NUMFDPC + 1) */
	uint8_t rgif; /* reclaim group identifier format: the placement identifier's RG bits */
	bool volatile_write_cache; /* FDPVWC */
	uint32_t reclaim_groups; /* NRG */
	uint16_t reclaim_unit_handles; /* NRUH */
	uint32_t max_placement_ids; /* MAXPIDS + 1 */
	uint64_t reclaim_unit_bytes; /* RUNS */
};

/* FDP Statistics log (22h): 128-bit byte counters, saturated at INT64_MAX. */
struct dq_nvme_fdp_stats {
	uint64_t host_bytes_written; /* HBMW: host bytes with metadata written */
	uint64_t media_bytes_written; /* MBMW: media bytes with metadata written */
	uint64_t media_bytes_erased; /* MBE */
};

/*
 * Decode the descriptor number index of an FDP Configurations log of len bytes. 0, or -EPROTO with
 * the reason in err (no such descriptor, a size that runs past the page, the descriptor not valid).
 * out->enabled is left as it was (Get Features says it, not the log).
 */
int dq_nvme_fdp_configs_parse(const uint8_t *log, size_t len, uint8_t index,
			      struct dq_nvme_fdp_config *out, char *err, size_t err_len);

/* Decode an FDP Statistics log (64 bytes). */
void dq_nvme_fdp_stats_parse(const uint8_t *log, struct dq_nvme_fdp_stats *out);

/* The event count (NEVENTS) of an FDP Events log's header. */
uint32_t dq_nvme_fdp_events_count(const uint8_t *log);

/* Get Features 1Dh's completion dword 0: FDPE (bit 0) into enabled, FDPCIDX (bits 15:8) into
 * index. */
void dq_nvme_fdp_feature_parse(uint32_t dword0, struct dq_nvme_fdp_config *out);

/*
 * The placement identifier (DSPEC of a write with DTYPE 2) for reclaim group rg and placement
 * handle handle: the group in the top rgif bits of 16, the handle below.
 */
uint16_t dq_nvme_fdp_placement_id(const struct dq_nvme_fdp_config *config, uint32_t rg,
				  uint16_t handle);

/* The inventory's sentence for an FDP configuration, as the simulator says it. */
void dq_nvme_fdp_describe(const struct dq_nvme_fdp_config *config, char *out, size_t out_len);

/*
 * Probe FDP of endurance group endgid through the passthrough ioctls on fd: Get Features 1Dh
 * (enabled, which configuration), then the FDP Configurations log. Fills caps' fdp entry (enabled,
 * the configuration in its detail) and *out; returns the handles a write may name (0 when FDP is
 * off or could not be read, caps' detail saying why). Call only when Identify says FDP is there.
 */
uint32_t dq_nvme_fdp_probe(int fd, uint16_t endgid, struct dq_capabilities *caps,
			   struct dq_nvme_fdp_config *out);

/* Read the FDP Statistics log and the FDP Events log's host and controller event counts of
 * endgid into smart->fdp, or why not into smart->fdp_reason. */
void dq_nvme_fdp_read(int fd, uint16_t endgid, struct dq_smart_snapshot *smart);

#endif /* DRIVEQUAL_NVME_FDP_H */
