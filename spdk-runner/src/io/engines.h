/*
 * The engines this build links: each engines/<name>.c keeps a static const ops table and exposes
 * it through one accessor declared here for the registry (engine_registry.c).
 */
#ifndef DRIVEQUAL_ENGINES_H
#define DRIVEQUAL_ENGINES_H

#include "io/engine.h"

const struct dq_io_engine_ops *dq_engine_null_ops(void);
const struct dq_io_engine_ops *dq_engine_uring_ops(void);
const struct dq_io_engine_ops *dq_engine_sim_ops(void);
#if DRIVEQUAL_SPDK_ENABLED
const struct dq_io_engine_ops *dq_engine_spdk_ops(void);
#endif

#endif /* DRIVEQUAL_ENGINES_H */
