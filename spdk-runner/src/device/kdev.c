/*
 * Who is behind a kernel path: NVMe namespace, loop device, other block device or regular file,
 * with capacity, LBA size, purge methods and a serial whose origin is documented in kdev.h.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <linux/fs.h>
#include <linux/loop.h>
#include <linux/nvme_ioctl.h>

#include "contract/strutil.h"
#include "device/kdev.h"

static int read_sysfs(const char *dir, const char *name, char *out, size_t out_len)
{
	char path[PATH_MAX];
	size_t len;
	FILE *file;
	int n;

	/* A cut path could name another attribute: refuse instead. */
	n = snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (n < 0 || (size_t)n >= sizeof(path)) {
		return -ENAMETOOLONG;
	}
	file = fopen(path, "r");
	if (file == NULL) {
		return -errno;
	}
	if (fgets(out, (int)out_len, file) == NULL) {
		fclose(file);
		out[0] = '\0';
		return -EIO;
	}
	fclose(file);
	len = strcspn(out, "\n");
	out[len] = '\0';
	return 0;
}

/* Printable ASCII without leading/trailing blanks (the contract's serial pattern), bounded. */
static void clean_text(char *out, size_t out_len, const char *in)
{
	size_t start = 0, len, i;

	while (in[start] == ' ' || in[start] == '\t') {
		start++;
	}
	len = strlen(in + start);
	while (len > 0 && (in[start + len - 1] == ' ' || in[start + len - 1] == '\t')) {
		len--;
	}
	if (len >= out_len) {
		len = out_len - 1;
	}
	for (i = 0; i < len; i++) {
		char c = in[start + i];

		out[i] = c >= 0x20 && c <= 0x7e ? c : '?';
	}
	out[len] = '\0';
	while (len > 0 && out[len - 1] == ' ') {
		out[--len] = '\0';
	}
}

static bool name_is(const char *name, const char *format_check)
{
	unsigned a, b;
	char tail;

	if (strcmp(format_check, "nvme") == 0) {
		return sscanf(name, "nvme%un%u%c", &a, &b, &tail) == 2;
	}
	return sscanf(name, "loop%u%c", &a, &tail) == 1;
}

/* What only an NVMe controller has, missing on something that is not one (what says it). */
static void not_nvme(struct dq_device_target *target, const char *what)
{
	char detail[DQ_CAPABILITY_DETAIL_MAX_CHARS + 1];

	snprintf(detail, sizeof(detail), "%s: no NVMe controller behind it", what);
	dq_capability_lack_range(&target->capabilities, DQ_CAPABILITY_FORMAT,
				 DQ_CAPABILITY_SANITIZE_OVERWRITE, DQ_CAPABILITY_MISSING_DEVICE,
				 detail);
	dq_capability_lack_range(&target->capabilities, DQ_CAPABILITY_SMART, DQ_CAPABILITY_FDP,
				 DQ_CAPABILITY_MISSING_DEVICE, detail);
}

/*
 * A block device's write cache as the kernel drives it (queue/write_cache: "write back" flushes a
 * volatile cache, "write through" has none): for what has no NVMe controller to ask. A loop
 * device is write back while it writes through the host's page cache.
 */
static void kernel_write_cache(const char *sys, struct dq_device_target *target)
{
	char value[64];

	if (read_sysfs(sys, "queue/write_cache", value, sizeof(value)) != 0) {
		return;
	}
	target->capabilities.items[DQ_CAPABILITY_VOLATILE_WRITE_CACHE].has_enabled = true;
	target->capabilities.items[DQ_CAPABILITY_VOLATILE_WRITE_CACHE].enabled =
		strcmp(value, "write back") == 0;
	dq_capability_have(&target->capabilities, DQ_CAPABILITY_VOLATILE_WRITE_CACHE,
			   "the kernel's queue/write_cache: %.40s", value);
}

static void identify_file(const char *real, const struct stat *st, bool direct,
			  struct dq_device_target *target)
{
	struct dq_device *device = &target->device;
	/* O_DIRECT on a file needs its filesystem's alignment: 4 KiB satisfies every common one
	 * (ext4, xfs, btrfs with 4 KiB blocks); buffered IO needs only sectors. */
	uint32_t lba = direct ? 4096 : 512;

