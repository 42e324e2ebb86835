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
#include "power_sysfs.h"

#define SLOT_POLL_MS 100
#define DIR_MAX 512 /* a slot's directory */

struct pci_slot {
	const struct dq_io_engine *engine;
	struct dq_power_namespace ns; /* the drive's namespace, to find again after the cut */
	char slot_dir[DIR_MAX];
	char slot_name[64];
	uint32_t restore_wait_ms;
};

/* The serial of the NVMe controller in the slot whose address is address ("0000:01:00"), into
 * serial: 0, or -ENOENT when no function there is an NVMe controller. */
static int slot_controller_serial(const struct pci_slot *ps, const char *address, char *serial,
				  size_t serial_len)
{
	char pattern[PATH_MAX];
	glob_t found;
	int rc = -ENOENT;

	snprintf(pattern, sizeof(pattern), "%s/bus/pci/devices/%s.*/nvme/nvme*/serial",
		 ps->ns.sysfs, address);
	if (glob(pattern, 0, NULL, &found) == 0) {
		if (found.gl_pathc > 0) {
			rc = dq_power_read_attr(found.gl_pathv[0], serial, serial_len);
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
			 ps->ns.sysfs, power_slot);
		dq_strlcpy(ps->slot_name, power_slot, sizeof(ps->slot_name));
		snprintf(path, sizeof(path), "%s/address", ps->slot_dir);
		if (dq_power_read_attr(path, address, sizeof(address)) != 0) {
			snprintf(
				err, err_len,
				"power driver pci-slot: the allowlisted powerSlot '%s' is not a PCIe "
				"slot of this host (no %s): nothing was written",
				power_slot, ps->slot_dir);
			return -ENOENT;
		}
	} else {
		snprintf(pattern, sizeof(pattern), "%.256s/bus/pci/slots/*", ps->ns.sysfs);
		ps->slot_dir[0] = '\0';
		if (glob(pattern, 0, NULL, &slots) == 0) {
			for (size_t i = 0; i < slots.gl_pathc && ps->slot_dir[0] == '\0'; i++) {
				const char *name = strrchr(slots.gl_pathv[i], '/') + 1;

				snprintf(path, sizeof(path), "%s/address", slots.gl_pathv[i]);
				if (dq_power_read_attr(path, address, sizeof(address)) != 0) {
					continue;
				}
				if (strlen(seen) + strlen(name) + 3 < sizeof(seen)) {
					strcat(strcat(seen, seen[0] != '\0' ? ", " : ""), name);
				}
				if (slot_controller_serial(ps, address, serial, sizeof(serial)) ==
					    0 &&
				    strcmp(serial, ps->ns.serial) == 0) {
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
				ps->ns.serial, seen[0] != '\0' ? seen : "none");
			return -ENOENT;
		}
		snprintf(path, sizeof(path), "%s/address", ps->slot_dir);
		dq_power_read_attr(path, address, sizeof(address));
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
	if (rc != 0 || strcmp(serial, ps->ns.serial) != 0) {
		snprintf(
			err, err_len,
			"power driver pci-slot: slot %s (%s) holds %s%s%s, not the allowlisted "
			"drive's controller (serial '%s'): refusing to cut it; nothing was written",
			ps->slot_name, address, rc != 0 ? "no NVMe controller" : "serial '",
			rc != 0 ? "" : serial, rc != 0 ? "" : "'", ps->ns.serial);
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
	rc = dq_power_write_attr(path, "0");
	if (rc != 0) {
		snprintf(err, err_len, "power driver pci-slot: turning slot %s off (%s) failed: %s",
			 ps->slot_name, path, strerror(-rc));
	}
	return rc;
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
		if (dq_power_read_attr(path, state, sizeof(state)) != 0 ||
		    strcmp(state, "1") != 0) {
			rc = dq_power_write_attr(path, "1");
			refused = rc != 0 ? rc : refused;
		}
		if (dq_power_namespace_find(&ps->ns, target, sizeof(target))) {
			break;
		}
		if (waited >= ps->restore_wait_ms) {
			snprintf(err, err_len,
				 "power driver pci-slot: no namespace %s of serial '%s' came back "
				 "within %u ms of turning slot %s on (power reads %s%s%s)",
				 ps->ns.nsid, ps->ns.serial, ps->restore_wait_ms, ps->slot_name,
				 state, refused != 0 ? "; turning it on last failed: " : "",
				 refused != 0 ? strerror(-refused) : "");
			return -ETIMEDOUT;
		}
		dq_power_sleep_ms(SLOT_POLL_MS);
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
	rc = dq_power_namespace_of(engine, paths, "pci-slot", &ps->ns, err, err_len);
	if (rc != 0) {
		free(ps);
		return rc;
	}
	rc = slot_find(ps, power_slot, err, err_len);
	if (rc != 0) {
		free(ps);
		return rc;
	}
	*out = (struct dq_power_driver){ .ops = &pci_slot_ops, .ctx = ps };
	return 0;
}
