/*
 * With SASL or TLS configured, asks the Kafka cluster once at start whether it accepts the
 * service's credentials and certificate trust. A refusal is a misconfiguration that no retry
 * fixes: the start fails saying which variables to check, instead of every consumer and producer
 * logging authentication errors forever. An unreachable broker is not a refusal: the service
 * starts and waits for Kafka as it always does.
 */
package io.drivequal.service.platform;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.stereotype.Component;

@Component
class KafkaCredentialsCheck implements SmartLifecycle {

	private static final Logger log = LoggerFactory.getLogger(KafkaCredentialsCheck.class);

	private static final int TIMEOUT_MS = 15_000;

	private final KafkaAdmin kafkaAdmin;

	private volatile boolean checked;

	KafkaCredentialsCheck(KafkaAdmin kafkaAdmin) {
		this.kafkaAdmin = kafkaAdmin;
	}

	@Override
	public void start() {
		Map<String, Object> properties = new HashMap<>(this.kafkaAdmin.getConfigurationProperties());
		Object protocol = properties.getOrDefault("security.protocol", "PLAINTEXT");
		this.checked = true;
		if ("PLAINTEXT".equals(String.valueOf(protocol))) {
			return;
		}
		properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, TIMEOUT_MS);
		properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, TIMEOUT_MS);
		Object bootstrap = properties.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG);
		String servers = (bootstrap instanceof java.util.Collection<?> list)
				? String.join(",", list.stream().map(String::valueOf).toList()) : String.valueOf(bootstrap);
		try (Admin admin = Admin.create(properties)) {
			int brokers = admin.describeCluster(new DescribeClusterOptions().timeoutMs(TIMEOUT_MS))
				.nodes()
				.get(TIMEOUT_MS + 1000, TimeUnit.MILLISECONDS)
				.size();
			log.info("Kafka at {} accepted the {} connection ({} broker(s))", servers, protocol, brokers);
		}
		catch (ExecutionException ex) {
			String problem = problem(ex.getCause());
			if (problem != null) {
				throw new InvalidConnectionSettingsException("Kafka at " + servers + " " + problem);
			}
			log.warn("Kafka at {} not reachable at start ({}); continuing, clients will retry", servers,
					ex.getCause().toString());
		}
		catch (TimeoutException ex) {
			log.warn("Kafka at {} did not answer within {} ms at start; continuing, clients will retry", servers,
					TIMEOUT_MS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while checking the Kafka connection", ex);
		}
	}

	/** What to fix when {@code cause} says the settings are wrong; null otherwise. */
	static String problem(Throwable cause) {
		if (cause instanceof SslAuthenticationException) {
			return "failed the TLS handshake (" + cause.getMessage()
					+ "); check KAFKA_SECURITY_PROTOCOL and KAFKA_SSL_CA_FILE";
		}
		if (cause instanceof AuthenticationException) {
			return "refused the SASL credentials (" + cause.getMessage()
					+ "); check KAFKA_SASL_MECHANISM, KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD(_FILE)";
		}
		return null;
	}

	@Override
	public void stop() {
		this.checked = false;
	}

	@Override
	public boolean isRunning() {
		return this.checked;
	}

	/** Before the index templates and the Kafka listener containers. */
	@Override
	public int getPhase() {
		return DEFAULT_PHASE - 2000;
	}

}
