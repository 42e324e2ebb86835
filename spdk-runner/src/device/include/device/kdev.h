/*
 * Identity of what a kernel engine opens: NVMe namespaces (Identify), loop devices, other block
 * devices and regular files, each with a serial that is either reported by the device or derived
 * from something stable and documented, never made up.
 */
#ifndef DRIVEQUAL_KDEV_H
#define DRIVEQUAL_KDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "device/nvme_admin.h"
#include "device/target.h"

enum dq_kdev_kind {
	DQ_KDEV_FILE,
	DQ_KDEV_NVME, /* /dev/nvmeXnY */
	DQ_KDEV_LOOP,
	DQ_KDEV_BLOCK, /* any other block device */
};

struct dq_kdev {
	enum dq_kdev_kind kind;
	char sysname[64]; /* nvme0n1, loop3, sda; empty for files */
	uint32_t nsid; /* NVMe namespace id */
	bool identified; /* NVMe: Identify Controller answered */
	struct dq_nvme_controller controller;
	int identify_rc; /* Identify Controller's result: 0, or -errno (-EPERM: no CAP_SYS_ADMIN) */
	char identify_error[256]; /* why not, when it did not */
	struct dq_nvme_fdp_probe fdp; /* NVMe with FDP: its endurance group and configuration */
};

/*
 * Fill target (device identity, capacity, lba size, probe path, purge methods, and the capabilities
 * probed with the privileges this process has) for the open fd of
 * path, whose stat is st. Serials:
 *   NVMe   the controller's serial from Identify (sysfs when the ioctl is refused)
 *   loop   LOOP-<major>:<minor>-<inode> of the backing file (LOOP_GET_STATUS64): stable while the
 *          file exists, whichever /dev/loopN it is attached to
 *   file   FILE-<major>:<minor>-<inode> of the file itself
 *   other  the device's sysfs serial, else KDEV-<major>:<minor> (not stable across reboots)
 * Returns 0, or -errno with the reason in err (-EINVAL for a partition: whole devices only).
 */
int dq_kdev_identify(int fd, const char *path, const struct stat *st, bool direct,
		     struct dq_device_target *target, struct dq_kdev *kdev, char *err,
		     size_t err_len);

/* Every NVMe namespace and attached loop device as /dev/<name>. Returns 0 or -errno. */
int dq_kdev_discover(void (*found)(const char *target, void *arg), void *arg);

#endif /* DRIVEQUAL_KDEV_H */
