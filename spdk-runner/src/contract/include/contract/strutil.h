/*
 * Bounded string copy for the runner's fixed-size message fields (glibc has no strlcpy before
 * 2.38), so truncation is explicit rather than a format warning.
 */
#ifndef DRIVEQUAL_STRUTIL_H
#define DRIVEQUAL_STRUTIL_H

#include <stddef.h>
#include <string.h>

/* Copy src into dst of size bytes, truncating; always NUL-terminates when size > 0. Returns
 * strlen(src), so a result >= size means truncated. */
static inline size_t dq_strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size > 0) {
		size_t n = len < size - 1 ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

#endif /* DRIVEQUAL_STRUTIL_H */
