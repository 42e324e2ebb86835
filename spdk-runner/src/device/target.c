/*
 * What a device target supports, decided from what its engine reported at open(): the purge the
 * contract's "auto" means for it.
 */
#include <stddef.h>

#include "device/target.h"

enum dq_purge_method dq_device_target_strongest_purge(const struct dq_device_target *target)
{
	/* The contract's order for auto: sanitize, else format with erase, else deallocate-all. */
	static const enum dq_purge_method strongest_first[] = {
		DQ_PURGE_METHOD_SANITIZE_CRYPTO,    DQ_PURGE_METHOD_SANITIZE_BLOCK,
		DQ_PURGE_METHOD_SANITIZE_OVERWRITE, DQ_PURGE_METHOD_FORMAT_CRYPTO,
		DQ_PURGE_METHOD_FORMAT_USER_DATA,   DQ_PURGE_METHOD_DEALLOCATE,
	};
	size_t i;

	for (i = 0; i < sizeof(strongest_first) / sizeof(strongest_first[0]); i++) {
		if (target->purge_methods & (1u << strongest_first[i])) {
			return strongest_first[i];
		}
	}
	return DQ_PURGE_METHOD_NONE;
}
