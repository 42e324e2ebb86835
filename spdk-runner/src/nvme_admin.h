/*
 * NVMe admin commands through the kernel's passthrough ioctl (NVME_IOCTL_ADMIN_CMD) for kernel
 * NVMe namespaces: Identify, the SMART/Health log (02h), the OCP extended SMART log (C0h, only when
 * its GUID checks out), Format NVM and Sanitize. The parsers are separate so tests can feed them
 * log pages byte by byte.
 */
#ifndef DRIVEQUAL_NVME_ADMIN_H
#define DRIVEQUAL_NVME_ADMIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drivequal/msg_common.h"

#define DQ_NVME_LOG_SMART 0x02
#define DQ_NVME_LOG_SANITIZE_STATUS 0x81
#define DQ_NVME_LOG_OCP_SMART_EXTENDED 0xc0
#define DQ_NVME_LOG_PAGE_BYTES 512
#define DQ_NVME_IDENTIFY_BYTES 4096

/* What the runner needs from Identify Controller (CNS 01h) and Identify Namespace (CNS 00h). */
struct dq_nvme_controller {
	char serial[21]; /* trailing spaces removed */
	char model[41];
	char firmware[9];
	uint16_t oacs; /* optional admin commands: bit 1 Format NVM */
	uint32_t sanicap; /* bit 0 crypto erase, 1 block erase, 2 overwrite */
	uint8_t fna; /* format attributes: bit 0 all namespaces, bit 2 crypto erase supported */
	uint8_t lpa; /* log page attributes */
};

/* Parse an Identify Controller data structure (4096 bytes). */
void dq_nvme_controller_parse(const uint8_t *data, struct dq_nvme_controller *controller);

/* Fill a snapshot from a SMART/Health log (02h, 512 bytes): source nvme-log-02h, available. */
void dq_nvme_smart_parse(const uint8_t *log, struct dq_smart_snapshot *smart);

/*
 * Add the OCP C0h counters to smart when the page's GUID (bytes 496..511) is the OCP one.
 * Returns true when it was (smart->has_ocp set), false when the page is something else.
 */
bool dq_nvme_ocp_parse(const uint8_t *log, struct dq_smart_snapshot *smart);

/* The purge methods (bits of enum dq_purge_method) the controller offers. */
uint32_t dq_nvme_purge_methods(const struct dq_nvme_controller *controller);

/* The admin commands on an open namespace fd. Each returns 0, -errno, or -EIO with the NVMe status
 * in err. */
int dq_nvme_identify_controller(int fd, struct dq_nvme_controller *controller, char *err,
				size_t err_len);
int dq_nvme_get_log(int fd, uint8_t log_id, uint32_t nsid, void *buf, uint32_t len, char *err,
		    size_t err_len);
/* Format NVM (SES 1 user data erase or 2 crypto erase) of namespace nsid, keeping its LBA format,
 * or Sanitize (block, crypto or overwrite) and wait for it to finish. */
int dq_nvme_purge(int fd, uint32_t nsid, enum dq_purge_method method, char *err, size_t err_len);

#endif /* DRIVEQUAL_NVME_ADMIN_H */
