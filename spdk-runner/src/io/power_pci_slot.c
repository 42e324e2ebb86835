/*
 * The pci-slot power driver: a host cuts an NVMe drive's power by turning its PCIe slot off
 * through the hotplug driver (pciehp; /sys/bus/pci/slots/<slot>/power: 0 off, 1 on). The kernel
 * removes the controller before the power goes (an orderly removal: it may send the drive a
 * shutdown notification, so this is a graceful cut, unlike a BMC's or a PDU's), so the engine lets
 * go of the device first and, once power is back, the namespace is found again by its
 * controller's serial and namespace id (its name can change) and reopened.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "contract/strutil.h"
#include "io/engine.h"
#include "io/power.h"

#define SLOT_POLL_MS 100
#define ROOT_MAX 256 /* a sysfs or dev root */
#define DIR_MAX 512 /* a slot's directory */

struct pci_slot {
	const struct dq_io_engine *engine;
	char sysfs[ROOT_MAX];
	char dev[ROOT_MAX];
	char slot_dir[DIR_MAX];
	char slot_name[64];
	char serial[64];
	char nsid[16];
	uint32_t restore_wait_ms;
};

/* The first line of a sysfs attribute, trailing blanks removed: 0 or -errno. */
static int read_attr(const char *path, char *out, size_t out_len)
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

static int write_attr(const char *path, const char *value)
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

/* The serial of the NVMe controller in the slot whose address is address ("0000:01:00"), into
 * serial: 0, or -ENOENT when no function there is an NVMe controller. */
static int slot_controller_serial(const struct pci_slot *ps, const char *address, char *serial,
				  size_t serial_len)
{
	char pattern[PATH_MAX];
	glob_t found;
	int rc = -ENOENT;

	snprintf(pattern, sizeof(pattern), "%s/bus/pci/devices/%s.*/nvme/nvme*/serial", ps->sysfs,
		 address);
	if (glob(pattern, 0, NULL, &found) == 0) {
		if (found.gl_pathc > 0) {
			rc = read_attr(found.gl_pathv[0], serial, serial_len);
		}
		globfree(&found);
	}
	return rc;
}

/* Finds the slot (named, or the one holding the drive's controller) and checks it: 0 or a
 * refusal in err. */
