// A throw-away CA and a server certificate for 127.0.0.1, made with openssl at test time, for TLS tests.
package io.drivequal.harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Duration;
import java.util.List;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * PEM files in one directory: {@code ca.pem} (the CA's certificate, what clients trust),
 * {@code server.pem} and {@code server.key} (unencrypted PKCS#8) for a server on
 * 127.0.0.1 / localhost, and {@code server-keystore.pem} (key then certificate, Kafka's
 * PEM key store). Valid for two days; nothing of it belongs in the repository.
 */
public final class PemCertificates {

	private static final Duration OPENSSL_TIMEOUT = Duration.ofSeconds(60);

	private final Path dir;

	private PemCertificates(Path dir) {
		this.dir = dir;
	}

	/** Makes a new CA and server certificate in {@code dir} (created if needed). */
	public static PemCertificates generate(Path dir) {
		Path absolute = dir.toAbsolutePath();
		try {
			Files.createDirectories(absolute);
			Files.writeString(absolute.resolve("server.ext"),
					String.join("\n", "subjectAltName=IP:127.0.0.1,DNS:localhost", "basicConstraints=CA:FALSE",
							"keyUsage=digitalSignature,keyEncipherment", "extendedKeyUsage=serverAuth", ""));
			Path log = absolute.resolve("openssl.log");
			openssl(absolute, log, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out",
					"ca.pem", "-days", "2", "-subj", "/CN=drivequal test CA");
			openssl(absolute, log, "req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out",
					"server.csr", "-subj", "/CN=127.0.0.1");
			openssl(absolute, log, "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
					"-CAcreateserial", "-out", "server.pem", "-days", "2", "-extfile", "server.ext");
			Files.writeString(absolute.resolve("server-keystore.pem"), Files.readString(absolute.resolve("server.key"))
					+ Files.readString(absolute.resolve("server.pem")));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return new PemCertificates(absolute);
	}

	public Path caPem() {
		return this.dir.resolve("ca.pem");
	}

	public Path serverCertificatePem() {
		return this.dir.resolve("server.pem");
	}

	public Path serverKeyPem() {
		return this.dir.resolve("server.key");
	}

	/**
	 * The server's private key followed by its certificate, for Kafka's PEM key store.
	 */
	public Path serverKeyStorePem() {
		return this.dir.resolve("server-keystore.pem");
	}

	/** A client SSLContext trusting only this CA. */
	public SSLContext clientContext() {
		try (InputStream in = Files.newInputStream(caPem())) {
			KeyStore trustStore = KeyStore.getInstance(KeyStore.getDefaultType());
			trustStore.load(null, null);
			int i = 0;
			for (Certificate certificate : java.security.cert.CertificateFactory.getInstance("X.509")
				.generateCertificates(in)) {
				trustStore.setCertificateEntry("ca-" + i++, certificate);
			}
			TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
			trust.init(trustStore);
			SSLContext context = SSLContext.getInstance("TLS");
			context.init(null, trust.getTrustManagers(), null);
			return context;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("cannot load " + caPem(), ex);
		}
	}

	private static void openssl(Path dir, Path log, String... args) {
		List<String> command = new java.util.ArrayList<>(List.of("openssl"));
		command.addAll(List.of(args));
		ManagedProcess.runToCompletion("openssl " + args[0], command, dir, log, OPENSSL_TIMEOUT);
	}

}
