/*
 * What a drive can do, as the runner probed it with the privileges it has: the purge methods its
 * Identify data offers, SMART and the OCP C0h log, temperature thresholds, the volatile write cache
 * and FDP, each missing one with why (the device lacks it, the runner lacks CAP_SYS_ADMIN, the
 * engine cannot, the runner's policy). The Identify bits are decoded here; the admin commands are
 * nvme_admin.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/nvme_admin.h"
#include "device/nvme_fdp.h"

#define NVME_FEATURE_VOLATILE_WRITE_CACHE 0x06

uint32_t dq_nvme_purge_methods(const struct dq_nvme_controller *controller)
{
	uint32_t methods = 0;

	if (controller->oacs & (1u << 1)) {
		methods |= 1u << DQ_PURGE_METHOD_FORMAT_USER_DATA;
		if (controller->fna & (1u << 2)) {
			methods |= 1u << DQ_PURGE_METHOD_FORMAT_CRYPTO;
		}
	}
	if (controller->sanicap & (1u << 0)) {
		methods |= 1u << DQ_PURGE_METHOD_SANITIZE_CRYPTO;
	}
	if (controller->sanicap & (1u << 1)) {
		methods |= 1u << DQ_PURGE_METHOD_SANITIZE_BLOCK;
	}
	if (controller->sanicap & (1u << 2)) {
		methods |= 1u << DQ_PURGE_METHOD_SANITIZE_OVERWRITE;
	}
	return methods;
}

void dq_nvme_capabilities_from_controller(const struct dq_nvme_controller *controller,
					  bool single_namespace, struct dq_capabilities *caps)
{
	static const struct {
		enum dq_capability capability;
		enum dq_purge_method method;
		const char *lacks;
	} purges[] = {
		{ DQ_CAPABILITY_FORMAT_USER_DATA, DQ_PURGE_METHOD_FORMAT_USER_DATA,
		  "Identify Controller: OACS bit 1 clear, no Format NVM" },
		{ DQ_CAPABILITY_FORMAT_CRYPTO, DQ_PURGE_METHOD_FORMAT_CRYPTO,
		  "Identify Controller: no cryptographic erase in Format NVM (OACS bit 1 or FNA bit 2 "
		  "clear)" },
		{ DQ_CAPABILITY_SANITIZE_BLOCK, DQ_PURGE_METHOD_SANITIZE_BLOCK,
		  "Identify Controller: SANICAP bit 1 clear, no block erase sanitize" },
		{ DQ_CAPABILITY_SANITIZE_CRYPTO, DQ_PURGE_METHOD_SANITIZE_CRYPTO,
		  "Identify Controller: SANICAP bit 0 clear, no crypto erase sanitize" },
		{ DQ_CAPABILITY_SANITIZE_OVERWRITE, DQ_PURGE_METHOD_SANITIZE_OVERWRITE,
		  "Identify Controller: SANICAP bit 2 clear, no overwrite sanitize" },
	};
	uint32_t methods = dq_nvme_purge_methods(controller);
	size_t i;

	if (controller->oacs & (1u << 1)) {
		dq_capability_have(caps, DQ_CAPABILITY_FORMAT, "Format NVM (OACS bit 1)");
	} else {
		dq_capability_lack(caps, DQ_CAPABILITY_FORMAT, DQ_CAPABILITY_MISSING_DEVICE, "%s",
				   purges[0].lacks);
	}
	for (i = 0; i < sizeof(purges) / sizeof(purges[0]); i++) {
		if (!(methods & (1u << purges[i].method))) {
			dq_capability_lack(caps, purges[i].capability, DQ_CAPABILITY_MISSING_DEVICE,
					   "%s", purges[i].lacks);
		} else if (!single_namespace) {
			dq_capability_lack(caps, purges[i].capability, DQ_CAPABILITY_MISSING_POLICY,
					   "the controller has more than one namespace: Format and "
					   "Sanitize erase all of them, so the runner offers them "
					   "only on a single-namespace controller");
		} else {
			dq_capability_have(caps, purges[i].capability, NULL);
		}
	}
	if (controller->wctemp_k != 0 || controller->cctemp_k != 0) {
		dq_capability_have(caps, DQ_CAPABILITY_TEMPERATURE_THRESHOLDS,
				   "WCTEMP %u K, CCTEMP %u K", controller->wctemp_k,
				   controller->cctemp_k);
	} else {
		dq_capability_lack(caps, DQ_CAPABILITY_TEMPERATURE_THRESHOLDS,
				   DQ_CAPABILITY_MISSING_DEVICE,
				   "Identify Controller: WCTEMP and CCTEMP are 0 (none declared)");
	}
	if (controller->vwc & 1u) {
		dq_capability_have(caps, DQ_CAPABILITY_VOLATILE_WRITE_CACHE,
				   "Identify Controller: VWC bit 0 set");
	} else {
		dq_capability_lack(caps, DQ_CAPABILITY_VOLATILE_WRITE_CACHE,
				   DQ_CAPABILITY_MISSING_DEVICE,
				   "Identify Controller: VWC bit 0 clear, no volatile write cache");
	}
	if (controller->ctratt & (1u << 19)) {
		dq_capability_have(caps, DQ_CAPABILITY_FDP,
				   "Identify Controller: CTRATT bit 19 set");
	} else {
		dq_capability_lack(caps, DQ_CAPABILITY_FDP, DQ_CAPABILITY_MISSING_DEVICE,
				   "Identify Controller: CTRATT bit 19 clear, no Flexible Data "
				   "Placement");
	}
}

void dq_nvme_capabilities_unreachable(struct dq_capabilities *caps, enum dq_capability_missing why,
				      const char *detail)
{
	dq_capability_lack_range(caps, DQ_CAPABILITY_FORMAT, DQ_CAPABILITY_SANITIZE_OVERWRITE, why,
				 detail);
	dq_capability_lack_range(caps, DQ_CAPABILITY_SMART, DQ_CAPABILITY_FDP, why, detail);
}

enum dq_capability_missing dq_nvme_missing_for(int rc)
{
	if (rc == -EPERM || rc == -EACCES) {
		return DQ_CAPABILITY_MISSING_PRIVILEGE;
	}
	return rc == -EIO ? DQ_CAPABILITY_MISSING_DEVICE : DQ_CAPABILITY_MISSING_PROBE_FAILED;
}

int dq_nvme_purge_check(const struct dq_nvme_controller *controller, enum dq_purge_method method,
			char *err, size_t err_len)
{
	enum dq_capability capability = dq_capability_of_purge(method);
	struct dq_capabilities caps;

	if (capability == DQ_CAPABILITY_NONE || capability == DQ_CAPABILITY_DEALLOCATE) {
		snprintf(err, err_len, "%s is not an NVMe admin purge",
			 dq_purge_method_to_str(method) ? dq_purge_method_to_str(method) :
							  "(none)");
		return -EINVAL;
	}
	/* The same reading of Identify as the inventory's, so a refusal and the inventory agree. */
	memset(&caps, 0, sizeof(caps));
	dq_nvme_capabilities_from_controller(controller, true, &caps);
	if (!caps.items[capability].available) {
		snprintf(err, err_len, "the controller does not support %s: %s",
			 dq_capability_to_str(capability), caps.items[capability].detail);
		return -EOPNOTSUPP;
	}
	return 0;
}

