/*
 * The spdk engine's control path on SPDK's public API: the process's SPDK environment (once), attach
 * and detach by transport ID, identity, and the admin commands a qualification needs (SMART and OCP
 * logs, Format NVM, Sanitize with its status log, Dataset Management). The command encodings and
 * log decoders are the SPDK-free ones in src/device/nvme_admin.c, shared with the kernel path and
 * tested without SPDK.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <spdk/env.h>
#include <spdk/nvme.h>

#include "contract/strutil.h"
#include "spdk_internal.h"

#define SANITIZE_MAX_WAIT_S (72u * 3600u)

static pthread_mutex_t g_env_lock = PTHREAD_MUTEX_INITIALIZER;
static int g_env_rc = 1; /* 1: not tried yet */
static char g_env_err[256];

int dq_spdk_env_init(const struct spdk_options *options, char *err, size_t err_len)
{
	static char core_mask[32];
	struct spdk_env_opts opts;
	cpu_set_t affinity;
	bool have_affinity;
	char mem[32];
	int cpu;

	pthread_mutex_lock(&g_env_lock);
	if (g_env_rc != 1) {
		goto out;
	}
	if (options->no_huge && options->mem_mb == 0) {
		snprintf(g_env_err, sizeof(g_env_err),
			 "--spdk_no_huge=1 needs --spdk_mem_mb (the memory DPDK takes instead of "
			 "hugepages)");
		g_env_rc = -EINVAL;
		goto out;
	}
	spdk_env_opts_init(&opts);
	opts.name = "drivequal-runner";
	opts.shm_id = -1; /* no multi-process: several runners (and targets) share a host */
	opts.no_pci = options->no_pci;
	if (options->mem_mb > 0) {
		opts.mem_size = (int)options->mem_mb;
	}
	if (options->no_huge) {
		/* DPDK 22.11: --no-huge implies legacy memory, which --match-allocations refuses */
		opts.env_context = "--no-huge --legacy-mem";
	}
	snprintf(mem, sizeof(mem), "%u", options->mem_mb);
	/* DPDK pins the calling thread to its main lcore; the runner schedules its own threads, so
	 * the lcore is the first CPU it may run on (taskset works) and the pinning is undone. */
	have_affinity = pthread_getaffinity_np(pthread_self(), sizeof(affinity), &affinity) == 0;
	for (cpu = 0; have_affinity && cpu < 64; cpu++) {
		if (CPU_ISSET(cpu, &affinity)) {
			snprintf(core_mask, sizeof(core_mask), "0x%llx", 1ULL << cpu);
			opts.core_mask = core_mask;
			break;
		}
	}
	g_env_rc = spdk_env_init(&opts) < 0 ? -EIO : 0; /* not the device: the host */
	if (have_affinity) {
		pthread_setaffinity_np(pthread_self(), sizeof(affinity), &affinity);
	}
	if (g_env_rc != 0) {
		snprintf(
			g_env_err, sizeof(g_env_err),
			"SPDK environment setup failed (DPDK EAL%s%s%s; see its log above): without "
			"hugepages use --spdk_no_huge=1 --spdk_mem_mb=N",
			options->no_huge ? ", no hugepages, " : "", options->no_huge ? mem : "",
			options->no_huge ? " MiB" : "");
	}
out:
	if (g_env_rc != 0) {
		dq_strlcpy(err, g_env_err, err_len);
	}
	pthread_mutex_unlock(&g_env_lock);
	return g_env_rc;
}

void dq_spdk_status_text(const struct spdk_nvme_cpl *cpl, char *out, size_t out_len)
{
	snprintf(out, out_len, "NVMe status sct 0x%x sc 0x%x (%s)", cpl->status.sct, cpl->status.sc,
		 spdk_nvme_cpl_get_status_string(&cpl->status));
}

/* A command waited for by polling: the completion callback fills it. */
struct sync_cmd {
	bool done;
	struct spdk_nvme_cpl cpl;
};

static void sync_done(void *arg, const struct spdk_nvme_cpl *cpl)
{
	struct sync_cmd *cmd = arg;

	cmd->cpl = *cpl;
	cmd->done = true;
}

static int admin_wait(struct spdk_dev *dev, struct sync_cmd *cmd, const char *what, char *err,
		      size_t err_len)
{
	char status[128];
	int32_t rc;

	while (!cmd->done) {
		rc = spdk_nvme_ctrlr_process_admin_completions(dev->ctrlr);
		if (rc < 0) {
			snprintf(err, err_len, "%s: the admin queue failed (%s)", what,
				 strerror(-rc));
			return rc;
		}
	}
	if (spdk_nvme_cpl_is_error(&cmd->cpl)) {
		dq_spdk_status_text(&cmd->cpl, status, sizeof(status));
		snprintf(err, err_len, "%s: the controller answered %s", what, status);
		return -EIO;
	}
	return 0;
}

