/*
 * The Elasticsearch connection's authentication and trust from ElasticsearchSettings: an
 * "Authorization: ApiKey" or basic header, and for https with a private CA an SSLContext trusting
 * the CA(s) of a PEM file. Settings that cannot work stop the start with a message naming the
 * variable, never a secret.
 */
package io.drivequal.service.platform;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import org.springframework.util.StringUtils;

/**
 * @param authorization the Authorization header value, if any
 * @param sslContext trusting the configured CA, if one is configured
 * @param description for the log: scheme, kind of credentials, CA file (no secret)
 */
record ElasticsearchTransportSecurity(Optional<String> authorization, Optional<SSLContext> sslContext,
		String description) {

	@Override
	public String toString() {
		return "ElasticsearchTransportSecurity[" + this.description + "]";
	}

	/**
	 * @throws InvalidConnectionSettingsException for settings that cannot work
	 */
	static ElasticsearchTransportSecurity of(ElasticsearchSettings settings) {
		String scheme = String.valueOf(settings.url().getScheme());
		if (!"http".equals(scheme) && !"https".equals(scheme)) {
			throw new InvalidConnectionSettingsException(
					"ELASTICSEARCH_URL: " + settings.url() + " must start with http:// or https://");
		}
		Optional<String> apiKey = Secrets.inlineOrFile("ELASTICSEARCH_API_KEY", settings.apiKey(),
				settings.apiKeyFile());
		Optional<String> password = Secrets.inlineOrFile("ELASTICSEARCH_PASSWORD", settings.password(),
				settings.passwordFile());
		boolean hasUser = StringUtils.hasText(settings.username());
		if (apiKey.isPresent() && (hasUser || password.isPresent())) {
			throw new InvalidConnectionSettingsException(
					"ELASTICSEARCH_API_KEY and ELASTICSEARCH_USERNAME/PASSWORD are both set: use one");
		}
		if (hasUser != password.isPresent()) {
			throw new InvalidConnectionSettingsException(hasUser
					? "ELASTICSEARCH_USERNAME is set but neither ELASTICSEARCH_PASSWORD nor ELASTICSEARCH_PASSWORD_FILE is"
					: "ELASTICSEARCH_PASSWORD is set but ELASTICSEARCH_USERNAME is not");
		}
		Optional<String> authorization = Optional.empty();
		String description = settings.url() + " without credentials";
		if (apiKey.isPresent()) {
			authorization = Optional.of("ApiKey " + apiKey.get().trim());
			description = settings.url() + " with an API key";
		}
		else if (hasUser) {
			authorization = Optional.of("Basic " + Base64.getEncoder()
				.encodeToString((settings.username() + ":" + password.get()).getBytes(StandardCharsets.UTF_8)));
			description = settings.url() + " as user " + settings.username();
		}
		Optional<SSLContext> sslContext = Optional.empty();
		if (StringUtils.hasText(settings.caFile())) {
			if (!"https".equals(scheme)) {
				throw new InvalidConnectionSettingsException(
						"ELASTICSEARCH_CA_FILE is set but ELASTICSEARCH_URL is " + settings.url() + ": use https://");
			}
			Path ca = KafkaSecurity.pemCertificates("ELASTICSEARCH_CA_FILE", settings.caFile());
			sslContext = Optional.of(trusting(ca));
			description += ", trusting the CA in " + ca;
		}
		return new ElasticsearchTransportSecurity(authorization, sslContext, description);
	}

	/** An SSLContext that trusts exactly the certificates of a PEM file. */
	static SSLContext trusting(Path pemFile) {
		try (InputStream in = Files.newInputStream(pemFile)) {
			Collection<? extends Certificate> certificates = CertificateFactory.getInstance("X.509")
				.generateCertificates(in);
			KeyStore trustStore = KeyStore.getInstance(KeyStore.getDefaultType());
			trustStore.load(null, null);
			List<Certificate> list = new ArrayList<>(certificates);
			for (int i = 0; i < list.size(); i++) {
				trustStore.setCertificateEntry("ca-" + i, list.get(i));
			}
			TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
			trust.init(trustStore);
			SSLContext context = SSLContext.getInstance("TLS");
			context.init(null, trust.getTrustManagers(), null);
			return context;
		}
		catch (IOException | GeneralSecurityException ex) {
			throw new InvalidConnectionSettingsException(
					"ELASTICSEARCH_CA_FILE: " + pemFile + " is not a PEM certificate bundle (" + ex.getMessage() + ")");
		}
	}

}
