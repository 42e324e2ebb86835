/*
 * The pdu power driver against a real SNMP agent on loopback: net-snmp's snmpd (Debian snmpd) on
 * 127.0.0.1 whose outlet control objects (APC sPDUOutletCtl, and a second column standing for
 * another vendor's MIB) are served by pdu/outlet_control.sh, a "pass" handler that records every
 * SET. Checked: the cut (SET 2) and the restore (SET 1) reach the drive's outlet in order with the
 * community from the file, the engine letting go after the cut and reopening the namespace found
 * again by serial; a configured OID and off/on values; the agent's error status and a wrong
 * community failing the cut or the restore with their words; a power-cycle phase whose cut the PDU
 * refuses stops there, with nothing written after it; every refusal at open before any request.
 * Usage: test_power_pdu PDU_DIR (holding outlet_control.sh)
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

#define APC ".1.3.6.1.4.1.318.1.1.4.4.2.1.3"
#define OTHER ".1.3.6.1.4.1.13742.6.4.1.2.1.2.1" /* e.g. a Raritan PDU2-MIB switching column */

static char g_host[64]; /* 127.0.0.1:PORT */
static char g_log_agent[300]; /* snmpd's own output */

struct pdu_site {
	const char *host, *outlet, *credentials, *oid, *off, *on;
};

static int open_pdu(const struct dq_io_engine *engine, const struct pdu_site *s,
		    struct dq_power_driver *driver, char *err, size_t err_len)
{
	char creds[300], sysfs[300], dev[300];
	struct dq_power_site site = { .pdu_host = s->host,
				      .pdu_outlet = s->outlet,
				      .pdu_credentials = creds,
				      .pdu_oid = s->oid,
				      .pdu_off_value = s->off,
				      .pdu_on_value = s->on };
	struct dq_pci_slot_paths paths = { .sysfs_root = sysfs,
					   .dev_root = dev,
					   .restore_wait_ms = 300 };

	snprintf(creds, sizeof(creds), "%s/%s", g_root, s->credentials);
	snprintf(sysfs, sizeof(sysfs), "%s/sys", g_root);
	snprintf(dev, sizeof(dev), "%s/dev", g_root);
	if (s->credentials[0] == '\0') {
		site.pdu_credentials = NULL;
	}
	memset(driver, 0, sizeof(*driver));
	err[0] = '\0';
	g_calls[0] = '\0';
	return dq_power_pdu_open(engine, &site, &paths, driver, err, err_len);
}

static void cycle_once(struct test_ctx *t, struct mem_engine *m, const struct pdu_site *s,
		       const char *off_line, const char *on_line)
{
	struct dq_io_engine engine;
	struct dq_power_driver driver;
	char err[512], line[256];
	int rc, before = log_lines();

	mem_engine(&engine, m, &g_mem_ops, "nvme0n1");
	rc = open_pdu(&engine, s, &driver, err, sizeof(err));
	CHECK(t, rc == 0, "open: %d %s", rc, err);
	if (rc != 0) {
		return;
	}
	rc = driver.ops->cut(driver.ctx, err, sizeof(err));
	CHECK(t, rc == 0 && strcmp(g_calls, "release;") == 0, "cut: %d %s, calls %s", rc, err,
	      g_calls);
	log_line(before, line, sizeof(line));
	CHECK(t, log_lines() == before + 1 && strcmp(line, off_line) == 0,
	      "the outlet switched off at the cut: %d, %s", log_lines() - before, line);
	rc = driver.ops->restore(driver.ctx, err, sizeof(err));
	CHECK(t, rc == 0 && strcmp(g_calls, "release;reopen /dev/nvme0n1;") == 0,
	      "restore: %d %s, calls %s", rc, err, g_calls);
	log_line(before + 1, line, sizeof(line));
	CHECK(t, log_lines() == before + 2 && strcmp(line, on_line) == 0,
	      "then on at the restore: %d, %s", log_lines() - before, line);
	dq_power_driver_close(&driver);
}

static void test_cycle(struct test_ctx *t, struct mem_engine *m)
{
	struct pdu_site apc = { .host = g_host, .outlet = "4", .credentials = "pdu.cred" };
	struct pdu_site other = { .host = g_host,
				  .outlet = "12",
				  .credentials = "pdu.cred",
				  .oid = OTHER + 1,
				  .off = "0",
				  .on = "1" };

	cycle_once(t, m, &apc, APC ".4 2\n", APC ".4 1\n");
	cycle_once(t, m, &other, OTHER ".12 0\n", OTHER ".12 1\n");
}

