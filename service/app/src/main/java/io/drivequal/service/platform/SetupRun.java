/*
 * The one-shot mode of the deployment's setup Job (profile "setup"): start-up has installed the
 * index templates and fixed indices (IndexTemplateInstaller) and asked for the topics; this makes
 * sure the topics exist, then ends the process, so a Job can prepare Elasticsearch and Kafka
 * before or without a service replica.
 */
package io.drivequal.service.platform;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Profile;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.stereotype.Component;

@Component
@Profile("setup")
class SetupRun implements ApplicationRunner {

	private static final Logger log = LoggerFactory.getLogger(SetupRun.class);

	private final KafkaAdmin kafkaAdmin;

	private final ConfigurableApplicationContext context;

	SetupRun(KafkaAdmin kafkaAdmin, ConfigurableApplicationContext context) {
		this.kafkaAdmin = kafkaAdmin;
		this.context = context;
	}

	@Override
	public void run(ApplicationArguments args) {
		int status;
		try {
			// Start-up only logged a failure to create topics; this attempt decides.
			status = this.kafkaAdmin.initialize() ? 0 : 1;
		}
		catch (RuntimeException ex) {
			log.error("Setup failed: could not create or check the Kafka topics: {}", ex.toString());
			status = 1;
		}
		if (status == 0) {
			log.info("Setup done: index templates, indices and Kafka topics are in place");
		}
		else {
			log.error("Setup failed: the Kafka topics are not in place");
		}
		int exitStatus = status;
		System.exit(SpringApplication.exit(this.context, () -> exitStatus));
	}

}