	device->lba_size_bytes = lba;
	device->capacity_bytes = (uint64_t)st->st_size - (uint64_t)st->st_size % lba;
	snprintf(device->serial, sizeof(device->serial), "FILE-%u:%u-%llu", major(st->st_dev),
		 minor(st->st_dev), (unsigned long long)st->st_ino);
	snprintf(device->model, sizeof(device->model), "regular file");
	snprintf(device->firmware, sizeof(device->firmware), "file");
	target->serial_synthetic = true;
	snprintf(target->serial_note, sizeof(target->serial_note),
		 "derived from the file's device and inode (no drive reports it)");
	dq_strlcpy(target->probe_path, real, sizeof(target->probe_path));
	target->purge_methods = 1u << DQ_PURGE_METHOD_DEALLOCATE;
	target->buffer_align = lba < 4096 ? 4096 : lba;
	not_nvme(target, "a regular file");
	dq_capability_have(&target->capabilities, DQ_CAPABILITY_DEALLOCATE,
			   "hole punching (fallocate PUNCH_HOLE)");
}

static int identify_loop(int fd, struct dq_device_target *target, char *err, size_t err_len)
{
	struct dq_device *device = &target->device;
	struct loop_info64 info;
	char backing[LO_NAME_SIZE + 1];

	if (ioctl(fd, LOOP_GET_STATUS64, &info) != 0) {
		int rc = -errno;

		snprintf(err, err_len, "%s: a loop device with no backing file (%s)",
			 device->transport_address, strerror(-rc));
		return rc == -ENXIO ? -ENXIO : rc;
	}
	memcpy(backing, info.lo_file_name, LO_NAME_SIZE);
	backing[LO_NAME_SIZE] = '\0';
	snprintf(device->serial, sizeof(device->serial), "LOOP-%u:%u-%llu",
		 major((dev_t)info.lo_device), minor((dev_t)info.lo_device),
		 (unsigned long long)info.lo_inode);
	snprintf(device->model, sizeof(device->model), "Linux loop device");
	snprintf(device->firmware, sizeof(device->firmware), "loop");
	target->serial_synthetic = true;
	snprintf(target->serial_note, sizeof(target->serial_note),
		 "derived from the backing file's device and inode (%.60s)", backing);
	return 0;
}

static void identify_nvme(int fd, const char *sys, struct dq_device_target *target,
			  struct dq_kdev *kdev)
{
	struct dq_device *device = &target->device;
	char value[128];
	int nsid;

	nsid = ioctl(fd, NVME_IOCTL_ID);
	kdev->nsid = nsid > 0 ? (uint32_t)nsid : 0;
	kdev->identify_rc = dq_nvme_identify_controller(fd, &kdev->controller, kdev->identify_error,
							sizeof(kdev->identify_error));
	if (kdev->identify_rc == 0) {
		kdev->identified = true;
		clean_text(device->serial, sizeof(device->serial), kdev->controller.serial);
		clean_text(device->model, sizeof(device->model), kdev->controller.model);
		clean_text(device->firmware, sizeof(device->firmware), kdev->controller.firmware);
		return;
	}
	/* The kernel read Identify when it probed the controller; sysfs repeats it. */
	if (read_sysfs(sys, "device/serial", value, sizeof(value)) == 0) {
		clean_text(device->serial, sizeof(device->serial), value);
	}
	if (read_sysfs(sys, "device/model", value, sizeof(value)) == 0) {
		clean_text(device->model, sizeof(device->model), value);
	}
	if (read_sysfs(sys, "device/firmware_rev", value, sizeof(value)) == 0) {
		clean_text(device->firmware, sizeof(device->firmware), value);
	}
}

/*
 * A namespace as sysfs lists it under its controller: nvme0n1, or nvme0c0n1 (the controller's
 * path to the namespace when the kernel's native NVMe multipath is on, as in Debian's kernels).
 */
static bool is_namespace_entry(const char *name)
{
	unsigned a, b, c;
	char tail;

	return sscanf(name, "nvme%un%u%c", &a, &b, &tail) == 2 ||
	       sscanf(name, "nvme%uc%un%u%c", &a, &b, &c, &tail) == 3;
}

static bool is_controller_entry(const char *name)
{
	unsigned a;
	char tail;

	return sscanf(name, "nvme%u%c", &a, &tail) == 1;
}

/* How many entries of dir match; the last match's name goes to found (may be NULL). */
static int count_entries(const char *dir_path, bool (*match)(const char *name), char *found,
			 size_t found_len)
{
	struct dirent *entry;
	int count = 0;
	DIR *dir = opendir(dir_path);

	if (dir == NULL) {
		return -1;
	}
	while ((entry = readdir(dir)) != NULL) {
		if (match(entry->d_name)) {
			count++;
			if (found != NULL) {
				dq_strlcpy(found, entry->d_name, found_len);
			}
		}
	}
	closedir(dir);
	return count;
}

