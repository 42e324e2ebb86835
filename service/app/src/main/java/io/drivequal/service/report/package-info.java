/**
 * The web report: the pages under /ui (jobs list, submit form, a job live and its report,
 * the compare view), served from the application's static resources and calling the API
 * with the user's credentials, and the CSV and JSON exports of samples and results.
 */
package io.drivequal.service.report;
