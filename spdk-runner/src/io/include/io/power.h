/*
 * Power control as a pluggable driver: what cuts and restores a drive's power for a power-loss
 * integrity phase. The simulator brings its own (the sim engine with sim_power=...); a host cuts
 * a PCIe slot's power through sysfs (pci-slot); a BMC through Redfish (redfish) or IPMI LAN
 * (ipmi); a switched PDU's outlet over SNMP (pdu). "none" is a configuration,
 * not a driver: asking for it is a refusal, before any write.
 */
#ifndef DRIVEQUAL_POWER_H
#define DRIVEQUAL_POWER_H

#include <stddef.h>
#include <stdint.h>

struct dq_io_engine;

/* Where a host's power drivers find the drive's power: its allowlist entry's settings (each NULL
 * when not set). */
struct dq_power_site {
	const char *slot; /* powerSlot: pci-slot's slot */
	const char *redfish_url; /* powerRedfishUrl: the BMC's reset action (redfish) */
	const char *redfish_credentials; /* powerRedfishCredentials: a file "user:password" */
	const char *ipmi_host; /* powerIpmiHost: the BMC's IPMI LAN host or host:port (ipmi) */
	const char *ipmi_credentials; /* powerIpmiCredentials: a file "user:password" */
	const char *ipmi_cipher_suite; /* powerIpmiCipherSuite: RMCP+ suite "0".."17" (ipmi) */
	const char *pdu_host; /* powerPduHost: the PDU's SNMP agent, host or host:port (pdu) */
	const char *pdu_outlet; /* powerPduOutlet: the drive's outlet number, "1".. */
	const char *pdu_credentials; /* powerPduCredentials: a file holding the write community */
	const char *pdu_oid; /* powerPduOid: the outlet control column; NULL: sPDUOutletCtl */
	const char *pdu_off_value; /* powerPduOffValue: NULL: 2 (immediateOff) */
	const char *pdu_on_value; /* powerPduOnValue: NULL: 1 (immediateOn) */
};

/* What a simulated drive knows it dropped at its last cut (a real drive cannot say). */
struct dq_power_truth {
	uint64_t cuts;
	uint64_t last_cut_lost_units; /* 4 KiB units the cut dropped */
	uint64_t last_cut_lost_promised_units; /* of which a completed flush (or PLP) had promised */
};

/* Every op returns 0 or -errno with a sentence in err. */
struct dq_power_driver_ops {
	const char *name;
	/* Cut power now: IOs in flight are abandoned (no completion will come). */
	int (*cut)(void *ctx, char *err, size_t err_len);
	/* Restore power and wait until the device answers again. */
	int (*restore)(void *ctx, char *err, size_t err_len);
	/* Optional (simulated drives): what the last cut really dropped. */
	int (*truth)(void *ctx, struct dq_power_truth *out);
	/* Optional: release what open allocated. */
	void (*close)(void *ctx);
};

struct dq_power_driver {
	const struct dq_power_driver_ops *ops;
	void *ctx;
};

/*
 * The driver called name for the opened engine: "sim" (the sim engine's own, when its drive has
 * a power model), "pci-slot" (the PCIe slot's power through sysfs; site->slot, from the drive's
 * allowlist entry, names the slot, or NULL: the slot whose controller has the drive's serial) or
 * "redfish" (a BMC's reset action, site->redfish_url; dq_power_redfish_open) or "ipmi" (a BMC's
 * chassis power over IPMI LAN, site->ipmi_host; dq_power_ipmi_open) or "pdu" (a switched PDU's
 * outlet, site->pdu_host; dq_power_pdu_open). site may be NULL.
 * Returns 0, or a refusal with the reason in err: -ENODEV for "none" or an empty name (no power
 * driver configured), -ENOTSUP when the engine's target has no such driver, -ENOENT for an
 * unknown name, the pci-slot driver's refusals (dq_power_pci_slot_open). Close with
 * dq_power_driver_close.
 */
int dq_power_driver_open(const char *name, const struct dq_power_site *site,
			 const struct dq_io_engine *engine, struct dq_power_driver *out, char *err,
			 size_t err_len);

/* Release an opened (or zeroed) driver; safe to call twice. */
void dq_power_driver_close(struct dq_power_driver *driver);