/*
 * Format and sanitize act on the whole controller's media: only offered when the controller has
 * one namespace. A namespace's sysfs "device" is its controller, or, for a multipath head, its
 * subsystem, which must then hold a single controller.
 */
static bool nvme_single_namespace(const char *sys)
{
	char link[PATH_MAX], device[PATH_MAX], controller[PATH_MAX], name[NAME_MAX + 1];
	const char *base;

	snprintf(link, sizeof(link), "%s/device", sys);
	if (realpath(link, device) == NULL) {
		return false;
	}
	base = strrchr(device, '/') != NULL ? strrchr(device, '/') + 1 : device;
	if (strncmp(base, "nvme-subsys", strlen("nvme-subsys")) == 0) {
		if (count_entries(device, is_controller_entry, name, sizeof(name)) != 1) {
			return false;
		}
		snprintf(controller, sizeof(controller), "%.3800s/%s", device, name);
	} else {
		dq_strlcpy(controller, device, sizeof(controller));
	}
	return count_entries(controller, is_namespace_entry, NULL, 0) == 1;
}

static void identify_other(const char *sys, struct dq_device_target *target)
{
	struct dq_device *device = &target->device;
	char value[256];

	if (read_sysfs(sys, "device/serial", value, sizeof(value)) == 0 ||
	    read_sysfs(sys, "serial", value, sizeof(value)) == 0 ||
	    read_sysfs(sys, "device/wwid", value, sizeof(value)) == 0) {
		clean_text(device->serial, sizeof(device->serial), value);
	}
	if (read_sysfs(sys, "device/model", value, sizeof(value)) == 0) {
		clean_text(device->model, sizeof(device->model), value);
	} else {
		snprintf(device->model, sizeof(device->model), "block device");
	}
	if (read_sysfs(sys, "device/rev", value, sizeof(value)) == 0) {
		clean_text(device->firmware, sizeof(device->firmware), value);
	}
}

static int identify_block(int fd, const struct stat *st, struct dq_device_target *target,
			  struct dq_kdev *kdev, char *err, size_t err_len)
{
	struct dq_device *device = &target->device;
	char sys[128], link[PATH_MAX], value[64];
	uint64_t capacity = 0;
	ssize_t link_len;
	const char *base;
	int lba = 0, rc;

