/*
 * The ipmi power driver against a real IPMI LAN endpoint on loopback: OpenIPMI's ipmi_sim (Debian
 * openipmi) with a LAN channel on 127.0.0.1 and a chassis whose power control is
 * ipmi/chassis_control.sh, which records every Chassis Control it is asked for. Checked: the cut
 * (power off) and the restore (power on) reach the chassis in order through ipmitool (RMCP+,
 * the password from the credentials file), the engine letting go after the cut and reopening the
 * namespace found again by serial; a wrong password and a BMC's error completion failing the cut
 * or the restore with ipmitool's exit status and words; a power-cycle phase whose cut the BMC
 * refuses stops there, with nothing written after it; every refusal at open before any request.
 * Usage: test_power_ipmi IPMI_DIR (holding bmc.emu and chassis_control.sh)
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io/engine.h"
#include "io/power.h"
#include "io/power_cycle.h"
#include "power_test_engine.h"
#include "test_util.h"

static char g_host[64]; /* 127.0.0.1:PORT */
static char g_log_sim[300]; /* ipmi_sim's own output */

static void marker(const char *name, bool present)
{
	char path[400];

	snprintf(path, sizeof(path), "%s/%s", g_root, name);
	if (present) {
		put(name, "", 0644);
	} else {
		unlink(path);
	}
}

static int open_ipmi(const struct dq_io_engine *engine, const char *host, const char *credentials,
		     const char *tool, struct dq_power_driver *driver, char *err, size_t err_len)
{
	char creds[300], sysfs[300], dev[300];
	/* ipmi_sim answers no Get Channel Cipher Suites (ipmitool would spend 9 s finding out) and
	 * offers suite 3 (HMAC-SHA1, AES-CBC-128), not 17 */
	struct dq_power_site site = { .ipmi_host = host,
				      .ipmi_credentials = creds,
				      .ipmi_cipher_suite = "3" };
	struct dq_pci_slot_paths paths = { .sysfs_root = sysfs,
					   .dev_root = dev,
					   .restore_wait_ms = 300 };

	snprintf(creds, sizeof(creds), "%s/%s", g_root, credentials);
	snprintf(sysfs, sizeof(sysfs), "%s/sys", g_root);
	snprintf(dev, sizeof(dev), "%s/dev", g_root);
	if (credentials[0] == '\0') {
		site.ipmi_credentials = NULL;
	}
	memset(driver, 0, sizeof(*driver));
	err[0] = '\0';
	g_calls[0] = '\0';
	return dq_power_ipmi_open(engine, &site, &paths, tool, driver, err, err_len);
}

static void test_cycle(struct test_ctx *t, struct mem_engine *m)
{
	struct dq_io_engine engine;
	struct dq_power_driver driver;
	char err[512], line[256];
	int rc, before = log_lines();

	mem_engine(&engine, m, &g_mem_ops, "nvme0n1");
	rc = open_ipmi(&engine, g_host, "bmc.cred", "ipmitool", &driver, err, sizeof(err));
	CHECK(t, rc == 0, "open: %d %s", rc, err);
	if (rc != 0) {
		return;
	}
	rc = driver.ops->cut(driver.ctx, err, sizeof(err));
	CHECK(t, rc == 0 && strcmp(g_calls, "release;") == 0, "cut: %d %s, calls %s", rc, err,
	      g_calls);
	log_line(before, line, sizeof(line));
	CHECK(t, log_lines() == before + 1 && strcmp(line, "power off\n") == 0,
	      "the chassis powered off at the cut: %d, %s", log_lines() - before, line);
	rc = driver.ops->restore(driver.ctx, err, sizeof(err));
	CHECK(t, rc == 0 && strcmp(g_calls, "release;reopen /dev/nvme0n1;") == 0,
	      "restore: %d %s, calls %s", rc, err, g_calls);
	log_line(before + 1, line, sizeof(line));
	CHECK(t, log_lines() == before + 2 && strcmp(line, "power on\n") == 0,
	      "then on at the restore: %d, %s", log_lines() - before, line);
	dq_power_driver_close(&driver);
}

