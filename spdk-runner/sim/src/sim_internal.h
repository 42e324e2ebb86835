/*
 * The simulated drive's state, shared by the FTL (sim_ftl.c, sim_gc.c), the timing model
 * (sim_sched.c, sim_io.c) and the lifecycle code (sim_drive.c). Everything is a flat array sized at
 * create time, so an IO allocates nothing. Not part of the public API.
 */
#ifndef DQ_SIM_INTERNAL_H
#define DQ_SIM_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "dq_sim.h"

#define SIM_UNIT_BYTES DQ_SIM_MAPPING_UNIT_BYTES
#define SIM_NONE UINT32_MAX
/* GC keeps this many blocks for its own frontier; the host never takes the last of them. */
#define SIM_MIN_FREE_BLOCKS 2u
/* Background GC leaves victims fuller than this alone: copying them buys almost nothing. */
#define SIM_IDLE_MAX_VALID_FRACTION 0.95
/* Deallocate updates the mapping table at this rate (controller work, no NAND access). */
#define SIM_TRIM_NS_PER_UNIT 2u

enum sim_block_state {
	SIM_BLOCK_FREE = 0,
	SIM_BLOCK_OPEN,
	SIM_BLOCK_FULL,
	SIM_BLOCK_VICTIM,
};

/*
 * Host data and GC copies go to separate open superblocks (write frontiers), one pair per FDP
 * reclaim unit handle: frontier[SIM_FRONTIER(handle, stream)]. Without FDP only handle 0's exist.
 */
enum sim_stream {
	SIM_STREAM_HOST = 0,
	SIM_STREAM_GC,
	SIM_STREAM_COUNT,
};

#define SIM_FRONTIER(handle, stream) ((handle)*SIM_STREAM_COUNT + (stream))
#define SIM_FRONTIERS (DQ_SIM_FDP_MAX_HANDLES * SIM_STREAM_COUNT)

struct sim_frontier {
	uint32_t block; /* SIM_NONE: no open block */
	uint32_t next; /* next unit offset inside the block */
	uint32_t prog_fill; /* units placed in the program unit being filled */
	uint64_t ready_ns; /* when the data of the program unit being filled is all available */
};

/*
 * Division by a drive constant without a divide instruction (Lemire, Kaser and Kurz 2019, "Faster
 * remainder by direct computation"): with magic = ceil(2^64 / d), exact for every 32-bit n.
 */
struct sim_divisor {
	uint64_t magic; /* 0 when d is 1 (2^64 does not fit) */
	uint32_t d;
};

static inline struct sim_divisor sim_divisor_of(uint32_t d)
{
	struct sim_divisor v = { .magic = UINT64_MAX / d + 1, .d = d };

	return v;
}

static inline uint32_t sim_div(struct sim_divisor v, uint32_t n)
{
	return v.d == 1 ? n : (uint32_t)(((unsigned __int128)v.magic * n) >> 64);
}

static inline uint32_t sim_mod(struct sim_divisor v, uint32_t n)
{
	return (uint32_t)(((unsigned __int128)(v.magic * n) * v.d) >> 64);
}

struct sim_geometry {
	uint32_t dies;
	uint32_t units_per_prog; /* 4 KiB units in one multi-plane program */
	uint32_t progs_per_block;
	uint32_t units_per_block;
	uint32_t blocks;
	uint32_t spare_blocks;
	uint32_t lbas_per_unit; /* 1 for 4096-byte LBAs, 8 for 512-byte LBAs */
	uint32_t lba_unit_shift; /* log2(lbas_per_unit) */
	uint64_t user_units;
	uint64_t lba_count;
	/* the divisions of every IO's path */
	struct sim_divisor by_dies;
	struct sim_divisor by_units_per_prog;
	struct sim_divisor by_units_per_block;
};

struct sim_timing {
	uint64_t read_ns;
	uint64_t program_ns;
	uint64_t erase_ns;
	uint64_t unit_xfer_ns; /* one 4 KiB unit over a channel */
	uint64_t command_ns;
	uint64_t host_cmd_ns; /* 1 / max IOPS */
	double host_ns_per_byte;
	uint32_t jitter_permille;
};

struct sim_gc_policy {
	uint32_t paced_start; /* free blocks below which GC runs paced with host writes */
	uint32_t burst_target; /* a burst (host out of blocks) reclaims up to this many free blocks */
	uint32_t fg_start; /* lazy foreground GC starts when the host opens a block at this many */
	uint32_t fg_step_units; /* most victim units it walks per host write; 0: whole bursts */
	uint32_t idle_target; /* background GC reclaims up to this many free blocks */
	uint64_t idle_delay_ns;
	struct sim_divisor by_paced_start; /* paced GC's proportional boost */
};

