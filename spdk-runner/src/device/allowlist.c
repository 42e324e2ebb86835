/*
 * The runner's allowlist file: which devices it may erase, by serial or transport address, with
 * explicit per-device overrides. Parsed strictly, because a misspelt key must never widen or
 * silently narrow what the runner destroys.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "contract/strutil.h"
#include "device/interlock.h"
#include "device/spdk_target.h"

static const char *const entry_keys[] = { "serial",
					  "transportAddress",
					  "allowPartitioned",
					  "allowSignatures",
					  "allowMounted",
					  "powerSlot",
					  "powerRedfishUrl",
					  "powerRedfishCredentials",
					  "powerIpmiHost",
					  "powerIpmiCredentials",
					  "powerIpmiCipherSuite",
					  "powerPduHost",
					  "powerPduOutlet",
					  "powerPduCredentials",
					  "powerPduOid",
					  "powerPduOffValue",
					  "powerPduOnValue",
					  "comment",
					  NULL };

static bool key_known(const char *key)
{
	size_t i;

	for (i = 0; entry_keys[i] != NULL; i++) {
		if (strcmp(entry_keys[i], key) == 0) {
			return true;
		}
	}
	return false;
}

/* A kernel path is compared resolved (/dev/disk/by-id/... and /dev/nvme0n1 are one device), an
 * SPDK target in canonical form (0000:04:00.0 and "trtype=pcie traddr=0000.04.00.0" are one). */
static void canonical_address(const char *address, char *out, size_t out_len)
{
	char resolved[PATH_MAX];

	if (address[0] == '/' && realpath(address, resolved) != NULL) {
		dq_strlcpy(out, resolved, out_len);
	} else if (address[0] != '/' && dq_spdk_target_canonical(address, out, out_len)) {
		return;
	} else {
		dq_strlcpy(out, address, out_len);
	}
}

/* A power driver's host key (a host name or address, optionally :port) into out, when present:
 * 0, or -EINVAL with err naming the key and what it must be. */
