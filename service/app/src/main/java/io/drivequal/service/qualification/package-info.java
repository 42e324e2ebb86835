/**
 * Qualification jobs: the API procurement uses, the job lifecycle (QUEUED, DISPATCHED,
 * RUNNING and the final states), dispatch to runners with one job per drive, and the
 * runners' events that move jobs along. State lives in Elasticsearch with optimistic
 * concurrency, so replicas cooperate. Other features reach jobs only through the public
 * facades here: CompletedJobs (analysis), JobReports (report), DriveHistory (drives) and
 * ImportedJobs (imports).
 */
package io.drivequal.service.qualification;
