/*
 * The spdk engine's target syntax, kept free of SPDK so it is unit-tested where SPDK is not
 * installed (CI) and so the allowlist can put SPDK targets in canonical form in every build.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "contract/strutil.h"
#include "device/spdk_target.h"

#define NSID_MAX 0xfffffffeu

/* dddd:bb:dd.f or bb:dd.f (':' or '.' between fields, as fio's spdk plugin writes it), hex. */
static bool parse_bdf(const char *text, char *out, size_t out_len)
{
	unsigned field[4] = { 0 }, count = 0, domain, bus, dev, func;
	const char *p = text;
	char last_separator = '\0';
	char *end;

	while (count < 4) {
		if (!isxdigit((unsigned char)*p)) {
			return false;
		}
		field[count++] = (unsigned)strtoul(p, &end, 16);
		if (end - p > 4) {
			return false;
		}
		p = end;
		if (*p == '\0') {
			break;
		}
		if (*p != ':' && *p != '.') {
			return false;
		}
		last_separator = *p++;
	}
	if (*p != '\0' || count < 3 || last_separator != '.') {
		return false; /* the function always follows a dot */
	}
	domain = count == 4 ? field[0] : 0;
	bus = field[count - 3];
	dev = field[count - 2];
	func = field[count - 1];
	if (domain > 0xffff || bus > 0xff || dev > 0x1f || func > 7) {
		return false;
	}
	snprintf(out, out_len, "%04x:%02x:%02x.%x", domain, bus, dev, func);
	return true;
}

static int set_field(char *field, size_t size, const char *key, const char *value, char *err,
		     size_t err_len)
{
	if (field[0] != '\0') {
		snprintf(err, err_len, "SPDK target: '%s' given twice", key);
		return -EINVAL;
	}
	if (value[0] == '\0' || strlen(value) >= size) {
		snprintf(err, err_len, "SPDK target: '%s' must have a value shorter than %zu bytes",
			 key, size);
		return -EINVAL;
	}
	dq_strlcpy(field, value, size);
	return 0;
}

static int parse_pair(char *token, struct dq_spdk_target *target, char *trtype, bool *has_ns,
		      char *err, size_t err_len)
{
	size_t key_len = strcspn(token, ":=");
	const char *value;
	char *end;
	unsigned long nsid;

	if (token[key_len] == '\0') {
		snprintf(err, err_len, "SPDK target: '%s' is not key:value", token);
		return -EINVAL;
	}
	token[key_len] = '\0';
	value = token + key_len + 1;
	if (strcasecmp(token, "trtype") == 0) {
		return set_field(trtype, 8, "trtype", value, err, err_len);
	} else if (strcasecmp(token, "adrfam") == 0) {
		return set_field(target->adrfam, sizeof(target->adrfam), "adrfam", value, err,
				 err_len);
	} else if (strcasecmp(token, "traddr") == 0) {
		return set_field(target->traddr, sizeof(target->traddr), "traddr", value, err,
				 err_len);
	} else if (strcasecmp(token, "trsvcid") == 0) {
		return set_field(target->trsvcid, sizeof(target->trsvcid), "trsvcid", value, err,
				 err_len);
	} else if (strcasecmp(token, "subnqn") == 0) {
		return set_field(target->subnqn, sizeof(target->subnqn), "subnqn", value, err,
				 err_len);
	} else if (strcasecmp(token, "hostnqn") == 0) {
		return set_field(target->hostnqn, sizeof(target->hostnqn), "hostnqn", value, err,
				 err_len);
	} else if (strcasecmp(token, "ns") == 0) {
		errno = 0;
		nsid = strtoul(value, &end, 10);
		if (*has_ns || errno != 0 || end == value || *end != '\0' || nsid == 0 ||
		    nsid > NSID_MAX || value[0] == '-') {
			snprintf(err, err_len,
				 "SPDK target: ns must be given once, 1..%u, not '%s'", NSID_MAX,
				 value);
			return -EINVAL;
		}
		*has_ns = true;
		target->nsid = (uint32_t)nsid;
		return 0;
	}
	snprintf(err, err_len,
		 "SPDK target: unknown key '%s' (keys: trtype, adrfam, traddr, trsvcid, subnqn, "
		 "hostnqn, ns)",
		 token);
	return -EINVAL;
}

