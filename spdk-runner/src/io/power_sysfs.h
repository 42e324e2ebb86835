/*
 * What the power drivers that remove a kernel NVMe namespace share (power_pci_slot.c,
 * power_redfish.c, power_ipmi.c, power_pdu.c): sysfs attributes, and the drive's namespace found again after power returns
 * by its controller's serial and namespace id, under whatever name it comes back with.
 */
#ifndef DRIVEQUAL_POWER_SYSFS_H
#define DRIVEQUAL_POWER_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/engine.h"
#include "io/power.h"

#define DQ_POWER_ROOT_MAX 256

/* The namespace a power cycle must find again. */
struct dq_power_namespace {
	char sysfs[DQ_POWER_ROOT_MAX];
	char dev[DQ_POWER_ROOT_MAX];
	char serial[64];
	char nsid[16];
};

/* The first line of a sysfs attribute, trailing blanks removed: 0 or -errno. */
int dq_power_read_attr(const char *path, char *out, size_t out_len);
/* Write value to a sysfs attribute: 0 or -errno (the kernel's answer). */
int dq_power_write_attr(const char *path, const char *value);
void dq_power_sleep_ms(uint32_t ms);

/* The opened engine's namespace (serial, nsid) under paths: 0, or -ENODEV when the target is no
 * NVMe namespace (err names the driver). */
int dq_power_namespace_of(const struct dq_io_engine *engine, const struct dq_pci_slot_paths *paths,
			  const char *driver, struct dq_power_namespace *ns, char *err,
			  size_t err_len);

/* 1 with the device path in target when the namespace is back (nvmeXnY with its serial and nsid,
 * its device node present), else 0. */
int dq_power_namespace_find(const struct dq_power_namespace *ns, char *target, size_t target_len);

/* "user:password" (user_password) or a secret (an SNMP community) from the first line of path, a
 * file only its owner may read: 0, or -ENOENT
 * (missing), -EPERM (readable by others), -EIO, -EINVAL (malformed) with err naming driver and
 * path, never the password. */
int dq_power_read_credentials(const char *driver, const char *path, bool user_password, char *out,
			      size_t out_len, char *err, size_t err_len);

#endif /* DRIVEQUAL_POWER_SYSFS_H */
