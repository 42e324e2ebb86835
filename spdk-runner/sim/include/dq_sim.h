/*
 * dq_sim: a simulated NVMe drive (page-mapped FTL with garbage collection) that runs in virtual
 * time, so drivequal can be shown, tested and used for "what does more spare area buy" questions
 * without a spare drive. It is the library behind the runner's `sim` IO engine; docs/simulator.md
 * describes the model and its limits.
 *
 * Conventions: functions that can fail return 0 or a negative errno (-EINVAL bad argument,
 * -ENOMEM, -ENOENT/-EIO for profile files); times are virtual nanoseconds chosen by the caller
 * (0 = power-on); a drive is single-threaded (one caller at a time) and deterministic for a given
 * profile, seed and sequence of calls.
 */
#ifndef DQ_SIM_H
#define DQ_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DQ_SIM_NAME_MAX 64
#define DQ_SIM_MODEL_MAX 40 /* NVMe Identify Controller MN */
#define DQ_SIM_FIRMWARE_MAX 8 /* FR */
#define DQ_SIM_SERIAL_MAX 20 /* SN */
#define DQ_SIM_MAPPING_UNIT_BYTES 4096u
#define DQ_SIM_NS_PER_S 1000000000ull
/* Flexible Data Placement (NVMe TP4146): most reclaim unit handles a profile may declare */
#define DQ_SIM_FDP_MAX_HANDLES 8u

enum dq_sim_victim_policy {
	DQ_SIM_VICTIM_GREEDY = 0, /* fewest valid pages */
	DQ_SIM_VICTIM_COST_BENEFIT, /* (1 - u) * age / (1 + u), Rosenblum & Ousterhout / Kawaguchi */
	DQ_SIM_VICTIM_FIFO, /* least recently written (LRW): the superblock that filled first */
};

/*
 * A drive model, as read from profiles/<name>.json (docs/simulator.md documents every field). Tests may
 * build one in code or change a loaded one (e.g. raw_bytes for another spare area); call
 * dq_sim_profile_validate() after changing it.
 */
struct dq_sim_profile {
	char name[DQ_SIM_NAME_MAX + 1];
	char model[DQ_SIM_MODEL_MAX + 1];
	char firmware[DQ_SIM_FIRMWARE_MAX + 1];

	/* capacity: spare area = raw - user (rounded down to whole superblocks) */
	uint64_t user_bytes;
	uint64_t raw_bytes;
	uint32_t lba_bytes; /* 512 or 4096 */

	/* NAND: a superblock takes one block from every plane of every die */
	uint32_t channels;
	uint32_t dies_per_channel;
	uint32_t planes;
	uint32_t page_bytes; /* per plane, a multiple of 4096 */
	uint32_t pages_per_block;
	double read_us;
	double program_us;
	double erase_us;
	double channel_mbps; /* MB/s (10^6 bytes) per channel */
	double jitter_pct; /* program/read time varies uniformly by +- this percentage */
	uint32_t rated_pe_cycles;

	/* host interface (PCIe/NVMe controller ceiling) */
	double host_max_mbps;
	double host_max_kiops;
	double command_us; /* controller latency added to every command */
	uint32_t write_buffer_kib; /* power-loss-protected write cache, in front of the NAND */

	/* garbage collection */
	enum dq_sim_victim_policy victim;
	double eagerness; /* 0 = lazy (late, in bursts) .. 1 = eager (early, paced with host writes) */
	double free_target_pct; /* GC's free pool, as % of the spare area (see docs/simulator.md) */
	/* lazy foreground GC: most victim units one host write makes GC walk, as % of a superblock;
	 * 0 = one burst up to the free target while the host waits (stall-prone firmware) */
	double foreground_step_pct;
	double idle_delay_ms; /* background GC starts after the drive has been idle this long */
	double idle_target_pct; /* background GC reclaims until this % of the spare area is free */

