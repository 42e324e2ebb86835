/*
 * The redfish power driver against a fake BMC on loopback (tests/redfish/fake_bmc.py, started
 * here): the cut (ForceOff) and the restore (On) posted in order with the credentials from the
 * file, the engine letting go after the cut and reopening the namespace found again by serial;
 * a BMC's error answer failing the cut or the restore with the BMC's own message; a power-cycle
 * phase whose cut the BMC refuses stops there, with nothing written after it; and every refusal
 * at open before any request reaches the BMC.
 * Usage: test_power_redfish FAKE_BMC_PY
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io/engine.h"
#include "io/power.h"
#include "io/power_cycle.h"
#include "power_test_engine.h"
#include "test_util.h"

static char g_base[128]; /* http://127.0.0.1:PORT/redfish/v1/Chassis */

static int open_redfish(const struct dq_io_engine *engine, const char *chassis,
			const char *credentials, struct dq_power_driver *driver, char *err,
			size_t err_len)
{
	char url[256], creds[300], sysfs[300], dev[300];
	struct dq_power_site site = { .redfish_url = url, .redfish_credentials = creds };
	struct dq_pci_slot_paths paths = { .sysfs_root = sysfs,
					   .dev_root = dev,
					   .restore_wait_ms = 300 };

	snprintf(url, sizeof(url), "%s/%s/Actions/Chassis.Reset", g_base, chassis);
	snprintf(creds, sizeof(creds), "%s/%s", g_root, credentials);
	snprintf(sysfs, sizeof(sysfs), "%s/sys", g_root);
	snprintf(dev, sizeof(dev), "%s/dev", g_root);
	if (chassis[0] == '\0') {
		site.redfish_url = NULL;
	}
	if (chassis[0] == '/') {
		snprintf(url, sizeof(url), "http:/%s", chassis); /* a literal URL */
	}
	memset(driver, 0, sizeof(*driver));
	err[0] = '\0';
	g_calls[0] = '\0';
	return dq_power_redfish_open(engine, &site, &paths, driver, err, err_len);
}

static void test_cycle(struct test_ctx *t, struct mem_engine *m)
{
	struct dq_io_engine engine;
	struct dq_power_driver driver;
	char err[512], line[1024];
	int rc, before = log_lines();

	mem_engine(&engine, m, &g_mem_ops, "nvme0n1");
	rc = open_redfish(&engine, "enclosure", "bmc.cred", &driver, err, sizeof(err));
	CHECK(t, rc == 0, "open: %d %s", rc, err);
	if (rc != 0) {
		return;
	}
	rc = driver.ops->cut(driver.ctx, err, sizeof(err));
	CHECK(t, rc == 0 && strcmp(g_calls, "release;") == 0, "cut: %d %s, calls %s", rc, err,
	      g_calls);
	rc = driver.ops->restore(driver.ctx, err, sizeof(err));
	CHECK(t, rc == 0 && strcmp(g_calls, "release;reopen /dev/nvme0n1;") == 0,
	      "restore: %d %s, calls %s", rc, err, g_calls);
	CHECK(t, log_lines() == before + 2, "two requests: %d", log_lines() - before);
	log_line(before, line, sizeof(line));
	CHECK(t,
	      strstr(line, "\"path\": \"/redfish/v1/Chassis/enclosure/Actions/Chassis.Reset\"") &&
		      strstr(line, "ForceOff") &&
		      strstr(line, "\"authorization\": \"Basic YWRtaW46czNjcmV0\""),
	      "first the cut, authenticated: %s", line);
	log_line(before + 1, line, sizeof(line));
	CHECK(t, strstr(line, "\\\"On\\\"") != NULL && strstr(line, "ForceOff") == NULL,
	      "then the restore: %s", line);
	dq_power_driver_close(&driver);
}

static void test_bmc_errors(struct test_ctx *t, struct mem_engine *m)
{
	struct dq_io_engine engine;
	struct dq_power_driver driver;
	char err[512];
	int rc, before;

	mem_engine(&engine, m, &g_mem_ops, "nvme0n1");
	rc = open_redfish(&engine, "locked", "bmc.cred", &driver, err, sizeof(err));
	CHECK(t, rc == 0, "open locked: %d %s", rc, err);
	before = log_lines();
	rc = rc != 0 ? rc : driver.ops->cut(driver.ctx, err, sizeof(err));
	CHECK(t,
	      rc == -EIO && strstr(err, "HTTP 400: The action Chassis.Reset with ResetType "
					"ForceOff is not supported by the chassis locked") != NULL,
	      "a refused cut carries the BMC's message: %d %s", rc, err);
	CHECK(t, g_calls[0] == '\0' && log_lines() == before + 1,
	      "the engine kept the device, one request: %s, %d", g_calls, log_lines() - before);
	dq_power_driver_close(&driver);

	rc = open_redfish(&engine, "flaky", "bmc.cred", &driver, err, sizeof(err));
	rc = rc != 0 ? rc : driver.ops->cut(driver.ctx, err, sizeof(err));
	CHECK(t, rc == 0, "flaky cut: %d %s", rc, err);
	rc = driver.ops->restore(driver.ctx, err, sizeof(err));
	CHECK(t, rc == -EIO && strstr(err, "HTTP 503: The BMC is busy; retry later.") != NULL,
	      "a refused restore carries the BMC's message: %d %s", rc, err);
	CHECK(t, strcmp(g_calls, "release;") == 0, "no reopen: %s", g_calls);
	dq_power_driver_close(&driver);

	rc = open_redfish(&engine, "/127.0.0.1:1/redfish/v1/Chassis/x/Actions/Chassis.Reset",
			  "bmc.cred", &driver, err, sizeof(err));
	rc = rc != 0 ? rc : driver.ops->cut(driver.ctx, err, sizeof(err));
	CHECK(t, rc == -EIO && strstr(err, "ForceOff at http://127.0.0.1:1/") != NULL,
	      "an unreachable BMC: %d %s", rc, err);
	CHECK(t, g_calls[0] == '\0', "the engine kept the device: %s", g_calls);
	dq_power_driver_close(&driver);
}

