/*
 * Parsers of fio-style sizes and bounded integers for the command line and target names.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "contract/units.h"

int dq_parse_size(const char *text, uint64_t *bytes)
{
	unsigned long long value;
	unsigned shift = 0;
	char *end;

	errno = 0;
	value = strtoull(text, &end, 10);
	if (errno != 0 || end == text || text[0] == '-' || text[0] == '+') {
		return -EINVAL;
	}
	switch (*end) {
	case '\0':
		break;
	case 'b':
	case 'B':
		break;
	case 'k':
	case 'K':
		shift = 10;
		break;
	case 'm':
	case 'M':
		shift = 20;
		break;
	case 'g':
	case 'G':
		shift = 30;
		break;
	case 't':
	case 'T':
		shift = 40;
		break;
	default:
		return -EINVAL;
	}
	if (*end != '\0' && end[1] != '\0' && strcmp(end + 1, "iB") != 0 &&
	    strcmp(end + 1, "ib") != 0 && strcmp(end + 1, "B") != 0 && strcmp(end + 1, "b") != 0) {
		return -EINVAL;
	}
	if (value == 0 || value > ((unsigned long long)INT64_MAX >> shift)) {
		return -EINVAL;
	}
	*bytes = (uint64_t)value << shift;
	return 0;
}

int dq_parse_u32(const char *text, uint32_t min, uint32_t max, uint32_t *value)
{
	unsigned long parsed;
	char *end;

	errno = 0;
	parsed = strtoul(text, &end, 10);
	if (errno != 0 || end == text || *end != '\0' || text[0] == '-' || text[0] == '+' ||
	    parsed < min || parsed > max) {
		return -EINVAL;
	}
	*value = (uint32_t)parsed;
	return 0;
}