static void test_bmc_errors(struct test_ctx *t, struct mem_engine *m)
{
	struct dq_io_engine engine;
	struct dq_power_driver driver;
	char err[512], line[256];
	int rc, before;

	mem_engine(&engine, m, &g_mem_ops, "nvme0n1");
	before = log_lines();
	rc = open_ipmi(&engine, g_host, "wrong.cred", "ipmitool", &driver, err, sizeof(err));
	rc = rc != 0 ? rc : driver.ops->cut(driver.ctx, err, sizeof(err));
	CHECK(t,
	      rc == -EIO &&
		      strstr(err, "chassis power off at 127.0.0.1 failed (ipmitool exit 1)") &&
		      strstr(err, "Unable to establish IPMI v2 / RMCP+ session") != NULL,
	      "a wrong password fails the cut with ipmitool's words: %d %s", rc, err);
	CHECK(t, g_calls[0] == '\0' && log_lines() == before,
	      "the engine kept the device, the chassis untouched: %s, %d", g_calls,
	      log_lines() - before);
	CHECK(t, strstr(err, "wr0ng") == NULL && strstr(err, "s3cret") == NULL,
	      "no password in the message: %s", err);
	dq_power_driver_close(&driver);

	marker("refuse-off", true);
	rc = open_ipmi(&engine, g_host, "bmc.cred", "ipmitool", &driver, err, sizeof(err));
	rc = rc != 0 ? rc : driver.ops->cut(driver.ctx, err, sizeof(err));
	marker("refuse-off", false);
	log_line(before, line, sizeof(line));
	CHECK(t,
	      rc == -EIO && strstr(err, "(ipmitool exit 1)") != NULL &&
		      strstr(err, "Set Chassis Power Control to Down/Off failed") != NULL,
	      "a BMC's error completion fails the cut with its words: %d %s", rc, err);
	CHECK(t, g_calls[0] == '\0' && strcmp(line, "power off refused\n") == 0,
	      "the engine kept the device: %s, chassis %s", g_calls, line);
	dq_power_driver_close(&driver);

	marker("refuse-on", true);
	rc = open_ipmi(&engine, g_host, "bmc.cred", "ipmitool", &driver, err, sizeof(err));
	rc = rc != 0 ? rc : driver.ops->cut(driver.ctx, err, sizeof(err));
	CHECK(t, rc == 0, "cut: %d %s", rc, err);
	rc = driver.ops->restore(driver.ctx, err, sizeof(err));
	marker("refuse-on", false);
	CHECK(t, rc == -EIO && strstr(err, "Set Chassis Power Control to Up/On failed") != NULL,
	      "a refused restore carries the BMC's words: %d %s", rc, err);
	CHECK(t, strcmp(g_calls, "release;") == 0, "no reopen: %s", g_calls);
	dq_power_driver_close(&driver);

	rc = open_ipmi(&engine, g_host, "bmc.cred", "/nonexistent/ipmitool", &driver, err,
		       sizeof(err));
	rc = rc != 0 ? rc : driver.ops->cut(driver.ctx, err, sizeof(err));
	CHECK(t, rc == -EIO && strstr(err, "(ipmitool exit 127): cannot run ipmitool") != NULL,
	      "no ipmitool: %d %s", rc, err);
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
	rc = open_ipmi(&engine, g_host, "bmc.cred", "ipmitool", &inner, err, sizeof(err));
	CHECK(t, rc == 0, "open: %d %s", rc, err);
	if (rc == 0) {
		marker("refuse-off", true);
		power_phase_through(&engine, m, &inner, "ipmi", &run);
		marker("refuse-off", false);
	} else {
		run.rc = rc;
	}
	CHECK(t,
	      run.rc == -EIO &&
		      strstr(run.err, "Set Chassis Power Control to Down/Off failed") != NULL,
	      "the phase fails: %d %s", run.rc, run.err);
	CHECK(t, run.writes_at_cut >= 100 && m->writes == run.writes_at_cut,
	      "%" PRIu64 " writes before the cut, %" PRIu64 " in all: nothing after it",
	      run.writes_at_cut, m->writes);
	CHECK(t, run.cycles == 0, "no cycle completed: %u", run.cycles);
	dq_power_driver_close(&inner);
}