/* A power-cycle phase whose cut the BMC refuses stops at the cut: nothing written after it. */
static void test_phase_stops(struct test_ctx *t, struct mem_engine *m)
{
	struct dq_io_engine engine;
	struct dq_power_driver inner;
	struct power_phase_run run = { 0 };
	char err[512] = "";
	int rc;

	mem_engine(&engine, m, &g_mem_ops, "nvme0n1");
	rc = open_redfish(&engine, "locked", "bmc.cred", &inner, err, sizeof(err));
	CHECK(t, rc == 0, "open: %d %s", rc, err);
	if (rc == 0) {
		power_phase_through(&engine, m, &inner, "redfish", &run);
	} else {
		run.rc = rc;
	}
	CHECK(t, run.rc == -EIO && strstr(run.err, "HTTP 400") != NULL, "the phase fails: %d %s",
	      run.rc, run.err);
	CHECK(t, run.writes_at_cut >= 100 && m->writes == run.writes_at_cut,
	      "%" PRIu64 " writes before the cut, %" PRIu64 " in all: nothing after it",
	      run.writes_at_cut, m->writes);
	CHECK(t, run.cycles == 0, "no cycle completed: %u", run.cycles);
	dq_power_driver_close(&inner);
}

static void expect_refusal(struct test_ctx *t, const struct dq_io_engine *engine,
			   const char *chassis, const char *credentials, int expected,
			   const char *words)
{
	struct dq_power_driver driver;
	char err[512];
	int before = log_lines();
	int rc = open_redfish(engine, chassis, credentials, &driver, err, sizeof(err));

	CHECK(t, rc == expected && strstr(err, words) != NULL, "%s: %d (want %d) '%s'", words, rc,
	      expected, err);
	CHECK(t, driver.ops == NULL && log_lines() == before,
	      "%s: no driver, no request to the BMC", words);
	CHECK(t, strstr(err, "s3cret") == NULL, "%s: the password is never in a message", words);
}

static void test_refusals(struct test_ctx *t, struct mem_engine *m)
{
	struct dq_io_engine engine;

	mem_engine(&engine, m, &g_mem_ops, "nvme0n1");
	expect_refusal(t, &engine, "", "bmc.cred", -ENOENT, "names no powerRedfishUrl");
	expect_refusal(t, &engine, "enclosure", "open.cred", -EPERM,
		       "may be read by others (mode 644");
	expect_refusal(t, &engine, "enclosure", "absent.cred", -ENOENT, "is missing");
	expect_refusal(t, &engine, "enclosure", "bad.cred", -EINVAL, "must hold user:password");
	mem_engine(&engine, m, &g_mem_ops, "loop0");
	expect_refusal(t, &engine, "enclosure", "bmc.cred", -ENODEV, "is not an NVMe namespace");
	mem_engine(&engine, m, &g_stuck_ops, "nvme0n1");
	expect_refusal(t, &engine, "enclosure", "bmc.cred", -ENOTSUP, "engine stuck cannot");
}

int main(int argc, char **argv)
{
	struct test_ctx t = { 0 };
	struct mem_engine m = { 0 };
	char port_file[300], port[16] = "", command[400];
	FILE *f = NULL;
	pid_t bmc;
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: test_power_redfish FAKE_BMC_PY\n");
		return 2;
	}
	snprintf(g_root, sizeof(g_root), "%s/dq-redfish-XXXXXX",
		 getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(g_root) == NULL || (m.data = calloc(BLOCKS, BLOCK)) == NULL) {
		return 1;
	}
	put("sys/class/block/nvme0n1/nsid", "1\n", 0644);
	put("sys/class/block/nvme0n1/device/serial", "SERIAL-A  \n", 0644);
	put("dev/nvme0n1", "", 0644);
	put("bmc.cred", "admin:s3cret\n", 0600);
	put("open.cred", "admin:s3cret\n", 0644);
	put("bad.cred", "admin-without-password\n", 0600);
	snprintf(port_file, sizeof(port_file), "%s/port", g_root);
	snprintf(g_log, sizeof(g_log), "%s/bmc.log", g_root);
	bmc = fork();
	if (bmc == 0) {
		execlp("python3", "python3", argv[1], port_file, g_log, (char *)NULL);
		_exit(127);
	}
	/* setup, not a measurement: the server writes its port once it listens */
	for (int i = 0; i < 200 && (f = fopen(port_file, "r")) == NULL; i++) {
		usleep(50000);
	}
	if (f == NULL || fgets(port, sizeof(port), f) == NULL) {
		fprintf(stderr, "FAIL: the fake BMC did not start\n");
		kill(bmc, SIGTERM);
		return 1;
	}
	fclose(f);
	snprintf(g_base, sizeof(g_base), "http://127.0.0.1:%s/redfish/v1/Chassis", port);
	test_cycle(&t, &m);
	test_bmc_errors(&t, &m);
	test_phase_stops(&t, &m);
	test_refusals(&t, &m);
	kill(bmc, SIGTERM);
	waitpid(bmc, NULL, 0);
	rc = test_report(&t, "test_power_redfish");
	snprintf(command, sizeof(command), "rm -rf '%s'", g_root);
	run(command);
	free(m.data);
	return rc;
}
