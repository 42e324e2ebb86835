/*
 * "Everything produced so far was consumed and committed": a consumer group's committed offsets
 * reached the end of every partition of a topic. A deterministic wait for integration tests,
 * unlike sleeping; and the lag it waits on, which the load test samples.
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
