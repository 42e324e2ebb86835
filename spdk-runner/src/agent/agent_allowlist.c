/*
 * The allowlist in force and its reload on change (agent_allowlist.h): the agent's loop polls it
 * about once a second and cancels the running jobs of drives a reload removed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent_allowlist.h"
#include "contract/strutil.h"

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

int dq_allowlist_watch_init(struct dq_allowlist_watch *watch, const char *path, char *err,
			    size_t err_len)
{
	int rc;

	memset(watch, 0, sizeof(*watch));
	if (path == NULL) {
		return 0;
	}
	watch->path = strdup(path);
	if (watch->path == NULL) {
		return -ENOMEM;
	}
	/* stat before reading: a change while loading is seen by the next poll */
	watch->have_stat = stat(path, &watch->seen) == 0;
	rc = dq_allowlist_load(path, &watch->current, err, err_len);
	if (rc != 0) {
		dq_allowlist_watch_fini(watch);
	}
	return rc;
}

void dq_allowlist_watch_fini(struct dq_allowlist_watch *watch)
{
	dq_allowlist_fini(&watch->current);
	free(watch->path);
	watch->path = NULL;
}

int dq_allowlist_watch_poll(struct dq_allowlist_watch *watch, struct dq_allowlist *previous)
{
	struct dq_allowlist loaded;
	struct stat now;
	char err[sizeof(watch->error)];
	int rc;

	memset(previous, 0, sizeof(*previous));
	if (watch->path == NULL) {
		return 0;
	}
	if (stat(watch->path, &now) != 0) {
		rc = -errno;
		if (!watch->have_stat) {
			return 0; /* still gone: said already */
		}
		watch->have_stat = false;
		snprintf(watch->error, sizeof(watch->error), "allowlist %s: %s", watch->path,
			 strerror(-rc));
		return rc;
	}
	if (watch->have_stat && same_file(&now, &watch->seen)) {
		return 0;
	}
	watch->seen = now;
	watch->have_stat = true;
	rc = dq_allowlist_load(watch->path, &loaded, err, sizeof(err));
	if (rc != 0) {
		dq_strlcpy(watch->error, err, sizeof(watch->error));
		return rc;
	}
	*previous = watch->current;
	watch->current = loaded;
	watch->error[0] = '\0';
	return 1;
}