static int check_fabric(struct dq_spdk_target *target, char *err, size_t err_len)
{
	if (target->adrfam[0] == '\0') {
		dq_strlcpy(target->adrfam, "IPv4", sizeof(target->adrfam));
	} else if (strcasecmp(target->adrfam, "IPv4") == 0) {
		dq_strlcpy(target->adrfam, "IPv4", sizeof(target->adrfam));
	} else if (strcasecmp(target->adrfam, "IPv6") == 0) {
		dq_strlcpy(target->adrfam, "IPv6", sizeof(target->adrfam));
	} else {
		snprintf(err, err_len, "SPDK target: adrfam must be IPv4 or IPv6, not '%s'",
			 target->adrfam);
		return -EINVAL;
	}
	if (target->traddr[0] == '\0' || target->trsvcid[0] == '\0' || target->subnqn[0] == '\0') {
		snprintf(err, err_len,
			 "SPDK target: a fabric target needs traddr, trsvcid and subnqn "
			 "(trtype:TCP adrfam:IPv4 traddr:127.0.0.1 trsvcid:4420 subnqn:NQN)");
		return -EINVAL;
	}
	if (strchr(target->trsvcid, ' ') != NULL ||
	    strspn(target->trsvcid, "0123456789") != strlen(target->trsvcid)) {
		snprintf(err, err_len, "SPDK target: trsvcid must be a port number, not '%s'",
			 target->trsvcid);
		return -EINVAL;
	}
	return 0;
}

int dq_spdk_target_parse(const char *text, struct dq_spdk_target *target, char *err, size_t err_len)
{
	char copy[1024], trtype[8] = "", bdf[16], *token, *save = NULL;
	bool has_ns = false;
	int rc;

	memset(target, 0, sizeof(*target));
	target->nsid = 1;
	if (text == NULL || text[0] == '\0' || strlen(text) >= sizeof(copy)) {
		snprintf(err, err_len, "SPDK target: empty or longer than %zu bytes",
			 sizeof(copy) - 1);
		return -EINVAL;
	}
	if (parse_bdf(text, bdf, sizeof(bdf))) {
		target->trtype = DQ_SPDK_TRTYPE_PCIE;
		dq_strlcpy(target->traddr, bdf, sizeof(target->traddr));
		return 0;
	}
	dq_strlcpy(copy, text, sizeof(copy));
	for (token = strtok_r(copy, " \t", &save); token != NULL;
	     token = strtok_r(NULL, " \t", &save)) {
		rc = parse_pair(token, target, trtype, &has_ns, err, err_len);
		if (rc != 0) {
			return rc;
		}
	}
	if (strcasecmp(trtype, "PCIe") == 0) {
		target->trtype = DQ_SPDK_TRTYPE_PCIE;
		if (target->adrfam[0] != '\0' || target->trsvcid[0] != '\0' ||
		    target->subnqn[0] != '\0' || target->hostnqn[0] != '\0') {
			snprintf(err, err_len, "SPDK target: PCIe takes only traddr (and ns)");
			return -EINVAL;
		}
		if (!parse_bdf(target->traddr, bdf, sizeof(bdf))) {
			snprintf(
				err, err_len,
				"SPDK target: PCIe traddr must be a BDF like 0000:04:00.0, not '%s'",
				target->traddr);
			return -EINVAL;
		}
		dq_strlcpy(target->traddr, bdf, sizeof(target->traddr));
		return 0;
	}
	if (strcasecmp(trtype, "TCP") == 0) {
		target->trtype = DQ_SPDK_TRTYPE_TCP;
	} else if (strcasecmp(trtype, "RDMA") == 0) {
		target->trtype = DQ_SPDK_TRTYPE_RDMA;
	} else {
		snprintf(err, err_len,
			 "SPDK target: trtype must be PCIe, TCP or RDMA, not '%s' (or give a PCIe "
			 "BDF such as 0000:04:00.0)",
			 trtype);
		return -EINVAL;
	}
	return check_fabric(target, err, err_len);
}

static const char *trtype_name(enum dq_spdk_trtype trtype)
{
	return trtype == DQ_SPDK_TRTYPE_PCIE ? "PCIe" :
	       trtype == DQ_SPDK_TRTYPE_TCP  ? "TCP" :
					       "RDMA";
}

int dq_spdk_target_trid(const struct dq_spdk_target *target, char *out, size_t out_len)
{
	int n;

	if (target->trtype == DQ_SPDK_TRTYPE_PCIE) {
		n = snprintf(out, out_len, "trtype:PCIe traddr:%s", target->traddr);
	} else {
		n = snprintf(out, out_len, "trtype:%s adrfam:%s traddr:%s trsvcid:%s subnqn:%s",
			     trtype_name(target->trtype), target->adrfam, target->traddr,
			     target->trsvcid, target->subnqn);
	}
	return n < 0 || (size_t)n >= out_len ? -ENAMETOOLONG : 0;
}

int dq_spdk_target_address(const struct dq_spdk_target *target, char *out, size_t out_len)
{
	size_t len;
	int n, rc;

	rc = dq_spdk_target_trid(target, out, out_len);
	if (rc != 0) {
		return rc;
	}
	len = strlen(out);
	n = snprintf(out + len, out_len - len, " ns:%u", target->nsid);
	return n < 0 || (size_t)n >= out_len - len ? -ENAMETOOLONG : 0;
}

bool dq_spdk_target_canonical(const char *text, char *out, size_t out_len)
{
	struct dq_spdk_target target;
	char err[256];

	return dq_spdk_target_parse(text, &target, err, sizeof(err)) == 0 &&
	       dq_spdk_target_address(&target, out, out_len) == 0;
}