static void expect_refusal(struct test_ctx *t, const struct dq_io_engine *engine, const char *host,
			   const char *credentials, int expected, const char *words)
{
	struct dq_power_driver driver;
	char err[512];
	int before = log_lines();
	int rc = open_ipmi(engine, host, credentials, "ipmitool", &driver, err, sizeof(err));

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
	expect_refusal(t, &engine, NULL, "bmc.cred", -ENOENT, "names no powerIpmiHost");
	expect_refusal(t, &engine, g_host, "", -ENOENT, "names no powerIpmiCredentials");
	expect_refusal(t, &engine, "bmc-12:99999", "bmc.cred", -EINVAL,
		       "powerIpmiHost 'bmc-12:99999' is no host or host:port");
	expect_refusal(t, &engine, g_host, "open.cred", -EPERM, "may be read by others (mode 644");
	expect_refusal(t, &engine, g_host, "absent.cred", -ENOENT, "is missing");
	expect_refusal(t, &engine, g_host, "bad.cred", -EINVAL, "must hold user:password");
	mem_engine(&engine, m, &g_mem_ops, "loop0");
	expect_refusal(t, &engine, g_host, "bmc.cred", -ENODEV, "is not an NVMe namespace");
	mem_engine(&engine, m, &g_stuck_ops, "nvme0n1");
	expect_refusal(t, &engine, g_host, "bmc.cred", -ENOTSUP, "engine stuck cannot");
}

static pid_t start_bmc(const char *ipmi_dir, int port)
{
	char conf[2048], path[400], emu[400], state[400];
	pid_t bmc;

	snprintf(conf, sizeof(conf),
		 "name \"dqtest\"\n"
		 "set_working_mc 0x20\n"
		 "  startlan 1\n"
		 "    addr 127.0.0.1 %d\n"
		 "    priv_limit admin\n"
		 "    allowed_auths_callback none md2 md5 straight\n"
		 "    allowed_auths_user none md2 md5 straight\n"
		 "    allowed_auths_operator none md2 md5 straight\n"
		 "    allowed_auths_admin none md2 md5 straight\n"
		 "    guid a123456789abcdefa123456789abcdef\n"
		 "  endlan\n"
		 "  chassis_control \"%s/chassis_control.sh %s 0x20\"\n"
		 "  user 2 true \"admin\" \"s3cret\" admin 10 none md2 md5 straight\n",
		 port, ipmi_dir, g_root);
	put("lan.conf", conf, 0600);
	put("state/.keep", "", 0600);
	snprintf(path, sizeof(path), "%s/lan.conf", g_root);
	snprintf(emu, sizeof(emu), "%s/bmc.emu", ipmi_dir);
	snprintf(state, sizeof(state), "%s/state", g_root);
	bmc = fork();
	if (bmc == 0) {
		int out = open(g_log_sim, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		prctl(PR_SET_PDEATHSIG, SIGKILL); /* no BMC left behind by a crashed test */

		dup2(out, STDOUT_FILENO);
		dup2(out, STDERR_FILENO);
		execlp("ipmi_sim", "ipmi_sim", "-n", "-c", path, "-f", emu, "-s", state,
		       (char *)NULL);
		_exit(127);
	}
	return await_udp_listener(bmc, port);
}

int main(int argc, char **argv)
{
	struct test_ctx t = { 0 };
	struct mem_engine m = { 0 };
	char command[400];
	pid_t bmc;
	int rc, port;

	if (argc != 2) {
		fprintf(stderr, "usage: test_power_ipmi IPMI_DIR\n");
		return 2;
	}
	snprintf(g_root, sizeof(g_root), "%s/dq-ipmi-XXXXXX",
		 getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(g_root) == NULL || (m.data = calloc(BLOCKS, BLOCK)) == NULL) {
		return 1;
	}
	put("sys/class/block/nvme0n1/nsid", "1\n", 0644);
	put("sys/class/block/nvme0n1/device/serial", "SERIAL-A  \n", 0644);
	put("dev/nvme0n1", "", 0644);
	put("bmc.cred", "admin:s3cret\n", 0600);
	put("wrong.cred", "admin:wr0ng\n", 0600);
	put("open.cred", "admin:s3cret\n", 0644);
	put("bad.cred", "admin-without-password\n", 0600);
	snprintf(g_log, sizeof(g_log), "%s/chassis.log", g_root);
	snprintf(g_log_sim, sizeof(g_log_sim), "%s/ipmi_sim.out", g_root);
	port = udp_port(0);
	bmc = port > 0 ? start_bmc(argv[1], port) : -1;
	if (bmc < 0) {
		fprintf(stderr, "FAIL: ipmi_sim (Debian package openipmi) did not start on "
				"127.0.0.1\n");
		return 1;
	}
	snprintf(g_host, sizeof(g_host), "127.0.0.1:%d", port);
	test_cycle(&t, &m);
	test_bmc_errors(&t, &m);
	test_phase_stops(&t, &m);
	test_refusals(&t, &m);
	stop_child(bmc);
	rc = test_report(&t, "test_power_ipmi");
	snprintf(command, sizeof(command), "rm -rf '%s'", g_root);
	run(command);
	free(m.data);
	return rc;
}