	/* thermal model (optional section "thermal"; off: a constant 40 C, no thresholds) */
	int thermal_enabled;
	double ambient_c; /* the air the drive sheds heat into */
	double idle_w; /* power with no host IO */
	double c_per_w; /* thermal resistance: steady-state rise above ambient per watt */
	double time_constant_s; /* how fast the temperature follows the power */
	double command_uj; /* energy per host command (controller, PCIe) */
	double program_nj_per_byte; /* NAND programs (host and GC) */
	double read_nj_per_byte; /* NAND reads (host and GC) */
	double erase_uj; /* one block erase on one die */
	double throttle_c; /* throttling starts at this temperature (reported as TMT1) */
	double throttle_release_c; /* and stops below this one */
	double throttle_speed_pct; /* throttled, the drive runs at this % of its speed (IOPS cap) */
	double warning_c; /* WCTEMP, and the over-temperature threshold of critical warning bit 1 */
	double critical_c; /* CCTEMP */

	/*
	 * Flexible Data Placement (optional section "fdp"; 0 handles: no FDP). One reclaim group (a
	 * superblock spans every die), reclaim unit = one superblock, each handle persistently
	 * isolated: its host writes and GC's copies of its data go to reclaim units of its own.
	 */
	uint32_t fdp_handles; /* reclaim unit handles, 1..DQ_SIM_FDP_MAX_HANDLES */
};

/* Reads and validates a profile file; on failure writes a one-line reason into err. */
int dq_sim_profile_load(const char *path, struct dq_sim_profile *profile, char *err,
			size_t err_len);
/* Loads <dir>/<name>.json; name must be a plain file name (no '/', no leading '.'). */
int dq_sim_profile_load_name(const char *dir, const char *name, struct dq_sim_profile *profile,
			     char *err, size_t err_len);
/* 0 when the profile describes a drive dq_sim can build, else -EINVAL with the reason in err. */
int dq_sim_profile_validate(const struct dq_sim_profile *profile, char *err, size_t err_len);

struct dq_sim_drive;

/* Builds a drive in its fresh-out-of-box state (everything erased, nothing mapped). */
int dq_sim_drive_create(const struct dq_sim_profile *profile, uint64_t seed,
			struct dq_sim_drive **out);
void dq_sim_drive_destroy(struct dq_sim_drive *drive);

enum dq_sim_op {
	DQ_SIM_OP_READ = 0,
	DQ_SIM_OP_WRITE,
	DQ_SIM_OP_DEALLOCATE, /* TRIM: only mapping units the range covers completely are unmapped */
	DQ_SIM_OP_FLUSH, /* completes at once: the write cache is power-loss protected */
};

/*
 * Submits one command at virtual time now_ns and returns its completion time in *complete_ns.
 * The completion reflects the host interface ceiling, the write cache, die and channel contention
 * and foreground garbage collection. Submit in non-decreasing now_ns order (a closed loop does
 * this by submitting at completion times); an earlier now_ns is treated as the latest one seen.
 * A gap of more than idle_delay_ms since the drive was last busy runs background GC first.
 * Returns -EINVAL for an unknown op, lba_count 0 (except FLUSH) or a range beyond the capacity.
 */
int dq_sim_drive_submit(struct dq_sim_drive *drive, enum dq_sim_op op, uint64_t lba,
			uint32_t lba_count, uint64_t now_ns, uint64_t *complete_ns);

/*
 * A write with the FDP placement directive: its data goes to the reclaim unit open for `handle`.
 * Refused before anything is written: -EOPNOTSUPP when the drive has no FDP, -ERANGE when handle is
 * not below its number of handles; otherwise as dq_sim_drive_submit(DQ_SIM_OP_WRITE). A plain
 * write is a write to handle 0.
 */
int dq_sim_drive_write_placed(struct dq_sim_drive *drive, uint64_t lba, uint32_t lba_count,
			      uint32_t handle, uint64_t now_ns, uint64_t *complete_ns);

/* The FDP configuration a drive reports (NVMe FDP Configurations log page 20h, reduced). */
struct dq_sim_fdp_config {
	int enabled;
	uint32_t reclaim_groups;
	uint32_t reclaim_unit_handles;
	uint64_t reclaim_unit_bytes; /* nominal size: one superblock */
};

void dq_sim_drive_fdp_config(const struct dq_sim_drive *drive, struct dq_sim_fdp_config *out);

/*
 * FDP statistics (log page 22h: host bytes with metadata written, media bytes with metadata
 * written, media bytes erased), so device WAF = media / host is readable as a series, and per
 * handle what only a simulator knows: its bytes and the reclaim units it holds now.
 */
