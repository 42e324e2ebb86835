/*
 * The host side of the simulated drive: one NVMe command in, its virtual completion time out.
 * A command passes the controller (IOPS ceiling), the PCIe link (bandwidth ceiling), and then:
 * a write waits for room in the write cache (which drains as programs finish, so foreground GC
 * shows up as cache-full stalls), a read waits for its dies (ahead of queued programs), a
 * deallocate only touches the mapping table.
 */
#include <errno.h>

#include "sim_internal.h"

static uint64_t sim_io_write(struct dq_sim_drive *d, uint64_t first, uint64_t end, uint32_t handle,
			     uint64_t t_cmd, uint64_t bytes)
{
	uint64_t t_data, admit, done;

	t_data = sim_max_u64(t_cmd, d->link_in_free) + (uint64_t)(bytes * d->tm.host_ns_per_byte);
	d->link_in_free = t_data;
	done = t_data;
	for (uint64_t u = first; u < end; u++) {
		admit = t_data;
		/* the unit needs the cache slot of the program buffer_progs programs back */
		if (d->host_prog_seq >= d->buffer_progs)
			admit = sim_max_u64(
				admit, d->buffer_release[d->host_prog_seq & (d->buffer_progs - 1)]);
		sim_ftl_host_write_unit(d, u, handle, admit);
		done = sim_max_u64(done, admit);
	}
	if (d->free_count < d->gc.paced_start)
		sim_gc_paced(d, (uint32_t)(end - first), t_data);
	else if (d->gc_fg_active)
		sim_gc_foreground(d, (uint32_t)(end - first), t_data);
	d->cnt.host_write_bytes += bytes;
	d->cnt.host_write_cmds++;
	return done + d->tm.command_ns;
}

static uint64_t sim_io_read(struct dq_sim_drive *d, uint64_t first, uint64_t end, uint64_t t_cmd,
			    uint64_t bytes)
{
	uint32_t upp = d->geo.units_per_prog;
	uint32_t group_prog = SIM_NONE, group_units = 0;
	uint64_t done = t_cmd, t_out;

	/* units of one program unit are one NAND read; unmapped units read as zeros */
	for (uint64_t u = first; u <= end; u++) {
		uint32_t mapped = u < end ? d->l2p[u] : 0;
		uint32_t prog = mapped ? (mapped - 1) / upp : SIM_NONE;

		if (group_units > 0 && prog != group_prog) {
			uint64_t t = sim_sched_read(d, group_prog % d->geo.progs_per_block,
						    group_units, t_cmd, true);

			done = sim_max_u64(done, t);
			group_units = 0;
		}
		if (prog != SIM_NONE) {
			group_prog = prog;
			group_units++;
		}
	}
	t_out = sim_max_u64(done, d->link_out_free) + (uint64_t)(bytes * d->tm.host_ns_per_byte);
	d->link_out_free = t_out;
	d->cnt.host_read_bytes += bytes;
	d->cnt.host_read_cmds++;
	return t_out + d->tm.command_ns;
}

static uint64_t sim_io_deallocate(struct dq_sim_drive *d, uint64_t lba, uint32_t lba_count,
				  uint64_t t_cmd)
{
	uint32_t lpu = d->geo.lbas_per_unit;
	uint64_t first = (lba + lpu - 1) / lpu, end = (lba + lba_count) / lpu;
	uint64_t work_ns = 0;

	if (end > first) {
		for (uint64_t u = first; u < end; u++)
			sim_ftl_trim_unit(d, u);
		work_ns = (end - first) * SIM_TRIM_NS_PER_UNIT;
		d->ctrl_free += work_ns;
	}
	return t_cmd + work_ns + d->tm.command_ns;
}

void dq_sim_drive_idle(struct dq_sim_drive *d, uint64_t from_ns, uint64_t until_ns)
{
	from_ns = sim_max_u64(from_ns, d->last_now);
	if (until_ns <= from_ns)
		return;
	d->last_now = until_ns;
	sim_thermal_advance(d, from_ns);
	sim_gc_idle(d, from_ns, until_ns);
	sim_thermal_advance(d, until_ns);
}

static int sim_io_submit(struct dq_sim_drive *d, enum dq_sim_op op, uint64_t lba,
			 uint32_t lba_count, uint32_t handle, uint64_t now_ns,
			 uint64_t *complete_ns)
{
	uint32_t shift, lpu;
	uint64_t t_cmd, bytes, idle_from, first, end;

	if (d == NULL || complete_ns == NULL)
		return -EINVAL;
	if (op != DQ_SIM_OP_FLUSH &&
	    (lba_count == 0 || lba >= d->geo.lba_count || lba_count > d->geo.lba_count - lba))
		return -EINVAL;
	if (op != DQ_SIM_OP_READ && op != DQ_SIM_OP_WRITE && op != DQ_SIM_OP_DEALLOCATE &&
	    op != DQ_SIM_OP_FLUSH)
		return -EINVAL;

	now_ns = sim_max_u64(now_ns, d->last_now);
	sim_thermal_advance(d, now_ns);
	idle_from = d->nand_busy_until + d->gc.idle_delay_ns;
	if (now_ns > idle_from && d->free_count < d->gc.idle_target)
		sim_gc_idle(d, sim_max_u64(idle_from, d->last_now), now_ns);
	d->last_now = now_ns;

	t_cmd = sim_max_u64(now_ns, d->ctrl_free);
	d->ctrl_free = t_cmd + d->tm.host_cmd_ns;
	shift = d->geo.lba_unit_shift;
	lpu = d->geo.lbas_per_unit;
	first = lba >> shift;
	end = (lba + lba_count + lpu - 1) >> shift;
	bytes = (uint64_t)lba_count * d->profile.lba_bytes;
	switch (op) {
	case DQ_SIM_OP_WRITE:
		/* a partial unit is a read-modify-write of the whole 4 KiB unit */
		*complete_ns = sim_io_write(d, first, end, handle, t_cmd, bytes);
		break;
	case DQ_SIM_OP_READ:
		*complete_ns = sim_io_read(d, first, end, t_cmd, bytes);
		break;
	case DQ_SIM_OP_DEALLOCATE:
		*complete_ns = sim_io_deallocate(d, lba, lba_count, t_cmd);
		break;
	default:
		*complete_ns = t_cmd + d->tm.command_ns;
		break;
	}
	return 0;
}

int dq_sim_drive_submit(struct dq_sim_drive *d, enum dq_sim_op op, uint64_t lba, uint32_t lba_count,
			uint64_t now_ns, uint64_t *complete_ns)
{
	return sim_io_submit(d, op, lba, lba_count, 0, now_ns, complete_ns);
}

int dq_sim_drive_write_placed(struct dq_sim_drive *d, uint64_t lba, uint32_t lba_count,
			      uint32_t handle, uint64_t now_ns, uint64_t *complete_ns)
{
	if (d == NULL || complete_ns == NULL)
		return -EINVAL;
	/* refusals come before the command touches any state */
	if (d->profile.fdp_handles == 0)
		return -EOPNOTSUPP;
	if (handle >= d->profile.fdp_handles)
		return -ERANGE;
	return sim_io_submit(d, DQ_SIM_OP_WRITE, lba, lba_count, handle, now_ns, complete_ns);
}