/* SMART 02h and, when it answers, the OCP C0h log (GUID-checked). */
static void probe_logs(int fd, struct dq_capabilities *caps)
{
	struct dq_smart_snapshot smart;
	char err[200];
	uint8_t *log;
	int rc;

	if (posix_memalign((void **)&log, 4096, DQ_NVME_LOG_PAGE_BYTES) != 0) {
		dq_capability_lack_range(caps, DQ_CAPABILITY_SMART, DQ_CAPABILITY_OCP_SMART_C0H,
					 DQ_CAPABILITY_MISSING_PROBE_FAILED, "out of memory");
		return;
	}
	rc = dq_nvme_get_log(fd, DQ_NVME_LOG_SMART, 0xffffffffu, log, DQ_NVME_LOG_PAGE_BYTES, err,
			     sizeof(err));
	if (rc != 0) {
		dq_capability_lack_range(caps, DQ_CAPABILITY_SMART, DQ_CAPABILITY_OCP_SMART_C0H,
					 dq_nvme_missing_for(rc), err);
		free(log);
		return;
	}
	dq_capability_have(caps, DQ_CAPABILITY_SMART, "Get Log Page 02h answered");
	rc = dq_nvme_get_log(fd, DQ_NVME_LOG_OCP_SMART_EXTENDED, 0xffffffffu, log,
			     DQ_NVME_LOG_PAGE_BYTES, err, sizeof(err));
	memset(&smart, 0, sizeof(smart));
	if (rc != 0) {
		dq_capability_lack(caps, DQ_CAPABILITY_OCP_SMART_C0H, dq_nvme_missing_for(rc), "%s",
				   err);
	} else if (!dq_nvme_ocp_parse(log, &smart)) {
		dq_capability_lack(caps, DQ_CAPABILITY_OCP_SMART_C0H, DQ_CAPABILITY_MISSING_DEVICE,
				   "log C0h answered without the OCP GUID: a vendor page, not the "
				   "OCP extended SMART log");
	} else {
		dq_capability_have(caps, DQ_CAPABILITY_OCP_SMART_C0H,
				   "OCP extended SMART log (GUID checked)");
	}
	free(log);
}

