/**
 * Vendor fio results as qualifications: POST /api/v1/imports turns fio's JSON output and
 * per-second logs into samples, phase results and a COMPLETED job, which the analysis
 * then judges like one a runner ran.
 */
package io.drivequal.service.imports;
