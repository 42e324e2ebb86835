/*
 * The spdk engine's SPDK-free parts, tested where SPDK is not installed (CI): its target syntax
 * (PCIe BDFs and transport IDs, their canonical transport address), and the interlocks on an
 * SPDK-owned device: an allowlist entry matches however the address is spelt, a device that is
 * not allowlisted or has another serial is refused before anything destructive runs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device/interlock.h"
#include "device/spdk_target.h"
#include "device/target.h"
#include "test_util.h"

#define TCP_TARGET                                                                         \
	"trtype:TCP adrfam:IPv4 traddr:127.0.0.1 trsvcid:4420 subnqn:nqn.2016-06.io.spdk:" \
	"cnode1"

static void expect_address(struct test_ctx *t, const char *text, const char *expected)
{
	struct dq_spdk_target target;
	char err[256] = "", address[512] = "";
	int rc = dq_spdk_target_parse(text, &target, err, sizeof(err));

	CHECK(t, rc == 0, "'%s' does not parse: %s", text, err);
	if (rc == 0) {
		dq_spdk_target_address(&target, address, sizeof(address));
	}
	CHECK(t, strcmp(address, expected) == 0, "'%s' -> '%s', expected '%s'", text, address,
	      expected);
}

static void expect_error(struct test_ctx *t, const char *text, const char *message_part)
{
	struct dq_spdk_target target;
	char err[256] = "";
	int rc = dq_spdk_target_parse(text, &target, err, sizeof(err));

	CHECK(t, rc == -EINVAL, "'%s' parses (rc %d)", text, rc);
	CHECK(t, strstr(err, message_part) != NULL, "'%s': error '%s' lacks '%s'", text, err,
	      message_part);
}

static void test_parse(struct test_ctx *t)
{
	struct dq_spdk_target target;
	char err[256], trid[512];

	expect_address(t, "0000:04:00.0", "trtype:PCIe traddr:0000:04:00.0 ns:1");
	expect_address(t, "04:00.0", "trtype:PCIe traddr:0000:04:00.0 ns:1");
	expect_address(t, "0000.81.00.1", "trtype:PCIe traddr:0000:81:00.1 ns:1");
	expect_address(t, "trtype=pcie traddr=0000:AF:00.0 ns=2",
		       "trtype:PCIe traddr:0000:af:00.0 ns:2");
	expect_address(t, TCP_TARGET, TCP_TARGET " ns:1");
	expect_address(t,
		       "  subnqn=nqn.2016-06.io.spdk:cnode1\ttrsvcid=4420 traddr=127.0.0.1 "
		       "trtype=tcp ns:1",
		       TCP_TARGET " ns:1");
	expect_address(t, "trtype:RDMA adrfam:ipv6 traddr:fe80::1 trsvcid:4420 subnqn:nqn.x",
		       "trtype:RDMA adrfam:IPv6 traddr:fe80::1 trsvcid:4420 subnqn:nqn.x ns:1");

	CHECK(t,
	      dq_spdk_target_parse(TCP_TARGET " hostnqn:nqn.host ns:7", &target, err,
				   sizeof(err)) == 0,
	      "hostnqn and ns: %s", err);
	CHECK(t,
	      target.trtype == DQ_SPDK_TRTYPE_TCP && target.nsid == 7 &&
		      strcmp(target.hostnqn, "nqn.host") == 0,
	      "fields");
	dq_spdk_target_trid(&target, trid, sizeof(trid));
	CHECK(t, strcmp(trid, TCP_TARGET) == 0, "the SPDK transport ID has no ns/hostnqn: '%s'",
	      trid);

	expect_error(t, "", "empty");
	expect_error(t, "trtype:TCP", "needs traddr, trsvcid and subnqn");
	expect_error(t, "trtype:TCP traddr:127.0.0.1 trsvcid:4420", "needs traddr");
	expect_error(t, "trtype:FC traddr:x", "trtype must be PCIe, TCP or RDMA");
	expect_error(t, "trtype:TCP traddr:1 traddr:2 trsvcid:1 subnqn:n", "given twice");
	expect_error(t, TCP_TARGET " colour:blue", "unknown key 'colour'");
	expect_error(t, TCP_TARGET " ns:0", "ns must be given once");
	expect_error(t, TCP_TARGET " ns:4294967295", "ns must be given once");
	expect_error(t, TCP_TARGET " ns:1 ns:2", "ns must be given once");
	expect_error(t, "trtype:TCP adrfam:AF_UNIX traddr:x trsvcid:1 subnqn:n", "adrfam");
	expect_error(t, "trtype:TCP traddr:x trsvcid:http subnqn:n", "port number");
	expect_error(t, "trtype:PCIe traddr:0000:04:20.0", "BDF");
	expect_error(t, "trtype:PCIe traddr:0000:04:00.0 subnqn:n", "only traddr");
	expect_error(t, "null:64m", "unknown key 'null'");
	expect_error(t, "/dev/nvme0n1", "not key:value");
	expect_error(t, "0000:04:00", "unknown key '0000'");
}

/* An SPDK-owned device as the spdk engine describes it after identify. */
static struct dq_device_target spdk_device(const char *serial, const char *address)
{
	struct dq_device_target target;