/* Where the pci-slot driver looks and how long it waits (tests point the roots at a fake tree). */
struct dq_pci_slot_paths {
	const char *sysfs_root; /* "/sys" */
	const char *dev_root; /* "/dev" */
	uint32_t restore_wait_ms; /* for the namespace to come back after power returns */
};

/*
 * The pci-slot driver (power_pci_slot.c) on an opened kernel NVMe namespace. Refuses, before
 * anything is written: an engine that cannot let go of the device (-ENOTSUP), a target that is no
 * NVMe namespace (-ENODEV), the slot not found (-ENOENT: the named slot does not exist, or no slot
 * holds a controller with the drive's serial), a slot without power control (-ENOTSUP: no power
 * file), and a slot whose controller is not the drive (-EPERM: another serial, or none).
 */
int dq_power_pci_slot_open(const struct dq_io_engine *engine, const char *power_slot,
			   const struct dq_pci_slot_paths *paths, struct dq_power_driver *out,
			   char *err, size_t err_len);

/* Longest powerRedfishUrl / powerRedfishCredentials path. */
#define DQ_POWER_URL_MAX 511

/*
 * The redfish driver (power_redfish.c): site->redfish_url is the BMC's reset action, POSTed
 * ForceOff at the cut and On at the restore (libcurl; basic authentication with the first line
 * "user:password" of site->redfish_credentials, a file only its owner may read). Refuses, before
 * anything is written: no URL (-ENOENT), an engine that cannot let go of the device (-ENOTSUP), a
 * target that is no NVMe namespace (-ENODEV), a credentials file missing (-ENOENT), readable by
 * others (-EPERM) or malformed (-EINVAL). A BMC's error answer fails the cut or the restore with
 * its message (-EIO).
 */
int dq_power_redfish_open(const struct dq_io_engine *engine, const struct dq_power_site *site,
			  const struct dq_pci_slot_paths *paths, struct dq_power_driver *out,
			  char *err, size_t err_len);

/*
 * The ipmi driver (power_ipmi.c): chassis power off at the cut and on at the restore, through the
 * BMC at site->ipmi_host ("host" or "host:port") over IPMI LAN (lanplus; RMCP+ cipher suite
 * site->ipmi_cipher_suite, or when NULL the one ipmitool negotiates), running tool (ipmitool)
 * as a child with an argv and the password of site->ipmi_credentials ("user:password", a file only
 * its owner may read) in its environment. Refuses, before anything is written: no host or no
 * credentials file named (-ENOENT), a host that is no host[:port] (-EINVAL), an engine that cannot
 * let go of the device (-ENOTSUP), a target that is no NVMe namespace (-ENODEV), a credentials
 * file missing (-ENOENT), readable by others (-EPERM) or malformed (-EINVAL). A failed ipmitool
 * fails the cut or the restore with its exit status and stderr (-EIO; -ETIMEDOUT when killed).
 */
int dq_power_ipmi_open(const struct dq_io_engine *engine, const struct dq_power_site *site,
		       const struct dq_pci_slot_paths *paths, const char *tool,
		       struct dq_power_driver *out, char *err, size_t err_len);

/* APC PowerNet-MIB sPDUOutletCtl: the outlet's number appended, 2 switches it off, 1 on. */
#define DQ_POWER_PDU_DEFAULT_OID "1.3.6.1.4.1.318.1.1.4.4.2.1.3"

/*
 * The pdu driver (power_pdu.c): an SNMPv2c SET of site->pdu_oid.<site->pdu_outlet> (default
 * DQ_POWER_PDU_DEFAULT_OID) to site->pdu_off_value at the cut and site->pdu_on_value at the
 * restore, at the agent site->pdu_host ("host" or "host:port", 161 by default), with the write
 * community on the first line of site->pdu_credentials, a file only its owner may read. Refuses,
 * before anything is written: no host, outlet or credentials file named (-ENOENT), an OID that is
 * not numeric (-EINVAL), an engine that cannot let go of the device (-ENOTSUP), a target that is
 * no NVMe namespace (-ENODEV), a credentials file missing (-ENOENT), readable by others (-EPERM).
 * An agent's error status fails the cut or the restore with its words (-EIO); no answer (a wrong
 * community gets none) with -ETIMEDOUT.
 */
int dq_power_pdu_open(const struct dq_io_engine *engine, const struct dq_power_site *site,
		      const struct dq_pci_slot_paths *paths, struct dq_power_driver *out, char *err,
		      size_t err_len);

#endif /* DRIVEQUAL_POWER_H */
