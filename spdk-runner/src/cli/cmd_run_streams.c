/*
 * `run --stream SPEC`: one stream of a multi-stream workload as fio's job options name it,
 * comma-separated key=value pairs (rw=randread,bs=4k,iodepth=8,rate_iops=20000), so a phase of
 * concurrent streams can be tried from the command line without a job command. Every value is
 * checked here; the rules across keys are the phase rules every job meets.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_run_streams.h"
#include "contract/phase_rules.h"
#include "contract/units.h"

/* A time in microseconds: a number with an optional unit (us, ms, s), default_us_per the unit of
 * a bare number (fio: thinktime in us, startdelay in s). */
static int parse_time_us(const char *text, uint64_t default_us_per, uint64_t *us)
{
	char *end;
	unsigned long long value = strtoull(text, &end, 10);
	uint64_t per = default_us_per;

	if (end == text || text[0] == '-') {
		return -EINVAL;
	}
	if (strcmp(end, "us") == 0) {
		per = 1;
	} else if (strcmp(end, "ms") == 0) {
		per = 1000;
	} else if (strcmp(end, "s") == 0) {
		per = 1000000;
	} else if (*end != '\0') {
		return -EINVAL;
	}
	if (value > UINT64_MAX / per) {
		return -EINVAL;
	}
	*us = value * per;
	return 0;
}

/* 4k/50:64k/50 */
static int parse_split(const char *text, struct dq_stream_spec *s, char *err, size_t err_len)
{
	char buffer[512], *save = NULL, *item, *slash;
	uint64_t size;
	uint32_t percent;

	if (strlen(text) >= sizeof(buffer)) {
		snprintf(err, err_len, "bssplit is too long");
		return -EINVAL;
	}
	strcpy(buffer, text);
	s->split_count = 0;
	for (item = strtok_r(buffer, ":", &save); item != NULL; item = strtok_r(NULL, ":", &save)) {
		slash = strchr(item, '/');
		if (slash == NULL || s->split_count == DQ_BLOCK_SPLIT_MAX) {
			snprintf(err, err_len,
				 "bssplit takes up to %d SIZE/PERCENT entries joined by ':'",
				 DQ_BLOCK_SPLIT_MAX);
			return -EINVAL;
		}
		*slash = '\0';
		if (dq_parse_size(item, &size) != 0 || size < DQ_BLOCK_SIZE_MIN_BYTES ||
		    size > DQ_STREAM_BLOCK_SIZE_MAX_BYTES ||
		    dq_parse_u32(slash + 1, 1, 100, &percent) != 0) {
			snprintf(err, err_len, "bssplit: '%s/%s' is not SIZE/PERCENT", item,
				 slash + 1);
			return -EINVAL;
		}
		s->split[s->split_count].block_size_bytes = (uint32_t)size;
		s->split[s->split_count].percent = percent;
		s->split_count++;
	}
	return 0;
}

/* offset= and size=: bytes with units, or N% of the capacity. */
static int parse_place(const char *value, bool *has_bytes, uint64_t *bytes, bool *has_percent,
		       double *percent)
{
	size_t len = strlen(value);
	char *end;

	if (len > 1 && value[len - 1] == '%') {
		*percent = strtod(value, &end);
		if (end != value + len - 1) {
			return -EINVAL;
		}
		*has_percent = true;
		return 0;
	}
	if (dq_parse_size(value, bytes) != 0) {
		return -EINVAL;
	}
	*has_bytes = true;
	return 0;
}

