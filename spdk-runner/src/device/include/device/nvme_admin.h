/*
 * NVMe admin commands through the kernel's passthrough ioctl (NVME_IOCTL_ADMIN_CMD) for kernel
 * NVMe namespaces: Identify, the SMART/Health log (02h), the OCP SMART / Health Information Extended
 * (C0h) and Latency Monitor (C3h) logs (only when their GUIDs check out), the latency monitor's
 * configuration (Set Features C5h), Format NVM and Sanitize. The parsers are separate so tests can feed them
 * log pages byte by byte.
 */
#ifndef DRIVEQUAL_NVME_ADMIN_H
#define DRIVEQUAL_NVME_ADMIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "contract/capabilities.h"
#include "contract/msg_common.h"
#include "device/nvme_fdp.h"

#define DQ_NVME_LOG_SMART 0x02
#define DQ_NVME_LOG_SANITIZE_STATUS 0x81
#define DQ_NVME_LOG_OCP_SMART_EXTENDED 0xc0
#define DQ_NVME_LOG_OCP_LATENCY_MONITOR 0xc3
#define DQ_NVME_FEATURE_OCP_LATENCY_MONITOR 0xc5
#define DQ_NVME_LATENCY_MONITOR_FEATURE_BYTES 4096
#define DQ_NVME_LOG_PAGE_BYTES 512
#define DQ_NVME_IDENTIFY_BYTES 4096

/* What the runner needs from Identify Controller (CNS 01h) and Identify Namespace (CNS 00h). */
struct dq_nvme_controller {
	char serial[21]; /* trailing spaces removed */
	char model[41];
	char firmware[9];
	uint16_t oacs; /* optional admin commands: bit 1 Format NVM */
	uint16_t oncs; /* optional NVM commands: bit 2 Dataset Management */
	uint32_t sanicap; /* bit 0 crypto erase, 1 block erase, 2 overwrite */
	uint8_t fna; /* format attributes: bit 0 all namespaces, bit 2 crypto erase supported */
	uint8_t lpa; /* log page attributes */
	uint16_t wctemp_k; /* warning composite temperature threshold; 0: none declared */
	uint16_t cctemp_k; /* critical composite temperature threshold; 0: none declared */
	uint32_t ctratt; /* controller attributes: bit 19 Flexible Data Placement */
	uint8_t vwc; /* volatile write cache: bit 0 present */
};

/* What the runner needs from Identify Namespace (CNS 00h). */
struct dq_nvme_namespace {
	uint64_t size_blocks; /* NSZE */
	uint32_t lba_size_bytes; /* of the current LBA format */
	uint32_t metadata_bytes; /* of the current LBA format */
	uint32_t format_cdw10; /* Format NVM CDW10 that keeps the current format, SES 0 */
	uint16_t endgid; /* the endurance group it belongs to (FDP is configured per group) */
};

/* What the probe found of FDP (nvme_fdp.h): the namespace's endurance group, the configuration
 * in force, and the handles a placed write may name (0: none, the capability says why). */
struct dq_nvme_fdp_probe {
	uint16_t endgid;
	uint32_t handles;
	struct dq_nvme_fdp_config config;
};

/* Sanitize Status log (81h) SSTAT bits 2:0. */
enum dq_nvme_sanitize_state {
	DQ_NVME_SANITIZE_NEVER = 0,
	DQ_NVME_SANITIZE_DONE = 1,
	DQ_NVME_SANITIZE_IN_PROGRESS = 2,
	DQ_NVME_SANITIZE_FAILED = 3,
	DQ_NVME_SANITIZE_DONE_NO_DEALLOCATE = 4,
};

/* One Dataset Management range (the command's 16-byte entry, host order). */
struct dq_nvme_dsm_range {
	uint32_t attributes;
	uint32_t length_blocks;
	uint64_t start_lba;
};

/* Dataset Management takes up to 256 ranges per command. */
#define DQ_NVME_DSM_MAX_RANGES 256u
/* Blocks per range the runner uses: a power of two, so ranges stay aligned. */
#define DQ_NVME_DSM_RANGE_BLOCKS (1u << 31)

/* Parse an Identify Controller data structure (4096 bytes). */
void dq_nvme_controller_parse(const uint8_t *data, struct dq_nvme_controller *controller);

/* Parse an Identify Namespace data structure (4096 bytes). */
void dq_nvme_namespace_parse(const uint8_t *data, struct dq_nvme_namespace *ns);

