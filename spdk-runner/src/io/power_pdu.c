/*
 * The pdu power driver: a lab cuts a drive's (or a drive enclosure's) power at a switched PDU
 * outlet, with an SNMP SET of the outlet's control object (by default APC PowerNet-MIB's
 * sPDUOutletCtl.<outlet>, 1.3.6.1.4.1.318.1.1.4.4.2.1.3.<outlet>: 2 immediate off, 1 immediate on),
 * SNMPv2c through net-snmp's library. The write community comes from a file only its owner may
 * read, never from the allowlist, a job or a message. Like the BMC drivers the cut is dirty: the
 * engine lets go of the device after it and reopens the namespace found again by serial.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include "contract/strutil.h"
#include "io/engine.h"
#include "io/power.h"
#include "power_sysfs.h"

#define PDU_TIMEOUT_US 2000000L
#define PDU_RETRIES 2
#define POLL_MS 100

struct pdu {
	const struct dq_io_engine *engine;
	struct dq_power_namespace ns;
	char peer[DQ_POWER_URL_MAX + 8]; /* "udp:host:port" */
	char community[128];
	oid object[MAX_OID_LEN];
	size_t object_len;
	long off_value;
	long on_value;
	uint32_t restore_wait_ms;
};

static pthread_once_t g_snmp_once = PTHREAD_ONCE_INIT;

/* The library without its configuration files and MIBs: the driver names objects numerically. */
static void snmp_library_init(void)
{
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_DONT_READ_CONFIGS, 1);
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_DISABLE_PERSISTENT_LOAD, 1);
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_DISABLE_PERSISTENT_SAVE, 1);
	snmp_disable_log();
	setenv("MIBS", "", 0);
	init_snmp("drivequal-runner");
}

/* "1.3.6.1..." (a leading '.' allowed) into out: 0, or -EINVAL. */
static int parse_oid(const char *text, oid *out, size_t *out_len)
{
	const char *p = text[0] == '.' ? text + 1 : text;
	size_t n = 0;

	while (*p != '\0') {
		char *end;
		unsigned long arc = strtoul(p, &end, 10);

		if (end == p || n == MAX_OID_LEN - 1 || (*end != '.' && *end != '\0')) {
			return -EINVAL;
		}
		out[n++] = (oid)arc;
		p = *end == '.' ? end + 1 : end;
		if (*end == '.' && *p == '\0') {
			return -EINVAL;
		}
	}
	*out_len = n;
	return n >= 2 ? 0 : -EINVAL;
}

/* SET the outlet's control object to value: 0, or -EIO (-ETIMEDOUT: no answer) with the agent's
 * or the library's words in err. */
static int pdu_set(const struct pdu *pdu, const char *what, long value, char *err, size_t err_len)
{
	netsnmp_session config;
	netsnmp_pdu *request, *response = NULL;
	void *session;
	int status, rc = 0;

	snmp_sess_init(&config);
	config.peername = (char *)pdu->peer;
	config.version = SNMP_VERSION_2c;
	config.community = (u_char *)pdu->community;
	config.community_len = strlen(pdu->community);
	config.timeout = PDU_TIMEOUT_US;
	config.retries = PDU_RETRIES;
	session = snmp_sess_open(&config);
	if (session == NULL) {
		snprintf(err, err_len, "power driver pdu: cannot open an SNMP session to %s",
			 pdu->peer);
		return -EIO;
	}
	request = snmp_pdu_create(SNMP_MSG_SET);
	snmp_pdu_add_variable(request, pdu->object, pdu->object_len, ASN_INTEGER, &value,
			      sizeof(value));
	status = snmp_sess_synch_response(session, request, &response);
	if (status == STAT_TIMEOUT) {
		snprintf(err, err_len,
			 "power driver pdu: %s (SET %ld) at %s: no answer within %ld ms x %d tries "
			 "(a wrong community gets none either)",
			 what, value, pdu->peer, PDU_TIMEOUT_US / 1000, PDU_RETRIES + 1);
		rc = -ETIMEDOUT;
	} else if (status != STAT_SUCCESS || response == NULL) {
		int liberr = 0, syserr = 0;
		char *words = NULL;

		snmp_sess_error(session, &liberr, &syserr, &words);
		snprintf(err, err_len, "power driver pdu: %s (SET %ld) at %s failed: %s", what,
			 value, pdu->peer, words != NULL ? words : "unknown error");
		free(words);
		rc = -EIO;
	} else if (response->errstat != SNMP_ERR_NOERROR) {
		snprintf(err, err_len, "power driver pdu: the PDU at %s refused %s (SET %ld): %s",
			 pdu->peer, what, value, snmp_errstring((int)response->errstat));
		rc = -EIO;
	}
	if (response != NULL) {
		snmp_free_pdu(response);
	}
	snmp_sess_close(session);
	return rc;
}