static int set_key(struct dq_stream_spec *s, const char *key, const char *value, char *err,
		   size_t err_len)
{
	uint64_t number;
	uint32_t small;
	int i;

	if (strcmp(key, "name") == 0) {
		if (strlen(value) == 0 || strlen(value) > DQ_STREAM_NAME_MAX_LEN) {
			snprintf(err, err_len, "name: 1..%d characters", DQ_STREAM_NAME_MAX_LEN);
			return -EINVAL;
		}
		snprintf(s->name, sizeof(s->name), "%s", value);
		return 0;
	}
	if (strcmp(key, "rw") == 0 || strcmp(key, "readwrite") == 0) {
		for (i = DQ_RW_READ; i <= DQ_RW_RANDTRIM; i++) {
			if (strcmp(dq_rw_to_str((enum dq_rw)i), value) == 0) {
				s->rw = (enum dq_rw)i;
				return 0;
			}
		}
		snprintf(err, err_len,
			 "rw: '%s' is not read, write, rw, randread, randwrite, randrw, "
			 "trim or randtrim",
			 value);
		return -EINVAL;
	}
	if (strcmp(key, "bs") == 0 || strcmp(key, "blocksize") == 0) {
		if (dq_parse_size(value, &number) != 0 || number < DQ_BLOCK_SIZE_MIN_BYTES ||
		    number > DQ_STREAM_BLOCK_SIZE_MAX_BYTES) {
			snprintf(err, err_len, "bs: '%s' is not a size in 512..2g", value);
			return -EINVAL;
		}
		s->block_size_bytes = (uint32_t)number;
		return 0;
	}
	if (strcmp(key, "bssplit") == 0) {
		return parse_split(value, s, err, err_len);
	}
	if (strcmp(key, "offset") == 0 || strcmp(key, "size") == 0) {
		bool offset = strcmp(key, "offset") == 0;

		if (parse_place(value, offset ? &s->has_offset_bytes : &s->has_range_bytes,
				offset ? &s->offset_bytes : &s->range_bytes,
				offset ? &s->has_offset_percent : &s->has_range_percent,
				offset ? &s->offset_percent : &s->range_percent) != 0) {
			snprintf(err, err_len, "%s: '%s' is not a size (e.g. 1g) or a share (10%%)",
				 key, value);
			return -EINVAL;
		}
		return 0;
	}
	if (strcmp(key, "rate_process") == 0) {
		if (strcmp(value, "linear") == 0 || strcmp(value, "uniform") == 0) {
			s->arrivals = DQ_ARRIVALS_UNIFORM;
		} else if (strcmp(value, "poisson") == 0) {
			s->arrivals = DQ_ARRIVALS_POISSON;
		} else {
			snprintf(err, err_len, "rate_process: '%s' is not linear or poisson",
				 value);
			return -EINVAL;
		}
		return 0;
	}
	if (strcmp(key, "fdp_pli") == 0) {
		/* a plain index: handle 0 is a handle (dq_parse_size refuses 0) */
		if (dq_parse_u32(value, 0, DQ_STREAM_PLACEMENT_HANDLE_MAX, &small) != 0) {
			snprintf(err, err_len, "fdp_pli: '%s' is not a placement handle 0..%u",
				 value, DQ_STREAM_PLACEMENT_HANDLE_MAX);
			return -EINVAL;
		}
		s->has_placement_handle = true;
		s->placement_handle = small;
		return 0;
	}
	if (strcmp(key, "rate") == 0) {
		if (dq_parse_size(value, &number) != 0 || number < 1 ||
		    number > DQ_STREAM_RATE_BYTES_MAX) {
			snprintf(err, err_len, "rate: '%s' is not bytes per second (e.g. 100m)",
				 value);
			return -EINVAL;
		}
		s->has_rate_bytes_per_s = true;
		s->rate_bytes_per_s = number;
		return 0;
	}
	if (strcmp(key, "thinktime") == 0 || strcmp(key, "startdelay") == 0) {
		bool think = strcmp(key, "thinktime") == 0;

		if (parse_time_us(value, think ? 1 : 1000000, &number) != 0 ||
		    (think && (number < 1 || number > DQ_STREAM_THINK_TIME_US_MAX)) ||
		    (!think && number / 1000 > DQ_STREAM_START_DELAY_MS_MAX)) {
			snprintf(err, err_len, "%s: '%s' is not a time in range (e.g. 500us, 2s)",
				 key, value);
			return -EINVAL;
		}
		if (think) {
			s->has_think_time_us = true;
			s->think_time_us = (uint32_t)number;
		} else {
			s->has_start_delay_ms = true;
			s->start_delay_ms = (uint32_t)(number / 1000);
		}
		return 0;
	}
	{
		static const struct {
			const char *key;
			uint32_t min;
			uint64_t max;
		} numbers[] = {
			{ "rwmixread", 0, 100 },
			{ "rwmixtrim", 0, 100 },
			{ "percentage_random", 0, 100 },
			{ "iodepth", DQ_QUEUE_DEPTH_MIN, DQ_QUEUE_DEPTH_MAX },
			{ "rate_iops", 1, DQ_STREAM_RATE_IOPS_MAX },
			{ "thinktime_blocks", 1, DQ_STREAM_THINK_TIME_BLOCKS_MAX },
		};
		size_t k;

		for (k = 0; k < sizeof(numbers) / sizeof(numbers[0]); k++) {
			if (strcmp(key, numbers[k].key) != 0) {
				continue;
			}
			if (dq_parse_size(value, &number) != 0 || number < numbers[k].min ||
			    number > numbers[k].max) {
				snprintf(err, err_len, "%s: '%s' is not %u..%llu", key, value,
					 numbers[k].min, (unsigned long long)numbers[k].max);
				return -EINVAL;
			}
			small = (uint32_t)number;
			switch (k) {
			case 0:
				s->has_read_percent = true;
				s->read_percent = small;
				break;
			case 1:
				s->has_trim_percent = true;
				s->trim_percent = small;
				break;
			case 2:
				s->has_random_percent = true;
				s->random_percent = small;
				break;
			case 3:
				s->queue_depth = small;
				break;
			case 4:
				s->has_rate_iops = true;
				s->rate_iops = number;
				break;
			default:
				s->has_think_time_blocks = true;
				s->think_time_blocks = small;
				break;
			}
			return 0;
		}
	}
	snprintf(
		err, err_len,
		"unknown key '%s' (name, rw, rwmixread, rwmixtrim, percentage_random, bs, bssplit, "
		"iodepth, offset, size, rate_iops, rate, rate_process, thinktime, "
		"thinktime_blocks, startdelay, fdp_pli)",
		key);
	return -EINVAL;
}

