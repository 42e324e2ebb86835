/*
 * The redfish power driver: a lab cuts a drive's power through a BMC (a drive enclosure's or a
 * server's), posting Redfish's standard reset action (DMTF DSP0268, e.g.
 * /redfish/v1/Chassis/<id>/Actions/Chassis.Reset) with ResetType ForceOff, then On. Unlike slot
 * power through the host's hotplug driver, the host does not see it coming: the writes in flight
 * are in flight when the power goes, so the engine lets go of the device only after the cut.
 * Once power is back the namespace is found again by serial and namespace id and reopened. The
 * action's URL and the file holding the BMC's credentials come from the drive's allowlist entry;
 * the credentials never appear in the allowlist, a job or a message.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>
#include <json-c/json.h>

#include "contract/strutil.h"
#include "io/engine.h"
#include "io/power.h"
#include "power_sysfs.h"

#define REDFISH_TIMEOUT_S 30L
#define REDFISH_BODY_MAX 4096
#define POLL_MS 100

struct redfish {
	const struct dq_io_engine *engine;
	struct dq_power_namespace ns;
	char url[DQ_POWER_URL_MAX + 1];
	char userpwd[256]; /* empty: no authentication */
	uint32_t restore_wait_ms;
};

struct body {
	char text[REDFISH_BODY_MAX];
	size_t len;
};

static size_t body_write(char *data, size_t size, size_t count, void *arg)
{
	struct body *body = arg;
	size_t n = size * count, room = sizeof(body->text) - 1 - body->len;

	memcpy(body->text + body->len, data, n < room ? n : room);
	body->len += n < room ? n : room;
	body->text[body->len] = '\0';
	return n;
}

/* The BMC's own words from a Redfish error body (@Message.ExtendedInfo, else error.message). */
static void redfish_message(const char *text, char *out, size_t out_len)
{
	struct json_object *root = json_tokener_parse(text), *error, *info, *message;

	out[0] = '\0';
	if (root != NULL && json_object_object_get_ex(root, "error", &error)) {
		if (json_object_object_get_ex(error, "@Message.ExtendedInfo", &info) &&
		    json_object_is_type(info, json_type_array) &&
		    json_object_array_length(info) > 0 &&
		    json_object_object_get_ex(json_object_array_get_idx(info, 0), "Message",
					      &message)) {
			dq_strlcpy(out, json_object_get_string(message), out_len);
		} else if (json_object_object_get_ex(error, "message", &message)) {
			dq_strlcpy(out, json_object_get_string(message), out_len);
		}
	}
	if (out[0] == '\0') {
		snprintf(out, out_len, "%.160s", text[0] != '\0' ? text : "no body");
	}
	json_object_put(root);
}

/* POST {"ResetType": reset_type} to the action: 0 on a 2xx answer, else -EIO with the BMC's
 * message in err. */
static int redfish_reset(const struct redfish *rf, const char *reset_type, char *err,
			 size_t err_len)
{
	char payload[64], message[256];
	struct curl_slist *headers = NULL;
	struct body body = { .len = 0 };
	long status = 0;
	CURLcode rc;
	CURL *curl = curl_easy_init();

	if (curl == NULL) {
		snprintf(err, err_len, "power driver redfish: out of memory for the request");
		return -ENOMEM;
	}
	snprintf(payload, sizeof(payload), "{\"ResetType\": \"%s\"}", reset_type);
	headers = curl_slist_append(headers, "Content-Type: application/json");
	headers = curl_slist_append(headers, "Accept: application/json");
	curl_easy_setopt(curl, CURLOPT_URL, rf->url);
	curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
	curl_easy_setopt(curl, CURLOPT_POSTFIELDS, payload);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT, REDFISH_TIMEOUT_S);
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, body_write);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
	if (rf->userpwd[0] != '\0') {
		curl_easy_setopt(curl, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
		curl_easy_setopt(curl, CURLOPT_USERPWD, rf->userpwd);
	}
	rc = curl_easy_perform(curl);
	if (rc == CURLE_OK) {
		curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
	}
	curl_slist_free_all(headers);
	curl_easy_cleanup(curl);
	if (rc != CURLE_OK) {
		snprintf(err, err_len, "power driver redfish: %s at %s failed: %s", reset_type,
			 rf->url, curl_easy_strerror(rc));
		return -EIO;
	}
	if (status < 200 || status > 299) {
		redfish_message(body.text, message, sizeof(message));
		snprintf(err, err_len,
			 "power driver redfish: the BMC answered %s with HTTP %ld: %s", reset_type,
			 status, message);
		return -EIO;
	}
	return 0;
}

