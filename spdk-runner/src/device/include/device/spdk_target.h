/*
 * What the spdk engine's --filename names, parsed without SPDK: a PCIe BDF ("0000:04:00.0") or an
 * SPDK transport ID ("trtype:TCP adrfam:IPv4 traddr:127.0.0.1 trsvcid:4420 subnqn:nqn...", '='
 * works as well as ':'), plus the runner's own "ns:N" (namespace, default 1). The canonical
 * spelling is the device's transport address, so allowlist entries match however they are typed.
 */
#ifndef DRIVEQUAL_SPDK_TARGET_H
#define DRIVEQUAL_SPDK_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum dq_spdk_trtype {
	DQ_SPDK_TRTYPE_PCIE = 1,
	DQ_SPDK_TRTYPE_TCP,
	DQ_SPDK_TRTYPE_RDMA,
};

struct dq_spdk_target {
	enum dq_spdk_trtype trtype;
	char adrfam[8]; /* IPv4, IPv6 (fabrics) */
	char traddr[257]; /* BDF as dddd:bb:dd.f, or a fabric address */
	char trsvcid[33];
	char subnqn[224];
	char hostnqn[224]; /* optional: the NQN the runner connects as */
	uint32_t nsid;
};

/* Parse text; 0 or -EINVAL with the reason in err. */
int dq_spdk_target_parse(const char *text, struct dq_spdk_target *target, char *err,
			 size_t err_len);

/* The transport ID for spdk_nvme_transport_id_parse() (no ns, no hostnqn). Returns 0 or
 * -ENAMETOOLONG. */
int dq_spdk_target_trid(const struct dq_spdk_target *target, char *out, size_t out_len);

/* The canonical transport address: the transport ID followed by " ns:N". 0 or -ENAMETOOLONG. */
int dq_spdk_target_address(const struct dq_spdk_target *target, char *out, size_t out_len);

/* text's canonical transport address when it parses as an SPDK target; false otherwise. */
bool dq_spdk_target_canonical(const char *text, char *out, size_t out_len);

#endif /* DRIVEQUAL_SPDK_TARGET_H */
