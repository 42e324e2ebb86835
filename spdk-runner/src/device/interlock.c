/*
 * The checks before the runner destroys data: allowlist, serial, and for kernel devices whether
 * anything uses the device (mounts, holders, swap) or it carries a partition table or a
 * filesystem/LVM/RAID/swap signature (libblkid, as wipefs and mkfs use it).
 */
#include <dirent.h>
#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <blkid/blkid.h>

#include "contract/strutil.h"
#include "device/interlock.h"

#define MAX_DEVNUMS 256

/* The device and its partitions, as major:minor. */
struct devnums {
	size_t count;
	dev_t devs[MAX_DEVNUMS];
	char names[MAX_DEVNUMS][64]; /* kernel names, for holders and messages */
};

static int verdict_set(struct dq_interlock_verdict *verdict, enum dq_refuse_reason reason,
		       const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int verdict_set(struct dq_interlock_verdict *verdict, enum dq_refuse_reason reason,
		       const char *fmt, ...)
{
	va_list args;

	verdict->reason = reason;
	va_start(args, fmt);
	vsnprintf(verdict->message, sizeof(verdict->message), fmt, args);
	va_end(args);
	return -EPERM;
}

static int read_line(const char *path, char *out, size_t out_len)
{
	FILE *file = fopen(path, "r");

	if (file == NULL) {
		return -errno;
	}
	if (fgets(out, (int)out_len, file) == NULL) {
		fclose(file);
		return -EIO;
	}
	fclose(file);
	out[strcspn(out, "\n")] = '\0';
	return 0;
}

/* /sys/dev/block/M:m is the device; its subdirectories with a "partition" file are partitions. */
static int collect_devnums(const struct dq_device_target *target, struct devnums *nums)
{
	char sys[128], path[512], line[64];
	unsigned major_num, minor_num;
	struct dirent *entry;
	DIR *dir;

	nums->count = 1;
	nums->devs[0] = makedev(target->dev_major, target->dev_minor);
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", target->dev_major, target->dev_minor);
	snprintf(nums->names[0], sizeof(nums->names[0]), "%u:%u", target->dev_major,
		 target->dev_minor);
	dir = opendir(sys);
	if (dir == NULL) {
		return -errno;
	}
	while ((entry = readdir(dir)) != NULL && nums->count < MAX_DEVNUMS) {
		if (entry->d_name[0] == '.') {
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s/partition", sys, entry->d_name);
		if (access(path, F_OK) != 0) {
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s/dev", sys, entry->d_name);
		if (read_line(path, line, sizeof(line)) == 0 &&
		    sscanf(line, "%u:%u", &major_num, &minor_num) == 2) {
			nums->devs[nums->count] = makedev(major_num, minor_num);
			dq_strlcpy(nums->names[nums->count], entry->d_name, sizeof(nums->names[0]));
			nums->count++;
		}
	}
	closedir(dir);
	return 0;
}

static bool devnums_has(const struct devnums *nums, dev_t dev, size_t *which)
{
	size_t i;

	for (i = 0; i < nums->count; i++) {
		if (nums->devs[i] == dev) {
			*which = i;
			return true;
		}
	}
	return false;
}

static const char *what_of(const struct devnums *nums, size_t which)
{
	return which == 0 ? "the device" : nums->names[which];
}

/* The major:minor of a path that is a block device. */
static bool block_dev_of(const char *path, dev_t *dev)
{
	struct stat st;

	if (path[0] != '/' || stat(path, &st) != 0 || !S_ISBLK(st.st_mode)) {
		return false;
	}
	*dev = st.st_rdev;
	return true;
}

/* Mounted (mountinfo's major:minor or its source), held (holders/) or swap. */
static int check_in_use(const struct dq_device_target *target, const struct devnums *nums,
			struct dq_interlock_verdict *verdict)
{
	char line[4096], mount_point[2048], source[2048], path[512], swap[2048];
	const char *name = target->device.transport_address;
	unsigned major_num, minor_num;
	struct dirent *entry;
	size_t i, which;
	char *separator;
	FILE *file;
	DIR *dir;
	dev_t dev;

	file = fopen("/proc/self/mountinfo", "r");
	if (file == NULL) {
		return -errno;
	}
	while (fgets(line, sizeof(line), file) != NULL) {
		if (sscanf(line, "%*u %*u %u:%u %*s %2047s", &major_num, &minor_num, mount_point) !=
		    3) {
			continue;
		}
		separator = strstr(line, " - ");
		source[0] = '\0';
		if (separator != NULL) {
			sscanf(separator + 3, "%*s %2047s", source);
		}
		if (devnums_has(nums, makedev(major_num, minor_num), &which) ||
		    (block_dev_of(source, &dev) && devnums_has(nums, dev, &which))) {
			fclose(file);
			return verdict_set(verdict, DQ_REFUSE_MOUNTED,
					   "%s: %s is mounted at %s; unmount it, or allowlist it "
					   "with \"allowMounted\": true",
					   name, what_of(nums, which), mount_point);
		}
	}
	fclose(file);
	for (i = 0; i < nums->count; i++) {
		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/holders", major(nums->devs[i]),
			 minor(nums->devs[i]));
		dir = opendir(path);
		if (dir == NULL) {
			continue;
		}
		while ((entry = readdir(dir)) != NULL) {
			if (entry->d_name[0] != '.') {
				closedir(dir);
				return verdict_set(verdict, DQ_REFUSE_MOUNTED,
						   "%s: %s is held by %s (device-mapper, LVM or "
						   "RAID uses it)",
						   name, what_of(nums, i), entry->d_name);
			}
		}
		closedir(dir);
	}
	file = fopen("/proc/swaps", "r");
	if (file != NULL) {
		while (fgets(line, sizeof(line), file) != NULL) {
			if (sscanf(line, "%2047s", swap) == 1 && block_dev_of(swap, &dev) &&
			    devnums_has(nums, dev, &which)) {
				fclose(file);
				return verdict_set(verdict, DQ_REFUSE_MOUNTED,
						   "%s: %s is active swap (%s)", name,
						   what_of(nums, which), swap);
			}
		}
		fclose(file);
	}
	return 0;
}

/*
 * libblkid's partition and superblock chains over the probe path. Sets *pttype and *type (with
 * *usage) to what it found, empty when nothing.
 */
static int blkid_scan(const char *path, char *pttype, char *type, char *usage, size_t len)
{
	const char *value;
	blkid_probe probe;
	int rc;

	pttype[0] = type[0] = usage[0] = '\0';
	probe = blkid_new_probe_from_filename(path);
	if (probe == NULL) {
		return errno != 0 ? -errno : -EIO;
	}
	blkid_probe_enable_partitions(probe, 1);
	blkid_probe_set_partitions_flags(probe, BLKID_PARTS_MAGIC);
	blkid_probe_enable_superblocks(probe, 1);
	blkid_probe_set_superblocks_flags(probe, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE |
							 BLKID_SUBLKS_MAGIC);
	rc = blkid_do_fullprobe(probe);
	if (rc < 0) {
		blkid_free_probe(probe);
		return -EIO;
	}
	if (rc == 0) {
		if (blkid_probe_lookup_value(probe, "PTTYPE", &value, NULL) == 0) {
			dq_strlcpy(pttype, value, len);
		}
		if (blkid_probe_lookup_value(probe, "TYPE", &value, NULL) == 0) {
			dq_strlcpy(type, value, len);
		}
		if (blkid_probe_lookup_value(probe, "USAGE", &value, NULL) == 0) {
			dq_strlcpy(usage, value, len);
		}
	}
	blkid_free_probe(probe);
	return 0;
}

int dq_interlock_probe_device(const struct dq_device_target *target,
			      const struct dq_allowlist_entry *entry,
			      struct dq_interlock_verdict *verdict)
{
	const char *name = target->device.transport_address;
	char pttype[64], type[64], usage[64];
	struct devnums *nums = NULL;
	int rc = 0;

	verdict->reason = DQ_REFUSE_NONE;
	verdict->message[0] = '\0';
	if (target->kernel_block_device) {
		nums = calloc(1, sizeof(*nums));
		if (nums == NULL) {
			return -ENOMEM;
		}
		rc = collect_devnums(target, nums);
		if (rc != 0) {
			verdict_set(verdict, DQ_REFUSE_DEVICE_NOT_FOUND,
				    "%s: cannot read its sysfs entry: %s", name, strerror(-rc));
			goto out;
		}
		if (entry == NULL || !entry->allow_mounted) {
			rc = check_in_use(target, nums, verdict);
			if (rc != 0) {
				goto out;
			}
		}
		if ((entry == NULL || !entry->allow_partitioned) && nums->count > 1) {
			rc = verdict_set(verdict, DQ_REFUSE_PARTITION_TABLE,
					 "%s has partitions (%s, ...); wipe the partition table, "
					 "or allowlist it with \"allowPartitioned\": true",
					 name, nums->names[1]);
			goto out;
		}
	}
	if (target->probe_path[0] == '\0') {
		goto out;
	}
	rc = blkid_scan(target->probe_path, pttype, type, usage, sizeof(pttype));
	if (rc != 0) {
		verdict_set(verdict, DQ_REFUSE_DEVICE_NOT_FOUND,
			    "%s: cannot probe it for partition tables and signatures: %s", name,
			    strerror(-rc));
		goto out;
	}
	if (pttype[0] != '\0' && (entry == NULL || !entry->allow_partitioned)) {
		rc = verdict_set(verdict, DQ_REFUSE_PARTITION_TABLE,
				 "%s carries a %s partition table; wipe it (wipefs -a), or "
				 "allowlist it with \"allowPartitioned\": true",
				 name, pttype);
	} else if (type[0] != '\0' && (entry == NULL || !entry->allow_signatures)) {
		rc = verdict_set(verdict, DQ_REFUSE_SIGNATURE,
				 "%s carries a %s signature (%s); wipe it (wipefs -a), or "
				 "allowlist it with \"allowSignatures\": true",
				 name, type, usage[0] != '\0' ? usage : "unknown usage");
	}
out:
	free(nums);
	return rc == -EPERM ? 0 : rc;
}

int dq_interlock_check(const struct dq_allowlist *list, const struct dq_device_target *target,
		       const char *expected_serial, bool require_serial,
		       struct dq_interlock_verdict *verdict)
{
	const struct dq_device *device = &target->device;
	int rc;

	verdict->reason = DQ_REFUSE_NONE;
	verdict->message[0] = '\0';
	verdict->entry = dq_allowlist_match(list, device);
	if (verdict->entry == NULL) {
		return verdict_set(
			verdict, DQ_REFUSE_NOT_ALLOWLISTED,
			"%s (serial '%s') is not in the runner's allowlist: destructive "
			"phases are refused; add {\"serial\": \"%s\"} to the allowlist to "
			"permit them",
			device->transport_address, device->serial, device->serial);
	}
	if (require_serial && (expected_serial == NULL || expected_serial[0] == '\0')) {
		return verdict_set(verdict, DQ_REFUSE_SERIAL_MISMATCH,
				   "%s: the job names no device serial, and destructive work needs "
				   "one",
				   device->transport_address);
	}
	if (expected_serial != NULL && strcmp(expected_serial, device->serial) != 0) {
		return verdict_set(verdict, DQ_REFUSE_SERIAL_MISMATCH,
				   "%s has serial '%s', the job names '%s'",
				   device->transport_address, device->serial, expected_serial);
	}
	rc = dq_interlock_probe_device(target, verdict->entry, verdict);
	if (rc != 0) {
		if (verdict->reason == DQ_REFUSE_NONE) {
			verdict_set(verdict, DQ_REFUSE_DEVICE_NOT_FOUND,
				    "%s: checking the device failed: %s", device->transport_address,
				    strerror(-rc));
		}
		return rc;
	}
	return verdict->reason == DQ_REFUSE_NONE ? 0 : -EPERM;
}

enum dq_interlock dq_interlock_from_refusal(enum dq_refuse_reason reason)
{
	switch (reason) {
	case DQ_REFUSE_NONE:
		return DQ_INTERLOCK_NONE;
	case DQ_REFUSE_MOUNTED:
		return DQ_INTERLOCK_MOUNTED;
	case DQ_REFUSE_PARTITION_TABLE:
		return DQ_INTERLOCK_PARTITION_TABLE;
	case DQ_REFUSE_SIGNATURE:
		return DQ_INTERLOCK_SIGNATURE;
	default:
		return DQ_INTERLOCK_NOT_ALLOWLISTED;
	}
}