static int slot_find(struct pci_slot *ps, const char *power_slot, char *err, size_t err_len)
{
	char pattern[DIR_MAX], address[64], serial[64], path[PATH_MAX], seen[256] = "";
	glob_t slots;
	int rc;

	if (power_slot != NULL) {
		snprintf(ps->slot_dir, sizeof(ps->slot_dir), "%.256s/bus/pci/slots/%.64s",
			 ps->sysfs, power_slot);
		dq_strlcpy(ps->slot_name, power_slot, sizeof(ps->slot_name));
		snprintf(path, sizeof(path), "%s/address", ps->slot_dir);
		if (read_attr(path, address, sizeof(address)) != 0) {
			snprintf(
				err, err_len,
				"power driver pci-slot: the allowlisted powerSlot '%s' is not a PCIe "
				"slot of this host (no %s): nothing was written",
				power_slot, ps->slot_dir);
			return -ENOENT;
		}
	} else {
		snprintf(pattern, sizeof(pattern), "%.256s/bus/pci/slots/*", ps->sysfs);
		ps->slot_dir[0] = '\0';
		if (glob(pattern, 0, NULL, &slots) == 0) {
			for (size_t i = 0; i < slots.gl_pathc && ps->slot_dir[0] == '\0'; i++) {
				const char *name = strrchr(slots.gl_pathv[i], '/') + 1;

				snprintf(path, sizeof(path), "%s/address", slots.gl_pathv[i]);
				if (read_attr(path, address, sizeof(address)) != 0) {
					continue;
				}
				if (strlen(seen) + strlen(name) + 3 < sizeof(seen)) {
					strcat(strcat(seen, seen[0] != '\0' ? ", " : ""), name);
				}
				if (slot_controller_serial(ps, address, serial, sizeof(serial)) ==
					    0 &&
				    strcmp(serial, ps->serial) == 0) {
					dq_strlcpy(ps->slot_dir, slots.gl_pathv[i],
						   sizeof(ps->slot_dir));
					dq_strlcpy(ps->slot_name, name, sizeof(ps->slot_name));
				}
			}
			globfree(&slots);
		}
		if (ps->slot_dir[0] == '\0') {
			snprintf(
				err, err_len,
				"power driver pci-slot: no PCIe slot of this host holds the controller "
				"with serial '%s' (slots: %s): nothing was written",
				ps->serial, seen[0] != '\0' ? seen : "none");
			return -ENOENT;
		}
		snprintf(path, sizeof(path), "%s/address", ps->slot_dir);
		read_attr(path, address, sizeof(address));
	}
	snprintf(path, sizeof(path), "%s/power", ps->slot_dir);
	if (access(path, W_OK) != 0) {
		snprintf(err, err_len,
			 "power driver pci-slot: slot %s has no power control (no writable %s: its "
			 "port has no power controller, or no hotplug driver drives it): nothing "
			 "was written",
			 ps->slot_name, path);
		return -ENOTSUP;
	}
	rc = slot_controller_serial(ps, address, serial, sizeof(serial));
	if (rc != 0 || strcmp(serial, ps->serial) != 0) {
		snprintf(
			err, err_len,
			"power driver pci-slot: slot %s (%s) holds %s%s%s, not the allowlisted "
			"drive's controller (serial '%s'): refusing to cut it; nothing was written",
			ps->slot_name, address, rc != 0 ? "no NVMe controller" : "serial '",
			rc != 0 ? "" : serial, rc != 0 ? "" : "'", ps->serial);
		return -EPERM;
	}
	return 0;
}

static int pci_slot_cut(void *ctx, char *err, size_t err_len)
{
	struct pci_slot *ps = ctx;
	char path[PATH_MAX];
	int rc;

	ps->engine->ops->release(ps->engine->data);
	snprintf(path, sizeof(path), "%s/power", ps->slot_dir);
	rc = write_attr(path, "0");
	if (rc != 0) {
		snprintf(err, err_len, "power driver pci-slot: turning slot %s off (%s) failed: %s",
			 ps->slot_name, path, strerror(-rc));
	}
	return rc;
}

