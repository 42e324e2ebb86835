/*
 * The power driver registry: names a power-loss phase may ask for, and the refusals when none
 * fits. The simulator's driver comes with the opened target; pci-slot cuts a host's PCIe slot,
 * redfish and ipmi a BMC's chassis, pdu a switched PDU's outlet.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "io/engine.h"
#include "io/power.h"

int dq_power_driver_open(const char *name, const struct dq_power_site *site,
			 const struct dq_io_engine *engine, struct dq_power_driver *out, char *err,
			 size_t err_len)
{
	static const struct dq_pci_slot_paths host = { .sysfs_root = "/sys",
						       .dev_root = "/dev",
						       .restore_wait_ms = 60000 };

	memset(out, 0, sizeof(*out));
	if (name == NULL || name[0] == '\0' || strcmp(name, "none") == 0) {
		snprintf(err, err_len,
			 "no power driver configured (powerDriver is '%s'): a power cycle needs a "
			 "way to cut the drive's power; nothing was written",
			 name != NULL ? name : "");
		return -ENODEV;
	}
	if (strcmp(name, "pci-slot") == 0) {
		return dq_power_pci_slot_open(engine, site != NULL ? site->slot : NULL, &host, out,
					      err, err_len);
	}
	if (strcmp(name, "redfish") == 0) {
		return dq_power_redfish_open(engine, site, &host, out, err, err_len);
	}
	if (strcmp(name, "ipmi") == 0) {
		return dq_power_ipmi_open(engine, site, &host, "ipmitool", out, err, err_len);
	}
	if (strcmp(name, "pdu") == 0) {
		return dq_power_pdu_open(engine, site, &host, out, err, err_len);
	}
	if (strcmp(name, "sim") != 0) {
		snprintf(
			err, err_len,
			"unknown power driver '%s' (this runner has: sim, pci-slot, redfish, ipmi, pdu, none)",
			name);
		return -ENOENT;
	}
	if (engine->ops->power_driver == NULL) {
		snprintf(err, err_len,
			 "power driver sim needs the sim engine with a power model; engine %s "
			 "brings no power driver",
			 engine->ops->name);
		return -ENOTSUP;
	}
	return engine->ops->power_driver(engine->data, out, err, err_len);
}

void dq_power_driver_close(struct dq_power_driver *driver)
{
	if (driver->ops != NULL && driver->ops->close != NULL) {
		driver->ops->close(driver->ctx);
	}
	memset(driver, 0, sizeof(*driver));
}
