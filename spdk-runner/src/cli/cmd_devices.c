/*
 * `drivequal-runner devices`: what this host's runner can see (NVMe namespaces, loop devices,
 * the allowlist's files) with identity, and whether destructive work would be allowed on each and,
 * if not, why. --output-format json prints the heartbeat the agent would send.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "contract/clock.h"
#include "contract/strutil.h"
#include "io/engine.h"
#include "job/inventory.h"

static void print_usage(FILE *out)
{
	fprintf(out,
		"usage: drivequal-runner devices [--allowlist FILE] [--runner-id ID]\n"
		"                                [--output-format normal|json]\n\n"
		"Lists NVMe namespaces, attached loop devices and the allowlist's files with\n"
		"serial, model and capacity, and whether destructive phases would run on each.\n"
		"json prints one runner-heartbeat message (the agent's inventory).\n");
}

/* One line per probed capability: there, or missing and why. */
static void print_capabilities(const struct dq_capabilities *caps)
{
	const struct dq_capability_state *state;
	int capability;

	for (capability = DQ_CAPABILITY_NONE + 1; capability < DQ_CAPABILITY_COUNT; capability++) {
		state = &caps->items[capability];
		if (!state->available && state->missing == DQ_CAPABILITY_MISSING_NONE) {
			continue;
		}
		printf("%-24s   %-22s %s%s%s%s%s\n", "",
		       dq_capability_to_str((enum dq_capability)capability),
		       state->available ? "yes" : "no: ",
		       state->available ? "" : dq_capability_missing_to_str(state->missing),
		       state->has_enabled ? (state->enabled ? ", enabled" : ", disabled") : "",
		       state->detail[0] != '\0' ? " - " : "", state->detail);
	}
}

static void print_text(const struct dq_inventory *inventory)
{
	const struct dq_inventory_item *item;
	size_t i;

	if (inventory->count == 0) {
		printf("no devices found (NVMe namespaces, attached loop devices, allowlisted files)\n");
		return;
	}
	printf("%-24s %-32s %-24s %16s  %s\n", "TARGET", "SERIAL", "MODEL", "BYTES",
	       "DESTRUCTIVE WORK");
	for (i = 0; i < inventory->count; i++) {
		item = &inventory->items[i];
		if (!item->opened) {
			printf("%-24s %-32s %-24s %16s  no: %s\n", item->target, "?", "?", "?",
			       item->message);
			continue;
		}
		printf("%-24s %-32s %-24.24s %16" PRIu64 "  %s%s\n", item->target,
		       item->entry.device.serial, item->entry.device.model,
		       item->entry.device.capacity_bytes,
		       item->entry.state == DQ_DEVICE_STATE_IDLE ? "allowed" : "refused: ",
		       item->entry.state == DQ_DEVICE_STATE_IDLE ? "" : item->message);
		if (item->serial_note[0] != '\0') {
			printf("%-24s   serial %s\n", "", item->serial_note);
		}
		print_capabilities(&item->entry.capabilities);
	}
}

static int print_heartbeat(const struct dq_inventory *inventory, const char *runner_id)
{
	struct dq_runner_heartbeat heartbeat = { .interval_ms = 5000 };
	const struct dq_io_engine_slot *slots;
	struct dq_heartbeat_device *devices;
	size_t slot_count, i;
	char err[256], *json = NULL, host[256] = "";
	size_t len;
	int rc;

	devices = calloc(inventory->count + 1, sizeof(*devices));
	if (devices == NULL) {
		return -ENOMEM;
	}
	dq_strlcpy(heartbeat.runner_id, runner_id, sizeof(heartbeat.runner_id));
	dq_clock_format_timestamp(dq_clock_wall_ms(), heartbeat.time);
	dq_strlcpy(heartbeat.runner_version, DRIVEQUAL_VERSION, sizeof(heartbeat.runner_version));
	if (gethostname(host, sizeof(host) - 1) == 0 && host[0] != '\0') {
		heartbeat.has_hostname = true;
		dq_strlcpy(heartbeat.hostname, host, sizeof(heartbeat.hostname));
	}
	slots = dq_io_engine_slots(&slot_count);
	for (i = 0; i < slot_count; i++) {
		if (slots[i].get_ops != NULL) {
			heartbeat.engines[heartbeat.engine_count++] = slots[i].engine;
		}
	}
	for (i = 0; i < inventory->count; i++) {
		if (inventory->items[i].opened) {
			devices[heartbeat.device_count++] = inventory->items[i].entry;
		}
	}
	heartbeat.devices = devices;
	rc = dq_runner_heartbeat_encode(&heartbeat, &json, &len, err, sizeof(err));
	if (rc == 0) {
		printf("%s\n", json);
	} else {
		fprintf(stderr, "drivequal-runner devices: %s\n", err);
	}
	free(json);
	free(devices);
	return rc;
}

int dq_cmd_devices_main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "allowlist", required_argument, NULL, 'a' },
		{ "runner-id", required_argument, NULL, 'r' },
		{ "output-format", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *allowlist_path = NULL, *runner_id = "local", *format = "normal";
	struct dq_allowlist allowlist = { 0 };
	struct dq_inventory inventory;
	char err[512];
	int opt, status = DQ_EXIT_FAILURE;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (opt) {
		case 'a':
			allowlist_path = optarg;
			break;
		case 'r':
			runner_id = optarg;
			break;
		case 'o':
			format = optarg;
			break;
		case 'h':
			print_usage(stdout);
			return DQ_EXIT_OK;
		default:
			return DQ_EXIT_USAGE;
		}
	}
	if (optind != argc || (strcmp(format, "normal") != 0 && strcmp(format, "json") != 0)) {
		print_usage(stderr);
		return DQ_EXIT_USAGE;
	}
	if (allowlist_path != NULL &&
	    dq_allowlist_load(allowlist_path, &allowlist, err, sizeof(err)) != 0) {
		fprintf(stderr, "drivequal-runner devices: %s\n", err);
		return DQ_EXIT_USAGE;
	}
	if (dq_inventory_collect(&allowlist, &inventory) != 0) {
		goto out;
	}
	if (strcmp(format, "json") == 0) {
		status = print_heartbeat(&inventory, runner_id) == 0 ? DQ_EXIT_OK : DQ_EXIT_FAILURE;
	} else {
		print_text(&inventory);
		status = DQ_EXIT_OK;
	}
	dq_inventory_fini(&inventory);
out:
	dq_allowlist_fini(&allowlist);
	return status;
}