static void sleep_ms(uint32_t ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* The namespace with the drive's serial and namespace id, visible in dev: its name, or 0. */
static int namespace_find(const struct pci_slot *ps, char *name, size_t name_len)
{
	char pattern[DIR_MAX], path[PATH_MAX], value[64];
	glob_t disks;
	int found = 0;

	snprintf(pattern, sizeof(pattern), "%.256s/class/block/nvme*", ps->sysfs);
	if (glob(pattern, 0, NULL, &disks) != 0) {
		return 0;
	}
	for (size_t i = 0; i < disks.gl_pathc && !found; i++) {
		const char *disk = strrchr(disks.gl_pathv[i], '/') + 1;
		unsigned ctrl, ns;
		char tail;

		/* nvmeXnY only: nvmeXcYnZ are a multipath head's hidden paths, nvmeXnYpZ
		 * partitions */
		if (sscanf(disk, "nvme%un%u%c", &ctrl, &ns, &tail) != 2) {
			continue;
		}
		snprintf(path, sizeof(path), "%s/nsid", disks.gl_pathv[i]);
		if (read_attr(path, value, sizeof(value)) != 0 || strcmp(value, ps->nsid) != 0) {
			continue;
		}
		snprintf(path, sizeof(path), "%s/device/serial", disks.gl_pathv[i]);
		if (read_attr(path, value, sizeof(value)) != 0 || strcmp(value, ps->serial) != 0) {
			continue;
		}
		snprintf(path, sizeof(path), "%s/%.200s", ps->dev, disk);
		if (access(path, F_OK) == 0) {
			dq_strlcpy(name, path, name_len);
			found = 1;
		}
	}
	globfree(&disks);
	return found;
}

/* Power on (again, while the slot reads off: an empty slot refuses it until its card is seen
 * again, and pciehp may power a card present on its own), then wait for the namespace. */
static int pci_slot_restore(void *ctx, char *err, size_t err_len)
{
	struct pci_slot *ps = ctx;
	char path[PATH_MAX], state[16], target[DIR_MAX];
	int rc, refused = 0;

	snprintf(path, sizeof(path), "%s/power", ps->slot_dir);
	for (uint32_t waited = 0;; waited += SLOT_POLL_MS) {
		if (read_attr(path, state, sizeof(state)) != 0 || strcmp(state, "1") != 0) {
			rc = write_attr(path, "1");
			refused = rc != 0 ? rc : refused;
		}
		if (namespace_find(ps, target, sizeof(target))) {
			break;
		}
		if (waited >= ps->restore_wait_ms) {
			snprintf(err, err_len,
				 "power driver pci-slot: no namespace %s of serial '%s' came back "
				 "within %u ms of turning slot %s on (power reads %s%s%s)",
				 ps->nsid, ps->serial, ps->restore_wait_ms, ps->slot_name, state,
				 refused != 0 ? "; turning it on last failed: " : "",
				 refused != 0 ? strerror(-refused) : "");
			return -ETIMEDOUT;
		}
		sleep_ms(SLOT_POLL_MS);
	}
	return ps->engine->ops->reopen(ps->engine->data, target, err, err_len);
}

static void pci_slot_close(void *ctx)
{
	free(ctx);
}

static const struct dq_power_driver_ops pci_slot_ops = {
	.name = "pci-slot",
	.cut = pci_slot_cut,
	.restore = pci_slot_restore,
	.close = pci_slot_close,
};

int dq_power_pci_slot_open(const struct dq_io_engine *engine, const char *power_slot,
			   const struct dq_pci_slot_paths *paths, struct dq_power_driver *out,
			   char *err, size_t err_len)
{
	char real[PATH_MAX], path[PATH_MAX];
	const char *name;
	struct pci_slot *ps;
	int rc;

	if (engine->ops->release == NULL || engine->ops->reopen == NULL) {
		snprintf(err, err_len,
			 "power driver pci-slot needs an engine that can let go of the drive while "
			 "its slot is off; engine %s cannot",
			 engine->ops->name);
		return -ENOTSUP;
	}
	ps = calloc(1, sizeof(*ps));
	if (ps == NULL) {
		return -ENOMEM;
	}
	ps->engine = engine;
	ps->restore_wait_ms = paths->restore_wait_ms;
	dq_strlcpy(ps->sysfs, paths->sysfs_root, sizeof(ps->sysfs));
	dq_strlcpy(ps->dev, paths->dev_root, sizeof(ps->dev));
	dq_strlcpy(ps->serial, engine->target.device.serial, sizeof(ps->serial));
	if (realpath(engine->target.device.transport_address, real) == NULL) {
		dq_strlcpy(real, engine->target.device.transport_address, sizeof(real));
	}
	name = strrchr(real, '/') != NULL ? strrchr(real, '/') + 1 : real;
	snprintf(path, sizeof(path), "%s/class/block/%.200s/nsid", ps->sysfs, name);
	if (read_attr(path, ps->nsid, sizeof(ps->nsid)) != 0) {
		snprintf(err, err_len,
			 "power driver pci-slot: %s is not an NVMe namespace (no %s): a slot's "
			 "power is cut for an NVMe drive only; nothing was written",
			 engine->target.device.transport_address, path);
		free(ps);
		return -ENODEV;
	}
	rc = slot_find(ps, power_slot, err, err_len);
	if (rc != 0) {
		free(ps);
		return rc;
	}
	*out = (struct dq_power_driver){ .ops = &pci_slot_ops, .ctx = ps };
	return 0;
}
