/*
 * The host's device inventory: every target the built engines discover plus the allowlist's
 * files, each opened read-only for its identity and checked against the interlocks, for
 * `drivequal-runner devices` and the agent's heartbeat.
 */
#ifndef DRIVEQUAL_INVENTORY_H
#define DRIVEQUAL_INVENTORY_H

#include <stddef.h>

#include "contract/msg_runner_heartbeat.h"
#include "device/interlock.h"

struct dq_inventory_item {
	char target[4096];
	bool opened;
	struct dq_heartbeat_device entry; /* device, allowlisted, state, interlock */
	char serial_note[128]; /* empty when the device reported its serial */
	char message[DQ_UTF8_BUF(DQ_MESSAGE_MAX_CHARS)]; /* why destructive work is refused, or
							     why the target did not open */
};

struct dq_inventory {
	size_t count;
	struct dq_inventory_item *items;
};

/* Collect the inventory (allowlist may be NULL). Returns 0 or -ENOMEM. */
int dq_inventory_collect(const struct dq_allowlist *allowlist, struct dq_inventory *inventory);
void dq_inventory_fini(struct dq_inventory *inventory);

#endif /* DRIVEQUAL_INVENTORY_H */
