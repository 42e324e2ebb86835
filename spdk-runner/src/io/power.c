/*
 * The power driver registry: names a power-loss phase may ask for, and the refusals when none
 * fits. Only the simulator's driver exists so far; it comes with the opened target.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "io/engine.h"
#include "io/power.h"

int dq_power_driver_open(const char *name, const struct dq_io_engine *engine,
			 struct dq_power_driver *out, char *err, size_t err_len)
{
	memset(out, 0, sizeof(*out));
	if (name == NULL || name[0] == '\0' || strcmp(name, "none") == 0) {
		snprintf(err, err_len,
			 "no power driver configured (powerDriver is '%s'): a power cycle needs a "
			 "way to cut the drive's power; nothing was written",
			 name != NULL ? name : "");
		return -ENODEV;
	}
	if (strcmp(name, "sim") != 0) {
		snprintf(err, err_len, "unknown power driver '%s' (this runner has: sim, none)",
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
