/*
 * The engine table: every engine the contract names, with the ops this build has or the reason it
 * lacks them, plus the generic parts of engines (open/close, option tables, purge "auto").
 * Adding an engine is one file in engines/ and one entry here.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "contract/phase_rules.h"
#include "engines.h"
#include "io/engine.h"

static const struct dq_io_engine_slot g_slots[] = {
	{
		.engine = DQ_ENGINE_SPDK,
#if DRIVEQUAL_SPDK_ENABLED
		.get_ops = dq_engine_spdk_ops,
#else
		.missing_reason = "this drivequal-runner was built without the SPDK engine: "
				  "pkg-config found no spdk_nvme/spdk_env_dpdk at build time "
				  "(install SPDK and rebuild with -DDRIVEQUAL_WITH_SPDK=ON), "
				  "or use --engine uring for kernel NVMe devices",
#endif
	},
	{
		.engine = DQ_ENGINE_URING,
		.get_ops = dq_engine_uring_ops,
	},
	{
		.engine = DQ_ENGINE_SIM,
		.get_ops = dq_engine_sim_ops,
	},
	{
		.engine = DQ_ENGINE_NULL,
		.get_ops = dq_engine_null_ops,
	},
};

const struct dq_io_engine_slot *dq_io_engine_slots(size_t *count)
{
	*count = sizeof(g_slots) / sizeof(g_slots[0]);
	return g_slots;
}

int dq_io_engine_find(const char *name, const struct dq_io_engine_ops **ops, char *err,
		      size_t err_len)
{
	size_t i;

	*ops = NULL;
	if (strcmp(name, "io_uring") == 0) {
		name = "uring"; /* fio's name for it */
	}
	for (i = 0; i < sizeof(g_slots) / sizeof(g_slots[0]); i++) {
		if (strcmp(dq_engine_to_str(g_slots[i].engine), name) != 0) {
			continue;
		}
		if (g_slots[i].get_ops == NULL) {
			snprintf(err, err_len, "engine %s unavailable: %s", name,
				 g_slots[i].missing_reason);
			return -ENOTSUP;
		}
		if (g_slots[i].get_ops()->version != DQ_IO_ENGINE_OPS_VERSION) {
			snprintf(err, err_len, "engine %s has ops version %u, the core speaks %u",
				 name, g_slots[i].get_ops()->version, DQ_IO_ENGINE_OPS_VERSION);
			return -ENOTSUP;
		}
		*ops = g_slots[i].get_ops();
		return 0;
	}
	snprintf(err, err_len, "no engine called '%s' (engines: spdk, uring, sim, null)", name);
	return -ENOENT;
}

int dq_io_engine_open(struct dq_io_engine *engine, const struct dq_io_engine_ops *ops,
		      const struct dq_io_engine_open_args *args, char *err, size_t err_len)
{
	int rc;

	memset(engine, 0, sizeof(*engine));
	engine->target.buffer_align = 4096;
	engine->target.max_queue_depth = DQ_QUEUE_DEPTH_MAX;
	rc = ops->open(args, &engine->data, &engine->target, err, err_len);
	if (rc != 0) {
		engine->data = NULL;
		return rc;
	}
	engine->ops = ops;
	engine->target.device.engine = ops->engine;
	return 0;
}

void dq_io_engine_close(struct dq_io_engine *engine)
{
	if (engine->ops != NULL) {
		engine->ops->close(engine->data);
	}
	engine->ops = NULL;
	engine->data = NULL;
}

static int option_parse(const struct dq_engine_option *option, void *options, const char *value,
			char *err, size_t err_len)
{
	char *field = (char *)options + option->offset, *end;
	unsigned long number;

	switch (option->type) {
	case DQ_ENGINE_OPTION_BOOL:
		if (value == NULL || strcmp(value, "1") == 0 || strcmp(value, "true") == 0) {
			*(bool *)field = true;
		} else if (strcmp(value, "0") == 0 || strcmp(value, "false") == 0) {
			*(bool *)field = false;
		} else {
			snprintf(err, err_len, "--%s takes 0 or 1, not '%s'", option->name, value);
			return -EINVAL;
		}
		return 0;
	case DQ_ENGINE_OPTION_UINT:
		errno = 0;
		number = value == NULL ? 0 : strtoul(value, &end, 0);
		if (value == NULL || errno != 0 || end == value || *end != '\0' ||
		    number > UINT32_MAX || value[0] == '-') {
			snprintf(err, err_len, "--%s takes an unsigned integer, not '%s'",
				 option->name, value == NULL ? "" : value);
			return -EINVAL;
		}
		*(uint32_t *)field = (uint32_t)number;
		return 0;
	case DQ_ENGINE_OPTION_STR:
		if (value == NULL || strlen(value) >= DQ_ENGINE_OPTION_STR_MAX) {
			snprintf(err, err_len, "--%s takes a value shorter than %d bytes",
				 option->name, DQ_ENGINE_OPTION_STR_MAX);
			return -EINVAL;
		}
		strcpy(field, value);
		return 0;
	}
	return -EINVAL;
}

int dq_engine_options_new(const struct dq_io_engine_ops *ops, void **options)
{
	const struct dq_engine_option *option;
	char err[128];

	*options = NULL;
	if (ops->options_size == 0) {
		return 0;
	}
	*options = calloc(1, ops->options_size);
	if (*options == NULL) {
		return -ENOMEM;
	}
	for (option = ops->options; option != NULL && option->name != NULL; option++) {
		if (option->default_value != NULL &&
		    option_parse(option, *options, option->default_value, err, sizeof(err)) != 0) {
			free(*options);
			*options = NULL;
			return -EINVAL; /* a broken default is the engine's bug */
		}
	}
	return 0;
}

int dq_engine_options_set(const struct dq_io_engine_ops *ops, void *options, const char *name,
			  const char *value, char *err, size_t err_len)
{
	const struct dq_engine_option *option;

	for (option = ops->options; option != NULL && option->name != NULL; option++) {
		if (strcmp(option->name, name) == 0) {
			return option_parse(option, options, value, err, err_len);
		}
	}
	snprintf(err, err_len, "engine %s has no option --%s", ops->name, name);
	return -ENOENT;
}

void dq_engine_options_print(const struct dq_io_engine_ops *ops, FILE *out)
{
	const struct dq_engine_option *option;

	fprintf(out, "engine %s: --filename %s\n", ops->name, ops->target_help);
	for (option = ops->options; option != NULL && option->name != NULL; option++) {
		fprintf(out, "  --%s=%s  %s (default %s)\n", option->name,
			option->type == DQ_ENGINE_OPTION_BOOL ? "0|1" :
			option->type == DQ_ENGINE_OPTION_UINT ? "N" :
								"VALUE",
			option->help, option->default_value ? option->default_value : "none");
	}
}
