/*
 * The allowlist as the agent keeps it in force: loaded at start, reloaded when its file changes
 * (a stat poll: mtime, size, inode and device, so the kubelet's symlink swap of a ConfigMap is seen
 * too), never widened by a file that does not load: a malformed file keeps the previous allowlist
 * and says why. Pure file handling with no Kafka and no threads, so ctest proves it on real files.
 */
#ifndef DRIVEQUAL_AGENT_ALLOWLIST_H
#define DRIVEQUAL_AGENT_ALLOWLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "device/interlock.h"

struct dq_allowlist_watch {
	char *path; /* NULL: no allowlist file (nothing is allowlisted, nothing to reload) */
	struct dq_allowlist current; /* the allowlist in force */
	bool have_stat;
	struct stat seen; /* the file as last read, loaded or not: a change is a difference */
	char error[512]; /* why the file on disk is not in force; "" when it is */
};

/* Load path (NULL: an empty allowlist, no file). 0, or -errno with err saying why. */
int dq_allowlist_watch_init(struct dq_allowlist_watch *watch, const char *path, char *err,
			    size_t err_len);
void dq_allowlist_watch_fini(struct dq_allowlist_watch *watch);

/*
 * Look at the file once. Returns 1 when it changed and loaded: current is the new allowlist and
 * *previous the one it replaced (the caller finis it); 0 when nothing changed (or the same bad file
 * is still there); -errno when it changed but did not load (or vanished): current is kept and
 * watch->error says why, once per change.
 */
int dq_allowlist_watch_poll(struct dq_allowlist_watch *watch, struct dq_allowlist *previous);

#endif /* DRIVEQUAL_AGENT_ALLOWLIST_H */