	memset(&target, 0, sizeof(target));
	snprintf(target.device.serial, sizeof(target.device.serial), "%s", serial);
	snprintf(target.device.model, sizeof(target.device.model), "SPDK bdev Controller");
	snprintf(target.device.transport_address, sizeof(target.device.transport_address), "%s",
		 address);
	target.device.engine = DQ_ENGINE_SPDK;
	target.device.capacity_bytes = 1ULL << 30;
	target.device.lba_size_bytes = 4096;
	target.kernel_block_device = false;
	target.purge_methods = 1u << DQ_PURGE_METHOD_DEALLOCATE;
	return target;
}

static int load(const char *dir, const char *content, struct dq_allowlist *list)
{
	char path[256], err[512];
	FILE *file;
	int rc;

	snprintf(path, sizeof(path), "%s/allow.json", dir);
	file = fopen(path, "w");
	if (file == NULL) {
		return -errno;
	}
	fputs(content, file);
	fclose(file);
	rc = dq_allowlist_load(path, list, err, sizeof(err));
	if (rc != 0) {
		printf("allowlist: %s\n", err);
	}
	return rc;
}

static void test_interlocks(struct test_ctx *t)
{
	char dir[] = "/tmp/dq-spdk-target-XXXXXX", path[300];
	struct dq_device_target tcp = spdk_device("SPDK00000000000001", TCP_TARGET " ns:1");
	struct dq_device_target pcie =
		spdk_device("S6CKNE0T801234", "trtype:PCIe traddr:0000:04:00.0 ns:1");
	struct dq_interlock_verdict verdict;
	struct dq_allowlist list;
	int rc;

	if (mkdtemp(dir) == NULL) {
		CHECK(t, false, "mkdtemp");
		return;
	}
	/* The operator writes the addresses as they like: fio's dots, '=', another order. */
	rc = load(dir,
		  "{\"devices\": [{\"transportAddress\": \"0000.04.00.0\"},"
		  "{\"transportAddress\": \"trtype=tcp traddr=127.0.0.1 trsvcid=4420 "
		  "subnqn=nqn.2016-06.io.spdk:cnode1\", \"serial\": \"SPDK00000000000001\"}]}",
		  &list);
	CHECK(t, rc == 0, "allowlist loads");
	if (rc != 0) {
		goto out;
	}
	CHECK(t, dq_allowlist_match(&list, &pcie.device) == &list.entries[0], "PCIe by BDF");
	CHECK(t, dq_allowlist_match(&list, &tcp.device) == &list.entries[1], "TCP by trid");
	rc = dq_interlock_check(&list, &tcp, "SPDK00000000000001", true, &verdict);
	CHECK(t, rc == 0 && verdict.reason == DQ_REFUSE_NONE, "allowlisted, serial matches: %s",
	      verdict.message);
	rc = dq_interlock_check(&list, &tcp, "SOMETHING-ELSE", true, &verdict);
	CHECK(t, rc == -EPERM && verdict.reason == DQ_REFUSE_SERIAL_MISMATCH,
	      "another serial is refused: %d %s", rc, verdict.message);

	/* Same address, another serial (a drive swapped in the bay): the entry names both. */
	snprintf(tcp.device.serial, sizeof(tcp.device.serial), "SPDK00000000000002");
	rc = dq_interlock_check(&list, &tcp, NULL, false, &verdict);
	CHECK(t, rc == -EPERM && verdict.reason == DQ_REFUSE_NOT_ALLOWLISTED,
	      "a swapped drive is not allowlisted: %d %s", rc, verdict.message);

	/* Namespace 2 of the same controller is another device. */
	snprintf(pcie.device.transport_address, sizeof(pcie.device.transport_address),
		 "trtype:PCIe traddr:0000:04:00.0 ns:2");
	rc = dq_interlock_check(&list, &pcie, NULL, false, &verdict);
	CHECK(t, rc == -EPERM && verdict.reason == DQ_REFUSE_NOT_ALLOWLISTED,
	      "namespace 2 is not allowlisted: %d %s", rc, verdict.message);
	rc = dq_interlock_check(NULL, &pcie, NULL, false, &verdict);
	CHECK(t, rc == -EPERM && verdict.reason == DQ_REFUSE_NOT_ALLOWLISTED,
	      "no allowlist, no erase: %d", rc);
	dq_allowlist_fini(&list);
out:
	snprintf(path, sizeof(path), "%s/allow.json", dir);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	struct test_ctx t = { 0 };

	test_parse(&t);
	test_interlocks(&t);
	return test_report(&t, "spdk_target");
}
