/*
 * "What I produced was consumed and committed": a consumer group's committed offsets reached where
 * every partition of a topic ended once a test's records were on it. A deterministic wait for
 * integration tests, unlike sleeping, and one that does not wait for records other tests produce
 * later on the same shared topic; and the lag, which the load test samples.
 */
package io.drivequal.service.it;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import static org.awaitility.Awaitility.await;

public final class ConsumerGroups {

	private ConsumerGroups() {
	}

	/**
	 * Where each partition of {@code topic} ends now: taken after a test produced its
	 * records, the point {@link #awaitCommittedPast} waits for.
	 */
	public static Map<TopicPartition, Long> endOffsets(Admin admin, String topic) throws Exception {
		Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
		admin.describeTopics(List.of(topic))
			.allTopicNames()
			.get()
			.get(topic)
			.partitions()
			.forEach((p) -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
		Map<TopicPartition, Long> ends = new HashMap<>();
		admin.listOffsets(latest).all().get().forEach((partition, end) -> ends.put(partition, end.offset()));
		return ends;
	}

	/**
	 * Waits until {@code group} committed at least {@code ends} on every partition:
	 * everything on the topic when they were taken was consumed, whatever came since may
	 * not be.
	 */
	public static void awaitCommittedPast(Admin admin, String group, Map<TopicPartition, Long> ends, Duration atMost) {
		await().atMost(atMost).pollInterval(Duration.ofMillis(200)).until(() -> {
			Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
				.partitionsToOffsetAndMetadata()
				.get();
			return ends.entrySet().stream().allMatch((end) -> {
				OffsetAndMetadata done = committed.get(end.getKey());
				return ((done != null) ? done.offset() : 0) >= end.getValue();
			});
		});
	}

	public static void awaitCommittedToTheEnd(Admin admin, String group, String topic, Duration atMost) {
		await().atMost(atMost).pollInterval(Duration.ofMillis(200)).until(() -> lag(admin, group, topic) == 0);
	}

	/**
	 * Records of the topic the group has not committed yet, over all its partitions (a
	 * partition the group never committed counts from offset 0).
	 */
	public static long lag(Admin admin, String group, String topic) throws Exception {
		Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
			.partitionsToOffsetAndMetadata()
			.get();
		Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
		admin.describeTopics(List.of(topic))
			.allTopicNames()
			.get()
			.get(topic)
			.partitions()
			.forEach((p) -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
		long lag = 0;
		for (var end : admin.listOffsets(latest).all().get().entrySet()) {
			OffsetAndMetadata done = committed.get(end.getKey());
			lag += Math.max(0, end.getValue().offset() - ((done != null) ? done.offset() : 0));
		}
		return lag;
	}

}
