/*
 * The safety interlocks (docs/architecture.md, "Safety"): the runner erases drives, so destructive
 * phases run only on a device that is allowlisted, whose serial is the one the job names, and
 * which, as a kernel block device, is not mounted or held and carries no partition table or
 * signature, unless its allowlist entry says so explicitly. Every refusal has the contract's
 * reason and a message.
 */
#ifndef DRIVEQUAL_INTERLOCK_H
#define DRIVEQUAL_INTERLOCK_H

#include <stdbool.h>
#include <stddef.h>

#include "contract/msg_job_event.h"
#include "contract/msg_runner_heartbeat.h"
#include "device/target.h"

/*
 * One allowlist entry. A device matches when every field given matches: serial, and/or transport
 * address (a kernel path is compared after resolving symlinks). The allow* overrides default false.
 */
#define DQ_POWER_SLOT_MAX_LEN 63
#define DQ_POWER_URL_MAX_LEN 511

struct dq_allowlist_entry {
	bool has_serial;
	char serial[DQ_SERIAL_MAX_LEN + 1];
	bool has_transport_address;
	char transport_address[DQ_UTF8_BUF(DQ_TRANSPORT_MAX_CHARS)];
	bool allow_partitioned;
	bool allow_signatures;
	bool allow_mounted;
	/* The PCIe slot (a name in /sys/bus/pci/slots) whose power the pci-slot power driver cuts;
	 * without it the driver looks for the slot holding the drive's controller by serial. */
	bool has_power_slot;
	char power_slot[DQ_POWER_SLOT_MAX_LEN + 1];
	/* The BMC's Redfish reset action for the redfish power driver, and the file holding its
	 * credentials ("user:password", never in the allowlist itself); "": not set. */
	char redfish_url[DQ_POWER_URL_MAX_LEN + 1];
	char redfish_credentials[DQ_POWER_URL_MAX_LEN + 1];
	/* The BMC's IPMI LAN address ("host" or "host:port") for the ipmi power driver and the file
	 * holding its credentials ("user:password"); "": not set. */
	char ipmi_host[DQ_POWER_URL_MAX_LEN + 1];
	char ipmi_credentials[DQ_POWER_URL_MAX_LEN + 1];
	/* The RMCP+ cipher suite the ipmi driver asks for ("0".."17"), or "": ipmitool negotiates. */
	char ipmi_cipher_suite[4];
	/* The switched PDU's SNMP agent, the drive's outlet, the file of its write community, the
	 * outlet control column and the off/on values for the pdu power driver; "": not set (the
	 * driver's defaults: APC sPDUOutletCtl, 2 off, 1 on). */
	char pdu_host[DQ_POWER_URL_MAX_LEN + 1];
	char pdu_outlet[8];
	char pdu_credentials[DQ_POWER_URL_MAX_LEN + 1];
	char pdu_oid[128];
	char pdu_off_value[8];
	char pdu_on_value[8];
};

struct dq_allowlist {
	size_t count;
	struct dq_allowlist_entry *entries;
};

/*
 * Load an allowlist file:
 *   {"devices": [{"serial": "S64ANS0T123456", "allowSignatures": false},
 *                {"transportAddress": "/dev/loop3", "comment": "scratch"}]}
 * Unknown keys are errors (a misspelt override must not pass silently). Returns 0, -ENOENT,
 * -EINVAL (err says where) or -ENOMEM. Release with dq_allowlist_fini().
 */
int dq_allowlist_load(const char *path, struct dq_allowlist *list, char *err, size_t err_len);
void dq_allowlist_fini(struct dq_allowlist *list);

/* dst = a copy of src (which may be NULL: empty), owned by dst. Returns 0 or -ENOMEM. */
int dq_allowlist_copy(struct dq_allowlist *dst, const struct dq_allowlist *src);

/* The first entry matching device, or NULL. list may be NULL (an empty allowlist). */
const struct dq_allowlist_entry *dq_allowlist_match(const struct dq_allowlist *list,
						    const struct dq_device *device);

struct dq_interlock_verdict {
	enum dq_refuse_reason reason; /* DQ_REFUSE_NONE: destructive work is allowed */
	char message[DQ_UTF8_BUF(DQ_MESSAGE_MAX_CHARS)];
	const struct dq_allowlist_entry *entry; /* the matching entry, if any */
};

/*
 * May destructive phases run on target? Checks, in order: allowlisted; serial == expected_serial
 * (when given; required when require_serial); for kernel block devices not mounted (mountinfo by
 * major:minor, partitions, holders, swap); no partition table; no filesystem/LVM/RAID/swap
 * signature (libblkid; regular files are probed too). Returns 0 when allowed, -EPERM with the
 * verdict's reason and message when refused, or -errno when a check itself failed (the verdict then
 * refuses too: nothing is assumed safe).
 */
int dq_interlock_check(const struct dq_allowlist *list, const struct dq_device_target *target,
		       const char *expected_serial, bool require_serial,
		       struct dq_interlock_verdict *verdict);

/*
 * The device-state checks alone (mounted/held, partition table, signature), ignoring the
 * allowlist's overrides when entry is NULL. Returns 0 (verdict says) or -errno.
 */
/*
 * The heartbeat's interlock for a verdict's refusal: what a runner reports about a device before
 * any job asks (inventory, agent heartbeats). A refusal without its own interlock (serial
 * mismatch, ...) is reported as not-allowlisted.
 */
enum dq_interlock dq_interlock_from_refusal(enum dq_refuse_reason reason);

int dq_interlock_probe_device(const struct dq_device_target *target,
			      const struct dq_allowlist_entry *entry,
			      struct dq_interlock_verdict *verdict);

#endif /* DRIVEQUAL_INTERLOCK_H */