static void test_agent_errors(struct test_ctx *t, struct mem_engine *m)
{
	struct pdu_site apc = { .host = g_host, .outlet = "4", .credentials = "pdu.cred" };
	struct pdu_site wrong = { .host = g_host, .outlet = "4", .credentials = "wrong.cred" };
	struct dq_io_engine engine;
	struct dq_power_driver driver;
	char err[512], line[256];
	int rc, before;

	mem_engine(&engine, m, &g_mem_ops, "nvme0n1");
	before = log_lines();
	rc = open_pdu(&engine, &wrong, &driver, err, sizeof(err));
	rc = rc != 0 ? rc : driver.ops->cut(driver.ctx, err, sizeof(err));
	CHECK(t,
	      rc == -ETIMEDOUT && strstr(err, "outlet off (SET 2) at udp:127.0.0.1:") != NULL &&
		      strstr(err, "no answer") != NULL,
	      "a wrong community gets no answer: %d %s", rc, err);
	CHECK(t, g_calls[0] == '\0' && log_lines() == before,
	      "the engine kept the device, the outlet untouched: %s, %d", g_calls,
	      log_lines() - before);
	CHECK(t, strstr(err, "wr0ng") == NULL && strstr(err, "s3cret") == NULL,
	      "no community in the message: %s", err);
	dq_power_driver_close(&driver);

	put("refuse-2", "", 0644);
	rc = open_pdu(&engine, &apc, &driver, err, sizeof(err));
	rc = rc != 0 ? rc : driver.ops->cut(driver.ctx, err, sizeof(err));
	unlink(strcat(strcpy(line, g_root), "/refuse-2"));
	log_line(before, line, sizeof(line));
	CHECK(t, rc == -EIO && strstr(err, "refused outlet off (SET 2): notWritable") != NULL,
	      "the agent's error status fails the cut with its words: %d %s", rc, err);
	CHECK(t, g_calls[0] == '\0' && strcmp(line, APC ".4 2 refused\n") == 0,
	      "the engine kept the device: %s, outlet %s", g_calls, line);
	dq_power_driver_close(&driver);

	put("refuse-1", "", 0644);
	rc = open_pdu(&engine, &apc, &driver, err, sizeof(err));
	rc = rc != 0 ? rc : driver.ops->cut(driver.ctx, err, sizeof(err));
	CHECK(t, rc == 0, "cut: %d %s", rc, err);
	rc = driver.ops->restore(driver.ctx, err, sizeof(err));
	unlink(strcat(strcpy(line, g_root), "/refuse-1"));
	CHECK(t, rc == -EIO && strstr(err, "refused outlet on (SET 1): notWritable") != NULL,
	      "a refused restore carries the agent's words: %d %s", rc, err);
	CHECK(t, strcmp(g_calls, "release;") == 0, "no reopen: %s", g_calls);
	dq_power_driver_close(&driver);
}

/* A power-cycle phase whose cut the PDU refuses stops at the cut: nothing written after it. */
static void test_phase_stops(struct test_ctx *t, struct mem_engine *m)
{
	struct pdu_site apc = { .host = g_host, .outlet = "4", .credentials = "pdu.cred" };
	char path[400];
	struct dq_io_engine engine;
	struct dq_power_driver inner;
	struct power_phase_run run = { 0 };
	char err[512] = "";
	int rc;

	mem_engine(&engine, m, &g_mem_ops, "nvme0n1");
	rc = open_pdu(&engine, &apc, &inner, err, sizeof(err));
	CHECK(t, rc == 0, "open: %d %s", rc, err);
	if (rc == 0) {
		put("refuse-2", "", 0644);
		power_phase_through(&engine, m, &inner, "pdu", &run);
		unlink(strcat(strcpy(path, g_root), "/refuse-2"));
	} else {
		run.rc = rc;
	}
	CHECK(t, run.rc == -EIO && strstr(run.err, "notWritable") != NULL, "the phase fails: %d %s",
	      run.rc, run.err);
	CHECK(t, run.writes_at_cut >= 100 && m->writes == run.writes_at_cut,
	      "%" PRIu64 " writes before the cut, %" PRIu64 " in all: nothing after it",
	      run.writes_at_cut, m->writes);
	CHECK(t, run.cycles == 0, "no cycle completed: %u", run.cycles);
	dq_power_driver_close(&inner);
}

static void expect_refusal(struct test_ctx *t, const struct dq_io_engine *engine,
			   const struct pdu_site *s, int expected, const char *words)
{
	struct dq_power_driver driver;
	char err[512];
	int before = log_lines();
	int rc = open_pdu(engine, s, &driver, err, sizeof(err));

	CHECK(t, rc == expected && strstr(err, words) != NULL, "%s: %d (want %d) '%s'", words, rc,
	      expected, err);
	CHECK(t, driver.ops == NULL && log_lines() == before,
	      "%s: no driver, no request to the PDU", words);
	CHECK(t, strstr(err, "s3cret") == NULL, "%s: the community is never in a message", words);
}