int dq_spdk_dev_attach(struct spdk_dev *dev, const char *text, char *err, size_t err_len)
{
	struct spdk_nvme_transport_id trid;
	struct spdk_nvme_ctrlr_opts opts;
	char trid_text[600];
	uint32_t nsid, count = 0;
	int rc;

	memset(dev, 0, sizeof(*dev));
	/* a default mutex holds no resources: nothing to destroy at detach */
	pthread_mutex_init(&dev->admin_lock, NULL);
	rc = dq_spdk_target_parse(text, &dev->target, err, err_len);
	if (rc == 0) {
		rc = dq_spdk_target_trid(&dev->target, trid_text, sizeof(trid_text));
	}
	if (rc == 0) {
		rc = dq_spdk_target_address(&dev->target, dev->address, sizeof(dev->address));
	}
	if (rc != 0) {
		return rc == -ENAMETOOLONG ? -EINVAL : rc;
	}
	memset(&trid, 0, sizeof(trid));
	if (spdk_nvme_transport_id_parse(&trid, trid_text) != 0) {
		snprintf(err, err_len, "SPDK does not accept the transport ID '%s'", trid_text);
		return -EINVAL;
	}
	spdk_nvme_ctrlr_get_default_ctrlr_opts(&opts, sizeof(opts));
	if (dev->target.hostnqn[0] != '\0') {
		dq_strlcpy(opts.hostnqn, dev->target.hostnqn, sizeof(opts.hostnqn));
	}
	dev->ctrlr = spdk_nvme_connect(&trid, &opts, sizeof(opts));
	if (dev->ctrlr == NULL) {
		snprintf(err, err_len,
			 "%s: no NVMe controller attached there (%s; see SPDK's log above)",
			 dev->address,
			 dev->target.trtype == DQ_SPDK_TRTYPE_PCIE ?
				 "is it bound to vfio-pci or uio_pci_generic?" :
				 "is the target listening, and is the subsystem NQN right?");
		return -ENOENT;
	}
	dq_nvme_controller_parse((const uint8_t *)spdk_nvme_ctrlr_get_data(dev->ctrlr),
				 &dev->controller);
	for (nsid = spdk_nvme_ctrlr_get_first_active_ns(dev->ctrlr); nsid != 0;
	     nsid = spdk_nvme_ctrlr_get_next_active_ns(dev->ctrlr, nsid)) {
		count++;
	}
	dev->single_namespace = count == 1;
	dev->nsid = dev->target.nsid;
	dev->ns = spdk_nvme_ctrlr_get_ns(dev->ctrlr, dev->nsid);
	if (dev->ns == NULL || !spdk_nvme_ns_is_active(dev->ns)) {
		snprintf(err, err_len, "%s: the controller has no active namespace %u (%u active)",
			 dev->address, dev->nsid, count);
		dq_spdk_dev_detach(dev);
		return -ENXIO;
	}
	dev->lba_size = spdk_nvme_ns_get_sector_size(dev->ns);
	dev->blocks = spdk_nvme_ns_get_num_sectors(dev->ns);
	return 0;
}

void dq_spdk_dev_detach(struct spdk_dev *dev)
{
	struct spdk_nvme_detach_ctx *detach = NULL;

	if (dev->ctrlr == NULL) {
		return;
	}
	if (spdk_nvme_detach_async(dev->ctrlr, &detach) == 0 && detach != NULL) {
		spdk_nvme_detach_poll(detach);
	}
	dev->ctrlr = NULL;
	dev->ns = NULL;
}

void dq_spdk_dev_describe(const struct spdk_dev *dev, struct dq_device_target *target)
{
	struct dq_device *device = &target->device;

	dq_strlcpy(device->serial, dev->controller.serial, sizeof(device->serial));
	dq_strlcpy(device->model, dev->controller.model, sizeof(device->model));
	dq_strlcpy(device->firmware, dev->controller.firmware, sizeof(device->firmware));
	dq_strlcpy(device->transport_address, dev->address, sizeof(device->transport_address));
	device->capacity_bytes = dev->blocks * dev->lba_size;
	device->lba_size_bytes = dev->lba_size;
	target->kernel_block_device = false; /* SPDK owns it: no mounts, no kernel holders */
	target->probe_path[0] = '\0';
	target->buffer_align = 4096;
	target->keeps_data = true;
	target->purge_methods = 0;
	if (dev->controller.oncs & (1u << 2)) {
		target->purge_methods |= 1u << DQ_PURGE_METHOD_DEALLOCATE;
		dq_capability_have(&target->capabilities, DQ_CAPABILITY_DEALLOCATE,
				   "Dataset Management (ONCS bit 2)");
	} else {
		dq_capability_lack(&target->capabilities, DQ_CAPABILITY_DEALLOCATE,
				   DQ_CAPABILITY_MISSING_DEVICE,
				   "Identify Controller: ONCS bit 2 clear, no Dataset Management");
	}
	/* Format and sanitize act on the whole controller's media: only offered with one namespace
	 * (as for kernel NVMe devices). SMART and C0h are read when a job asks (not listed here). */
	if (dev->single_namespace) {
		target->purge_methods |= dq_nvme_purge_methods(&dev->controller);
	}
	dq_nvme_capabilities_from_controller(&dev->controller, dev->single_namespace,
					     &target->capabilities);
}

