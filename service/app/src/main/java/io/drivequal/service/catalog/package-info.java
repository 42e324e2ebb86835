/**
 * The test catalog: the qualification profiles drivequal runs (after SNIA PTS and the
 * reviewers' consistency and TRIM tests; docs/methodology.md, "Test profiles", says what
 * each measures), their phases in the contract's phaseSpec form, and their expected
 * durations.
 */
package io.drivequal.service.catalog;