	target->kernel_block_device = true;
	target->dev_major = major(st->st_rdev);
	target->dev_minor = minor(st->st_rdev);
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", target->dev_major, target->dev_minor);
	link_len = readlink(sys, link, sizeof(link) - 1);
	if (link_len <= 0) {
		snprintf(err, err_len, "%s: no sysfs entry %s", device->transport_address, sys);
		return -ENODEV;
	}
	link[link_len] = '\0';
	base = strrchr(link, '/') != NULL ? strrchr(link, '/') + 1 : link;
	dq_strlcpy(kdev->sysname, base, sizeof(kdev->sysname));
	if (read_sysfs(sys, "partition", value, sizeof(value)) == 0) {
		snprintf(err, err_len,
			 "%s is a partition: drivequal qualifies whole devices (use its disk)",
			 device->transport_address);
		return -EINVAL;
	}
	if (ioctl(fd, BLKGETSIZE64, &capacity) != 0 || ioctl(fd, BLKSSZGET, &lba) != 0) {
		rc = -errno;
		snprintf(err, err_len, "%s: reading its size: %s", device->transport_address,
			 strerror(-rc));
		return rc;
	}
	device->lba_size_bytes = (uint32_t)lba;
	device->capacity_bytes = capacity - capacity % (uint64_t)lba;
	target->buffer_align = lba < 4096 ? 4096 : (uint32_t)lba;
	if (read_sysfs(sys, "queue/discard_max_bytes", value, sizeof(value)) == 0 &&
	    strtoull(value, NULL, 10) > 0) {
		target->purge_methods |= 1u << DQ_PURGE_METHOD_DEALLOCATE;
		dq_capability_have(&target->capabilities, DQ_CAPABILITY_DEALLOCATE,
				   "BLKDISCARD (discard_max_bytes %.40s)", value);
	} else {
		dq_capability_lack(&target->capabilities, DQ_CAPABILITY_DEALLOCATE,
				   DQ_CAPABILITY_MISSING_DEVICE,
				   "the kernel reports discard_max_bytes 0: no TRIM / Dataset "
				   "Management");
	}
	if (name_is(kdev->sysname, "loop")) {
		kdev->kind = DQ_KDEV_LOOP;
		not_nvme(target, "a loop device");
		kernel_write_cache(sys, target);
		return identify_loop(fd, target, err, err_len);
	}
	if (name_is(kdev->sysname, "nvme")) {
		bool single;

		kdev->kind = DQ_KDEV_NVME;
		identify_nvme(fd, sys, target, kdev);
		single = kdev->identified && nvme_single_namespace(sys);
		if (single) {
			target->purge_methods |= dq_nvme_purge_methods(&kdev->controller);
		}
		dq_nvme_probe_capabilities(fd, kdev->nsid,
					   kdev->identified ? &kdev->controller : NULL,
					   kdev->identify_rc, kdev->identify_error, single,
					   &target->capabilities, &kdev->fdp);
		target->fdp_handles = kdev->fdp.handles;
	} else {
		kdev->kind = DQ_KDEV_BLOCK;
		identify_other(sys, target);
		dq_capability_lack_range(
			&target->capabilities, DQ_CAPABILITY_FORMAT,
			DQ_CAPABILITY_SANITIZE_OVERWRITE, DQ_CAPABILITY_MISSING_ENGINE,
			"the uring engine formats, sanitizes and reads logs only on "
			"NVMe namespaces (NVMe admin passthrough)");
		dq_capability_lack_range(
			&target->capabilities, DQ_CAPABILITY_SMART, DQ_CAPABILITY_FDP,
			DQ_CAPABILITY_MISSING_ENGINE,
			"the uring engine formats, sanitizes and reads logs only on "
			"NVMe namespaces (NVMe admin passthrough)");
	}
	if (device->serial[0] == '\0') {
		snprintf(device->serial, sizeof(device->serial), "KDEV-%u:%u", target->dev_major,
			 target->dev_minor);
		target->serial_synthetic = true;
		snprintf(target->serial_note, sizeof(target->serial_note),
			 "the device reports no serial: derived from major:minor, which can change "
			 "across reboots");
	}
	return 0;
}

int dq_kdev_identify(int fd, const char *path, const struct stat *st, bool direct,
		     struct dq_device_target *target, struct dq_kdev *kdev, char *err,
		     size_t err_len)
{
	struct dq_device *device = &target->device;
	char real[PATH_MAX];
	int rc;

	memset(kdev, 0, sizeof(*kdev));
	if (realpath(path, real) == NULL) {
		dq_strlcpy(real, path, sizeof(real));
	}
	dq_strlcpy(device->transport_address, real, sizeof(device->transport_address));
	if (S_ISREG(st->st_mode)) {
		kdev->kind = DQ_KDEV_FILE;
		identify_file(real, st, direct, target);
	} else {
		rc = identify_block(fd, st, target, kdev, err, err_len);
		if (rc != 0) {
			return rc;
		}
		dq_strlcpy(target->probe_path, real, sizeof(target->probe_path));
	}
	if (device->capacity_bytes == 0) {
		snprintf(err, err_len,
			 "%s is smaller than one %u-byte block (create a file with e.g. "
			 "fallocate -l 1G FILE)",
			 real, device->lba_size_bytes);
		return -EINVAL;
	}
	return 0;
}

static int compare_names(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

int dq_kdev_discover(void (*found)(const char *target, void *arg), void *arg)
{
	char *names[1024], path[512], value[PATH_MAX];
	size_t count = 0, i;
	struct dirent *entry;
	DIR *dir;

	dir = opendir("/sys/class/block");
	if (dir == NULL) {
		return -errno;
	}
	while ((entry = readdir(dir)) != NULL && count < sizeof(names) / sizeof(names[0])) {
		if (name_is(entry->d_name, "loop")) {
			snprintf(path, sizeof(path), "/sys/class/block/%s/loop", entry->d_name);
			if (read_sysfs(path, "backing_file", value, sizeof(value)) != 0) {
				continue; /* not attached */
			}
		} else if (!name_is(entry->d_name, "nvme")) {
			continue;
		}
		names[count] = strdup(entry->d_name);
		count += names[count] != NULL;
	}
	closedir(dir);
	qsort(names, count, sizeof(names[0]), compare_names);
	for (i = 0; i < count; i++) {
		snprintf(path, sizeof(path), "/dev/%s", names[i]);
		found(path, arg);
		free(names[i]);
	}
	return 0;
}
