/**
 * The test catalog: the qualification profiles drivequal runs (DESIGN.md, SNIA PTS, the
 * seed reviews), their phases in the contract's phaseSpec form, and their expected
 * durations.
 */
package io.drivequal.service.catalog;
