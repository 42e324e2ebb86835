/**
 * The web report: the pages under /ui (jobs list, submit form, a job live and its report,
 * the compare view), served from the application's static resources and calling the API
 * with the user's credentials; the samples API those pages chart from (pages, chart
 * buckets, a live stream); and the CSV and JSON exports of samples and results.
 */
package io.drivequal.service.report;
