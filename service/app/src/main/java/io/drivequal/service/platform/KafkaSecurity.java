/*
 * Turns KafkaSecuritySettings into the Kafka client properties every producer, consumer and admin
 * client of the service uses (security.protocol, sasl.mechanism, sasl.jaas.config with the SCRAM
 * or PLAIN login module, a PEM trust store), added to Spring Boot's KafkaProperties before any
 * client factory reads them. A setting that cannot work stops the start with a message naming the
 * variable; the password never appears in a message or a log line.
 */
package io.drivequal.service.platform;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

@Configuration(proxyBeanMethods = false)
class KafkaSecurity {

	private static final Logger log = LoggerFactory.getLogger(KafkaSecurity.class);

	static final List<String> PROTOCOLS = List.of("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL");

	static final Map<String, String> LOGIN_MODULES = Map.of("SCRAM-SHA-512",
			"org.apache.kafka.common.security.scram.ScramLoginModule", "SCRAM-SHA-256",
			"org.apache.kafka.common.security.scram.ScramLoginModule", "PLAIN",
			"org.apache.kafka.common.security.plain.PlainLoginModule");

	/**
	 * Static: a post-processor is created before other beans, and must not pull them in
	 * early.
	 */
	@Bean
	static BeanPostProcessor kafkaSecurityPropertiesPostProcessor(Environment environment) {
		return new BeanPostProcessor() {
			@Override
			public Object postProcessAfterInitialization(Object bean, String beanName) {
				if (bean instanceof KafkaProperties kafka) {
					KafkaSecuritySettings settings = Binder.get(environment)
						.bindOrCreate(KafkaSecuritySettings.PREFIX, KafkaSecuritySettings.class);
					kafka.getProperties().putAll(clientProperties(settings));
				}
				return bean;
			}
		};
	}

	/**
	 * The client properties for these settings (empty for PLAINTEXT without anything
	 * else).
	 * @throws InvalidConnectionSettingsException for settings that cannot work
	 */
	static Map<String, String> clientProperties(KafkaSecuritySettings settings) {
		String protocol = String.valueOf(settings.securityProtocol()).trim().toUpperCase(Locale.ROOT);
		if (!PROTOCOLS.contains(protocol)) {
			throw new InvalidConnectionSettingsException("KAFKA_SECURITY_PROTOCOL: " + settings.securityProtocol()
					+ " is not one of " + String.join(", ", PROTOCOLS));
		}
		boolean sasl = protocol.startsWith("SASL_");
		boolean tls = protocol.endsWith("SSL");
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("security.protocol", protocol);
		String description = protocol;
		if (sasl) {
			String mechanism = String.valueOf(settings.saslMechanism()).trim().toUpperCase(Locale.ROOT);
			String loginModule = LOGIN_MODULES.get(mechanism);
			if (loginModule == null) {
				throw new InvalidConnectionSettingsException("KAFKA_SASL_MECHANISM: " + settings.saslMechanism()
						+ " is not supported; use one of " + String.join(", ", LOGIN_MODULES.keySet()));
			}
			if (!StringUtils.hasText(settings.saslUsername())) {
				throw new InvalidConnectionSettingsException(
						"KAFKA_SECURITY_PROTOCOL is " + protocol + " but KAFKA_SASL_USERNAME is not set");
			}
			String password = Secrets
				.inlineOrFile("KAFKA_SASL_PASSWORD", settings.saslPassword(), settings.saslPasswordFile())
				.orElseThrow(() -> new InvalidConnectionSettingsException("KAFKA_SECURITY_PROTOCOL is " + protocol
						+ " but neither KAFKA_SASL_PASSWORD nor KAFKA_SASL_PASSWORD_FILE is set"));
			properties.put("sasl.mechanism", mechanism);
			properties.put("sasl.jaas.config", loginModule + " required username=\""
					+ jaasQuoted(settings.saslUsername()) + "\" password=\"" + jaasQuoted(password) + "\";");
			description += ", " + mechanism + " as " + settings.saslUsername();
		}
		else if (StringUtils.hasText(settings.saslUsername()) || StringUtils.hasLength(settings.saslPassword())
				|| StringUtils.hasText(settings.saslPasswordFile())) {
			throw new InvalidConnectionSettingsException("KAFKA_SASL_USERNAME/PASSWORD are set but "
					+ "KAFKA_SECURITY_PROTOCOL is " + protocol + ": use SASL_PLAINTEXT or SASL_SSL");
		}
		if (StringUtils.hasText(settings.sslCaFile())) {
			if (!tls) {
				throw new InvalidConnectionSettingsException("KAFKA_SSL_CA_FILE is set but KAFKA_SECURITY_PROTOCOL is "
						+ protocol + ": use SSL or SASL_SSL");
			}
			Path ca = pemCertificates("KAFKA_SSL_CA_FILE", settings.sslCaFile());
			properties.put("ssl.truststore.type", "PEM");
			properties.put("ssl.truststore.location", ca.toString());
			description += ", brokers trusted through " + ca;
		}
		if (!"PLAINTEXT".equals(protocol)) {
			log.info("Kafka connections: {}", description);
		}
		return properties;
	}

	/** A readable file holding at least one PEM certificate. */
	static Path pemCertificates(String variable, String file) {
		Path path = Secrets.readableFile(variable, file);
		try {
			if (!Files.readString(path).contains("-----BEGIN CERTIFICATE-----")) {
				throw new InvalidConnectionSettingsException(variable + ": " + file + " holds no PEM certificate");
			}
		}
		catch (IOException ex) {
			throw new InvalidConnectionSettingsException(variable + ": cannot read " + file);
		}
		return path;
	}

	/** A value inside a JAAS double-quoted string. */
	static String jaasQuoted(String value) {
		return value.replace("\\", "\\\\").replace("\"", "\\\"");
	}

}