int dq_run_stream_parse(const char *text, struct dq_stream_spec *s, char *err, size_t err_len)
{
	char buffer[1024], *save = NULL, *pair, *eq;
	int rc;

	memset(s, 0, sizeof(*s));
	s->queue_depth = 1; /* fio's iodepth default */
	if (strlen(text) >= sizeof(buffer)) {
		snprintf(err, err_len, "the stream is too long");
		return -EINVAL;
	}
	strcpy(buffer, text);
	for (pair = strtok_r(buffer, ",", &save); pair != NULL; pair = strtok_r(NULL, ",", &save)) {
		eq = strchr(pair, '=');
		if (eq == NULL || eq == pair || eq[1] == '\0') {
			snprintf(err, err_len, "'%s' is not key=value", pair);
			return -EINVAL;
		}
		*eq = '\0';
		rc = set_key(s, pair, eq + 1, err, err_len);
		if (rc != 0) {
			return rc;
		}
	}
	if (s->rw == DQ_RW_NONE) {
		s->rw = DQ_RW_READ; /* fio's default */
	}
	if (s->block_size_bytes == 0 && s->split_count == 0) {
		s->block_size_bytes = 4096; /* fio's default */
	}
	if ((s->rw == DQ_RW_RW || s->rw == DQ_RW_RANDRW) && !s->has_read_percent) {
		s->has_read_percent = true; /* fio's rwmixread default */
		s->read_percent = 50;
	}
	return 0;
}