static int power_host(struct json_object *obj, const char *key, const char *what, size_t index,
		      char *out, size_t out_len, char *err, size_t err_len)
{
	struct json_object *value;
	const char *text;

	if (!json_object_object_get_ex(obj, key, &value)) {
		return 0;
	}
	text = json_object_get_string(value);
	if (text[0] == '\0' || text[0] == '-' || strlen(text) > DQ_POWER_URL_MAX_LEN ||
	    strspn(text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:[]") !=
		    strlen(text)) {
		snprintf(err, err_len, "devices[%zu].%s: %s", index, key, what);
		return -EINVAL;
	}
	dq_strlcpy(out, text, out_len);
	return 0;
}

/* A power driver's credentials key (the absolute path of a file holding the secret) into out,
 * when present: 0, or -EINVAL with err naming the key and what the file holds. */
static int power_credentials(struct json_object *obj, const char *key, const char *holding,
			     size_t index, char *out, size_t out_len, char *err, size_t err_len)
{
	struct json_object *value;
	const char *text;

	if (!json_object_object_get_ex(obj, key, &value)) {
		return 0;
	}
	text = json_object_get_string(value);
	if (text[0] != '/' || strlen(text) > DQ_POWER_URL_MAX_LEN) {
		snprintf(err, err_len, "devices[%zu].%s: the absolute path of a file holding %s",
			 index, key, holding);
		return -EINVAL;
	}
	dq_strlcpy(out, text, out_len);
	return 0;
}

/* A power driver's small integer key, kept as its decimal text, when present. */
static void power_number(struct json_object *obj, const char *key, char *out, size_t out_len)
{
	struct json_object *value;

	if (json_object_object_get_ex(obj, key, &value)) {
		snprintf(out, out_len, "%d", (int)json_object_get_int64(value));
	}
}

static int entry_parse(struct json_object *obj, size_t index, struct dq_allowlist_entry *entry,
		       char *err, size_t err_len)
{
	struct json_object *value;
	const char *text;
	int rc;

	if (!json_object_is_type(obj, json_type_object)) {
		snprintf(err, err_len, "devices[%zu]: must be an object", index);
		return -EINVAL;
	}
	json_object_object_foreach(obj, key, member) {
		if (!key_known(key)) {
			snprintf(
				err, err_len,
				"devices[%zu]: unknown key '%.40s' (known: serial, transportAddress, "
				"allow{Partitioned,Signatures,Mounted}, comment, powerSlot, "
				"powerRedfish..., powerIpmi..., powerPdu...)",
				index, key);
			return -EINVAL;
		}
		if (strncmp(key, "allow", 5) == 0 &&
		    !json_object_is_type(member, json_type_boolean)) {
			snprintf(err, err_len, "devices[%zu].%s: must be true or false", index,
				 key);
			return -EINVAL;
		}
		if (strcmp(key, "powerPduOutlet") == 0 || strcmp(key, "powerPduOffValue") == 0 ||
		    strcmp(key, "powerPduOnValue") == 0) {
			if (!json_object_is_type(member, json_type_int) ||
			    json_object_get_int64(member) < (key[8] == 'O' && key[9] == 'u') ||
			    json_object_get_int64(member) > 65535) {
				snprintf(err, err_len, "devices[%zu].%s: an integer, %d..65535",
					 index, key, key[8] == 'O' && key[9] == 'u' ? 1 : 0);
				return -EINVAL;
			}
			continue;
		}
		if (strcmp(key, "powerIpmiCipherSuite") == 0) {
			if (!json_object_is_type(member, json_type_int) ||
			    json_object_get_int64(member) < 0 ||
			    json_object_get_int64(member) > 17) {
				snprintf(err, err_len,
					 "devices[%zu].powerIpmiCipherSuite: an RMCP+ cipher suite "
					 "id, 0..17",
					 index);
				return -EINVAL;
			}
			continue;
		}
		if (strncmp(key, "allow", 5) != 0 &&
		    !json_object_is_type(member, json_type_string)) {
			snprintf(err, err_len, "devices[%zu].%s: must be a string", index, key);
			return -EINVAL;
		}
	}
	if (json_object_object_get_ex(obj, "serial", &value)) {
		text = json_object_get_string(value);
		if (text[0] == '\0' || strlen(text) > DQ_SERIAL_MAX_LEN) {
			snprintf(err, err_len, "devices[%zu].serial: 1..%d characters", index,
				 DQ_SERIAL_MAX_LEN);
			return -EINVAL;
		}
		entry->has_serial = true;
		dq_strlcpy(entry->serial, text, sizeof(entry->serial));
	}
	if (json_object_object_get_ex(obj, "transportAddress", &value)) {
		text = json_object_get_string(value);
		if (text[0] == '\0' || strlen(text) >= sizeof(entry->transport_address)) {
			snprintf(err, err_len, "devices[%zu].transportAddress: must not be empty",
				 index);
			return -EINVAL;
		}
		entry->has_transport_address = true;
		canonical_address(text, entry->transport_address, sizeof(entry->transport_address));
	}
	if (!entry->has_serial && !entry->has_transport_address) {
		snprintf(err, err_len, "devices[%zu]: needs serial or transportAddress", index);
		return -EINVAL;
	}
	if (json_object_object_get_ex(obj, "powerSlot", &value)) {
		text = json_object_get_string(value);
		if (text[0] == '\0' || strlen(text) > DQ_POWER_SLOT_MAX_LEN ||
		    strspn(text,
			   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") !=
			    strlen(text) ||
		    text[0] == '.') {
			snprintf(err, err_len,
				 "devices[%zu].powerSlot: a slot name of /sys/bus/pci/slots (1..%d "
				 "letters, digits, '-', '_', '.'; not starting with '.')",
				 index, DQ_POWER_SLOT_MAX_LEN);
			return -EINVAL;
		}
		entry->has_power_slot = true;
		dq_strlcpy(entry->power_slot, text, sizeof(entry->power_slot));
	}
	if (json_object_object_get_ex(obj, "powerRedfishUrl", &value)) {
		text = json_object_get_string(value);
		if ((strncmp(text, "https://", 8) != 0 && strncmp(text, "http://", 7) != 0) ||
		    strlen(text) > DQ_POWER_URL_MAX_LEN) {
			snprintf(
				err, err_len,
				"devices[%zu].powerRedfishUrl: an http(s):// URL of the BMC's reset "
				"action, up to %d characters",
				index, DQ_POWER_URL_MAX_LEN);
			return -EINVAL;
		}
		dq_strlcpy(entry->redfish_url, text, sizeof(entry->redfish_url));
	}
	rc = power_credentials(obj, "powerRedfishCredentials", "user:password", index,
			       entry->redfish_credentials, sizeof(entry->redfish_credentials), err,
			       err_len);
	if (rc == 0) {
		rc = power_host(
			obj, "powerIpmiHost",
			"the BMC's host name or address, optionally :port (letters, digits, "
			"'-', '_', '.', ':', '[', ']'; not starting with '-')",
			index, entry->ipmi_host, sizeof(entry->ipmi_host), err, err_len);
	}
	if (rc == 0) {
		rc = power_credentials(obj, "powerIpmiCredentials", "user:password", index,
				       entry->ipmi_credentials, sizeof(entry->ipmi_credentials),
				       err, err_len);
	}
	if (rc == 0) {
		rc = power_host(obj, "powerPduHost",
				"the PDU's host name or address, optionally :port", index,
				entry->pdu_host, sizeof(entry->pdu_host), err, err_len);
	}
	if (rc == 0) {
		rc = power_credentials(obj, "powerPduCredentials", "the write community", index,
				       entry->pdu_credentials, sizeof(entry->pdu_credentials), err,
				       err_len);
	}
	if (rc != 0) {
		return rc;
	}
	if (json_object_object_get_ex(obj, "powerPduOid", &value)) {
		text = json_object_get_string(value);
		if (text[0] == '\0' || text[0] == '.' || strlen(text) >= sizeof(entry->pdu_oid) ||
		    strspn(text, "0123456789.") != strlen(text) || strstr(text, "..") != NULL ||
		    text[strlen(text) - 1] == '.') {
			snprintf(
				err, err_len,
				"devices[%zu].powerPduOid: a numeric OID (e.g. %s, APC sPDUOutletCtl), the outlet "
				"control column without the outlet",
				index, "1.3.6.1.4.1.318.1.1.4.4.2.1.3");
			return -EINVAL;
		}
		dq_strlcpy(entry->pdu_oid, text, sizeof(entry->pdu_oid));
	}
	power_number(obj, "powerPduOutlet", entry->pdu_outlet, sizeof(entry->pdu_outlet));
	power_number(obj, "powerPduOffValue", entry->pdu_off_value, sizeof(entry->pdu_off_value));
	power_number(obj, "powerPduOnValue", entry->pdu_on_value, sizeof(entry->pdu_on_value));
	power_number(obj, "powerIpmiCipherSuite", entry->ipmi_cipher_suite,
		     sizeof(entry->ipmi_cipher_suite));
	entry->allow_partitioned = json_object_object_get_ex(obj, "allowPartitioned", &value) &&
				   json_object_get_boolean(value);
	entry->allow_signatures = json_object_object_get_ex(obj, "allowSignatures", &value) &&
				  json_object_get_boolean(value);
	entry->allow_mounted = json_object_object_get_ex(obj, "allowMounted", &value) &&
			       json_object_get_boolean(value);
	return 0;
}

int dq_allowlist_load(const char *path, struct dq_allowlist *list, char *err, size_t err_len)
{
	struct json_object *root = NULL, *devices;
	size_t i, n;
	int rc = -EINVAL;

	memset(list, 0, sizeof(*list));
	root = json_object_from_file(path);
	if (root == NULL) {
		FILE *probe = fopen(path, "r");

		if (probe == NULL) {
			rc = -errno;
			snprintf(err, err_len, "allowlist %s: %s", path, strerror(errno));
			return rc;
		}
		fclose(probe);
		snprintf(err, err_len, "allowlist %s: not valid JSON (%s)", path,
			 json_util_get_last_err() ? json_util_get_last_err() : "parse error");
		return -EINVAL;
	}
	if (!json_object_is_type(root, json_type_object)) {
		snprintf(err, err_len, "allowlist %s: must be an object {\"devices\": [...]}",
			 path);
		goto out;
	}
	json_object_object_foreach(root, key, member) {
		(void)member;
		if (strcmp(key, "devices") != 0 && strcmp(key, "comment") != 0) {
			snprintf(err, err_len, "allowlist %s: unknown key '%s'", path, key);
			goto out;
		}
	}
	if (!json_object_object_get_ex(root, "devices", &devices) ||
	    !json_object_is_type(devices, json_type_array)) {
		snprintf(err, err_len, "allowlist %s: needs \"devices\": [...]", path);
		goto out;
	}
	n = json_object_array_length(devices);
	list->entries = calloc(n > 0 ? n : 1, sizeof(*list->entries));
	if (list->entries == NULL) {
		rc = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		char entry_err[256];

		rc = entry_parse(json_object_array_get_idx(devices, i), i, &list->entries[i],
				 entry_err, sizeof(entry_err));
		if (rc != 0) {
			snprintf(err, err_len, "allowlist %s: %s", path, entry_err);
			dq_allowlist_fini(list);
			goto out;
		}
		list->count++;
	}
	rc = 0;
out:
	json_object_put(root);
	return rc;
}

int dq_allowlist_copy(struct dq_allowlist *dst, const struct dq_allowlist *src)
{
	memset(dst, 0, sizeof(*dst));
	if (src == NULL || src->count == 0) {
		return 0;
	}
	dst->entries = calloc(src->count, sizeof(*dst->entries));
	if (dst->entries == NULL) {
		return -ENOMEM;
	}
	memcpy(dst->entries, src->entries, src->count * sizeof(*dst->entries));
	dst->count = src->count;
	return 0;
}

void dq_allowlist_fini(struct dq_allowlist *list)
{
	free(list->entries);
	list->entries = NULL;
	list->count = 0;
}

const struct dq_allowlist_entry *dq_allowlist_match(const struct dq_allowlist *list,
						    const struct dq_device *device)
{
	char address[sizeof(device->transport_address)];
	const struct dq_allowlist_entry *entry;
	size_t i;

	if (list == NULL) {
		return NULL;
	}
	canonical_address(device->transport_address, address, sizeof(address));
	for (i = 0; i < list->count; i++) {
		entry = &list->entries[i];
		if (entry->has_serial && strcmp(entry->serial, device->serial) != 0) {
			continue;
		}
		if (entry->has_transport_address &&
		    strcmp(entry->transport_address, address) != 0) {
			continue;
		}
		return entry;
	}
	return NULL;
}
