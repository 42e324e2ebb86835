// Vendor fio results as drivequal phases: pure parsing, so the service can analyse and judge them like its own runs.
/**
 * Import of fio 3.x output: {@link io.drivequal.analysis.fio.FioImport#read} turns the
 * JSON ({@code --output-format=json}) and per-second logs ({@code log_avg_msec=1000})
 * into one {@link io.drivequal.analysis.fio.FioJob} per fio job, whose
 * {@link io.drivequal.analysis.fio.FioJob#iopsSeries} and
 * {@link io.drivequal.analysis.fio.FioJob#clatHistograms} feed the analysis. Anything
 * that would make the numbers incomparable is refused with a
 * {@link io.drivequal.analysis.fio.FioImportException} naming the file, line and fix.
 */
package io.drivequal.analysis.fio;
