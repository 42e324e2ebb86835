/*
 * What an opened target is: the device's identity plus what the interlocks and the IO core need
 * to know about it (kernel block device numbers, what to probe for signatures, purge methods,
 * buffer alignment). Engines fill it in open(); it lives in the device wing so the interlocks and
 * kernel device helpers need nothing from the IO engines.
 */
#ifndef DRIVEQUAL_DEVICE_TARGET_H
#define DRIVEQUAL_DEVICE_TARGET_H

#include <stdbool.h>
#include <stdint.h>

#include "contract/capabilities.h"
#include "contract/msg_common.h"

/* An opened target; an engine fills it in open(). */
struct dq_device_target {
	struct dq_device device; /* serial, model, firmware, capacity, lba size, transport address */
	/* The serial is derived by the runner (loop device, file, null) rather than reported by a
	 * drive; serial_note says from what. */
	bool serial_synthetic;
	char serial_note[128];
	/* A kernel block device: the interlocks check mounts, holders, partitions and signatures. */
	bool kernel_block_device;
	uint32_t dev_major, dev_minor;
	/* What libblkid probes for partition tables and signatures (a block device or a regular
	 * file); empty when there is nothing to probe (null, sim, SPDK-owned devices). */
	char probe_path[4096];
	uint32_t purge_methods; /* bit (1u << enum dq_purge_method) per supported method */
	/* What the engine probed the device can do and why not (the heartbeat's capabilities);
	 * purge_methods is what of it the purge phase may use. */
	struct dq_capabilities capabilities;
	uint32_t buffer_align; /* IO buffer alignment, bytes (a power of two) */
	/* Reads return what was written (a drive, a file; a simulated drive with a medium): the
	 * core writes headers and data, and purges and verifies can be checked by reading back. */
	bool keeps_data;
	uint32_t max_queue_depth;
	/* Flexible Data Placement: the reclaim unit handles a write may name (0: no FDP; the
	 * capabilities' fdp entry says why). */
	uint32_t fdp_handles;
	/* The largest placed write the engine can send in one command (bytes; 0: no limit): NVMe
	 * passthrough is not split as the block layer splits its IOs. */
	uint32_t max_placed_write_bytes;
	/* Why reads return nothing written (keeps_data false): the null engine, a sim without its
	 * medium. Empty otherwise. */
	char no_data_reason[128];
};

/* The strongest purge in SNIA PTS's sense a target supports (the contract's "auto": sanitize,
 * else format), or NONE: a deallocate is never what auto means. */
enum dq_purge_method dq_device_target_strongest_purge(const struct dq_device_target *target);

/*
 * The erase a purge phase runs on this target: method (auto resolved by the call above), else
 * fallback (the plan's purgeFallback: deallocate) when the target offers it, else NONE (refuse).
 */
enum dq_purge_method dq_device_target_resolve_purge(const struct dq_device_target *target,
						    enum dq_purge_method method,
						    enum dq_purge_method fallback);

#endif /* DRIVEQUAL_DEVICE_TARGET_H */
