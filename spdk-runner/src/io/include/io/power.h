/*
 * Power control as a pluggable driver: what cuts and restores a drive's power for a power-loss
 * integrity phase. The simulator brings its own (the sim engine with sim_power=...); real hosts
 * will add slot power, a BMC or a switched PDU behind the same ops. "none" is a configuration,
 * not a driver: asking for it is a refusal, before any write.
 */
#ifndef DRIVEQUAL_POWER_H
#define DRIVEQUAL_POWER_H

#include <stddef.h>
#include <stdint.h>

struct dq_io_engine;

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
};

struct dq_power_driver {
	const struct dq_power_driver_ops *ops;
	void *ctx;
};

/*
 * The driver called name for the opened engine: "sim" (the sim engine's own, when its drive has
 * a power model). Returns 0, or a refusal with the reason in err: -ENODEV for "none" or an empty
 * name (no power driver configured), -ENOTSUP when the engine's target has no such driver,
 * -ENOENT for an unknown name.
 */
int dq_power_driver_open(const char *name, const struct dq_io_engine *engine,
			 struct dq_power_driver *out, char *err, size_t err_len);

#endif /* DRIVEQUAL_POWER_H */