/* An available capability's setting, read with Get Features; unknown (no enabled) if refused. */
static void probe_setting(int fd, struct dq_capabilities *caps, enum dq_capability capability,
			  uint8_t fid, uint32_t nsid, uint32_t cdw11)
{
	struct dq_capability_state *state = &caps->items[capability];
	uint32_t result = 0;
	char err[200];
	size_t used;

	if (!state->available) {
		return;
	}
	if (dq_nvme_get_feature(fd, fid, nsid, cdw11, &result, err, sizeof(err)) == 0) {
		state->has_enabled = true;
		state->enabled = (result & 1u) != 0;
		return;
	}
	used = strlen(state->detail);
	snprintf(state->detail + used, sizeof(state->detail) - used, "; its setting is unknown: %s",
		 err);
}

void dq_nvme_probe_capabilities(int fd, uint32_t nsid, const struct dq_nvme_controller *controller,
				int identify_rc, const char *identify_err, bool single_namespace,
				struct dq_capabilities *caps, struct dq_nvme_fdp_probe *fdp)
{
	struct dq_nvme_namespace ns = { 0 };
	char err[200];

	if (controller == NULL) {
		char detail[DQ_CAPABILITY_DETAIL_MAX_CHARS + 1];

		snprintf(detail, sizeof(detail), "%s%s", identify_err,
			 dq_nvme_missing_for(identify_rc) == DQ_CAPABILITY_MISSING_PRIVILEGE ?
				 " (NVMe admin passthrough needs CAP_SYS_ADMIN)" :
				 "");
		dq_nvme_capabilities_unreachable(caps, dq_nvme_missing_for(identify_rc), detail);
		return;
	}
	dq_nvme_capabilities_from_controller(controller, single_namespace, caps);
	probe_logs(fd, caps);
	probe_setting(fd, caps, DQ_CAPABILITY_VOLATILE_WRITE_CACHE,
		      NVME_FEATURE_VOLATILE_WRITE_CACHE, 0, 0);
	if (caps->items[DQ_CAPABILITY_FDP].available && fdp != NULL) {
		if (dq_nvme_identify_namespace(fd, nsid, &ns, err, sizeof(err)) == 0) {
			fdp->endgid = ns.endgid;
			fdp->handles = dq_nvme_fdp_probe(fd, ns.endgid, caps, &fdp->config);
		} else {
			dq_capability_have(caps, DQ_CAPABILITY_FDP,
					   "CTRATT bit 19 set; its endurance group unknown: %s",
					   err);
		}
	}
}
