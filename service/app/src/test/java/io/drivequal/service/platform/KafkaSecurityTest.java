/*
 * The Kafka security settings become the client properties Kafka expects (checked by Kafka's own
 * JAAS parser), and every setting that cannot work fails with a message naming the variable and
 * never the password, also when the application context starts.
 */
package io.drivequal.service.platform;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import javax.security.auth.login.AppConfigurationEntry;

import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.common.security.JaasContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaAdmin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KafkaSecurityTest {

	private static final String PASSWORD = "s3cr\"et\\pass word";

	@TempDir
	Path dir;

	@Test
	void plaintextByDefault() {
		assertThat(KafkaSecurity.clientProperties(settings("PLAINTEXT", null, null, null, null)))
			.isEqualTo(Map.of("security.protocol", "PLAINTEXT"));
	}

	@Test
	void saslSslWithAPasswordFileAndAPemCa() throws Exception {
		Path passwordFile = Files.writeString(this.dir.resolve("password"), PASSWORD + "\n");
		Path ca = Files.writeString(this.dir.resolve("ca.pem"),
				"-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");

		Map<String, String> properties = KafkaSecurity.clientProperties(new KafkaSecuritySettings("sasl_ssl",
				"SCRAM-SHA-512", "drivequal-service", null, passwordFile.toString(), ca.toString()));

		assertThat(properties).containsEntry("security.protocol", "SASL_SSL")
			.containsEntry("sasl.mechanism", "SCRAM-SHA-512")
			.containsEntry("ssl.truststore.type", "PEM")
			.containsEntry("ssl.truststore.location", ca.toString());
		// Kafka's own parser reads back exactly the user and the password, quotes and
		// all.
		AppConfigurationEntry entry = JaasContext
			.loadClientContext(Map.of("sasl.jaas.config", new Password(properties.get("sasl.jaas.config"))))
			.configurationEntries()
			.get(0);
		assertThat(entry.getLoginModuleName()).isEqualTo("org.apache.kafka.common.security.scram.ScramLoginModule");
		assertThat(entry.getControlFlag()).isEqualTo(AppConfigurationEntry.LoginModuleControlFlag.REQUIRED);
		assertThat(entry.getOptions().get("username")).isEqualTo("drivequal-service");
		assertThat(entry.getOptions().get("password")).isEqualTo(PASSWORD);
	}

	@Test
	void plainMechanismUsesThePlainLoginModule() {
		Map<String, String> properties = KafkaSecurity
			.clientProperties(new KafkaSecuritySettings("SASL_PLAINTEXT", "PLAIN", "u", "p", null, null));
		assertThat(properties.get("sasl.jaas.config"))
			.startsWith("org.apache.kafka.common.security.plain.PlainLoginModule required");
	}

	@Test
	void settingsThatCannotWorkAreRefusedWithoutShowingThePassword() throws Exception {
		Path empty = Files.writeString(this.dir.resolve("empty"), "\n");
		Path notPem = Files.writeString(this.dir.resolve("not.pem"), "hello");
		String absent = this.dir.resolve("absent").toString();
		refused(settings("TLS", null, null, null, null), "KAFKA_SECURITY_PROTOCOL: TLS is not one of");
		refused(settings("SASL_SSL", null, PASSWORD, null, null), "KAFKA_SASL_USERNAME is not set");
		refused(settings("SASL_SSL", "u", null, null, null),
				"neither KAFKA_SASL_PASSWORD nor KAFKA_SASL_PASSWORD_FILE is set");
		refused(settings("SASL_SSL", "u", PASSWORD, empty.toString(), null),
				"set KAFKA_SASL_PASSWORD or KAFKA_SASL_PASSWORD_FILE, not both");
		refused(settings("SASL_SSL", "u", null, absent, null), "KAFKA_SASL_PASSWORD_FILE: cannot read " + absent);
		refused(settings("SASL_SSL", "u", null, empty.toString(), null),
				"KAFKA_SASL_PASSWORD_FILE: " + empty + " is empty");
		refused(new KafkaSecuritySettings("SASL_SSL", "GSSAPI", "u", PASSWORD, null, null),
				"KAFKA_SASL_MECHANISM: GSSAPI is not supported");
		refused(settings("PLAINTEXT", "u", PASSWORD, null, null), "use SASL_PLAINTEXT or SASL_SSL");
		refused(settings("SASL_PLAINTEXT", "u", PASSWORD, null, notPem.toString()),
				"KAFKA_SSL_CA_FILE is set but KAFKA_SECURITY_PROTOCOL is SASL_PLAINTEXT");
		refused(settings("SSL", null, null, null, notPem.toString()), "holds no PEM certificate");
		refused(settings("SSL", null, null, null, absent), "KAFKA_SSL_CA_FILE: cannot read " + absent);
	}

	@Test
	void theApplicationContextDoesNotStartWithSaslButNoUsername() {
		ApplicationContextRunner runner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(KafkaAutoConfiguration.class))
			.withUserConfiguration(KafkaSecurity.class);
		runner.withPropertyValues("drivequal.kafka.security-protocol=SASL_SSL", "drivequal.kafka.sasl-password=x")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidConnectionSettingsException.class)
				.hasMessage("KAFKA_SECURITY_PROTOCOL is SASL_SSL but KAFKA_SASL_USERNAME is not set"));
		// And when it starts, every client factory carries the settings.
		runner
			.withPropertyValues("drivequal.kafka.security-protocol=SASL_PLAINTEXT", "drivequal.kafka.sasl-username=u",
					"drivequal.kafka.sasl-password=" + PASSWORD)
			.run((context) -> {
				assertThat(context.getBean(DefaultKafkaProducerFactory.class).getConfigurationProperties())
					.containsEntry("security.protocol", "SASL_PLAINTEXT")
					.containsEntry("sasl.mechanism", "SCRAM-SHA-512");
				assertThat(context.getBean(KafkaAdmin.class).getConfigurationProperties())
					.containsEntry("security.protocol", "SASL_PLAINTEXT")
					.containsKey("sasl.jaas.config");
			});
	}

	private static KafkaSecuritySettings settings(String protocol, String username, String password,
			String passwordFile, String caFile) {
		return new KafkaSecuritySettings(protocol, "SCRAM-SHA-512", username, password, passwordFile, caFile);
	}

	private static void refused(KafkaSecuritySettings settings, String message) {
		assertThatThrownBy(() -> KafkaSecurity.clientProperties(settings))
			.isInstanceOf(InvalidConnectionSettingsException.class)
			.hasMessageContaining(message)
			.message()
			.doesNotContain("s3cr");
	}

}
