/*
 * One error policy for every consumer: a poison record goes to the dead-letter topic with the
 * reason in its headers and the consumer keeps going; anything else (Elasticsearch down, a broker
 * hiccup) is retried with a bounded backoff interval but no give-up, so an outage pauses ingest
 * and loses nothing. A dead letter keeps at most the first 64 KB of the poison: an oversized record
 * copied whole would be refused by the dead-letter topic too, and a record the recoverer cannot
 * publish is retried for ever, which would stop the consumer behind it.
 */
package io.drivequal.service.platform;

import java.time.Duration;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaOperations;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.util.backoff.ExponentialBackOff;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(KafkaErrorHandlingConfiguration.RetrySettings.class)
class KafkaErrorHandlingConfiguration {

	/** Where poison records go; declared in schemas/topics.json. */
	static final String DEAD_LETTER_TOPIC = "drivequal.dead-letters";

	/** The most of a poison record's value a dead letter keeps. */
	static final int MAX_DEAD_LETTER_VALUE_BYTES = 64 * 1024;

	/** Set on a dead letter whose value was cut: the size of the original value. */
	static final String ORIGINAL_SIZE_HEADER = "drivequal-dlt-original-value-bytes";

	@ConfigurationProperties("drivequal.kafka.retry")
	record RetrySettings(@DefaultValue("500ms") Duration initialInterval, @DefaultValue("30s") Duration maxInterval) {
	}

	@Bean
	DefaultErrorHandler kafkaErrorHandler(KafkaOperations<Object, Object> kafkaOperations, RetrySettings settings) {
		var recoverer = new TruncatingRecoverer(kafkaOperations);
		var backOff = new ExponentialBackOff(settings.initialInterval().toMillis(), 2.0);
		backOff.setMaxInterval(settings.maxInterval().toMillis());
		var handler = new DefaultErrorHandler(recoverer, backOff);
		handler.addNotRetryableExceptions(InvalidMessageException.class);
		return handler;
	}

	/** Dead-letters the reason and the head of the value, never more than fits. */
	static final class TruncatingRecoverer extends DeadLetterPublishingRecoverer {

		TruncatingRecoverer(KafkaOperations<Object, Object> kafkaOperations) {
			super(kafkaOperations, (record, ex) -> new TopicPartition(DEAD_LETTER_TOPIC, -1));
		}

		@Override
		protected ProducerRecord<Object, Object> createProducerRecord(ConsumerRecord<?, ?> record,
				TopicPartition topicPartition, Headers headers, byte[] key, byte[] value) {
			ProducerRecord<Object, Object> letter = super.createProducerRecord(record, topicPartition, headers, key,
					value);
			if (letter.value() instanceof byte[] bytes && bytes.length > MAX_DEAD_LETTER_VALUE_BYTES) {
				headers.add(ORIGINAL_SIZE_HEADER, Integer.toString(bytes.length).getBytes(StandardCharsets.UTF_8));
				return new ProducerRecord<>(letter.topic(), letter.partition(), letter.timestamp(), letter.key(),
						Arrays.copyOf(bytes, MAX_DEAD_LETTER_VALUE_BYTES), headers);
			}
			return letter;
		}

	}

}