struct dq_sim_fdp_handle_stats {
	uint64_t host_bytes_written;
	uint64_t media_bytes_written; /* host data and GC copies placed in its reclaim units */
	uint32_t reclaim_units; /* open, full or being reclaimed: its share of the NAND now */
	uint64_t programmed_bytes; /* of them, the part written (open units are partly written) */
	uint64_t valid_bytes; /* live data in them */
};

struct dq_sim_fdp_stats {
	uint64_t host_bytes_written;
	uint64_t media_bytes_written;
	uint64_t media_bytes_erased;
	uint32_t handles; /* entries of per_handle in use (1 without FDP) */
	struct dq_sim_fdp_handle_stats per_handle[DQ_SIM_FDP_MAX_HANDLES];
};

void dq_sim_drive_fdp_stats(const struct dq_sim_drive *drive, struct dq_sim_fdp_stats *out);

/* A hint that lba is about to be submitted: pulls its mapping entry toward the CPU caches. */
void dq_sim_drive_prefetch(const struct dq_sim_drive *drive, uint64_t lba);

/* The drive is idle from from_ns until until_ns: background GC uses the dies meanwhile. */
void dq_sim_drive_idle(struct dq_sim_drive *drive, uint64_t from_ns, uint64_t until_ns);

/*
 * Format NVM / sanitize: unmaps every LBA and erases every block that holds data, returning the
 * drive to its fresh-out-of-box state (wear and SMART counters persist). *complete_ns gets the time
 * the erases finish. Returns -ENOMEM if the mapping table cannot be reallocated.
 */
int dq_sim_drive_purge(struct dq_sim_drive *drive, uint64_t now_ns, uint64_t *complete_ns);

/* The time at which all work the drive has accepted (programs, GC, erases) is done. */
uint64_t dq_sim_drive_busy_until(const struct dq_sim_drive *drive);

struct dq_sim_identify {
	char serial[DQ_SIM_SERIAL_MAX + 1];
	char model[DQ_SIM_MODEL_MAX + 1];
	char firmware[DQ_SIM_FIRMWARE_MAX + 1];
	uint64_t user_bytes;
	uint64_t raw_bytes; /* after rounding to whole superblocks */
	uint64_t lba_count;
	uint32_t lba_bytes;
};

void dq_sim_drive_identify(const struct dq_sim_drive *drive, struct dq_sim_identify *out);

/*
 * Counters shaped like the contract's smartSnapshot (schemas/messages/common.schema.json): the
 * NVMe SMART / Health log (02h) fields and the OCP C0h fields, so WAF is computed exactly as for a
 * real drive: delta physical_media_units_written_bytes / (delta data_units_written * 512,000).
 */
struct dq_sim_smart {
	uint64_t data_units_written; /* 512,000-byte units, rounded up, as NVMe reports them */
	uint64_t data_units_read;
	uint64_t host_write_commands;
	uint64_t host_read_commands;
	uint32_t percentage_used; /* average erase count / rated P/E cycles, capped at 255 */
	uint32_t available_spare_percent;
	uint32_t available_spare_threshold_percent;
	uint32_t critical_warning; /* bit 1: temperature at or above warning_c */
	uint32_t temperature_k; /* rounded composite temperature */
	/* thermal history, as NVMe log 02h and Identify report it (zero without a thermal model) */
	uint32_t warning_temperature_threshold_k; /* 0: none declared */
	uint32_t critical_temperature_threshold_k;
	uint32_t throttle_temperature_k; /* TMT1 */
	uint64_t warning_temperature_time_min;
	uint64_t critical_temperature_time_min;
	uint64_t throttle_transitions;
	uint64_t throttle_time_s;
	uint64_t power_on_hours; /* virtual time */
	uint64_t media_errors;
	/* OCP C0h */
	uint64_t physical_media_units_written_bytes; /* host + GC programs */
	uint64_t physical_media_units_read_bytes; /* host + GC reads */
	uint64_t bad_user_nand_blocks;
	uint64_t nand_erase_count; /* sum of block erases */
	/* exact values for tests and the bench (not in the contract) */
	uint64_t host_write_bytes;
	uint64_t host_read_bytes;
	uint32_t erase_count_min;
	uint32_t erase_count_max;
	double erase_count_avg;
};

void dq_sim_drive_smart(const struct dq_sim_drive *drive, struct dq_sim_smart *out);