/* Fill a snapshot from a SMART/Health log (02h, 512 bytes): source nvme-log-02h, available. */
void dq_nvme_smart_parse(const uint8_t *log, struct dq_smart_snapshot *smart);

/* Add the controller's declared temperature thresholds (WCTEMP, CCTEMP) to a parsed snapshot. */
void dq_nvme_smart_add_limits(const struct dq_nvme_controller *controller,
			      struct dq_smart_snapshot *smart);

/*
 * Decode an OCP SMART / Health Information Extended log (C0h, 512 bytes) into smart->ocp: every
 * member its log page version (bytes 494..495) defines, when the page's GUID (bytes 496..511) is
 * the OCP one. Returns true then (smart->has_ocp set); false when the page carries another GUID:
 * nothing is decoded and smart->ocp_reason names the GUID found.
 */
bool dq_nvme_ocp_parse(const uint8_t *log, struct dq_smart_snapshot *smart);

/*
 * Decode an OCP Latency Monitor log (C3h, 512 bytes) into smart->latency_monitor when its GUID is
 * the OCP one; false with smart->latency_monitor_reason otherwise, as dq_nvme_ocp_parse.
 */
bool dq_nvme_latency_monitor_parse(const uint8_t *log, struct dq_smart_snapshot *smart);

/* Record that Get Log Page of log_id (C0h or C3h) failed, err saying how (the NVMe status). */
void dq_nvme_ocp_unavailable(struct dq_smart_snapshot *smart, uint8_t log_id, const char *err);

/* Get Log Page of log_id (controller scope) into buf: 0, or -errno with the reason in err. */
typedef int (*dq_nvme_get_log_fn)(void *ctx, uint8_t log_id, void *buf, uint32_t len, char *err,
				  size_t err_len);

/* Read and decode C0h and C3h through get_log (log: a DMA-able 512-byte buffer) into smart:
 * each decoded, or its reason (the drive's answer, or the GUID it carries) recorded. */
void dq_nvme_read_ocp_logs(dq_nvme_get_log_fn get_log, void *ctx, uint8_t *log,
			   struct dq_smart_snapshot *smart);

/* Whether a latency monitor configuration can be sent: thresholds in 5 ms steps from 5 to
 * 1280 ms, strictly increasing. Returns 0 or -EINVAL with the reason in err. */
int dq_nvme_latency_monitor_check(const struct dq_latency_monitor_config *config, char *err,
				  size_t err_len);

/* The Set Features C5h (Latency Monitor) data: the thresholds, every bucket and direction
 * measured, the longest active bucket timer, the monitor enabled. data holds
 * DQ_NVME_LATENCY_MONITOR_FEATURE_BYTES. */
void dq_nvme_latency_monitor_feature(const struct dq_latency_monitor_config *config, uint8_t *data);

/* The purge methods (bits of enum dq_purge_method) the controller offers: Format NVM (OACS bit 1;
 * crypto erase when FNA bit 2) and Sanitize (SANICAP bits 0..2). Deallocate is the caller's
 * (ONCS bit 2 on NVMe, BLKDISCARD on kernel devices). */
uint32_t dq_nvme_purge_methods(const struct dq_nvme_controller *controller);

/*
 * What Identify Controller says the controller can do: format (SES 0/1/2; the Format and Sanitize
 * purges only when single_namespace, since they erase the whole controller's media), sanitize,
 * temperature thresholds, a volatile write cache, FDP (supported). The caller adds what needs more
 * commands: SMART, C0h, deallocate, the cache's and FDP's settings.
 */
void dq_nvme_capabilities_from_controller(const struct dq_nvme_controller *controller,
					  bool single_namespace, struct dq_capabilities *caps);

/* Every capability an admin command would have shown (all but deallocate) missing for why. */
void dq_nvme_capabilities_unreachable(struct dq_capabilities *caps, enum dq_capability_missing why,
				      const char *detail);

/* The reason a failed admin command gives for what it would have shown: EPERM/EACCES is the
 * runner's missing CAP_SYS_ADMIN; an NVMe error status the device's; the rest a failed probe. */
enum dq_capability_missing dq_nvme_missing_for(int rc);

/*
 * Why the controller cannot purge with method, in err (for refusals), or 0 when it can.
 * Returns -EOPNOTSUPP or -EINVAL (not an NVMe admin purge).
 */
