/*
 * Shared between the spdk engine's files (engines/spdk.c: the ops table and the IO path;
 * engines/spdk_ctrlr.c: the environment, attach/detach and the admin commands). Internal: only
 * built where pkg-config finds SPDK.
 */
#ifndef DRIVEQUAL_ENGINE_SPDK_INTERNAL_H
#define DRIVEQUAL_ENGINE_SPDK_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <spdk/nvme.h>

#include "device/nvme_admin.h"
#include "device/spdk_target.h"
#include "io/engine.h"

/* The engine's options (--spdk_*); the first open in a process sets up the SPDK environment. */
struct spdk_options {
	uint32_t mem_mb; /* DPDK memory, MiB; 0: the environment's default */
	bool no_huge; /* anonymous memory instead of hugepages (tests; needs mem_mb) */
	bool no_pci; /* do not scan PCI (fabric targets only) */
	uint32_t admin_poll_ms; /* admin queue / keep-alive polling interval during IO */
};

/* One attached controller and namespace: what open() returns. */
struct spdk_dev {
	struct dq_spdk_target target;
	char address[DQ_UTF8_BUF(DQ_TRANSPORT_MAX_CHARS)];
	struct spdk_nvme_ctrlr *ctrlr;
	struct spdk_nvme_ns *ns;
	struct dq_nvme_controller controller;
	uint32_t nsid;
	uint32_t lba_size;
	uint64_t blocks;
	bool single_namespace;
	/* Held by whoever submits an admin command or processes admin completions: health polls
	 * run on their own thread, and a completion must be reaped by the thread that waits for it. */
	pthread_mutex_t admin_lock;
};

/* Set up the SPDK environment once per process (later calls reuse it, options ignored). 0 or
 * -errno with err. */
int dq_spdk_env_init(const struct spdk_options *options, char *err, size_t err_len);

/* Attach target's controller, identify it and its namespace. 0, -ENOENT (nothing answers at the
 * address), -ENXIO (no such namespace) or -errno, with err. */
int dq_spdk_dev_attach(struct spdk_dev *dev, const char *text, char *err, size_t err_len);

/* Detach (safe on a partly attached dev). */
void dq_spdk_dev_detach(struct spdk_dev *dev);

/* Fill target (identity, capacity, purge methods) from an attached dev. */
void dq_spdk_dev_describe(const struct spdk_dev *dev, struct dq_device_target *target);

/* Read a log page into buf (DMA memory of len bytes). 0, -EIO (NVMe status in err) or -errno. */
int dq_spdk_get_log(struct spdk_dev *dev, uint8_t log_id, uint32_t nsid, void *buf, uint32_t len,
		    char *err, size_t err_len);

/* Format NVM / Sanitize (polling the sanitize status log until done). 0 or -errno with err. */
int dq_spdk_purge(struct spdk_dev *dev, enum dq_purge_method method, char *err, size_t err_len);

/* Deallocate [lba, lba + blocks) with Dataset Management on qpair, polling its group until each
 * command completes. */
int dq_spdk_deallocate(struct spdk_dev *dev, struct spdk_nvme_qpair *qpair,
		       struct spdk_nvme_poll_group *group, uint64_t lba, uint64_t blocks, char *err,
		       size_t err_len);

/* The SMART/Health log (02h) and, when its GUID checks out, OCP C0h; never fails: an
 * unavailable snapshot says why. */
int dq_spdk_smart(struct spdk_dev *dev, struct dq_smart_snapshot *out);

/* "NVMe status sct 0x0 sc 0x1 (INVALID OPCODE)" for a failed completion. */
void dq_spdk_status_text(const struct spdk_nvme_cpl *cpl, char *out, size_t out_len);

#endif /* DRIVEQUAL_ENGINE_SPDK_INTERNAL_H */
