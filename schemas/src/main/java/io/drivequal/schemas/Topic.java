/*
 * One Kafka topic of the contract, as schemas/topics.json declares it.
 */
package io.drivequal.schemas;

public record Topic(String name, String key, String schema, String producer, String consumer, int partitions,
		String cleanupPolicy, long retentionMs) {
}
