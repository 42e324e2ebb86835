/*
 * Drive profiles as data: profiles/<name>.json read with json-c through one option table (fio's
 * offsetof style), strict about unknown keys so a typo in a profile fails loudly instead of
 * silently simulating a different drive.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "sim_internal.h"

enum sim_field_type {
	SIM_FIELD_U64,
	SIM_FIELD_U32,
	SIM_FIELD_DOUBLE,
	SIM_FIELD_STRING,
	SIM_FIELD_VICTIM,
};

struct sim_field {
	const char *section; /* NULL: top level */
	const char *key;
	enum sim_field_type type;
	size_t offset;
	size_t size; /* strings: buffer size */
};

#define SIM_FIELD(sec, k, t, member)                                 \
	{                                                            \
		.section = sec, .key = k, .type = t,                 \
		.offset = offsetof(struct dq_sim_profile, member),   \
		.size = sizeof(((struct dq_sim_profile *)0)->member) \
	}

/* The optional sections: without them a drive has no thermal model, no FDP. */
#define SIM_THERMAL "thermal"
#define SIM_FDP "fdp"

static const struct sim_field g_sim_fields[] = {
	SIM_FIELD(NULL, "name", SIM_FIELD_STRING, name),
	SIM_FIELD(NULL, "model", SIM_FIELD_STRING, model),
	SIM_FIELD(NULL, "firmware", SIM_FIELD_STRING, firmware),
	SIM_FIELD("capacity", "user_bytes", SIM_FIELD_U64, user_bytes),
	SIM_FIELD("capacity", "raw_bytes", SIM_FIELD_U64, raw_bytes),
	SIM_FIELD("capacity", "lba_bytes", SIM_FIELD_U32, lba_bytes),
	SIM_FIELD("nand", "channels", SIM_FIELD_U32, channels),
	SIM_FIELD("nand", "dies_per_channel", SIM_FIELD_U32, dies_per_channel),
	SIM_FIELD("nand", "planes", SIM_FIELD_U32, planes),
	SIM_FIELD("nand", "page_bytes", SIM_FIELD_U32, page_bytes),
	SIM_FIELD("nand", "pages_per_block", SIM_FIELD_U32, pages_per_block),
	SIM_FIELD("nand", "read_us", SIM_FIELD_DOUBLE, read_us),
	SIM_FIELD("nand", "program_us", SIM_FIELD_DOUBLE, program_us),
	SIM_FIELD("nand", "erase_us", SIM_FIELD_DOUBLE, erase_us),
	SIM_FIELD("nand", "channel_mbps", SIM_FIELD_DOUBLE, channel_mbps),
	SIM_FIELD("nand", "jitter_pct", SIM_FIELD_DOUBLE, jitter_pct),
	SIM_FIELD("nand", "rated_pe_cycles", SIM_FIELD_U32, rated_pe_cycles),
	SIM_FIELD("host", "max_mbps", SIM_FIELD_DOUBLE, host_max_mbps),
	SIM_FIELD("host", "max_kiops", SIM_FIELD_DOUBLE, host_max_kiops),
	SIM_FIELD("host", "command_us", SIM_FIELD_DOUBLE, command_us),
	SIM_FIELD("host", "write_buffer_kib", SIM_FIELD_U32, write_buffer_kib),
	SIM_FIELD("gc", "victim", SIM_FIELD_VICTIM, victim),
	SIM_FIELD("gc", "eagerness", SIM_FIELD_DOUBLE, eagerness),
	SIM_FIELD("gc", "free_target_pct", SIM_FIELD_DOUBLE, free_target_pct),
	SIM_FIELD("gc", "foreground_step_pct", SIM_FIELD_DOUBLE, foreground_step_pct),
	SIM_FIELD("gc", "idle_delay_ms", SIM_FIELD_DOUBLE, idle_delay_ms),
	SIM_FIELD("gc", "idle_target_pct", SIM_FIELD_DOUBLE, idle_target_pct),
	SIM_FIELD(SIM_THERMAL, "ambient_c", SIM_FIELD_DOUBLE, ambient_c),
	SIM_FIELD(SIM_THERMAL, "idle_w", SIM_FIELD_DOUBLE, idle_w),
	SIM_FIELD(SIM_THERMAL, "c_per_w", SIM_FIELD_DOUBLE, c_per_w),
	SIM_FIELD(SIM_THERMAL, "time_constant_s", SIM_FIELD_DOUBLE, time_constant_s),
	SIM_FIELD(SIM_THERMAL, "command_uj", SIM_FIELD_DOUBLE, command_uj),
	SIM_FIELD(SIM_THERMAL, "program_nj_per_byte", SIM_FIELD_DOUBLE, program_nj_per_byte),
	SIM_FIELD(SIM_THERMAL, "read_nj_per_byte", SIM_FIELD_DOUBLE, read_nj_per_byte),
	SIM_FIELD(SIM_THERMAL, "erase_uj", SIM_FIELD_DOUBLE, erase_uj),
	SIM_FIELD(SIM_THERMAL, "throttle_c", SIM_FIELD_DOUBLE, throttle_c),
	SIM_FIELD(SIM_THERMAL, "throttle_release_c", SIM_FIELD_DOUBLE, throttle_release_c),
	SIM_FIELD(SIM_THERMAL, "throttle_speed_pct", SIM_FIELD_DOUBLE, throttle_speed_pct),
	SIM_FIELD(SIM_THERMAL, "warning_c", SIM_FIELD_DOUBLE, warning_c),
	SIM_FIELD(SIM_THERMAL, "critical_c", SIM_FIELD_DOUBLE, critical_c),
	SIM_FIELD(SIM_FDP, "reclaim_unit_handles", SIM_FIELD_U32, fdp_handles),
};