int dq_spdk_get_log(struct spdk_dev *dev, uint8_t log_id, uint32_t nsid, void *buf, uint32_t len,
		    char *err, size_t err_len)
{
	struct sync_cmd cmd = { 0 };
	char what[32];
	int rc;

	memset(buf, 0, len);
	snprintf(what, sizeof(what), "Get Log Page %02Xh", log_id);
	pthread_mutex_lock(&dev->admin_lock);
	rc = spdk_nvme_ctrlr_cmd_get_log_page(dev->ctrlr, log_id, nsid, buf, len, 0, sync_done,
					      &cmd);
	if (rc != 0) {
		snprintf(err, err_len, "%s: not submitted (%s)", what, strerror(-rc));
	} else {
		rc = admin_wait(dev, &cmd, what, err, err_len);
	}
	pthread_mutex_unlock(&dev->admin_lock);
	return rc;
}

static int format_nvm(struct spdk_dev *dev, enum dq_purge_method method, char *err, size_t err_len)
{
	struct dq_nvme_namespace ns;
	struct spdk_nvme_format format;
	uint32_t cdw10;
	int rc;

	dq_nvme_namespace_parse((const uint8_t *)spdk_nvme_ns_get_data(dev->ns), &ns);
	dq_nvme_format_cdw10(&ns, method, &cdw10);
	memcpy(&format, &cdw10, sizeof(format));
	/* spdk_nvme_ctrlr_format() waits for the command and re-reads the namespace. */
	pthread_mutex_lock(&dev->admin_lock);
	rc = spdk_nvme_ctrlr_format(dev->ctrlr, dev->nsid, &format);
	pthread_mutex_unlock(&dev->admin_lock);
	if (rc != 0) {
		snprintf(err, err_len, "Format NVM (SES %u) of namespace %u failed (%s)",
			 format.ses, dev->nsid, strerror(rc < 0 ? -rc : rc));
		return rc < 0 ? rc : -EIO;
	}
	return 0;
}

static int sanitize(struct spdk_dev *dev, enum dq_purge_method method, char *err, size_t err_len)
{
	struct spdk_nvme_cmd command = { 0 };
	struct sync_cmd cmd = { 0 };
	struct timespec second = { .tv_sec = 1 };
	uint8_t *log;
	unsigned waited;
	int rc;

	command.opc = SPDK_NVME_OPC_SANITIZE;
	command.nsid = 0;
	dq_nvme_sanitize_cdw10(method, &command.cdw10);
	pthread_mutex_lock(&dev->admin_lock);
	rc = spdk_nvme_ctrlr_cmd_admin_raw(dev->ctrlr, &command, NULL, 0, sync_done, &cmd);
	if (rc == 0) {
		rc = admin_wait(dev, &cmd, "Sanitize", err, err_len);
	} else {
		snprintf(err, err_len, "Sanitize: not submitted (%s)", strerror(-rc));
	}
	pthread_mutex_unlock(&dev->admin_lock);
	if (rc != 0) {
		return rc;
	}
	log = spdk_dma_zmalloc(DQ_NVME_LOG_PAGE_BYTES, 4096, NULL);
	if (log == NULL) {
		return -ENOMEM;
	}
	for (waited = 0; waited < SANITIZE_MAX_WAIT_S; waited++) {
		rc = dq_spdk_get_log(dev, DQ_NVME_LOG_SANITIZE_STATUS, 0, log,
				     DQ_NVME_LOG_PAGE_BYTES, err, err_len);
		if (rc == 0) {
			rc = dq_nvme_sanitize_outcome(dq_nvme_sanitize_status(log, NULL), err,
						      err_len);
		}
		if (rc <= 0) {
			break;
		}
		nanosleep(&second, NULL); /* admin completions also send the keep-alives */
	}
	spdk_dma_free(log);
	if (rc > 0) {
		snprintf(err, err_len, "Sanitize still in progress after %u hours",
			 SANITIZE_MAX_WAIT_S / 3600);
		return -ETIMEDOUT;
	}
	return rc;
}

