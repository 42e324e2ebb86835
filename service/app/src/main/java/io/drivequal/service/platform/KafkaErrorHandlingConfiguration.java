/*
 * One error policy for every consumer: a poison record goes to the dead-letter topic with the
 * reason in its headers and the consumer keeps going; anything else (Elasticsearch down, a broker
 * hiccup) is retried with a bounded backoff interval but no give-up, so an outage pauses ingest
 * and loses nothing.
 */
package io.drivequal.service.platform;

import java.time.Duration;

import org.apache.kafka.common.TopicPartition;

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

	@ConfigurationProperties("drivequal.kafka.retry")
	record RetrySettings(@DefaultValue("500ms") Duration initialInterval, @DefaultValue("30s") Duration maxInterval) {
	}

	@Bean
	DefaultErrorHandler kafkaErrorHandler(KafkaOperations<Object, Object> kafkaOperations, RetrySettings settings) {
		var recoverer = new DeadLetterPublishingRecoverer(kafkaOperations,
				(record, ex) -> new TopicPartition(DEAD_LETTER_TOPIC, -1));
		var backOff = new ExponentialBackOff(settings.initialInterval().toMillis(), 2.0);
		backOff.setMaxInterval(settings.maxInterval().toMillis());
		var handler = new DefaultErrorHandler(recoverer, backOff);
		handler.addNotRetryableExceptions(InvalidMessageException.class);
		return handler;
	}

}
