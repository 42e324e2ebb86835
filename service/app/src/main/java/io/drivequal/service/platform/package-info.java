/**
 * What every feature stands on: the contracts from schemas/, the Elasticsearch client and
 * index templates, and the Kafka topics.
 */
package io.drivequal.service.platform;