int dq_spdk_purge(struct spdk_dev *dev, enum dq_purge_method method, char *err, size_t err_len)
{
	int rc = dq_nvme_purge_check(&dev->controller, method, err, err_len);

	if (rc != 0) {
		return rc;
	}
	switch (method) {
	case DQ_PURGE_METHOD_FORMAT_USER_DATA:
	case DQ_PURGE_METHOD_FORMAT_CRYPTO:
		return format_nvm(dev, method, err, err_len);
	default:
		return sanitize(dev, method, err, err_len);
	}
}

static void qpair_disconnected(struct spdk_nvme_qpair *qpair, void *ctx)
{
	(void)qpair;
	(void)ctx; /* the failure reason and the aborted command say it */
}

int dq_spdk_deallocate(struct spdk_dev *dev, struct spdk_nvme_qpair *qpair,
		       struct spdk_nvme_poll_group *group, uint64_t lba, uint64_t blocks, char *err,
		       size_t err_len)
{
	struct dq_nvme_dsm_range ranges[DQ_NVME_DSM_MAX_RANGES];
	struct spdk_nvme_dsm_range *dsm;
	struct sync_cmd cmd;
	char status[128];
	uint64_t covered;
	uint32_t n, i;
	int64_t polled;
	int rc = 0;

	if (!(dev->controller.oncs & (1u << 2))) {
		snprintf(
			err, err_len,
			"%s: the controller does not support Dataset Management (ONCS bit 2 clear)",
			dev->address);
		return -EOPNOTSUPP;
	}
	dsm = spdk_dma_zmalloc(sizeof(*dsm) * DQ_NVME_DSM_MAX_RANGES, 4096, NULL);
	if (dsm == NULL) {
		return -ENOMEM;
	}
	while (blocks > 0 && rc == 0) {
		n = dq_nvme_dsm_ranges(lba, blocks, ranges, DQ_NVME_DSM_MAX_RANGES, &covered);
		for (i = 0; i < n; i++) {
			dsm[i].attributes.raw = ranges[i].attributes;
			dsm[i].length = ranges[i].length_blocks;
			dsm[i].starting_lba = ranges[i].start_lba;
		}
		memset(&cmd, 0, sizeof(cmd));
		rc = spdk_nvme_ns_cmd_dataset_management(dev->ns, qpair,
							 SPDK_NVME_DSM_ATTR_DEALLOCATE, dsm,
							 (uint16_t)n, sync_done, &cmd);
		if (rc != 0) {
			snprintf(err, err_len, "Dataset Management: not submitted (%s)",
				 strerror(-rc));
			break;
		}
		while (!cmd.done) {
			polled = spdk_nvme_poll_group_process_completions(group, 0,
									  qpair_disconnected);
			if (polled < 0 || spdk_nvme_qpair_get_failure_reason(qpair) !=
						  SPDK_NVME_QPAIR_FAILURE_NONE) {
				rc = polled < 0 ? (int)polled : -ENXIO;
				snprintf(err, err_len,
					 "Dataset Management: the IO queue failed (%s)",
					 strerror(-rc));
				goto out;
			}
		}
		if (spdk_nvme_cpl_is_error(&cmd.cpl)) {
			dq_spdk_status_text(&cmd.cpl, status, sizeof(status));
			snprintf(err, err_len,
				 "Dataset Management deallocate of LBAs [%llu, +%llu): the "
				 "controller answered %s",
				 (unsigned long long)lba, (unsigned long long)covered, status);
			rc = -EIO;
		}
		lba += covered;
		blocks -= covered;
	}
out:
	spdk_dma_free(dsm);
	return rc;
}

static int spdk_get_ctrlr_log(void *data, uint8_t log_id, void *buf, uint32_t len, char *err,
			      size_t err_len)
{
	return dq_spdk_get_log(data, log_id, SPDK_NVME_GLOBAL_NS_TAG, buf, len, err, err_len);
}

int dq_spdk_smart(struct spdk_dev *dev, struct dq_smart_snapshot *out)
{
	uint8_t *log;
	char err[256];

	log = spdk_dma_zmalloc(DQ_NVME_LOG_PAGE_BYTES, 4096, NULL);
	if (log == NULL) {
		return -ENOMEM;
	}
	if (dq_spdk_get_log(dev, DQ_NVME_LOG_SMART, SPDK_NVME_GLOBAL_NS_TAG, log,
			    DQ_NVME_LOG_PAGE_BYTES, err, sizeof(err)) != 0) {
		memset(out, 0, sizeof(*out));
		out->source = DQ_SMART_SOURCE_UNAVAILABLE;
		out->has_reason = true;
		snprintf(out->reason, sizeof(out->reason), "%.300s: %s", dev->address, err);
		spdk_dma_free(log);
		return 0;
	}
	dq_nvme_smart_parse(log, out);
	dq_nvme_smart_add_limits(&dev->controller, out);
	dq_nvme_read_ocp_logs(spdk_get_ctrlr_log, dev, log, out);
	spdk_dma_free(log);
	return 0;
}
