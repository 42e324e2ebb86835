/*
 * The assertion helper the runner's unit tests share: count checks, print every failure with its
 * location, and let main() turn the tally into the exit status.
 */
#ifndef DRIVEQUAL_TEST_UTIL_H
#define DRIVEQUAL_TEST_UTIL_H

#include <stddef.h>
#include <stdio.h>

struct test_ctx {
	size_t checks;
	size_t failures;
};

#define CHECK(t, cond, ...)                                                    \
	do {                                                                   \
		(t)->checks++;                                                 \
		if (!(cond)) {                                                 \
			(t)->failures++;                                       \
			printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			printf(__VA_ARGS__);                                   \
			printf("\n");                                          \
		}                                                              \
	} while (0)

static inline int test_report(const struct test_ctx *t, const char *name)
{
	printf("%s: %zu checks, %zu failure(s)\n", name, t->checks, t->failures);
	return t->failures == 0 ? 0 : 1;
}

#endif /* DRIVEQUAL_TEST_UTIL_H */
