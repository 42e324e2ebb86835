/*
 * Sysfs attributes and the drive's namespace found again after a power cycle (power_sysfs.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "contract/strutil.h"
#include "power_sysfs.h"

#define DIR_MAX 512

/* The first line of a sysfs attribute, trailing blanks removed: 0 or -errno. */
int dq_power_read_attr(const char *path, char *out, size_t out_len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (f == NULL) {
		return -errno;
	}
	if (fgets(out, (int)out_len, f) == NULL) {
		out[0] = '\0';
	}
	fclose(f);
	n = strlen(out);
	while (n > 0 && (out[n - 1] == '\n' || out[n - 1] == ' ' || out[n - 1] == '\t')) {
		out[--n] = '\0';
	}
	return 0;
}

int dq_power_write_attr(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int rc = 0;

	if (fd < 0) {
		return -errno;
	}
	n = write(fd, value, strlen(value));
	if (n < 0) {
		rc = -errno;
	}
	close(fd);
	return rc;
}

void dq_power_sleep_ms(uint32_t ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

int dq_power_namespace_of(const struct dq_io_engine *engine, const struct dq_pci_slot_paths *paths,
			  const char *driver, struct dq_power_namespace *ns, char *err,
			  size_t err_len)
{
	char real[PATH_MAX], path[PATH_MAX];
	const char *name;

	memset(ns, 0, sizeof(*ns));
	dq_strlcpy(ns->sysfs, paths->sysfs_root, sizeof(ns->sysfs));
	dq_strlcpy(ns->dev, paths->dev_root, sizeof(ns->dev));
	dq_strlcpy(ns->serial, engine->target.device.serial, sizeof(ns->serial));
	if (realpath(engine->target.device.transport_address, real) == NULL) {
		dq_strlcpy(real, engine->target.device.transport_address, sizeof(real));
	}
	name = strrchr(real, '/') != NULL ? strrchr(real, '/') + 1 : real;
	snprintf(path, sizeof(path), "%s/class/block/%.200s/nsid", ns->sysfs, name);
	if (dq_power_read_attr(path, ns->nsid, sizeof(ns->nsid)) != 0) {
		snprintf(
			err, err_len,
			"power driver %s: %s is not an NVMe namespace (no %s): it cuts the power of "
			"an NVMe drive only; nothing was written",
			driver, engine->target.device.transport_address, path);
		return -ENODEV;
	}
	return 0;
}

int dq_power_namespace_find(const struct dq_power_namespace *ns, char *name, size_t name_len)
{
	char pattern[DIR_MAX], path[PATH_MAX], value[64];
	glob_t disks;
	int found = 0;

	snprintf(pattern, sizeof(pattern), "%.256s/class/block/nvme*", ns->sysfs);
	if (glob(pattern, 0, NULL, &disks) != 0) {
		return 0;
	}
	for (size_t i = 0; i < disks.gl_pathc && !found; i++) {
		const char *disk = strrchr(disks.gl_pathv[i], '/') + 1;
		unsigned ctrl, nsn;
		char tail;

		/* nvmeXnY only: nvmeXcYnZ are a multipath head's hidden paths, nvmeXnYpZ
		 * partitions */
		if (sscanf(disk, "nvme%un%u%c", &ctrl, &nsn, &tail) != 2) {
			continue;
		}
		snprintf(path, sizeof(path), "%s/nsid", disks.gl_pathv[i]);
		if (dq_power_read_attr(path, value, sizeof(value)) != 0 ||
		    strcmp(value, ns->nsid) != 0) {
			continue;
		}
		snprintf(path, sizeof(path), "%s/device/serial", disks.gl_pathv[i]);
		if (dq_power_read_attr(path, value, sizeof(value)) != 0 ||
		    strcmp(value, ns->serial) != 0) {
			continue;
		}
		snprintf(path, sizeof(path), "%s/%.200s", ns->dev, disk);
		if (access(path, F_OK) == 0) {
			dq_strlcpy(name, path, name_len);
			found = 1;
		}
	}
	globfree(&disks);
	return found;
}

int dq_power_read_credentials(const char *driver, const char *path, bool user_password, char *out,
			      size_t out_len, char *err, size_t err_len)
{
	struct stat st;
	FILE *f;
	size_t n;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, err_len,
			 "power driver %s: the credentials file %s is missing or not a file: "
			 "nothing was written",
			 driver, path);
		return -ENOENT;
	}
	if ((st.st_mode & 077) != 0) {
		snprintf(err, err_len,
			 "power driver %s: the credentials file %s may be read by others (mode "
			 "%03o; chmod 600 it): nothing was written",
			 driver, path, (unsigned)(st.st_mode & 0777));
		return -EPERM;
	}
	f = fopen(path, "r");
	if (f == NULL || fgets(out, (int)out_len, f) == NULL) {
		if (f != NULL) {
			fclose(f);
		}
		snprintf(err, err_len, "power driver %s: cannot read %s", driver, path);
		return -EIO;
	}
	fclose(f);
	n = strcspn(out, "\r\n");
	out[n] = '\0';
	if (user_password ? strchr(out, ':') == NULL || out[0] == ':' : out[0] == '\0') {
		memset(out, 0, out_len);
		snprintf(err, err_len, "power driver %s: %s must hold %s on its first line", driver,
			 path, user_password ? "user:password" : "the secret");
		return -EINVAL;
	}
	return 0;
}
