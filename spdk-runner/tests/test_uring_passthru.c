/*
 * The NVMe Write a placed write becomes on the uring engine (no drive needed): SLBA in CDW10/11,
 * NLB 0-based in CDW12 bits 15:0, the data placement directive (DTYPE 2) in CDW12 bits 23:20, the
 * placement identifier in CDW13 bits 31:16, with the reclaim group in its top RGIF bits; and a
 * passthrough completion's NVMe status turned into an error.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <linux/nvme_ioctl.h>

#include "engines/uring_engine.h"
#include "test_util.h"

int main(void)
{
	struct test_ctx t = { 0 };
	struct uring_engine engine;
	struct nvme_uring_cmd cmd;
	static uint8_t buf[65536];
	struct dq_io io = { .offset = 4096ull * 0x123456789ull,
			    .length = 65536,
			    .buf = buf,
			    .op = DQ_IO_WRITE,
			    .placed = 1,
			    .placement_handle = 5 };

	memset(&engine, 0, sizeof(engine));
	engine.lba_bytes = 4096;
	engine.kdev.nsid = 1;
	engine.kdev.fdp.config.rgif = 2; /* QEMU 10 with 2 reclaim groups */
	uring_passthru_cmd(&engine, &io, &cmd);
	CHECK(&t, cmd.opcode == 0x01 && cmd.nsid == 1, "Write to nsid 1: %#x %u", cmd.opcode,
	      cmd.nsid);
	CHECK(&t, cmd.cdw10 == 0x23456789u && cmd.cdw11 == 0x1u, "SLBA: %#x %#x", cmd.cdw10,
	      cmd.cdw11);
	CHECK(&t, (cmd.cdw12 & 0xffffu) == 15u, "NLB 0-based: 16 blocks -> %u",
	      cmd.cdw12 & 0xffffu);
	CHECK(&t, (cmd.cdw12 >> 20 & 0xfu) == 2u, "DTYPE data placement: %u",
	      cmd.cdw12 >> 20 & 0xfu);
	CHECK(&t, cmd.cdw12 == (15u | 2u << 20), "nothing else in CDW12 (no FUA, no PRINFO): %#x",
	      cmd.cdw12);
	CHECK(&t, cmd.cdw13 == 5u << 16, "DSPEC = placement id 5 (reclaim group 0): %#x",
	      cmd.cdw13);
	CHECK(&t,
	      cmd.addr == (uint64_t)(uintptr_t)buf && cmd.data_len == 65536 && cmd.metadata == 0 &&
		      cmd.metadata_len == 0,
	      "data pointer and length");
	engine.lba_bytes = 512;
	io.offset = 512 * 7;
	io.length = 512;
	io.placement_handle = 0;
	uring_passthru_cmd(&engine, &io, &cmd);
	CHECK(&t, cmd.cdw10 == 7 && cmd.cdw11 == 0 && cmd.cdw12 == (2u << 20) && cmd.cdw13 == 0,
	      "512-byte LBAs, one block, handle 0: %#x %#x %#x", cmd.cdw10, cmd.cdw12, cmd.cdw13);

	CHECK(&t, uring_passthru_result(0) == 0, "success");
	CHECK(&t, uring_passthru_result(0x4284) == -EIO, "an NVMe status is an IO error");
	CHECK(&t, uring_passthru_result(-EINVAL) == -EINVAL, "a kernel errno stays");
	return test_report(&t, "uring_passthru");
}