static int pdu_cut(void *ctx, char *err, size_t err_len)
{
	struct pdu *pdu = ctx;
	int rc = pdu_set(pdu, "outlet off", pdu->off_value, err, err_len);

	if (rc == 0) {
		pdu->engine->ops->release(pdu->engine->data);
	}
	return rc;
}

static int pdu_restore(void *ctx, char *err, size_t err_len)
{
	struct pdu *pdu = ctx;
	char target[512];
	int rc = pdu_set(pdu, "outlet on", pdu->on_value, err, err_len);

	if (rc != 0) {
		return rc;
	}
	for (uint32_t waited = 0; !dq_power_namespace_find(&pdu->ns, target, sizeof(target));
	     waited += POLL_MS) {
		if (waited >= pdu->restore_wait_ms) {
			snprintf(err, err_len,
				 "power driver pdu: no namespace %s of serial '%s' came back "
				 "within %u ms of the outlet's power-on",
				 pdu->ns.nsid, pdu->ns.serial, pdu->restore_wait_ms);
			return -ETIMEDOUT;
		}
		dq_power_sleep_ms(POLL_MS);
	}
	return pdu->engine->ops->reopen(pdu->engine->data, target, err, err_len);
}

static void pdu_close(void *ctx)
{
	struct pdu *pdu = ctx;

	if (pdu != NULL) {
		memset(pdu->community, 0, sizeof(pdu->community));
	}
	free(pdu);
}

static const struct dq_power_driver_ops pdu_ops = {
	.name = "pdu",
	.cut = pdu_cut,
	.restore = pdu_restore,
	.close = pdu_close,
};

int dq_power_pdu_open(const struct dq_io_engine *engine, const struct dq_power_site *site,
		      const struct dq_pci_slot_paths *paths, struct dq_power_driver *out, char *err,
		      size_t err_len)
{
	char object[300];
	struct pdu *pdu;
	int rc = 0;

	if (site == NULL || site->pdu_host == NULL || site->pdu_outlet == NULL ||
	    site->pdu_credentials == NULL) {
		snprintf(err, err_len,
			 "power driver pdu: the drive's allowlist entry names no %s (the PDU's "
			 "address, the drive's outlet and the file of its write community): "
			 "nothing was written",
			 site == NULL || site->pdu_host == NULL ? "powerPduHost" :
			 site->pdu_outlet == NULL		? "powerPduOutlet" :
								  "powerPduCredentials");
		return -ENOENT;
	}
	if (engine->ops->release == NULL || engine->ops->reopen == NULL) {
		snprintf(err, err_len,
			 "power driver pdu needs an engine that can let go of the drive while its "
			 "power is off; engine %s cannot",
			 engine->ops->name);
		return -ENOTSUP;
	}
	pdu = calloc(1, sizeof(*pdu));
	if (pdu == NULL) {
		return -ENOMEM;
	}
	pdu->engine = engine;
	pdu->restore_wait_ms = paths->restore_wait_ms;
	pdu->off_value = site->pdu_off_value != NULL ? strtol(site->pdu_off_value, NULL, 10) : 2;
	pdu->on_value = site->pdu_on_value != NULL ? strtol(site->pdu_on_value, NULL, 10) : 1;
	snprintf(pdu->peer, sizeof(pdu->peer), "udp:%s", site->pdu_host);
	snprintf(object, sizeof(object), "%s.%s",
		 site->pdu_oid != NULL ? site->pdu_oid : DQ_POWER_PDU_DEFAULT_OID,
		 site->pdu_outlet);
	if (parse_oid(object, pdu->object, &pdu->object_len) != 0) {
		snprintf(err, err_len,
			 "power driver pdu: %s (powerPduOid.powerPduOutlet) is no numeric OID",
			 object);
		rc = -EINVAL;
	}
	if (rc == 0) {
		rc = dq_power_namespace_of(engine, paths, "pdu", &pdu->ns, err, err_len);
	}
	if (rc == 0) {
		rc = dq_power_read_credentials("pdu", site->pdu_credentials, false, pdu->community,
					       sizeof(pdu->community), err, err_len);
	}
	if (rc != 0) {
		pdu_close(pdu);
		return rc;
	}
	pthread_once(&g_snmp_once, snmp_library_init);
	*out = (struct dq_power_driver){ .ops = &pdu_ops, .ctx = pdu };
	return 0;
}