static void test_refusals(struct test_ctx *t, struct mem_engine *m)
{
	struct dq_io_engine engine;
	struct pdu_site s = { .host = g_host, .outlet = "4", .credentials = "pdu.cred" };

	mem_engine(&engine, m, &g_mem_ops, "nvme0n1");
	s.host = NULL;
	expect_refusal(t, &engine, &s, -ENOENT, "names no powerPduHost");
	s.host = g_host;
	s.outlet = NULL;
	expect_refusal(t, &engine, &s, -ENOENT, "names no powerPduOutlet");
	s.outlet = "4";
	s.credentials = "";
	expect_refusal(t, &engine, &s, -ENOENT, "names no powerPduCredentials");
	s.credentials = "pdu.cred";
	s.oid = "sPDUOutletCtl";
	expect_refusal(t, &engine, &s, -EINVAL,
		       "sPDUOutletCtl.4 (powerPduOid.powerPduOutlet) is no numeric OID");
	s.oid = NULL;
	s.credentials = "open.cred";
	expect_refusal(t, &engine, &s, -EPERM, "may be read by others (mode 644");
	s.credentials = "absent.cred";
	expect_refusal(t, &engine, &s, -ENOENT, "is missing");
	s.credentials = "empty.cred";
	expect_refusal(t, &engine, &s, -EINVAL, "must hold the secret on its first line");
	s.credentials = "pdu.cred";
	mem_engine(&engine, m, &g_mem_ops, "loop0");
	expect_refusal(t, &engine, &s, -ENODEV, "is not an NVMe namespace");
	mem_engine(&engine, m, &g_stuck_ops, "nvme0n1");
	expect_refusal(t, &engine, &s, -ENOTSUP, "engine stuck cannot");
}

static pid_t start_agent(const char *pdu_dir, int port)
{
	char conf[2048], path[400], pid_file[400];
	pid_t agent;

	snprintf(conf, sizeof(conf),
		 "agentaddress udp:127.0.0.1:%d\n"
		 "rwcommunity s3cret 127.0.0.1\n"
		 "pass %s %s/outlet_control.sh %s\n"
		 "pass %s %s/outlet_control.sh %s\n",
		 port, APC, pdu_dir, g_root, OTHER, pdu_dir, g_root);
	put("snmpd.conf", conf, 0600);
	snprintf(path, sizeof(path), "%s/snmpd.conf", g_root);
	snprintf(pid_file, sizeof(pid_file), "%s/snmpd.pid", g_root);
	agent = fork();
	if (agent == 0) {
		int out = open(g_log_agent, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		prctl(PR_SET_PDEATHSIG, SIGKILL); /* no agent left behind by a crashed test */
		dup2(out, STDOUT_FILENO);
		dup2(out, STDERR_FILENO);
		setenv("MIBS", "", 1);
		execlp("snmpd", "snmpd", "-f", "-Lo", "-C", "-c", path, "-p", pid_file, "-M",
		       "/nonexistent", (char *)NULL);
		_exit(127);
	}
	return await_udp_listener(agent, port);
}

int main(int argc, char **argv)
{
	struct test_ctx t = { 0 };
	struct mem_engine m = { 0 };
	char command[400];
	pid_t agent;
	int rc, port;

	if (argc != 2) {
		fprintf(stderr, "usage: test_power_pdu PDU_DIR\n");
		return 2;
	}
	snprintf(g_root, sizeof(g_root), "%s/dq-pdu-XXXXXX",
		 getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(g_root) == NULL || (m.data = calloc(BLOCKS, BLOCK)) == NULL) {
		return 1;
	}
	chmod(g_root, 0755); /* snmpd runs the pass handler, which writes here */
	put("sys/class/block/nvme0n1/nsid", "1\n", 0644);
	put("sys/class/block/nvme0n1/device/serial", "SERIAL-A  \n", 0644);
	put("dev/nvme0n1", "", 0644);
	put("pdu.cred", "s3cret\n", 0600);
	put("wrong.cred", "wr0ng\n", 0600);
	put("open.cred", "s3cret\n", 0644);
	put("empty.cred", "\n", 0600);
	snprintf(g_log, sizeof(g_log), "%s/outlet.log", g_root);
	snprintf(g_log_agent, sizeof(g_log_agent), "%s/snmpd.out", g_root);
	port = udp_port(0);
	agent = port > 0 ? start_agent(argv[1], port) : -1;
	if (agent < 0) {
		fprintf(stderr, "FAIL: snmpd (Debian package snmpd) did not start on 127.0.0.1\n");
		return 1;
	}
	snprintf(g_host, sizeof(g_host), "127.0.0.1:%d", port);
	test_cycle(&t, &m);
	test_agent_errors(&t, &m);
	test_phase_stops(&t, &m);
	test_refusals(&t, &m);
	stop_child(agent);
	rc = test_report(&t, "test_power_pdu");
	snprintf(command, sizeof(command), "rm -rf '%s'", g_root);
	run(command);
	free(m.data);
	return rc;
}
