/*
 * The allowlist file and the checks that need no root: strict parsing (unknown keys, wrong types
 * and entries naming nothing are errors), matching by serial and/or resolved transport address,
 * and the interlock order on a real regular file: not allowlisted, serial mismatch, allowed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device/interlock.h"
#include "io/engine.h"
#include "test_util.h"

static char g_dir[] = "/tmp/dq-allowlist-XXXXXX";

static const char *write_file(const char *name, const char *content)
{
	static char path[256];
	FILE *file;

	snprintf(path, sizeof(path), "%s/%s", g_dir, name);
	file = fopen(path, "w");
	if (file == NULL) {
		abort();
	}
	fputs(content, file);
	fclose(file);
	return path;
}

static void expect_load_error(struct test_ctx *t, const char *content, int expected,
			      const char *message_part)
{
	struct dq_allowlist list;
	char err[512] = "";
	int rc = dq_allowlist_load(write_file("bad.json", content), &list, err, sizeof(err));

	CHECK(t, rc == expected, "%s: rc %d, expected %d", content, rc, expected);
	CHECK(t, strstr(err, message_part) != NULL, "error '%s' lacks '%s'", err, message_part);
	if (rc == 0) {
		dq_allowlist_fini(&list);
	}
}

static void test_parse(struct test_ctx *t)
{
	struct dq_allowlist list;
	char err[512] = "";
	int rc;

	rc = dq_allowlist_load(
		write_file("ok.json",
			   "{\"comment\": \"lab 3\", \"devices\": ["
			   "{\"serial\": \"S6CKNE0T801234\", \"allowSignatures\": true},"
			   "{\"transportAddress\": \"/dev/loop3\", \"comment\": \"x\","
			   " \"powerSlot\": \"12-1\", \"powerRedfishUrl\": "
			   "\"https://bmc/redfish/v1/Chassis/1/Actions/Chassis.Reset\","
			   " \"powerRedfishCredentials\": \"/etc/dq/bmc.cred\","
			   " \"powerIpmiHost\": \"bmc-12.lab:623\", \"powerIpmiCredentials\":"
			   " \"/etc/dq/ipmi.cred\", \"powerIpmiCipherSuite\": 17,"
			   " \"powerPduHost\": \"pdu-3.lab\", \"powerPduOutlet\": 7,"
			   " \"powerPduCredentials\": \"/etc/dq/pdu.cred\", \"powerPduOid\":"
			   " \"1.3.6.1.4.1.13742.6.4.1.2.1.2.1\", \"powerPduOffValue\": 0,"
			   " \"powerPduOnValue\": 1},"
			   "{\"serial\": \"A\", \"transportAddress\": \"/dev/nvme9n1\","
			   " \"allowPartitioned\": true, \"allowMounted\": false}]}"),
		&list, err, sizeof(err));
	CHECK(t, rc == 0 && list.count == 3, "load: %d %s", rc, err);
	if (rc == 0) {
		CHECK(t,
		      list.entries[0].has_serial && !list.entries[0].has_transport_address &&
			      list.entries[0].allow_signatures && !list.entries[0].allow_mounted &&
			      !list.entries[0].allow_partitioned,
		      "entry 0: overrides default false");
		CHECK(t, list.entries[2].allow_partitioned && !list.entries[2].allow_mounted,
		      "entry 2");
		CHECK(t,
		      list.entries[1].has_power_slot &&
			      strcmp(list.entries[1].power_slot, "12-1") == 0 &&
			      !list.entries[0].has_power_slot,
		      "powerSlot: entry 1 only");
		CHECK(t,
		      strcmp(list.entries[1].redfish_url,
			     "https://bmc/redfish/v1/Chassis/1/Actions/Chassis.Reset") == 0 &&
			      strcmp(list.entries[1].redfish_credentials, "/etc/dq/bmc.cred") ==
				      0 &&
			      list.entries[0].redfish_url[0] == '\0',
		      "powerRedfishUrl and powerRedfishCredentials: entry 1 only");
		CHECK(t,
		      strcmp(list.entries[1].ipmi_host, "bmc-12.lab:623") == 0 &&
			      strcmp(list.entries[1].ipmi_credentials, "/etc/dq/ipmi.cred") == 0 &&
			      strcmp(list.entries[1].ipmi_cipher_suite, "17") == 0 &&
			      list.entries[0].ipmi_host[0] == '\0' &&
			      list.entries[0].ipmi_cipher_suite[0] == '\0',
		      "powerIpmiHost, powerIpmiCredentials, powerIpmiCipherSuite: entry 1 only");
		CHECK(t,
		      strcmp(list.entries[1].pdu_host, "pdu-3.lab") == 0 &&
			      strcmp(list.entries[1].pdu_outlet, "7") == 0 &&
			      strcmp(list.entries[1].pdu_credentials, "/etc/dq/pdu.cred") == 0 &&
			      strcmp(list.entries[1].pdu_oid, "1.3.6.1.4.1.13742.6.4.1.2.1.2.1") ==
				      0 &&
			      strcmp(list.entries[1].pdu_off_value, "0") == 0 &&
			      strcmp(list.entries[1].pdu_on_value, "1") == 0 &&
			      list.entries[0].pdu_host[0] == '\0' &&
			      list.entries[0].pdu_off_value[0] == '\0',
		      "powerPdu...: entry 1 only");
		dq_allowlist_fini(&list);
	}
	expect_load_error(t, "{\"devices\": [{\"serial\": \"A\", \"allowMountd\": true}]}", -EINVAL,
			  "unknown key 'allowMountd'");
	expect_load_error(t, "{\"devices\": [{\"serial\": \"A\", \"allowMounted\": \"yes\"}]}",
			  -EINVAL, "must be true or false");
	expect_load_error(t, "{\"devices\": [{\"allowMounted\": true}]}", -EINVAL,
			  "needs serial or transportAddress");
	expect_load_error(t, "{\"devices\": [{\"serial\": \"A\", \"powerSlot\": \"../1\"}]}",
			  -EINVAL, "devices[0].powerSlot: a slot name");
	expect_load_error(t, "{\"devices\": [{\"serial\": \"A\", \"powerSlot\": \"\"}]}", -EINVAL,
			  "devices[0].powerSlot");
	expect_load_error(t, "{\"devices\": [{\"serial\": \"A\", \"powerSlot\": 3}]}", -EINVAL,
			  "devices[0].powerSlot: must be a string");
	expect_load_error(
		t, "{\"devices\": [{\"serial\": \"A\", \"powerRedfishUrl\": \"ftp://bmc/x\"}]}",
		-EINVAL, "devices[0].powerRedfishUrl: an http(s):// URL");
	expect_load_error(t,
			  "{\"devices\": [{\"serial\": \"A\", \"powerRedfishCredentials\": "
			  "\"bmc.cred\"}]}",
			  -EINVAL, "devices[0].powerRedfishCredentials: the absolute path");
	expect_load_error(t, "{\"devices\": [{\"serial\": \"A\", \"powerIpmiHost\": \"-o x\"}]}",
			  -EINVAL, "devices[0].powerIpmiHost: the BMC's host name");
	expect_load_error(t, "{\"devices\": [{\"serial\": \"A\", \"powerIpmiHost\": \"a;b\"}]}",
			  -EINVAL, "devices[0].powerIpmiHost");
	expect_load_error(t,
			  "{\"devices\": [{\"serial\": \"A\", \"powerIpmiCredentials\": "
			  "\"ipmi.cred\"}]}",
			  -EINVAL, "devices[0].powerIpmiCredentials: the absolute path");
	expect_load_error(t, "{\"devices\": [{\"serial\": \"A\", \"powerIpmiCipherSuite\": 18}]}",
			  -EINVAL, "devices[0].powerIpmiCipherSuite: an RMCP+ cipher suite");
	expect_load_error(t,
			  "{\"devices\": [{\"serial\": \"A\", \"powerIpmiCipherSuite\": \"3\"}]}",
			  -EINVAL, "devices[0].powerIpmiCipherSuite");
	expect_load_error(t, "{\"devices\": [{\"serial\": \"A\", \"powerPduHost\": \"-x\"}]}",
			  -EINVAL, "devices[0].powerPduHost: the PDU's host name");
	expect_load_error(t, "{\"devices\": [{\"serial\": \"A\", \"powerPduOutlet\": 0}]}", -EINVAL,
			  "devices[0].powerPduOutlet: an integer, 1..65535");
	expect_load_error(t, "{\"devices\": [{\"serial\": \"A\", \"powerPduOutlet\": \"4\"}]}",
			  -EINVAL, "devices[0].powerPduOutlet: an integer");
	expect_load_error(t, "{\"devices\": [{\"serial\": \"A\", \"powerPduOffValue\": -1}]}",
			  -EINVAL, "devices[0].powerPduOffValue: an integer, 0..65535");
	expect_load_error(
		t, "{\"devices\": [{\"serial\": \"A\", \"powerPduOid\": \"sPDUOutletCtl\"}]}",
		-EINVAL, "devices[0].powerPduOid: a numeric OID");
	expect_load_error(t, "{\"devices\": [{\"serial\": \"A\", \"powerPduOid\": \"1.3..6\"}]}",
			  -EINVAL, "devices[0].powerPduOid");
	expect_load_error(t, "{\"devices\": [{\"serial\": \"A\", \"powerPduCredentials\": \"c\"}]}",
			  -EINVAL, "devices[0].powerPduCredentials: the absolute path");
	expect_load_error(t, "{\"devices\": {}}", -EINVAL, "needs \"devices\"");
	expect_load_error(t, "{\"device\": []}", -EINVAL, "unknown key 'device'");
	expect_load_error(t, "[1, 2", -EINVAL, "not valid JSON");
	CHECK(t, dq_allowlist_load("/nonexistent/allow.json", &list, err, sizeof(err)) == -ENOENT,
	      "missing file");
}

static void test_match_and_check(struct test_ctx *t)
{
	const struct dq_io_engine_ops *ops;
	struct dq_io_engine engine;
	struct dq_io_engine_open_args args = { .queue_depth = 1, .direct = false };
	struct dq_interlock_verdict verdict;
	struct dq_allowlist list;
	char err[512], file_path[256], link_path[256], json[1024];
	FILE *file;
	int rc;

	snprintf(file_path, sizeof(file_path), "%s/disk.img", g_dir);
	snprintf(link_path, sizeof(link_path), "%s/disk-link", g_dir);
	file = fopen(file_path, "w");
	CHECK(t, file != NULL && ftruncate(fileno(file), 1 << 20) == 0, "create");
	fclose(file);
	CHECK(t, symlink(file_path, link_path) == 0, "symlink");
	CHECK(t, dq_io_engine_find("io_uring", &ops, err, sizeof(err)) == 0, "%s", err);
	args.target = file_path;
	rc = dq_io_engine_open(&engine, ops, &args, err, sizeof(err));
	CHECK(t, rc == 0, "open %s: %s", file_path, err);
	if (rc != 0) {
		return;
	}
	CHECK(t,
	      strncmp(engine.target.device.serial, "FILE-", 5) == 0 &&
		      engine.target.serial_synthetic && !engine.target.kernel_block_device,
	      "file serial %s", engine.target.device.serial);

	rc = dq_interlock_check(NULL, &engine.target, NULL, false, &verdict);
	CHECK(t, rc == -EPERM && verdict.reason == DQ_REFUSE_NOT_ALLOWLISTED,
	      "no allowlist: refused (%s)", verdict.message);

	/* by the symlink: compared resolved */
	snprintf(json, sizeof(json), "{\"devices\": [{\"transportAddress\": \"%s\"}]}", link_path);
	CHECK(t, dq_allowlist_load(write_file("l.json", json), &list, err, sizeof(err)) == 0, "%s",
	      err);
	CHECK(t, dq_allowlist_match(&list, &engine.target.device) == &list.entries[0],
	      "a symlinked address matches its target");
	rc = dq_interlock_check(&list, &engine.target, "OTHER-SERIAL", false, &verdict);
	CHECK(t, rc == -EPERM && verdict.reason == DQ_REFUSE_SERIAL_MISMATCH, "mismatch: %s",
	      verdict.message);
	rc = dq_interlock_check(&list, &engine.target, NULL, true, &verdict);
	CHECK(t, rc == -EPERM && verdict.reason == DQ_REFUSE_SERIAL_MISMATCH,
	      "agent jobs must name the serial: %s", verdict.message);
	rc = dq_interlock_check(&list, &engine.target, engine.target.device.serial, true, &verdict);
	CHECK(t, rc == 0 && verdict.reason == DQ_REFUSE_NONE, "a clean allowlisted file: %s",
	      verdict.message);
	dq_allowlist_fini(&list);

	/* serial and address together must both match */
	snprintf(json, sizeof(json),
		 "{\"devices\": [{\"serial\": \"%s\", \"transportAddress\": \"/dev/null\"}]}",
		 engine.target.device.serial);
	CHECK(t, dq_allowlist_load(write_file("b.json", json), &list, err, sizeof(err)) == 0, "%s",
	      err);
	CHECK(t, dq_allowlist_match(&list, &engine.target.device) == NULL,
	      "serial matches but address differs: no match");
	dq_allowlist_fini(&list);
	snprintf(json, sizeof(json), "{\"devices\": [{\"serial\": \"%s\"}]}",
		 engine.target.device.serial);
	CHECK(t, dq_allowlist_load(write_file("s.json", json), &list, err, sizeof(err)) == 0, "%s",
	      err);
	CHECK(t, dq_allowlist_match(&list, &engine.target.device) != NULL, "by serial");
	dq_allowlist_fini(&list);
	dq_io_engine_close(&engine);
	unlink(link_path);
	unlink(file_path);
}

int main(void)
{
	struct test_ctx t = { 0 };
	char command[128];
	int status;

	if (mkdtemp(g_dir) == NULL) {
		return 1;
	}
	test_parse(&t);
	test_match_and_check(&t);
	status = test_report(&t, "allowlist");
	snprintf(command, sizeof(command), "rm -rf '%s'", g_dir);
	if (system(command) != 0) {
		printf("could not remove %s\n", g_dir);
	}
	return status;
}