/*
 * The thermal model's exact state (docs/simulator.md "Temperature and throttling"), for tests and
 * the runner's health truth. The state is that of the last 10 ms step at or before the drive's
 * latest command; reading it changes nothing.
 */
struct dq_sim_thermal {
	int enabled;
	double temperature_c;
	int throttled; /* the host command ceiling is throttle_max_kiops now */
	uint64_t throttle_transitions; /* times throttling started */
	uint64_t throttled_ns; /* virtual time spent throttled */
	uint64_t warning_ns; /* at or above warning_c, below critical_c */
	uint64_t critical_ns; /* at or above critical_c */
	uint64_t updated_ns; /* the step the state belongs to */
};

void dq_sim_drive_thermal(const struct dq_sim_drive *drive, struct dq_sim_thermal *out);

/* Copies per-superblock erase counts into counts[0..n); returns the number of superblocks. */
size_t dq_sim_drive_erase_counts(const struct dq_sim_drive *drive, uint32_t *counts, size_t n);

/*
 * WAF for uniform random single-unit writes with greedy GC, from Xiang & Kurkoski, "An Improved
 * Analytic Expression for Write Amplification in NAND Flash", ICNC 2012 (arXiv:1110.4245):
 * WA = a / (a + W0(-a e^-a)) with a = 1 + spare_factor, spare_factor = (raw - user) / user.
 * Returns a negative value for spare_factor <= 0.
 */
double dq_sim_waf_model_greedy(double spare_factor);

/* ---- power model: the write cache across a power cut (docs/simulator.md, "Power loss") ---- */

/*
 * What the drive's write cache does when power is cut. The cache holds accepted writes, one entry
 * per 4 KiB mapping unit (a rewrite of a cached unit coalesces into its entry), and destages the
 * oldest entry to NAND when it is full.
 */
enum dq_sim_power_mode {
	/* power-loss protection: capacitors destage the whole cache at a cut, so every accepted
	 * write survives (the FTL's own write buffer, which the drive model always assumes) */
	DQ_SIM_POWER_PLP = 0,
	/* a volatile cache without protection: a flush destages it all; at a cut each entry still
	 * cached is lost or, half of them (seeded), destaged in time */
	DQ_SIM_POWER_VOLATILE,
	/* as VOLATILE, but a flush completes without destaging anything: acknowledged, not kept */
	DQ_SIM_POWER_LIAR,
};

/* "plp", "volatile", "liar"; 0, or -EINVAL for another name. */
int dq_sim_power_mode_parse(const char *name, enum dq_sim_power_mode *mode);
const char *dq_sim_power_mode_name(enum dq_sim_power_mode mode);

struct dq_sim_cache;

/*
 * What the cache does with a unit: destage() when its data reaches NAND (the caller copies the
 * unit from what the host sees to what survives), lost() when a cut drops it (promised: a flush
 * acknowledged after the unit was written, or PLP, said it would survive).
 */
struct dq_sim_cache_sink {
	void (*destage)(uint64_t unit, void *arg);
	void (*lost)(uint64_t unit, bool promised, void *arg);
	void *arg;
};

/* The simulator's own record of its cuts: the truth a power-loss verifier is checked against. */
struct dq_sim_cache_truth {
	uint64_t cuts;
	uint64_t units_lost; /* over every cut */
	uint64_t units_lost_promised; /* of which a completed flush (or PLP) had promised */
	uint64_t last_cut_lost;
	uint64_t last_cut_lost_promised;
};

/* A cache of capacity_units entries over unit_count units (the drive's capacity / 4 KiB). */
int dq_sim_cache_create(enum dq_sim_power_mode mode, uint64_t unit_count, uint32_t capacity_units,
			uint64_t seed, struct dq_sim_cache **out);
void dq_sim_cache_destroy(struct dq_sim_cache *cache);
enum dq_sim_power_mode dq_sim_cache_mode(const struct dq_sim_cache *cache);
/* Accept a write of units [unit, unit + count); a full cache destages its oldest entries first.
 * -EINVAL beyond unit_count. */
int dq_sim_cache_write(struct dq_sim_cache *cache, uint64_t unit, uint32_t count,
		       const struct dq_sim_cache_sink *sink);
