/*
 * Whether the Kafka cluster answers right now, and whether a consumer group keeps up with a topic.
 * Runner liveness is judged from heartbeats that travel through Kafka: while the broker is away,
 * or while the heartbeats wait on partitions nobody reads (a replica died and still holds them
 * until its session times out), every runner behind them would look dead. The liveness sweep
 * asks here first.
 */
package io.drivequal.service.platform;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PreDestroy;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.stereotype.Component;

@Component
public class BrokerHealth {

	private static final int TIMEOUT_MS = 2000;

	private final Admin admin;

	/** The end offsets seen at the last ask, by group/topic. */
	private final Map<String, Map<TopicPartition, Long>> lastEnds = new HashMap<>();

	BrokerHealth(KafkaAdmin kafkaAdmin) {
		var properties = new java.util.HashMap<>(kafkaAdmin.getConfigurationProperties());
		properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, TIMEOUT_MS);
		properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, TIMEOUT_MS);
		this.admin = Admin.create(properties);
	}

	/** True when a broker of the cluster answered within two seconds. */
	public boolean reachable() {
		try {
			return !this.admin.describeCluster(new DescribeClusterOptions().timeoutMs(TIMEOUT_MS))
				.nodes()
				.get(TIMEOUT_MS + 500, TimeUnit.MILLISECONDS)
				.isEmpty();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
		catch (Exception ex) {
			return false;
		}
	}

	/**
	 * True when {@code group} has consumed, on every partition of {@code topic}, all that
	 * the topic held the last time this was asked for the pair; false the first time, and
	 * when the broker does not answer. Asked every few seconds, it tells "the heartbeats
	 * that were on their way have arrived" without any threshold on lag, which depends on
	 * how many runners there are.
	 */
	public synchronized boolean consumedSinceLastAsked(String group, String topic) {
		Map<TopicPartition, Long> ends;
		Map<TopicPartition, OffsetAndMetadata> committed;
		try {
			List<TopicPartition> partitions = this.admin.describeTopics(List.of(topic))
				.allTopicNames()
				.get(TIMEOUT_MS + 500, TimeUnit.MILLISECONDS)
				.get(topic)
				.partitions()
				.stream()
				.map((partition) -> new TopicPartition(topic, partition.partition()))
				.toList();
			Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
			partitions.forEach((partition) -> latest.put(partition, OffsetSpec.latest()));
			ends = new HashMap<>();
			for (Map.Entry<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> end : this.admin.listOffsets(latest)
				.all()
				.get(TIMEOUT_MS + 500, TimeUnit.MILLISECONDS)
				.entrySet()) {
				ends.put(end.getKey(), end.getValue().offset());
			}
			committed = this.admin.listConsumerGroupOffsets(group)
				.partitionsToOffsetAndMetadata()
				.get(TIMEOUT_MS + 500, TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
		catch (Exception ex) {
			return false;
		}
		String key = group + "/" + topic;
		Map<TopicPartition, Long> before = this.lastEnds.put(key, ends);
		if (before == null) {
			return false;
		}
		for (Map.Entry<TopicPartition, Long> end : before.entrySet()) {
			OffsetAndMetadata position = committed.get(end.getKey());
			long consumed = (position != null) ? position.offset() : 0;
			if (consumed < end.getValue()) {
				return false;
			}
		}
		return true;
	}

	@PreDestroy
	void close() {
		this.admin.close(java.time.Duration.ofSeconds(2));
	}

}
