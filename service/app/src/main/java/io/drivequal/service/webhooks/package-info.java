/**
 * Webhooks: users and teams subscribe an HTTP(S) endpoint to qualification events (state
 * changes, verdicts). Each event becomes one delivery per matching subscription, stored
 * in Elasticsearch before anything is sent (so a restart loses none), sent as a signed
 * CloudEvents 1.0 JSON body by a bounded pool of workers, retried with exponential
 * backoff and given up after a bound, with a delivery log per subscription. Destinations
 * are checked against the operator's policy when subscribing and before every attempt.
 */
package io.drivequal.service.webhooks;
