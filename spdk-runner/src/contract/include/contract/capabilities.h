/*
 * What a drive can do for a job as this runner reaches it, probed at open (the heartbeat's
 * devices[].capabilities, common.schema.json#/$defs/capabilities): each capability is either there
 * or missing with the reason an operator can act on (the drive lacks it; the runner lacks
 * CAP_SYS_ADMIN for NVMe admin commands; the engine cannot; the runner's own policy; a probe that
 * failed). The service refuses a plan that needs a missing one before anything runs.
 */
#ifndef DRIVEQUAL_CAPABILITIES_H
#define DRIVEQUAL_CAPABILITIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "contract/msg_common.h"

/* The schema's capability names, in its order; 0 is "absent" as for every contract enum. */
enum dq_capability {
	DQ_CAPABILITY_NONE = 0,
	DQ_CAPABILITY_FORMAT, /* Format NVM, SES 0 (no secure erase) */
	DQ_CAPABILITY_FORMAT_USER_DATA, /* Format NVM, SES 1 */
	DQ_CAPABILITY_FORMAT_CRYPTO, /* Format NVM, SES 2 */
	DQ_CAPABILITY_SANITIZE_BLOCK,
	DQ_CAPABILITY_SANITIZE_CRYPTO,
	DQ_CAPABILITY_SANITIZE_OVERWRITE,
	DQ_CAPABILITY_DEALLOCATE, /* TRIM / Dataset Management / hole punching */
	DQ_CAPABILITY_SMART, /* the SMART / Health log (02h) or the simulator's counters */
	DQ_CAPABILITY_OCP_SMART_C0H, /* the OCP extended SMART log: physical media bytes written */
	DQ_CAPABILITY_TEMPERATURE_THRESHOLDS, /* WCTEMP / CCTEMP declared */
	DQ_CAPABILITY_VOLATILE_WRITE_CACHE, /* present; enabled says its setting */
	DQ_CAPABILITY_FDP, /* Flexible Data Placement supported; enabled says whether it is on */
	DQ_CAPABILITY_COUNT /* not a value */
};

/* Why a capability is missing. */
enum dq_capability_missing {
	DQ_CAPABILITY_MISSING_NONE = 0,
	DQ_CAPABILITY_MISSING_DEVICE, /* device-lacks-it */
	DQ_CAPABILITY_MISSING_PRIVILEGE, /* runner-lacks-sys-admin */
	DQ_CAPABILITY_MISSING_ENGINE, /* engine-cannot */
	DQ_CAPABILITY_MISSING_POLICY, /* runner-policy */
	DQ_CAPABILITY_MISSING_PROBE_FAILED, /* probe-failed */
};

#define DQ_CAPABILITY_DETAIL_MAX_CHARS 160

struct dq_capability_state {
	bool available;
	enum dq_capability_missing missing; /* NONE when available */
	bool has_enabled; /* volatile-write-cache and fdp, when the setting was read */
	bool enabled;
	char detail[DQ_CAPABILITY_DETAIL_MAX_CHARS + 1]; /* ASCII; empty: nothing to add */
};

struct dq_capabilities {
	bool probed; /* false: the engine said nothing (the heartbeat then omits them) */
	struct dq_capability_state items[DQ_CAPABILITY_COUNT]; /* by enum dq_capability */
};

const char *dq_capability_to_str(enum dq_capability capability);
const char *dq_capability_missing_to_str(enum dq_capability_missing missing);

/* Mark capability available (detail may be NULL). Sets caps->probed. */
void dq_capability_have(struct dq_capabilities *caps, enum dq_capability capability,
			const char *detail_format, ...) __attribute__((format(printf, 3, 4)));

/* Mark capability missing for why, with a sentence saying what was found. Sets caps->probed. */
void dq_capability_lack(struct dq_capabilities *caps, enum dq_capability capability,
			enum dq_capability_missing why, const char *detail_format, ...)
	__attribute__((format(printf, 4, 5)));

/* The same reason for every capability in [first, last]. */
void dq_capability_lack_range(struct dq_capabilities *caps, enum dq_capability first,
			      enum dq_capability last, enum dq_capability_missing why,
			      const char *detail);

/* The capability that names a purge method (format-user-data ...), or NONE (auto, none). */
enum dq_capability dq_capability_of_purge(enum dq_purge_method method);

/* "runner lacks CAP_SYS_ADMIN: Identify Controller: Operation not permitted" for a refusal. */
void dq_capability_explain(const struct dq_capabilities *caps, enum dq_capability capability,
			   char *out, size_t out_len);

#endif /* DRIVEQUAL_CAPABILITIES_H */
