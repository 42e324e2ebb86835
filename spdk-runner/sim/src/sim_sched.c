/*
 * Virtual-time resources of the simulated drive: every die is a timeline that is busy until some
 * virtual time, and an operation reserves it from max(ready, busy-until). This keeps an
 * operation O(1) with no event queue, and is what makes GC "steal" time: its reads, programs and
 * erases land on the same die timelines the host's programs wait for.
 */
#include "sim_internal.h"

static uint64_t sim_sched_jitter(struct dq_sim_drive *d, uint64_t ns)
{
	uint64_t r;
	int64_t permille;

	if (d->tm.jitter_permille == 0)
		return ns;
	r = sim_rng_next(&d->rng);
	permille =
		(int64_t)(r % (2u * d->tm.jitter_permille + 1u)) - (int64_t)d->tm.jitter_permille;
	return (uint64_t)((int64_t)ns + (int64_t)ns * permille / 1000);
}

/*
 * Program unit i of a superblock lives on die i % dies, so a write frontier stripes consecutive
 * program units over all dies.
 */
static uint32_t sim_sched_die(const struct dq_sim_drive *d, uint32_t prog_in_block)
{
	return sim_mod(d->geo.by_dies, prog_in_block);
}

/*
 * How long an operation that moves xfer_ns of data over the channel keeps its die: the operation and
 * its transfer, or - when the channel is the bottleneck - the die's share of the channel
 * (dies_per_channel transfers). Channels are not timelines of their own: a reservation in the future
 * would block earlier work on the other dies of the channel and waste time that real controllers use.
 */
static uint64_t sim_sched_occupancy(const struct dq_sim_drive *d, uint64_t op_ns, uint64_t xfer_ns)
{
	uint64_t shared = d->profile.dies_per_channel * xfer_ns;

	return op_ns + xfer_ns > shared ? op_ns + xfer_ns : shared;
}

static void sim_sched_hold(struct dq_sim_drive *d, uint32_t die, uint64_t until_ns)
{
	d->die_free[die] = until_ns;
	d->nand_busy_until = sim_max_u64(d->nand_busy_until, until_ns);
}

/* Data moves into the die's register, then the die programs it (transfer + tPROG). */
uint64_t sim_sched_program(struct dq_sim_drive *d, uint32_t prog_in_block, uint64_t ready_ns)
{
	uint32_t die = sim_sched_die(d, prog_in_block);
	uint64_t xfer_ns = d->geo.units_per_prog * d->tm.unit_xfer_ns;
	uint64_t program_ns = sim_sched_jitter(d, d->tm.program_ns);
	uint64_t start = sim_max_u64(ready_ns, d->die_free[die]);

	sim_sched_hold(d, die, start + sim_sched_occupancy(d, program_ns, xfer_ns));
	return start + xfer_ns + program_ns;
}

/*
 * A read of `units` units from one program unit (tR + transfer). Host reads have priority: they wait
 * for at most one operation already under way on the die instead of everything queued there, and
 * push the queued work back by their own duration (controllers schedule reads ahead of programs).
 */
uint64_t sim_sched_read(struct dq_sim_drive *d, uint32_t prog_in_block, uint32_t units,
			uint64_t ready_ns, bool priority)
{
	uint32_t die = sim_sched_die(d, prog_in_block);
	uint64_t read_ns = sim_sched_jitter(d, d->tm.read_ns);
	uint64_t xfer_ns = units * d->tm.unit_xfer_ns;
	uint64_t start = sim_max_u64(ready_ns, d->die_free[die]);

	if (priority && start > ready_ns + d->tm.program_ns)
		start = ready_ns + d->tm.program_ns;
	sim_sched_hold(d, die,
		       sim_max_u64(d->die_free[die], start) +
			       sim_sched_occupancy(d, read_ns, xfer_ns));
	d->cnt.nand_read_bytes += (uint64_t)units * SIM_UNIT_BYTES;
	return start + read_ns + xfer_ns;
}

/* One more unit out of a page a GC read already sensed: transfer time only. */
uint64_t sim_sched_xfer_more(struct dq_sim_drive *d, uint32_t prog_in_block, uint64_t after_ns)
{
	uint32_t die = sim_sched_die(d, prog_in_block);
	uint64_t xfer_ns = d->tm.unit_xfer_ns;

	sim_sched_hold(d, die,
		       sim_max_u64(d->die_free[die], after_ns) +
			       sim_sched_occupancy(d, 0, xfer_ns));
	d->cnt.nand_read_bytes += SIM_UNIT_BYTES;
	return after_ns + xfer_ns;
}

/* Erasing a superblock erases one block on every die, in parallel. */
void sim_sched_erase(struct dq_sim_drive *d, uint64_t ready_ns)
{
	for (uint32_t die = 0; die < d->geo.dies; die++)
		sim_sched_hold(d, die, sim_max_u64(d->die_free[die], ready_ns) + d->tm.erase_ns);
}

uint64_t sim_sched_busy_until(const struct dq_sim_drive *d)
{
	uint64_t t = d->nand_busy_until;

	t = sim_max_u64(t, d->ctrl_free);
	t = sim_max_u64(t, d->link_in_free);
	return sim_max_u64(t, d->link_out_free);
}
