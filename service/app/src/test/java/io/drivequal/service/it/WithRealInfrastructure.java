/*
 * The one place that points a Spring integration test at the real Kafka broker and Elasticsearch
 * node the harness runs: it starts them (or reuses the JVM's running pair) and registers their
 * addresses before the application context starts, so no test repeats that wiring.
 */
package io.drivequal.service.it;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.drivequal.harness.RealInfrastructure;
import io.drivequal.harness.RealInfrastructureExtension;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.ContextConfiguration;

/**
 * On a {@code @SpringBootTest} class: {@code spring.kafka.bootstrap-servers} and
 * {@code drivequal.elasticsearch.url} name {@link RealInfrastructure#shared()}, which
 * also resolves as a test method parameter. Test classes with the same Spring
 * configuration share one application context, as Spring's test context cache does.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ExtendWith(RealInfrastructureExtension.class)
@ContextConfiguration(initializers = WithRealInfrastructure.Addresses.class)
public @interface WithRealInfrastructure {

	/** Registers the addresses above every other property source, as test properties. */
	class Addresses implements ApplicationContextInitializer<ConfigurableApplicationContext> {

		@Override
		public void initialize(ConfigurableApplicationContext context) {
			RealInfrastructure infrastructure = RealInfrastructure.shared();
			TestPropertyValues
				.of("spring.kafka.bootstrap-servers=" + infrastructure.kafkaBootstrapServers(),
						"drivequal.elasticsearch.url=" + infrastructure.elasticsearchUrl())
				.applyTo(context);
		}

	}

}
