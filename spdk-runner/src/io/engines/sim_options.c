/*
 * What names a simulated drive: the sim engine's options table (sim_profiles_dir, sim_medium,
 * sim_model, sim_time_scale, sim_stall, sim_power, sim_cache_kib), the parse of its target
 * (sim:<profile>[@<seed>]) and of sim_stall, and discovery of the profiles as targets.
 */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contract/clock.h"
#include "engines/sim_engine.h"

#define SIM_DEFAULT_SEED 1

const struct dq_engine_option sim_option_table[] = {
	{
		.name = "sim_profiles_dir",
		.type = DQ_ENGINE_OPTION_STR,
		.offset = offsetof(struct sim_options, profiles_dir),
		.default_value = DQ_SIM_PROFILES_DIR,
		.help = "directory of the drive profiles (<name>.json) that sim:<name> names",
	},
	{
		.name = "sim_medium",
		.type = DQ_ENGINE_OPTION_BOOL,
		.offset = offsetof(struct sim_options, medium),
		.default_value = "0",
		.help = "keep what is written so reads return it (purge proofs and data verify on a "
			"simulated drive; memory grows with the data written)",
	},
	{
		.name = "sim_model",
		.type = DQ_ENGINE_OPTION_STR,
		.offset = offsetof(struct sim_options, model),
		.default_value = "ftl",
		.help = "ftl: every IO through the FTL; fluid: the same drive modelled a second at "
			"a time (microseconds of CPU per second, for fleets of paced drives)",
	},
	{
		.name = "sim_time_scale",
		.type = DQ_ENGINE_OPTION_UINT,
		.offset = offsetof(struct sim_options, time_scale),
		.default_value = "0",
		.help = "simulated seconds per wall-clock second at most: 1 is real time, 0 as fast "
			"as the model runs",
	},
	{
		.name = "sim_stall",
		.type = DQ_ENGINE_OPTION_STR,
		.offset = offsetof(struct sim_options, stall),
		.default_value = "",
		.help = "AT_MS+LENGTH_MS: the drive completes nothing in [AT, AT + LENGTH) ms of its "
			"clock (0 at open), a firmware stall of known length (what a latency "
			"measure must not hide; per-IO model only)",
	},
	{
		.name = "sim_power",
		.type = DQ_ENGINE_OPTION_STR,
		.offset = offsetof(struct sim_options, power),
		.default_value = "",
		.help = "plp, volatile or liar: the write cache's behaviour at a power cut (with "
			"protection; without, a flush makes writes durable; acknowledging flushes it "
			"does not keep), and the sim power driver to cut it; needs sim_medium=1. "
			"Empty: no power driver",
	},
	{
		.name = "sim_cache_kib",
		.type = DQ_ENGINE_OPTION_UINT,
		.offset = offsetof(struct sim_options, cache_kib),
		.default_value = "0",
		.help = "with sim_power: the write cache's size in KiB (0: the profile's "
			"write_buffer_kib); a small one destages early, so a cut finds fewer writes "
			"cached",
	},
	{ .name = NULL },
};

/* sim_stall's AT_MS+LENGTH_MS; "" is none. */
int sim_parse_stall(const char *text, struct sim_engine *engine, char *err, size_t err_len)
{
	unsigned long long at_ms, length_ms;
	int consumed = 0;

	if (text == NULL || text[0] == '\0') {
		return 0;
	}
	if (sscanf(text, "%llu+%llu%n", &at_ms, &length_ms, &consumed) != 2 ||
	    text[consumed] != '\0' || length_ms == 0 || at_ms > 1000000000ULL ||
	    length_ms > 1000000000ULL) {
		snprintf(err, err_len,
			 "sim: --sim_stall takes AT_MS+LENGTH_MS (e.g. 10000+200), not '%s'", text);
		return -EINVAL;
	}
	engine->stall_start_ns = at_ms * DQ_NS_PER_MS;
	engine->stall_end_ns = (at_ms + length_ms) * DQ_NS_PER_MS;
	return 0;
}

/* "sim:<profile>" or "sim:<profile>@<seed>": the seed tells two drives of one profile apart. */
int sim_parse_target(const char *target, char *profile, size_t profile_len, uint64_t *seed,
		     char *err, size_t err_len)
{
	const char *name;
	const char *at;
	char *end;
	size_t len;

	if (strncmp(target, "sim:", 4) != 0 || target[4] == '\0') {
		snprintf(err, err_len,
			 "the sim engine's target is sim:<profile>[@<seed>], not '%s'", target);
		return -ENOENT;
	}
	name = target + 4;
	at = strchr(name, '@');
	len = at != NULL ? (size_t)(at - name) : strlen(name);
	if (len == 0 || len >= profile_len) {
		snprintf(err, err_len, "sim: bad profile name in '%s'", target);
		return -EINVAL;
	}
	memcpy(profile, name, len);
	profile[len] = '\0';
	*seed = SIM_DEFAULT_SEED;
	if (at != NULL) {
		errno = 0;
		*seed = strtoull(at + 1, &end, 10);
		if (errno != 0 || end == at + 1 || *end != '\0' || *seed == 0) {
			snprintf(err, err_len,
				 "sim: the seed after @ must be a positive integer in '%s'",
				 target);
			return -EINVAL;
		}
	}
	return 0;
}

/* Every profile of the default directory, as sim:<name>. */
int sim_discover(void (*found)(const char *target, void *arg), void *arg)
{
	DIR *dir = opendir(DQ_SIM_PROFILES_DIR);
	struct dirent *entry;
	char target[300];

	if (dir == NULL) {
		return 0;
	}
	while ((entry = readdir(dir)) != NULL) {
		size_t len = strlen(entry->d_name);

		if (len > 5 && len < 200 && strcmp(entry->d_name + len - 5, ".json") == 0) {
			snprintf(target, sizeof(target), "sim:%.*s", (int)(len - 5), entry->d_name);
			found(target, arg);
		}
	}
	closedir(dir);
	return 0;
}
