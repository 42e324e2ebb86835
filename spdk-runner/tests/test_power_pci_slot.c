/*
 * The pci-slot power driver against a fake sysfs tree laid out as Linux lays it out (slots with
 * their address and power file, NVMe controllers under their PCI functions, namespaces with their
 * nsid and controller serial): the slot found by the drive's serial, the cut and restore in
 * order with the engine letting go and reopening the namespace under its new name, and every
 * refusal before anything is written.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/engine.h"
#include "io/power.h"
#include "test_util.h"

static char g_root[256];
static char g_calls[512]; /* the fake engine's calls, in order */

static void put(const char *relative, const char *content)
{
	char path[512], command[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%.200s", g_root, relative);
	snprintf(command, sizeof(command), "mkdir -p \"$(dirname '%s')\"", path);
	if (system(command) != 0) {
		abort();
	}
	f = fopen(path, "w");
	if (f == NULL) {
		abort();
	}
	fputs(content, f);
	fclose(f);
}

static void drop(const char *relative)
{
	char command[600];

	snprintf(command, sizeof(command), "rm -rf '%s/%.200s'", g_root, relative);
	if (system(command) != 0) {
		abort();
	}
}

static void slurp(const char *relative, char *out, size_t out_len)
{
	char path[512];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%.200s", g_root, relative);
	f = fopen(path, "r");
	n = f != NULL ? fread(out, 1, out_len - 1, f) : 0;
	out[n] = '\0';
	if (f != NULL) {
		fclose(f);
	}
}

static void fake_release(void *data)
{
	(void)data;
	strcat(g_calls, "release;");
}

static int fake_reopen(void *data, const char *target, char *err, size_t err_len)
{
	(void)data;
	(void)err;
	(void)err_len;
	strcat(g_calls, "reopen ");
	strcat(g_calls, target + strlen(g_root));
	strcat(g_calls, ";");
	return 0;
}

static const struct dq_io_engine_ops g_fake_ops = {
	.name = "fake",
	.version = DQ_IO_ENGINE_OPS_VERSION,
	.release = fake_release,
	.reopen = fake_reopen,
};

static const struct dq_io_engine_ops g_stuck_ops = { .name = "stuck",
						     .version = DQ_IO_ENGINE_OPS_VERSION };

static void fake_engine(struct dq_io_engine *engine, const struct dq_io_engine_ops *ops,
			const char *serial, const char *dev)
{
	memset(engine, 0, sizeof(*engine));
	engine->ops = ops;
	snprintf(engine->target.device.serial, sizeof(engine->target.device.serial), "%s", serial);
	snprintf(engine->target.device.transport_address,
		 sizeof(engine->target.device.transport_address), "%s/dev/%s", g_root, dev);
}

/* Three slots: 1 holds SERIAL-A (namespace nvme0n1), 2 holds SERIAL-B, 3 (no power control)
 * holds SERIAL-C. Serials end in blanks as the kernel's attributes do. */
static void build_tree(void)
{
	drop("sys");
	drop("dev");
	put("sys/bus/pci/slots/1/address", "0000:01:00\n");
	put("sys/bus/pci/slots/1/power", "1\n");
	put("sys/bus/pci/devices/0000:01:00.0/nvme/nvme0/serial", "SERIAL-A    \n");
	put("sys/bus/pci/slots/2/address", "0000:02:00\n");
	put("sys/bus/pci/slots/2/power", "1\n");
	put("sys/bus/pci/devices/0000:02:00.0/nvme/nvme1/serial", "SERIAL-B\n");
	put("sys/bus/pci/slots/3/address", "0000:03:00\n");
	put("sys/bus/pci/devices/0000:03:00.0/nvme/nvme2/serial", "SERIAL-C\n");
	put("sys/class/block/nvme0n1/nsid", "1\n");
	put("sys/class/block/nvme0n1/device/serial", "SERIAL-A    \n");
	put("sys/class/block/nvme2n1/nsid", "1\n");
	put("sys/class/block/nvme2n1/device/serial", "SERIAL-C\n");
	put("sys/class/block/loop0/size", "0\n");
	put("dev/nvme0n1", "");
	put("dev/nvme2n1", "");
	put("dev/loop0", "");
}

static int open_slot(const struct dq_io_engine *engine, const char *slot, uint32_t wait_ms,
		     struct dq_power_driver *driver, char *err, size_t err_len)
{
	char sysfs[PATH_MAX + 8], dev[PATH_MAX + 8];
	struct dq_pci_slot_paths paths = { .sysfs_root = sysfs,
					   .dev_root = dev,
					   .restore_wait_ms = wait_ms };

	snprintf(sysfs, sizeof(sysfs), "%s/sys", g_root);
	snprintf(dev, sizeof(dev), "%s/dev", g_root);
	err[0] = '\0';
	return dq_power_pci_slot_open(engine, slot, &paths, driver, err, err_len);
}

/* Found by serial; cut and restore in order; back under another name, reopened there. */
static void test_cycle(struct test_ctx *t)
{
	struct dq_io_engine engine;
	struct dq_power_driver driver = { 0 };
	char err[512], power[16];
	int rc;

	build_tree();
	fake_engine(&engine, &g_fake_ops, "SERIAL-A", "nvme0n1");
	rc = open_slot(&engine, NULL, 500, &driver, err, sizeof(err));
	CHECK(t, rc == 0, "open: %d %s", rc, err);
	if (rc != 0) {
		return;
	}
	g_calls[0] = '\0';
	rc = driver.ops->cut(driver.ctx, err, sizeof(err));
	slurp("sys/bus/pci/slots/1/power", power, sizeof(power));
	CHECK(t, rc == 0 && power[0] == '0', "cut: %d %s, power '%s'", rc, err, power);
	CHECK(t, strcmp(g_calls, "release;") == 0, "the engine let go before the cut: %s", g_calls);
	slurp("sys/bus/pci/slots/2/power", power, sizeof(power));
	CHECK(t, power[0] == '1', "another slot stays on: '%s'", power);
	/* the kernel removed it; it comes back as nvme3n1, beside a hidden multipath path with the
	 * same serial and nsid and another drive's namespace 1 */
	drop("sys/class/block/nvme0n1");
	drop("dev/nvme0n1");
	put("sys/class/block/nvme3c3n1/nsid", "1\n");
	put("sys/class/block/nvme3c3n1/device/serial", "SERIAL-A\n");
	put("dev/nvme3c3n1", "");
	put("sys/class/block/nvme3n1/nsid", "1\n");
	put("sys/class/block/nvme3n1/device/serial", "SERIAL-A\n");
	put("dev/nvme3n1", "");
	rc = driver.ops->restore(driver.ctx, err, sizeof(err));
	slurp("sys/bus/pci/slots/1/power", power, sizeof(power));
	CHECK(t, rc == 0 && power[0] == '1', "restore: %d %s, power '%s'", rc, err, power);
	CHECK(t, strcmp(g_calls, "release;reopen /dev/nvme3n1;") == 0,
	      "reopened by serial under its new name: %s", g_calls);
	/* the next cut: it does not come back */
	rc = driver.ops->cut(driver.ctx, err, sizeof(err));
	CHECK(t, rc == 0, "second cut: %d %s", rc, err);
	drop("sys/class/block/nvme3n1");
	rc = driver.ops->restore(driver.ctx, err, sizeof(err));
	CHECK(t,
	      rc == -ETIMEDOUT &&
		      strstr(err, "no namespace 1 of serial 'SERIAL-A' came back") != NULL,
	      "a drive that does not come back: %d %s", rc, err);
	dq_power_driver_close(&driver);
	dq_power_driver_close(&driver); /* twice is safe */
}

static void expect_refusal(struct test_ctx *t, const struct dq_io_engine *engine, const char *slot,
			   int expected, const char *words)
{
	struct dq_power_driver driver = { 0 };
	char err[512], power[3][16];
	int rc;

	rc = open_slot(engine, slot, 100, &driver, err, sizeof(err));
	CHECK(t, rc == expected && strstr(err, words) != NULL, "%s: %d (want %d) '%s'", words, rc,
	      expected, err);
	CHECK(t, (driver.ops == NULL) == (expected != 0), "%s: a driver exactly when admitted",
	      words);
	slurp("sys/bus/pci/slots/1/power", power[0], sizeof(power[0]));
	slurp("sys/bus/pci/slots/2/power", power[1], sizeof(power[1]));
	CHECK(t, power[0][0] == '1' && power[1][0] == '1', "%s: no slot was touched", words);
	if (rc == 0) {
		dq_power_driver_close(&driver);
	}
}

static void test_refusals(struct test_ctx *t)
{
	struct dq_io_engine engine;

	build_tree();
	g_calls[0] = '\0';
	fake_engine(&engine, &g_fake_ops, "SERIAL-A", "nvme0n1");
	expect_refusal(t, &engine, "9", -ENOENT,
		       "the allowlisted powerSlot '9' is not a PCIe slot");
	expect_refusal(t, &engine, "2", -EPERM,
		       "slot 2 (0000:02:00) holds serial 'SERIAL-B', not the allowlisted drive's "
		       "controller (serial 'SERIAL-A')");
	expect_refusal(t, &engine, "1", 0, "");
	fake_engine(&engine, &g_fake_ops, "SERIAL-Z", "nvme0n1");
	expect_refusal(t, &engine, NULL, -ENOENT,
		       "no PCIe slot of this host holds the controller with serial 'SERIAL-Z' "
		       "(slots: 1, 2, 3)");
	fake_engine(&engine, &g_fake_ops, "SERIAL-C", "nvme2n1");
	expect_refusal(t, &engine, NULL, -ENOTSUP, "slot 3 has no power control");
	fake_engine(&engine, &g_fake_ops, "SERIAL-A", "loop0");
	expect_refusal(t, &engine, NULL, -ENODEV, "is not an NVMe namespace");
	fake_engine(&engine, &g_stuck_ops, "SERIAL-A", "nvme0n1");
	expect_refusal(t, &engine, NULL, -ENOTSUP, "engine stuck cannot");
	CHECK(t, g_calls[0] == '\0', "no refusal touched the engine: %s", g_calls);
}

int main(void)
{
	struct test_ctx t = { 0 };
	char command[PATH_MAX + 16];
	int rc;

	snprintf(g_root, sizeof(g_root), "%s/dq-pci-slot-XXXXXX",
		 getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(g_root) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	test_cycle(&t);
	test_refusals(&t);
	rc = test_report(&t, "test_power_pci_slot");
	snprintf(command, sizeof(command), "rm -rf '%s'", g_root);
	if (system(command) != 0) {
		rc = 1;
	}
	return rc;
}
