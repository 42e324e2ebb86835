/*
 * "Everything produced so far was consumed and committed": a consumer group's committed offsets
 * reached the end of every partition of a topic. A deterministic wait for integration tests,
 * unlike sleeping.
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

	public static void awaitCommittedToTheEnd(Admin admin, String group, String topic, Duration atMost) {
		await().atMost(atMost).pollInterval(Duration.ofMillis(200)).until(() -> {
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
			return admin.listOffsets(latest).all().get().entrySet().stream().allMatch((end) -> {
				OffsetAndMetadata done = committed.get(end.getKey());
				return ((done != null) ? done.offset() : 0) >= end.getValue().offset();
			});
		});
	}

}