struct sim_counters {
	uint64_t host_write_bytes;
	uint64_t host_read_bytes;
	uint64_t host_write_cmds;
	uint64_t host_read_cmds;
	uint64_t nand_write_units;
	uint64_t nand_read_bytes;
	uint64_t erases;
};

/* FDP truth per reclaim unit handle (handle 0 only, without FDP) */
struct sim_fdp_counters {
	uint64_t host_units[DQ_SIM_FDP_MAX_HANDLES];
	uint64_t media_units[DQ_SIM_FDP_MAX_HANDLES];
	uint32_t blocks[DQ_SIM_FDP_MAX_HANDLES]; /* superblocks (reclaim units) it holds */
};

/* Fixed-step thermal integration (sim_thermal.c): steps on a grid of SIM_THERMAL_STEP_NS. */
#define SIM_THERMAL_STEP_NS 10000000ull

struct sim_thermal {
	double temperature_c;
	double decay; /* exp(-step / time constant) */
	uint64_t next_step_ns; /* the end of the step not yet integrated */
	struct sim_counters energy_seen; /* counters at the last step: their deltas are the work */
	bool throttled;
	uint64_t throttle_transitions;
	uint64_t throttled_ns;
	uint64_t warning_ns;
	uint64_t critical_ns;
};

struct dq_sim_drive {
	struct dq_sim_profile profile;
	struct sim_geometry geo;
	struct sim_timing tm; /* in force now: tm_cool, or tm_throttled while the drive throttles */
	struct sim_timing tm_cool;
	struct sim_timing tm_throttled;
	struct sim_gc_policy gc;
	uint64_t seed;
	uint64_t rng;

	/* mapping: l2p holds ppa + 1 (0 = unmapped, so calloc'd memory is a purged table) */
	uint32_t *l2p;
	uint32_t *p2l; /* may be stale: a unit is valid iff l2p[p2l[ppa]] == ppa + 1 */

	/* superblocks */
	uint32_t *valid;
	uint32_t *erase_count;
	uint64_t *close_seq; /* host units written when the block filled (cost-benefit age) */
	uint8_t *state;
	/*
	 * Greedy's victim, kept as it changes: the full block with the fewest valid units (fewer than
	 * all), the one whose count changed last among equals (SIM_NONE: no full block qualifies).
	 * An invalidation only has to compare its block with it; only taking it needs a scan, once per
	 * victim, which touch_seq orders.
	 */
	uint32_t greedy_best;
	uint64_t *touch_seq; /* when a full block last entered its valid count (touch_clock) */
	uint64_t touch_clock;
	uint32_t *free_fifo;
	uint32_t free_head;
	uint32_t free_count;
	uint8_t *block_handle; /* the reclaim unit handle a non-free superblock belongs to */
	struct sim_frontier frontier[SIM_FRONTIERS];
	struct sim_fdp_counters fdp;

	/* garbage collection in progress */
	uint32_t gc_victim;
	uint32_t gc_cursor;
	uint32_t gc_read_prog; /* program unit of the victim last read */
	uint64_t gc_read_done_ns;
	int64_t gc_debt; /* invalid units paced GC still owes the host */
	bool gc_fg_active; /* lazy foreground GC is reclaiming toward burst_target */
	int64_t gc_fg_debt; /* lazy foreground GC's debt, in 1/SIM_GC_FG_SCALE invalid units */

	/* timelines: each resource is busy until the given virtual time */
	uint64_t *die_free;
	uint64_t ctrl_free;
	uint64_t link_in_free;
	uint64_t link_out_free;
	uint64_t nand_busy_until; /* max over the die timelines */
	uint64_t last_now;
	/* write cache: release time of the last buffer_progs host programs (FIFO retirement) */
	uint64_t *buffer_release;
	uint32_t buffer_progs; /* a power of two */
	uint64_t host_prog_seq;
	uint64_t host_unit_seq;

	struct sim_counters cnt;
	struct sim_thermal thermal;
};

/* sim_drive.c: geometry, timing and GC thresholds from d->profile (no tables: the fluid model
 * uses them too) */
void sim_drive_derive(struct dq_sim_drive *d);

/* sim_sched.c: die, channel and write-cache timelines */
uint64_t sim_sched_program(struct dq_sim_drive *d, uint32_t prog_in_block, uint64_t ready_ns);
uint64_t sim_sched_read(struct dq_sim_drive *d, uint32_t prog_in_block, uint32_t units,
			uint64_t ready_ns, bool priority);
uint64_t sim_sched_xfer_more(struct dq_sim_drive *d, uint32_t prog_in_block, uint64_t after_ns);
void sim_sched_erase(struct dq_sim_drive *d, uint64_t ready_ns);
uint64_t sim_sched_busy_until(const struct dq_sim_drive *d);