int dq_nvme_purge_check(const struct dq_nvme_controller *controller, enum dq_purge_method method,
			char *err, size_t err_len);

/* Format NVM CDW10 for method (SES 1 user data erase, 2 crypto erase) keeping ns's format.
 * Returns 0 or -EINVAL (not a format method). */
int dq_nvme_format_cdw10(const struct dq_nvme_namespace *ns, enum dq_purge_method method,
			 uint32_t *cdw10);

/* Sanitize CDW10 for method: SANACT 2 block, 3 overwrite (one pass, pattern 0 in CDW11), 4 crypto,
 * with AUSE so a failed sanitize can be exited. Returns 0 or -EINVAL. */
int dq_nvme_sanitize_cdw10(enum dq_purge_method method, uint32_t *cdw10);

/* Decode a Sanitize Status log (81h): the state, and SPROG as parts per 65536 when progress is
 * not NULL. */
enum dq_nvme_sanitize_state dq_nvme_sanitize_status(const uint8_t *log, uint32_t *progress);

/*
 * What a sanitize status means for a waiter: 1 still running, 0 finished, -EIO failed (err says),
 * -EPROTO never started (no sanitize recorded after the command was accepted).
 */
int dq_nvme_sanitize_outcome(enum dq_nvme_sanitize_state state, char *err, size_t err_len);

/*
 * Split [start_lba, start_lba + blocks) into deallocate ranges of at most DQ_NVME_DSM_RANGE_BLOCKS,
 * up to max of them. Returns how many were filled; *covered_blocks receives how many blocks they
 * cover (less than blocks when max ran out: call again from there).
 */
uint32_t dq_nvme_dsm_ranges(uint64_t start_lba, uint64_t blocks, struct dq_nvme_dsm_range *ranges,
			    uint32_t max, uint64_t *covered_blocks);

/* The admin commands on an open namespace fd. Each returns 0, -errno, or -EIO with the NVMe status
 * in err. */
int dq_nvme_identify_controller(int fd, struct dq_nvme_controller *controller, char *err,
				size_t err_len);
/* Get Features fid (current value) into *result (completion dword 0). */
int dq_nvme_get_feature(int fd, uint8_t fid, uint32_t nsid, uint32_t cdw11, uint32_t *result,
			char *err, size_t err_len);
/* Identify Namespace (CNS 00h) of nsid. */
int dq_nvme_identify_namespace(int fd, uint32_t nsid, struct dq_nvme_namespace *ns, char *err,
			       size_t err_len);
/*
 * Probe through the passthrough ioctls what Identify alone cannot show: SMART (02h), the OCP C0h
 * log, the volatile write cache's setting (Get Features 06h) and FDP's (Get Features 1Dh of
 * nsid's endurance group, then its FDP Configurations log into *fdp when fdp is not NULL: the
 * handles a placed write may name, 0 when FDP is off). controller is NULL when Identify Controller failed (identify_rc, err
 * say how): then every admin capability is missing for that reason.
 */
void dq_nvme_probe_capabilities(int fd, uint32_t nsid, const struct dq_nvme_controller *controller,
				int identify_rc, const char *identify_err, bool single_namespace,
				struct dq_capabilities *caps, struct dq_nvme_fdp_probe *fdp);
int dq_nvme_get_log(int fd, uint8_t log_id, uint32_t nsid, void *buf, uint32_t len, char *err,
		    size_t err_len);
/* Get Log Page with a log specific parameter (LSP, 7 bits) and identifier (LSI: the endurance
 * group of the FDP logs). */
int dq_nvme_get_log_scoped(int fd, uint8_t log_id, uint8_t lsp, uint16_t lsi, uint32_t nsid,
			   void *buf, uint32_t len, char *err, size_t err_len);
/* Set Features C5h (Latency Monitor) with config, for the current power cycle only (SV 0). */
int dq_nvme_set_latency_monitor(int fd, const struct dq_latency_monitor_config *config, char *err,
				size_t err_len);
/* Format NVM (SES 1 user data erase or 2 crypto erase) of namespace nsid, keeping its LBA format,
 * or Sanitize (block, crypto or overwrite) and wait for it to finish. */
int dq_nvme_purge(int fd, uint32_t nsid, enum dq_purge_method method, char *err, size_t err_len);

#endif /* DRIVEQUAL_NVME_ADMIN_H */
