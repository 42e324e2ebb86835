/*
 * "Has this consumer group read everything that was on the topic when I last asked?" on a real
 * broker: the liveness sweep trusts a heartbeat's age only when the answer is yes, so it must be
 * no while a group holds unread records (a dead replica's partitions) and yes once it read them.
 */
package io.drivequal.service.platform;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.drivequal.harness.RealInfrastructure;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import org.springframework.kafka.core.KafkaAdmin;

import static org.assertj.core.api.Assertions.assertThat;

class ConsumerProgressIT {

	@Test
	void aGroupHasConsumedOnlyOnceItReadWhatTheTopicHeldAtTheLastAsk() throws Exception {
		String brokers = RealInfrastructure.shared().kafkaBootstrapServers();
		String topic = "progress-" + UUID.randomUUID();
		String group = "progress-group-" + UUID.randomUUID();
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, brokers));
				KafkaProducer<String, String> producer = new KafkaProducer<>(
						Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers), new StringSerializer(),
						new StringSerializer());
				KafkaConsumer<String, String> consumer = new KafkaConsumer<>(
						Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers, ConsumerConfig.GROUP_ID_CONFIG, group,
								ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
								ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false),
						new StringDeserializer(), new StringDeserializer())) {
			admin.createTopics(List.of(new NewTopic(topic, 3, (short) 1))).all().get();
			BrokerHealth health = new BrokerHealth(
					new KafkaAdmin(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, brokers)));
			try {
				// The first ask only records where the topic ends.
				assertThat(health.consumedSinceLastAsked(group, topic)).isFalse();
				// Nothing was there and nothing came: nothing to wait for.
				assertThat(health.consumedSinceLastAsked(group, topic)).isTrue();

				for (int i = 0; i < 30; i++) {
					producer.send(new ProducerRecord<>(topic, "runner-" + i, "heartbeat")).get();
				}
				// New records after the last ask: the next ask still finds nothing owed.
				assertThat(health.consumedSinceLastAsked(group, topic)).isTrue();
				// Now the 30 records were there at the last ask, and nobody read them.
				assertThat(health.consumedSinceLastAsked(group, topic)).isFalse();
				assertThat(health.consumedSinceLastAsked(group, topic)).isFalse();

				consumer.subscribe(List.of(topic));
				int read = 0;
				long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
				while (read < 30 && System.nanoTime() < deadline) {
					read += consumer.poll(Duration.ofMillis(500)).count();
				}
				assertThat(read).isEqualTo(30);
				// Read but not committed: the group has not consumed them yet.
				assertThat(health.consumedSinceLastAsked(group, topic)).isFalse();
				consumer.commitSync();
				assertThat(health.consumedSinceLastAsked(group, topic)).isTrue();
			}
			finally {
				health.close();
			}
		}
	}

}