static int redfish_cut(void *ctx, char *err, size_t err_len)
{
	struct redfish *rf = ctx;
	int rc = redfish_reset(rf, "ForceOff", err, err_len);

	if (rc == 0) {
		rf->engine->ops->release(rf->engine->data);
	}
	return rc;
}

static int redfish_restore(void *ctx, char *err, size_t err_len)
{
	struct redfish *rf = ctx;
	char target[512];
	int rc = redfish_reset(rf, "On", err, err_len);

	if (rc != 0) {
		return rc;
	}
	for (uint32_t waited = 0; !dq_power_namespace_find(&rf->ns, target, sizeof(target));
	     waited += POLL_MS) {
		if (waited >= rf->restore_wait_ms) {
			snprintf(err, err_len,
				 "power driver redfish: no namespace %s of serial '%s' came back "
				 "within %u ms of the BMC's power-on",
				 rf->ns.nsid, rf->ns.serial, rf->restore_wait_ms);
			return -ETIMEDOUT;
		}
		dq_power_sleep_ms(POLL_MS);
	}
	return rf->engine->ops->reopen(rf->engine->data, target, err, err_len);
}

static void redfish_close(void *ctx)
{
	struct redfish *rf = ctx;

	if (rf != NULL) {
		memset(rf->userpwd, 0, sizeof(rf->userpwd));
	}
	free(rf);
}

static const struct dq_power_driver_ops redfish_ops = {
	.name = "redfish",
	.cut = redfish_cut,
	.restore = redfish_restore,
	.close = redfish_close,
};

int dq_power_redfish_open(const struct dq_io_engine *engine, const struct dq_power_site *site,
			  const struct dq_pci_slot_paths *paths, struct dq_power_driver *out,
			  char *err, size_t err_len)
{
	struct redfish *rf;
	int rc;

	if (site == NULL || site->redfish_url == NULL) {
		snprintf(err, err_len,
			 "power driver redfish: the drive's allowlist entry names no "
			 "powerRedfishUrl (the BMC's reset action): nothing was written");
		return -ENOENT;
	}
	if (engine->ops->release == NULL || engine->ops->reopen == NULL) {
		snprintf(err, err_len,
			 "power driver redfish needs an engine that can let go of the drive while "
			 "its power is off; engine %s cannot",
			 engine->ops->name);
		return -ENOTSUP;
	}
	rf = calloc(1, sizeof(*rf));
	if (rf == NULL) {
		return -ENOMEM;
	}
	rf->engine = engine;
	rf->restore_wait_ms = paths->restore_wait_ms;
	dq_strlcpy(rf->url, site->redfish_url, sizeof(rf->url));
	rc = dq_power_namespace_of(engine, paths, "redfish", &rf->ns, err, err_len);
	if (rc == 0 && site->redfish_credentials != NULL) {
		rc = dq_power_read_credentials("redfish", site->redfish_credentials, true,
					       rf->userpwd, sizeof(rf->userpwd), err, err_len);
	}
	if (rc == 0 && curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		snprintf(err, err_len, "power driver redfish: libcurl did not initialise");
		rc = -EIO;
	}
	if (rc != 0) {
		redfish_close(rf);
		return rc;
	}
	*out = (struct dq_power_driver){ .ops = &redfish_ops, .ctx = rf };
	return 0;
}
