/*
 * How the service authenticates to Kafka and trusts its brokers, from the environment
 * (KAFKA_SECURITY_PROTOCOL, KAFKA_SASL_*, KAFKA_SSL_CA_FILE; see application.yml and
 * docs/operations.md "Security settings").
 */
package io.drivequal.service.platform;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param securityProtocol PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL
 * @param saslMechanism SCRAM-SHA-512, SCRAM-SHA-256 or PLAIN (SASL protocols only)
 * @param saslUsername the SASL user (required with SASL)
 * @param saslPassword the SASL password, or empty when {@code saslPasswordFile} holds it
 * @param saslPasswordFile a file holding the SASL password
 * @param sslCaFile PEM file of the CA(s) that signed the brokers' certificates (SSL
 * protocols only); empty: the JVM's default trust store
 */
record KafkaSecuritySettings(@DefaultValue("PLAINTEXT") String securityProtocol,
		@DefaultValue("SCRAM-SHA-512") String saslMechanism, String saslUsername, String saslPassword,
		String saslPasswordFile, String sslCaFile) {

	/** Where Spring binds these from (application.yml maps the environment variables). */
	static final String PREFIX = "drivequal.kafka";

	@Override
	public String toString() {
		return "KafkaSecuritySettings[securityProtocol=" + this.securityProtocol + ", saslMechanism="
				+ this.saslMechanism + ", saslUsername=" + this.saslUsername + ", sslCaFile=" + this.sslCaFile + "]";
	}

}
