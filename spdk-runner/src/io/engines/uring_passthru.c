/*
 * The uring engine's placed writes: the block layer carries no FDP placement handle, so a write
 * with one goes as an NVMe Write through io_uring passthrough (IORING_OP_URING_CMD,
 * NVME_URING_CMD_IO) on the namespace's generic character device /dev/ngXnY, with the data
 * placement directive (DTYPE 2 in CDW12 bits 23:20) and the placement identifier (DSPEC, CDW13
 * bits 31:16). The ring is then made with 128-byte SQEs and 32-byte CQEs, which the command needs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <linux/nvme_ioctl.h>

#include "contract/strutil.h"
#include "engines/uring_engine.h"

#define NVME_CMD_WRITE 0x01
#define DTYPE_DATA_PLACEMENT 2u

/* /dev/ngXnY for the namespace nvmeXnY: the same namespace as an NVMe generic device. */
static int generic_path(const char *sysname, char *out, size_t out_len)
{
	if (strncmp(sysname, "nvme", 4) != 0 || strchr(sysname, 'n') == NULL) {
		return -ENODEV;
	}
	snprintf(out, out_len, "/dev/ng%s", sysname + 4);
	return 0;
}

void uring_passthru_unavailable(struct uring_engine *engine, struct dq_device_target *target,
				const char *why)
{
	struct dq_capability_state *fdp = &target->capabilities.items[DQ_CAPABILITY_FDP];
	size_t used = strlen(fdp->detail);

	/* FDP stays in the inventory; a placed write is refused, saying why */
	uring_passthru_close(engine);
	target->fdp_handles = 0;
	snprintf(fdp->detail + used, sizeof(fdp->detail) - used, "; placed writes: %s", why);
}

/* The largest transfer the kernel sends the drive in one command (max_hw_sectors_kb), or 0. */
static uint32_t max_transfer_bytes(const char *sysname)
{
	char path[160];
	unsigned long kb = 0;
	FILE *file;

	snprintf(path, sizeof(path), "/sys/block/%s/queue/max_hw_sectors_kb", sysname);
	file = fopen(path, "r");
	if (file == NULL) {
		return 0;
	}
	if (fscanf(file, "%lu", &kb) != 1) {
		kb = 0;
	}
	fclose(file);
	return kb > UINT32_MAX / 1024 ? 0 : (uint32_t)kb * 1024u;
}

int uring_passthru_open(struct uring_engine *engine, struct dq_device_target *target, bool writable)
{
	char path[96], why[160];
	int rc;

	engine->ng_fd = -1;
	if (engine->kdev.kind != DQ_KDEV_NVME || target->fdp_handles == 0 || !writable) {
		return 0; /* nothing to place (a read-only job writes nothing) */
	}
	engine->lba_bytes = target->device.lba_size_bytes;
	target->max_placed_write_bytes = max_transfer_bytes(engine->kdev.sysname);
	rc = generic_path(engine->kdev.sysname, path, sizeof(path));
	if (rc == 0) {
		engine->ng_fd = open(path, O_RDWR | O_CLOEXEC);
		rc = engine->ng_fd < 0 ? -errno : 0;
	}
	if (rc != 0) {
		snprintf(why, sizeof(why), "they need %s: %s",
			 rc == -ENODEV ? engine->kdev.sysname : path, strerror(-rc));
		uring_passthru_unavailable(engine, target, why);
	}
	return 0;
}

void uring_passthru_close(struct uring_engine *engine)
{
	if (engine->ng_fd >= 0) {
		close(engine->ng_fd);
		engine->ng_fd = -1;
	}
}

void uring_passthru_cmd(const struct uring_engine *engine, const struct dq_io *io,
			struct nvme_uring_cmd *cmd)
{
	uint64_t slba = io->offset / engine->lba_bytes;
	uint32_t blocks = io->length / engine->lba_bytes;
	uint16_t pid = dq_nvme_fdp_placement_id(&engine->kdev.fdp.config, 0, io->placement_handle);

	memset(cmd, 0, sizeof(*cmd));
	cmd->opcode = NVME_CMD_WRITE;
	cmd->nsid = engine->kdev.nsid;
	cmd->addr = (uint64_t)(uintptr_t)io->buf;
	cmd->data_len = io->length;
	cmd->cdw10 = (uint32_t)slba;
	cmd->cdw11 = (uint32_t)(slba >> 32);
	cmd->cdw12 = (blocks - 1u) | DTYPE_DATA_PLACEMENT << 20; /* NLB 0-based, DTYPE */
	cmd->cdw13 = (uint32_t)pid << 16; /* DSPEC */
}

int uring_passthru_queue(struct uring_engine *engine, const struct dq_io *io)
{
	struct io_uring_sqe *sqe;

	if (engine->ng_fd < 0) {
		return -EOPNOTSUPP; /* stream_placement_check refused this before any IO */
	}
	sqe = io_uring_get_sqe(&engine->ring);
	if (sqe == NULL) {
		return -EBUSY;
	}
	memset(sqe, 0, 2 * sizeof(*sqe)); /* SQE128: the command fills the second half */
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = engine->ng_io_fd;
	sqe->flags = (uint8_t)engine->ng_sqe_flags;
	sqe->cmd_op = NVME_URING_CMD_IO;
	uring_passthru_cmd(engine, io, (struct nvme_uring_cmd *)sqe->cmd);
	io_uring_sqe_set_data64(sqe, io->tag);
	engine->ops[io->tag] = io->op;
	engine->placed[io->tag] = true;
	engine->lengths[io->tag] = io->length;
	engine->pending++;
	return 0;
}

int32_t uring_passthru_result(int32_t res)
{
	/* 0 done; > 0 the NVMe status the drive answered; < 0 the kernel's -errno */
	return res == 0 ? 0 : res > 0 ? -EIO : res;
}
