/*
 * What a device target supports, decided from what its engine reported at open(): the purge the
 * contract's "auto" means for it, and what a purge phase with a fallback runs.
 */
#include <stddef.h>

#include "device/target.h"

enum dq_purge_method dq_device_target_strongest_purge(const struct dq_device_target *target)
{
	/* The contract's order for auto: sanitize, else format with erase; a TRIM is no purge. */
	static const enum dq_purge_method strongest_first[] = {
		DQ_PURGE_METHOD_SANITIZE_CRYPTO,    DQ_PURGE_METHOD_SANITIZE_BLOCK,
		DQ_PURGE_METHOD_SANITIZE_OVERWRITE, DQ_PURGE_METHOD_FORMAT_CRYPTO,
		DQ_PURGE_METHOD_FORMAT_USER_DATA,
	};
	size_t i;

	for (i = 0; i < sizeof(strongest_first) / sizeof(strongest_first[0]); i++) {
		if (target->purge_methods & (1u << strongest_first[i])) {
			return strongest_first[i];
		}
	}
	return DQ_PURGE_METHOD_NONE;
}

enum dq_purge_method dq_device_target_resolve_purge(const struct dq_device_target *target,
						    enum dq_purge_method method,
						    enum dq_purge_method fallback)
{
	if (method == DQ_PURGE_METHOD_AUTO) {
		method = dq_device_target_strongest_purge(target);
	}
	if (method != DQ_PURGE_METHOD_NONE && (target->purge_methods & (1u << method))) {
		return method;
	}
	if (fallback != DQ_PURGE_METHOD_NONE && (target->purge_methods & (1u << fallback))) {
		return fallback;
	}
	return DQ_PURGE_METHOD_NONE;
}
