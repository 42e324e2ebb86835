/**
 * Runner samples (and later events) from Kafka into Elasticsearch: validated against
 * schemas/, indexed with deterministic ids, offsets committed only after Elasticsearch
 * acknowledged.
 */
package io.drivequal.service.ingest;
