/*
 * Whether the Kafka cluster answers right now. Runner liveness is judged from heartbeats that
 * travel through Kafka, so while the broker is away every runner would look dead; the liveness
 * sweep asks here first.
 */
package io.drivequal.service.platform;

import java.util.concurrent.TimeUnit;

import jakarta.annotation.PreDestroy;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;

import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.stereotype.Component;

@Component
public class BrokerHealth {

	private static final int TIMEOUT_MS = 2000;

	private final Admin admin;

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

	@PreDestroy
	void close() {
		this.admin.close(java.time.Duration.ofSeconds(2));
	}

}