/* sim_ftl.c: blocks, mapping, write frontiers */
void sim_ftl_reset(struct dq_sim_drive *d);
void sim_ftl_invalidate(struct dq_sim_drive *d, uint32_t ppa);
uint32_t sim_ftl_alloc_block(struct dq_sim_drive *d, uint32_t handle);
void sim_ftl_block_full(struct dq_sim_drive *d, uint32_t block);
void sim_ftl_greedy_rescan(struct dq_sim_drive *d);
uint64_t sim_ftl_host_write_unit(struct dq_sim_drive *d, uint64_t lunit, uint32_t handle,
				 uint64_t ready_ns);
void sim_ftl_gc_write_unit(struct dq_sim_drive *d, uint32_t lunit, uint64_t ready_ns);
void sim_ftl_trim_unit(struct dq_sim_drive *d, uint64_t lunit);

/*
 * A hint that lba will be accessed soon: pulls its mapping entry toward the CPU caches. Without
 * temporal locality (prefetchnta): a random table line is used once, so it should not push the
 * small per-superblock arrays out of the outer caches (about 2 % in bench_sim, see benchmarks.md).
 */
static inline void sim_ftl_prefetch(const struct dq_sim_drive *d, uint64_t lba)
{
	__builtin_prefetch(&d->l2p[lba >> d->geo.lba_unit_shift], 0, 0);
}

/* sim_gc.c: victim selection and the three ways GC runs */
void sim_gc_paced(struct dq_sim_drive *d, uint32_t host_units, uint64_t now_ns);
void sim_gc_burst(struct dq_sim_drive *d, uint64_t now_ns);
void sim_gc_foreground(struct dq_sim_drive *d, uint32_t host_units, uint64_t now_ns);
void sim_gc_idle(struct dq_sim_drive *d, uint64_t from_ns, uint64_t until_ns);

/* sim_thermal.c: temperature from the power of the work done, and throttling */
void sim_thermal_init(struct dq_sim_drive *d);
void sim_thermal_step_until(struct dq_sim_drive *d, uint64_t now_ns);
void sim_thermal_smart(const struct dq_sim_drive *d, struct dq_sim_smart *out);

/* Integrate every whole step that ended by now_ns: one compare on the IO path. */
static inline void sim_thermal_advance(struct dq_sim_drive *d, uint64_t now_ns)
{
	if (d->profile.thermal_enabled && now_ns >= d->thermal.next_step_ns)
		sim_thermal_step_until(d, now_ns);
}

static inline uint64_t sim_max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static inline uint64_t sim_rng_next(uint64_t *state)
{
	/* splitmix64 (Steele, Lea, Flood 2014): tiny state, good enough for jitter and LBAs */
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * The fluid model's state (sim_fluid.c: the drive integrated over intervals; sim_fluid_drive.c:
 * its build, purge and reports).
 */
/* History marks per lap of the raw capacity, kept for two laps. */
#define FLUID_MARKS_PER_LAP 1024u
#define FLUID_MARKS (2u * FLUID_MARKS_PER_LAP)

enum fluid_lazy_phase {
	FLUID_RUN = 0,
	FLUID_STALL,
	FLUID_SLOW,
};

struct fluid_mark {
	double pos; /* NAND units programmed since the purge */
	double hazard; /* cumulative hazard at that point */
};

struct dq_sim_fluid {
	struct dq_sim_drive shape; /* profile, geometry, timing, GC thresholds; no tables */
	uint64_t rng;
	/* derived, in 4 KiB units and nanoseconds */
	double raw_units;
	double block_units; /* one superblock */
	double host_unit_ns; /* die time to program a unit, its erase share included */
	double copy_unit_ns; /* die time GC spends on each unit it moves: read + program + erase */
	double gc_start_units; /* GC runs once the free pool is down to this */
	double idle_units; /* background GC refills the free pool up to this */
	double burst_blocks; /* superblocks a lazy GC burst reclaims */
	double noise; /* +- relative rate noise per step */
	/* state */
	uint64_t now_ns;
	uint64_t last_busy_ns;
	double free_units;
	double nand_pos;
	double hazard;
	double cut_pos; /* data programmed before this was all overwritten by a sequential pass */
	double seq_pass_start;
	double seq_run_units;
	double mapped_units;
	double mapped_extent_units;
	struct fluid_mark marks[FLUID_MARKS];
	uint32_t mark_head; /* oldest */
	uint32_t mark_count;
	double next_mark;
	/* lazy GC: a run of host writes (units left), a stall (ns left) or, with foreground steps,
	 * a slow phase of host writes with GC's work between them (units left) */
	enum fluid_lazy_phase stalled;
	double phase_left;
	double stall_ns;
	double carry[2]; /* fractional IOs owed to the next interval */
	/* counters */
	double host_bytes[2];
	double host_cmds[2];
	double nand_write_units;
	double nand_read_bytes;
	double erases;
};

/* Back to a purged drive: every unit free, no data, no history (counters kept). */
void sim_fluid_reset(struct dq_sim_fluid *f);

#endif /* DQ_SIM_INTERNAL_H */
