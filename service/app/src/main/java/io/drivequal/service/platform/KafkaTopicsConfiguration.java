/*
 * Creates the topics schemas/topics.json declares (KafkaAdmin skips existing ones), so a fresh
 * cluster works without a separate provisioning step.
 */
package io.drivequal.service.platform;

import java.util.Map;

import io.drivequal.schemas.Contracts;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.KafkaAdmin;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(KafkaTopicsConfiguration.TopicSettings.class)
class KafkaTopicsConfiguration {

	/**
	 * @param replicas replication factor of created topics; 0 leaves it to the broker's
	 * default.replication.factor
	 * @param maxMessageBytes largest message a topic accepts; must exceed the biggest
	 * phase-completed event (full latency histograms)
	 */
	@ConfigurationProperties("drivequal.kafka.topics")
	record TopicSettings(@DefaultValue("0") int replicas, @DefaultValue("4194304") int maxMessageBytes) {
	}

	@Bean
	KafkaAdmin.NewTopics drivequalTopics(Contracts contracts, TopicSettings settings) {
		NewTopic[] topics = contracts.topics().stream().map((topic) -> {
			TopicBuilder builder = TopicBuilder.name(topic.name())
				.partitions(topic.partitions())
				.configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, topic.cleanupPolicy(),
						TopicConfig.RETENTION_MS_CONFIG, Long.toString(topic.retentionMs()),
						TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(settings.maxMessageBytes())));
			if (settings.replicas() > 0) {
				builder.replicas(settings.replicas());
			}
			return builder.build();
		}).toArray(NewTopic[]::new);
		return new KafkaAdmin.NewTopics(topics);
	}

}