/* A flush completed: VOLATILE and PLP destage everything cached; LIAR only marks it promised. */
void dq_sim_cache_flush(struct dq_sim_cache *cache, const struct dq_sim_cache_sink *sink);
/* Power is cut: every cached entry is destaged or lost as the mode says; the cache is empty after.
 * Returns the number of units lost by this cut. */
uint64_t dq_sim_cache_power_cut(struct dq_sim_cache *cache, const struct dq_sim_cache_sink *sink);
/* Units cached now (not yet on NAND). */
uint32_t dq_sim_cache_dirty_units(const struct dq_sim_cache *cache);
void dq_sim_cache_truth(const struct dq_sim_cache *cache, struct dq_sim_cache_truth *out);

/*
 * WAF for LRW (FIFO) cleaning of one pool holding several classes of data, class i being
 * lba_fraction[i] of the user LBAs and receiving write_fraction[i] of the uniform random writes
 * (Desnoyers, "Analytic Modeling of SSD Write Performance", SYSTOR 2012, LRW model for non-uniform
 * traffic): WA = sum_i f_i / (1 - exp(-(f_i / x_i) (1 + spare_factor) / WA)), a copy of a class-i
 * page surviving one pass of the log with probability exp(-(f_i / x_i) a / WA). One class is the
 * uniform case, equal to dq_sim_waf_model_greedy(). Returns a negative value for bad arguments.
 */
double dq_sim_waf_model_lrw(double spare_factor, const double *lba_fraction,
			    const double *write_fraction, size_t classes);

/*
 * The hot/cold workload of the FDP checks: 4 KiB random writes at QD1, hot_write_fraction of them
 * to the first hot_lba_fraction of the LBAs, the rest to the others. With placed != 0 hot writes
 * carry hot_handle and cold writes cold_handle; otherwise every write is plain (handle 0). `fill`
 * first writes every LBA once in order (each on its class's handle when placed).
 */
struct dq_sim_hot_cold {
	double hot_lba_fraction;
	double hot_write_fraction;
	int placed;
	uint32_t hot_handle;
	uint32_t cold_handle;
	int fill;
	uint64_t writes; /* random 4 KiB writes after the fill */
	uint64_t seed;
};

/* Returns 0 with *end_ns the last completion, or a negative errno (a refused write's). */
int dq_sim_run_hot_cold(struct dq_sim_drive *drive, const struct dq_sim_hot_cold *workload,
			uint64_t start_ns, uint64_t *end_ns);

/* ---- closed-loop driver: keeps queue_depth IOs outstanding in virtual time (tests, bench) ---- */

enum dq_sim_pattern {
	DQ_SIM_PATTERN_RANDWRITE = 0,
	DQ_SIM_PATTERN_SEQWRITE,
	DQ_SIM_PATTERN_RANDREAD,
	DQ_SIM_PATTERN_SEQREAD,
	DQ_SIM_PATTERN_RANDRW, /* read_pct % reads */
};

struct dq_sim_workload {
	enum dq_sim_pattern pattern;
	uint32_t block_bytes; /* a multiple of the LBA size */
	uint32_t queue_depth;
	uint32_t read_pct; /* RANDRW only */
	double range_fraction; /* LBAs [0, fraction * capacity) are used; 0 < fraction <= 1 */
	uint64_t duration_ns; /* stop submitting at start + duration; 0 = no time limit */
	uint64_t bytes_limit; /* stop after submitting this many bytes; 0 = no limit */
	uint64_t seed;
};

/* One second of a run: t is the END of [t-1, t) seconds since the start; IOs count when done. */
struct dq_sim_second {
	uint32_t t;
	uint64_t interval_ns; /* 10^9, less for the last second of a bytes-limited run */
	uint64_t read_ios;
	uint64_t write_ios;
	uint64_t read_bytes;
	uint64_t write_bytes;
	uint64_t latency_sum_ns;
	uint64_t latency_max_ns;
};

/* Called once per second in order; a negative return stops the run and is returned by it. */
typedef int (*dq_sim_second_fn)(const struct dq_sim_second *second, void *arg);

struct dq_sim_run_result {
	uint64_t start_ns;
	uint64_t end_ns; /* last completion: the next phase starts here */
	uint64_t read_ios;
	uint64_t write_ios;
	uint64_t read_bytes;
	uint64_t write_bytes;
	uint64_t latency_max_ns;
	uint32_t seconds; /* callbacks made */
};

