/**
 * Runner output in Elasticsearch: samples from Kafka, validated against schemas/, indexed
 * with deterministic ids, offsets committed only after Elasticsearch acknowledged; the
 * phase-result document a finished phase (or an imported fio job) becomes; and the sample
 * queries the API and the report read.
 */
package io.drivequal.service.ingest;
