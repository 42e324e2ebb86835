/*
 * Builds the device inventory: discovery per engine, identity by a read-only open, and the
 * interlock verdict that tells an operator why a drive is not ready for destructive work.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "contract/strutil.h"
#include "io/engine.h"
#include "job/inventory.h"

#define INVENTORY_MAX DQ_HEARTBEAT_MAX_DEVICES

struct discovery {
	struct dq_inventory *inventory;
	const struct dq_io_engine_ops *ops;
	const struct dq_allowlist *allowlist;
	int rc;
};

static bool already_listed(const struct dq_inventory *inventory, const char *target)
{
	size_t i;

	for (i = 0; i < inventory->count; i++) {
		if (strcmp(inventory->items[i].target, target) == 0) {
			return true;
		}
	}
	return false;
}

static void add_target(const char *target, void *arg)
{
	struct discovery *d = arg;
	struct dq_inventory_item *item;
	struct dq_io_engine_open_args args = { .target = target, .queue_depth = 1, .direct = true };
	struct dq_interlock_verdict verdict = { 0 };
	const struct dq_allowlist_entry *entry;
	struct dq_io_engine engine;
	char err[512];
	int rc;

	if (d->rc != 0 || d->inventory->count == INVENTORY_MAX ||
	    already_listed(d->inventory, target)) {
		return;
	}
	item = &d->inventory->items[d->inventory->count];
	memset(item, 0, sizeof(*item));
	dq_strlcpy(item->target, target, sizeof(item->target));
	rc = dq_io_engine_open(&engine, d->ops, &args, err, sizeof(err));
	if (rc == -EINVAL) {
		args.direct = false; /* a file system without O_DIRECT still has an identity */
		rc = dq_io_engine_open(&engine, d->ops, &args, err, sizeof(err));
	}
	d->inventory->count++;
	if (rc != 0) {
		snprintf(item->message, sizeof(item->message), "cannot open: %s", err);
		return;
	}
	item->opened = true;
	item->entry.device = engine.target.device;
	item->entry.capabilities = engine.target.capabilities;
	if (engine.target.serial_synthetic) {
		dq_strlcpy(item->serial_note, engine.target.serial_note, sizeof(item->serial_note));
	}
	entry = dq_allowlist_match(d->allowlist, &engine.target.device);
	item->entry.allowlisted = entry != NULL;
	item->entry.state = DQ_DEVICE_STATE_IDLE;
	if (entry == NULL) {
		item->entry.interlock = DQ_INTERLOCK_NOT_ALLOWLISTED;
		item->entry.state = DQ_DEVICE_STATE_REFUSED;
		snprintf(item->message, sizeof(item->message), "not in the allowlist");
	} else if (dq_interlock_probe_device(&engine.target, entry, &verdict) != 0 ||
		   verdict.reason != DQ_REFUSE_NONE) {
		item->entry.interlock = dq_interlock_from_refusal(verdict.reason);
		item->entry.state = DQ_DEVICE_STATE_REFUSED;
		dq_strlcpy(item->message, verdict.message, sizeof(item->message));
	}
	dq_io_engine_close(&engine);
}

int dq_inventory_collect(const struct dq_allowlist *allowlist, struct dq_inventory *inventory)
{
	struct discovery d = { .inventory = inventory, .allowlist = allowlist };
	const struct dq_io_engine_slot *slots;
	const struct dq_io_engine_ops *uring = NULL;
	size_t slot_count, i;
	char err[256];
	struct stat st;

	memset(inventory, 0, sizeof(*inventory));
	inventory->items = calloc(INVENTORY_MAX, sizeof(*inventory->items));
	if (inventory->items == NULL) {
		return -ENOMEM;
	}
	slots = dq_io_engine_slots(&slot_count);
	for (i = 0; i < slot_count; i++) {
		if (slots[i].get_ops == NULL || slots[i].get_ops()->discover == NULL ||
		    (slots[i].get_ops()->flags & DQ_ENGINE_DISKLESS)) {
			continue; /* a diskless engine has no device to list */
		}
		d.ops = slots[i].get_ops();
		d.ops->discover(add_target, &d);
	}
	/* Configured files and devices the discovery does not enumerate. */
	if (allowlist != NULL && dq_io_engine_find("uring", &uring, err, sizeof(err)) == 0) {
		d.ops = uring;
		for (i = 0; i < allowlist->count; i++) {
			const char *address = allowlist->entries[i].transport_address;

			if (allowlist->entries[i].has_transport_address && address[0] == '/' &&
			    stat(address, &st) == 0 &&
			    (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode))) {
				add_target(address, &d);
			}
		}
	}
	return d.rc;
}

void dq_inventory_fini(struct dq_inventory *inventory)
{
	free(inventory->items);
	inventory->items = NULL;
	inventory->count = 0;
}