/*
 * Runs a workload from start_ns until its duration or byte limit: every completion submits the next
 * IO at its completion time. IOs still outstanding at the end are drained (counted in the totals, not
 * in a second). second_fn may be NULL. Returns 0, -EINVAL for a bad workload, or second_fn's value.
 */
int dq_sim_run_closed_loop(struct dq_sim_drive *drive, const struct dq_sim_workload *workload,
			   uint64_t start_ns, dq_sim_second_fn second_fn, void *arg,
			   struct dq_sim_run_result *result);

/* ---- fluid model: the same drive one interval at a time, for fleets of drives paced in real time ---- */

/*
 * The profile's drive as a fluid: instead of placing every IO, it integrates the closed loop over
 * an interval (at most a second) from the same geometry and timings: the NAND's program and read
 * rates, the host interface's ceilings, the free pool a fresh drive writes into, the victims' valid
 * share once garbage collection runs (first-in-first-out ages under uniform overwrites, so its
 * steady state is the analytic WAF above), lazy GC's stalls, idle-time reclaim, TRIM and purge.
 * An interval costs a few microseconds whatever the IOPS, so one core hosts hundreds of drives in
 * real time. It reproduces the FTL's rates, the cliff and the mean in steady state, not its
 * per-IO detail (docs/simulator.md, "The fluid model").
 */
struct dq_sim_fluid;

int dq_sim_fluid_create(const struct dq_sim_profile *profile, uint64_t seed,
			struct dq_sim_fluid **out);
void dq_sim_fluid_destroy(struct dq_sim_fluid *fluid);
/* The same identity as dq_sim_drive_create() gives for this profile and seed. */
void dq_sim_fluid_identify(const struct dq_sim_fluid *fluid, struct dq_sim_identify *out);
void dq_sim_fluid_smart(const struct dq_sim_fluid *fluid, struct dq_sim_smart *out);
/* Format / sanitize: back to fresh-out-of-box; *complete_ns when the erases are done. */
int dq_sim_fluid_purge(struct dq_sim_fluid *fluid, uint64_t now_ns, uint64_t *complete_ns);
/* TRIM of [lba, lba + lba_count); -EINVAL beyond the capacity. */
int dq_sim_fluid_deallocate(struct dq_sim_fluid *fluid, uint64_t lba, uint64_t lba_count,
			    uint64_t now_ns, uint64_t *complete_ns);
/* No host IO from from_ns until until_ns: background GC refills the free pool. */
void dq_sim_fluid_idle(struct dq_sim_fluid *fluid, uint64_t from_ns, uint64_t until_ns);

/* A closed loop's shape: what the runner's phase parameters say. */
struct dq_sim_fluid_load {
	uint32_t read_pct; /* 0 = all writes .. 100 = all reads */
	uint32_t sequential; /* nonzero: sequential over the range */
	uint32_t block_bytes; /* a multiple of the LBA size */
	uint32_t queue_depth;
	uint64_t range_bytes; /* LBAs [0, range) */
};

/* Latencies come out as weighted points: count IOs of about ns each. */
#define DQ_SIM_FLUID_POINTS 16
struct dq_sim_fluid_point {
	uint64_t ns;
	uint64_t count;
};

/* What completed in one interval; index 0 = reads, 1 = writes. */
struct dq_sim_fluid_interval {
	uint64_t interval_ns; /* covered: less than asked when bytes_limit ended it */
	uint64_t ios[2];
	uint64_t bytes[2];
	uint32_t point_count[2];
	struct dq_sim_fluid_point points[2][DQ_SIM_FLUID_POINTS];
};

/*
 * Runs the load from now_ns for interval_ns (1 ns .. 1 s), or until bytes_limit bytes have
 * completed (0: no limit). Latencies obey Little's law: their sum is queue_depth x interval.
 * Returns 0 or -EINVAL for a bad load or interval.
 */
int dq_sim_fluid_run(struct dq_sim_fluid *fluid, const struct dq_sim_fluid_load *load,
		     uint64_t now_ns, uint64_t interval_ns, uint64_t bytes_limit,
		     struct dq_sim_fluid_interval *out);

#ifdef __cplusplus
}
#endif

#endif /* DQ_SIM_H */