#define SIM_NFIELDS (sizeof(g_sim_fields) / sizeof(g_sim_fields[0]))

__attribute__((format(printf, 3, 4))) static int sim_profile_fail(char *err, size_t err_len,
								  const char *fmt, ...)
{
	va_list ap;

	if (err != NULL && err_len > 0) {
		va_start(ap, fmt);
		vsnprintf(err, err_len, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static int sim_profile_set(const struct sim_field *f, json_object *v, struct dq_sim_profile *p,
			   char *err, size_t err_len)
{
	char *dst = (char *)p + f->offset;
	const char *sec = f->section ? f->section : "(top)";
	int64_t i;
	double x;

	switch (f->type) {
	case SIM_FIELD_STRING:
		if (!json_object_is_type(v, json_type_string) ||
		    (size_t)json_object_get_string_len(v) >= f->size)
			return sim_profile_fail(err, err_len,
						"%s.%s: a string that is too long or missing", sec,
						f->key);
		memcpy(dst, json_object_get_string(v), (size_t)json_object_get_string_len(v) + 1);
		return 0;
	case SIM_FIELD_VICTIM:
		if (json_object_is_type(v, json_type_string) &&
		    strcmp(json_object_get_string(v), "greedy") == 0)
			p->victim = DQ_SIM_VICTIM_GREEDY;
		else if (json_object_is_type(v, json_type_string) &&
			 strcmp(json_object_get_string(v), "cost-benefit") == 0)
			p->victim = DQ_SIM_VICTIM_COST_BENEFIT;
		else if (json_object_is_type(v, json_type_string) &&
			 strcmp(json_object_get_string(v), "fifo") == 0)
			p->victim = DQ_SIM_VICTIM_FIFO;
		else
			return sim_profile_fail(err, err_len,
						"%s.%s: \"greedy\", \"cost-benefit\" or \"fifo\"",
						sec, f->key);
		return 0;
	case SIM_FIELD_DOUBLE:
		if (!json_object_is_type(v, json_type_double) &&
		    !json_object_is_type(v, json_type_int))
			return sim_profile_fail(err, err_len, "%s.%s: a number", sec, f->key);
		x = json_object_get_double(v);
		memcpy(dst, &x, sizeof(x));
		return 0;
	default:
		break;
	}
	if (!json_object_is_type(v, json_type_int))
		return sim_profile_fail(err, err_len, "%s.%s: an integer", sec, f->key);
	errno = 0;
	i = json_object_get_int64(v);
	if (errno != 0 || i < 0 || (f->type == SIM_FIELD_U32 && i > (int64_t)UINT32_MAX))
		return sim_profile_fail(err, err_len, "%s.%s: out of range", sec, f->key);
	if (f->type == SIM_FIELD_U32) {
		uint32_t u = (uint32_t)i;

		memcpy(dst, &u, sizeof(u));
	} else {
		uint64_t u = (uint64_t)i;

		memcpy(dst, &u, sizeof(u));
	}
	return 0;
}

static bool sim_profile_known(const char *section, const char *key)
{
	for (size_t i = 0; i < SIM_NFIELDS; i++) {
		const struct sim_field *f = &g_sim_fields[i];

		if (section == NULL && f->section == NULL && strcmp(f->key, key) == 0)
			return true;
		if (section != NULL && f->section != NULL && strcmp(f->section, section) == 0 &&
		    strcmp(f->key, key) == 0)
			return true;
		if (section == NULL && f->section != NULL && strcmp(f->section, key) == 0)
			return true;
	}
	return section == NULL && strcmp(key, "description") == 0;
}

static int sim_profile_from_json(json_object *root, struct dq_sim_profile *p, char *err,
				 size_t err_len)
{
	bool fdp;
	int rc;

	if (!json_object_is_type(root, json_type_object))
		return sim_profile_fail(err, err_len, "the profile is not a JSON object");
	json_object_object_foreach(root, key, val) {
		if (!sim_profile_known(NULL, key))
			return sim_profile_fail(err, err_len, "unknown key \"%s\"", key);
		if (strcmp(key, "description") == 0 || !json_object_is_type(val, json_type_object))
			continue;
		json_object_object_foreach(val, sub, unused) {
			(void)unused;
			if (!sim_profile_known(key, sub))
				return sim_profile_fail(err, err_len, "unknown key \"%s.%s\"", key,
							sub);
		}
	}
	memset(p, 0, sizeof(*p));
	p->thermal_enabled = json_object_object_get_ex(root, SIM_THERMAL, NULL);
	fdp = json_object_object_get_ex(root, SIM_FDP, NULL);
	for (size_t i = 0; i < SIM_NFIELDS; i++) {
		const struct sim_field *f = &g_sim_fields[i];
		json_object *sec = root, *v;

		if (!p->thermal_enabled && f->section != NULL &&
		    strcmp(f->section, SIM_THERMAL) == 0)
			continue;
		if (!fdp && f->section != NULL && strcmp(f->section, SIM_FDP) == 0)
			continue;
		if (f->section != NULL && !json_object_object_get_ex(root, f->section, &sec))
			return sim_profile_fail(err, err_len, "missing section \"%s\"", f->section);
		if (!json_object_object_get_ex(sec, f->key, &v))
			return sim_profile_fail(err, err_len, "missing key \"%s\" in %s", f->key,
						f->section ? f->section : "the top level");
		rc = sim_profile_set(f, v, p, err, err_len);
		if (rc != 0)
			return rc;
	}
	if (fdp && p->fdp_handles == 0)
		return sim_profile_fail(
			err, err_len,
			"fdp.reclaim_unit_handles must be 1..%u (omit \"fdp\" for none)",
			DQ_SIM_FDP_MAX_HANDLES);
	return dq_sim_profile_validate(p, err, err_len);
}

int dq_sim_profile_load(const char *path, struct dq_sim_profile *profile, char *err, size_t err_len)
{
	json_object *root;
	int rc;

	if (path == NULL || profile == NULL)
		return -EINVAL;
	root = json_object_from_file(path);
	if (root == NULL) {
		FILE *f = fopen(path, "r");

		if (f == NULL) {
			rc = -errno;
			snprintf(err, err_len, "%s: %s", path, strerror(-rc));
			return rc;
		}
		fclose(f);
		snprintf(err, err_len, "%s: not valid JSON (%s)", path, json_util_get_last_err());
		return -EIO;
	}
	rc = sim_profile_from_json(root, profile, err, err_len);
	json_object_put(root);
	return rc;
}

int dq_sim_profile_load_name(const char *dir, const char *name, struct dq_sim_profile *profile,
			     char *err, size_t err_len)
{
	char path[4096];

	if (dir == NULL || name == NULL || name[0] == '\0' || name[0] == '.' ||
	    strchr(name, '/') != NULL)
		return sim_profile_fail(err, err_len, "bad profile name \"%s\"", name ? name : "");
	if ((size_t)snprintf(path, sizeof(path), "%s/%s.json", dir, name) >= sizeof(path))
		return sim_profile_fail(err, err_len, "profile path too long");
	return dq_sim_profile_load(path, profile, err, err_len);
}

static int sim_profile_range(double v, double lo, double hi, const char *what, char *err,
			     size_t err_len)
{
	char range[64];

	if (v >= lo && v <= hi)
		return 0;
	snprintf(range, sizeof(range), "[%g, %g]", lo, hi);
	return sim_profile_fail(err, err_len, "%s must be in %s", what, range);
}

static int sim_profile_validate_thermal(const struct dq_sim_profile *p, char *err, size_t err_len)
{
	int rc = 0;

	if (!p->thermal_enabled)
		return 0;
	rc = rc ? rc : sim_profile_range(p->ambient_c, -40, 100, "thermal.ambient_c", err, err_len);
	rc = rc ? rc : sim_profile_range(p->idle_w, 0, 100, "thermal.idle_w", err, err_len);
	rc = rc ? rc : sim_profile_range(p->c_per_w, 0.01, 100, "thermal.c_per_w", err, err_len);
	rc = rc ? rc :
		  sim_profile_range(p->time_constant_s, 0.1, 1e5, "thermal.time_constant_s", err,
				    err_len);
	rc = rc ? rc : sim_profile_range(p->command_uj, 0, 1e4, "thermal.command_uj", err, err_len);
	rc = rc ? rc :
		  sim_profile_range(p->program_nj_per_byte, 0, 1e4, "thermal.program_nj_per_byte",
				    err, err_len);
	rc = rc ? rc :
		  sim_profile_range(p->read_nj_per_byte, 0, 1e4, "thermal.read_nj_per_byte", err,
				    err_len);
	rc = rc ? rc : sim_profile_range(p->erase_uj, 0, 1e6, "thermal.erase_uj", err, err_len);
	rc = rc ? rc :
		  sim_profile_range(p->throttle_speed_pct, 1, 100, "thermal.throttle_speed_pct",
				    err, err_len);
	if (rc != 0)
		return rc;
	if (!(p->ambient_c < p->throttle_release_c && p->throttle_release_c < p->throttle_c))
		return sim_profile_fail(
			err, err_len,
			"thermal: ambient_c < throttle_release_c < throttle_c must hold");
	if (!(p->ambient_c < p->warning_c && p->warning_c < p->critical_c && p->critical_c < 200))
		return sim_profile_fail(
			err, err_len,
			"thermal: ambient_c < warning_c < critical_c < 200 must hold");
	return 0;
}

int dq_sim_profile_validate(const struct dq_sim_profile *p, char *err, size_t err_len)
{
	uint64_t upb, block_bytes, blocks, user_units, user_blocks;
	int rc = 0;

	if (p->name[0] == '\0' || p->model[0] == '\0' || p->firmware[0] == '\0')
		return sim_profile_fail(err, err_len, "name, model and firmware must not be empty");
	if (p->lba_bytes != 512 && p->lba_bytes != 4096)
		return sim_profile_fail(err, err_len, "capacity.lba_bytes must be 512 or 4096");
	if (p->page_bytes == 0 || p->page_bytes % SIM_UNIT_BYTES != 0 || p->page_bytes > 65536)
		return sim_profile_fail(err, err_len,
					"nand.page_bytes must be 4096..65536 in 4096 steps");
	rc = rc ? rc : sim_profile_range(p->channels, 1, 64, "nand.channels", err, err_len);
	rc = rc ? rc :
		  sim_profile_range(p->dies_per_channel, 1, 64, "nand.dies_per_channel", err,
				    err_len);
	rc = rc ? rc : sim_profile_range(p->planes, 1, 8, "nand.planes", err, err_len);
	rc = rc ? rc :
		  sim_profile_range(p->pages_per_block, 1, 8192, "nand.pages_per_block", err,
				    err_len);
	rc = rc ? rc : sim_profile_range(p->read_us, 1, 1e5, "nand.read_us", err, err_len);
	rc = rc ? rc : sim_profile_range(p->program_us, 1, 1e5, "nand.program_us", err, err_len);
	rc = rc ? rc : sim_profile_range(p->erase_us, 1, 1e6, "nand.erase_us", err, err_len);
	rc = rc ? rc :
		  sim_profile_range(p->channel_mbps, 1, 1e5, "nand.channel_mbps", err, err_len);
	rc = rc ? rc : sim_profile_range(p->jitter_pct, 0, 50, "nand.jitter_pct", err, err_len);
	rc = rc ? rc :
		  sim_profile_range(p->rated_pe_cycles, 1, 1e7, "nand.rated_pe_cycles", err,
				    err_len);
	rc = rc ? rc : sim_profile_range(p->host_max_mbps, 1, 1e6, "host.max_mbps", err, err_len);
	rc = rc ? rc :
		  sim_profile_range(p->host_max_kiops, 0.001, 1e5, "host.max_kiops", err, err_len);
	rc = rc ? rc : sim_profile_range(p->command_us, 0, 1e5, "host.command_us", err, err_len);
	rc = rc ? rc :
		  sim_profile_range(p->write_buffer_kib, 4, 1 << 22, "host.write_buffer_kib", err,
				    err_len);
	rc = rc ? rc : sim_profile_range(p->eagerness, 0, 1, "gc.eagerness", err, err_len);
	rc = rc ? rc :
		  sim_profile_range(p->free_target_pct, 0, 50, "gc.free_target_pct", err, err_len);
	rc = rc ? rc :
		  sim_profile_range(p->foreground_step_pct, 0, 100, "gc.foreground_step_pct", err,
				    err_len);
	rc = rc ? rc :
		  sim_profile_range(p->idle_delay_ms, 0, 1e7, "gc.idle_delay_ms", err, err_len);
	rc = rc ? rc :
		  sim_profile_range(p->idle_target_pct, 0, 90, "gc.idle_target_pct", err, err_len);
	if (rc != 0)
		return rc;
	if (p->victim != DQ_SIM_VICTIM_GREEDY && p->victim != DQ_SIM_VICTIM_COST_BENEFIT &&
	    p->victim != DQ_SIM_VICTIM_FIFO)
		return sim_profile_fail(err, err_len, "gc.victim is unknown");
	if (p->fdp_handles > DQ_SIM_FDP_MAX_HANDLES)
		return sim_profile_fail(err, err_len, "fdp.reclaim_unit_handles must be 1..%u",
					DQ_SIM_FDP_MAX_HANDLES);
	rc = sim_profile_validate_thermal(p, err, err_len);
	if (rc != 0)
		return rc;

	upb = (uint64_t)p->channels * p->dies_per_channel * p->pages_per_block * p->planes *
	      (p->page_bytes / SIM_UNIT_BYTES);
	block_bytes = upb * SIM_UNIT_BYTES;
	blocks = p->raw_bytes / block_bytes;
	user_units = (p->user_bytes + SIM_UNIT_BYTES - 1) / SIM_UNIT_BYTES;
	user_blocks = (user_units + upb - 1) / upb;
	if (upb > (1u << 24))
		return sim_profile_fail(err, err_len,
					"a superblock (all dies x planes x pages) is over 64 GiB");
	if (p->user_bytes == 0 || p->user_bytes % p->lba_bytes != 0 || user_units >= UINT32_MAX)
		return sim_profile_fail(
			err, err_len,
			"capacity.user_bytes must be a positive multiple of lba_bytes below 16 TiB");
	if (blocks * upb >= UINT32_MAX)
		return sim_profile_fail(err, err_len, "capacity.raw_bytes must be below 16 TiB");
	/* each FDP handle keeps up to two superblocks open (its host and GC frontiers) */
	if (blocks < user_blocks + SIM_MIN_FREE_BLOCKS + 8 + 2ull * p->fdp_handles)
		return sim_profile_fail(
			err, err_len,
			"the spare area (raw - user) must hold at least %u superblocks",
			SIM_MIN_FREE_BLOCKS + 8u + 2u * p->fdp_handles);
	return 0;
}
