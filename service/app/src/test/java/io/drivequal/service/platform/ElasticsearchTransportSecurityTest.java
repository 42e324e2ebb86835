/*
 * Elasticsearch credentials and trust from the settings: the header each kind of credentials
 * produces, and the settings that cannot work, refused with the variable named and no secret
 * shown. Also which Elasticsearch answers stop the start at once instead of being retried.
 */
package io.drivequal.service.platform;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;

import javax.net.ssl.SSLHandshakeException;

import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.ErrorResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ElasticsearchTransportSecurityTest {

	private static final String SECRET = "VnVhQ2ZHY0JDZGJrUW0tZTVhT3g6dWkybHAyYXhUTm1zeWFrdzl0dk5udw==";

	@TempDir
	Path dir;

	@Test
	void noCredentials() {
		ElasticsearchTransportSecurity security = ElasticsearchTransportSecurity
			.of(settings("http://127.0.0.1:9200", null, null, null, null, null, null));
		assertThat(security.authorization()).isEmpty();
		assertThat(security.sslContext()).isEmpty();
	}

	@Test
	void apiKeyFromAFile() throws Exception {
		Path keyFile = Files.writeString(this.dir.resolve("api-key"), SECRET + "\n");
		ElasticsearchTransportSecurity security = ElasticsearchTransportSecurity
			.of(settings("https://es.example:9200", null, keyFile.toString(), null, null, null, null));
		assertThat(security.authorization()).contains("ApiKey " + SECRET);
		assertThat(security.description()).contains("with an API key").doesNotContain(SECRET);
		assertThat(security.toString()).doesNotContain(SECRET);
	}

	@Test
	void basicAuthenticationWithAPasswordFile() throws Exception {
		Path passwordFile = Files.writeString(this.dir.resolve("password"), "pw:with colon\n");
		ElasticsearchTransportSecurity security = ElasticsearchTransportSecurity
			.of(settings("http://127.0.0.1:9200", null, null, "drivequal", null, passwordFile.toString(), null));
		assertThat(security.authorization()).contains("Basic "
				+ Base64.getEncoder().encodeToString("drivequal:pw:with colon".getBytes(StandardCharsets.UTF_8)));
		assertThat(security.description()).contains("as user drivequal");
	}

	@Test
	void settingsThatCannotWorkAreRefusedWithoutShowingTheSecret() throws Exception {
		Path notPem = Files.writeString(this.dir.resolve("ca.txt"), "hello");
		String absent = this.dir.resolve("absent").toString();
		refused(settings("http://h:9200", SECRET, absent, null, null, null, null),
				"set ELASTICSEARCH_API_KEY or ELASTICSEARCH_API_KEY_FILE, not both");
		refused(settings("http://h:9200", null, absent, null, null, null, null),
				"ELASTICSEARCH_API_KEY_FILE: cannot read " + absent);
		refused(settings("http://h:9200", SECRET, null, "u", "p", null, null), "both set: use one");
		refused(settings("http://h:9200", null, null, "u", null, null, null),
				"ELASTICSEARCH_USERNAME is set but neither ELASTICSEARCH_PASSWORD nor");
		refused(settings("http://h:9200", null, null, null, SECRET, null, null),
				"ELASTICSEARCH_PASSWORD is set but ELASTICSEARCH_USERNAME is not");
		refused(settings("http://h:9200", null, null, null, null, null, notPem.toString()),
				"ELASTICSEARCH_CA_FILE is set but ELASTICSEARCH_URL is http://h:9200: use https://");
		refused(settings("https://h:9200", null, null, null, null, null, notPem.toString()),
				"holds no PEM certificate");
		refused(settings("https://h:9200", null, null, null, null, null, absent), "ELASTICSEARCH_CA_FILE: cannot read");
		refused(settings("ftp://h:9200", null, null, null, null, null, null), "must start with http:// or https://");
	}

	@Test
	void refusedCredentialsAndUntrustedCertificatesAreMisconfigurationsAnOutageIsNot() {
		ElasticsearchException unauthorized = new ElasticsearchException("indices.put_index_template",
				ErrorResponse.of((error) -> error.status(401)
					.error((cause) -> cause.type("security_exception")
						.reason("unable to authenticate with provided credentials"))));
		assertThat(IndexTemplateInstaller.misconfiguration(unauthorized))
			.startsWith("refused the credentials (HTTP 401: unable to authenticate with provided credentials)");
		ElasticsearchException forbidden = new ElasticsearchException("indices.put_index_template",
				ErrorResponse.of((error) -> error.status(403)
					.error((cause) -> cause.type("security_exception").reason("action unauthorized"))));
		assertThat(IndexTemplateInstaller.misconfiguration(forbidden)).contains("HTTP 403: action unauthorized");
		assertThat(IndexTemplateInstaller.misconfiguration(
				new java.io.IOException("handshake", new SSLHandshakeException("PKIX path building failed"))))
			.contains("over TLS (PKIX path building failed)");
		assertThat(IndexTemplateInstaller.misconfiguration(new java.net.ConnectException("Connection refused")))
			.isNull();
		ElasticsearchException unavailable = new ElasticsearchException("cluster.health", ErrorResponse
			.of((error) -> error.status(503).error((cause) -> cause.type("unavailable").reason("no master"))));
		assertThat(IndexTemplateInstaller.misconfiguration(unavailable)).isNull();
	}

	private static ElasticsearchSettings settings(String url, String apiKey, String apiKeyFile, String username,
			String password, String passwordFile, String caFile) {
		return new ElasticsearchSettings(URI.create(url), apiKey, apiKeyFile, username, password, passwordFile, caFile,
				Duration.ofSeconds(5), new ElasticsearchSettings.SampleIndices(null, null));
	}

	private static void refused(ElasticsearchSettings settings, String message) {
		assertThatThrownBy(() -> ElasticsearchTransportSecurity.of(settings))
			.isInstanceOf(InvalidConnectionSettingsException.class)
			.hasMessageContaining(message)
			.message()
			.doesNotContain(SECRET);
	}

}
