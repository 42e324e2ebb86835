/*
 * Seals signing secrets before they go into Elasticsearch (AES-256-GCM under the operator's
 * webhook key), so whoever can read the subscriptions index cannot forge deliveries. Without a key
 * the secret is stored as it is, marked so, and a key configured later still reads it.
 */
package io.drivequal.service.webhooks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;

import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;
import org.springframework.util.StringUtils;

@Component
class SecretBox {

	private static final Logger log = LoggerFactory.getLogger(SecretBox.class);

	private static final String SEALED = "aes256gcm:";

	private static final String UNSEALED = "plain:";

	private static final int IV_BYTES = 12;

	private static final SecureRandom RANDOM = new SecureRandom();

	private final SecretKeySpec key;

	SecretBox(WebhookSettings settings) {
		this.key = key(settings);
		if (this.key == null) {
			log.warn("No webhook key (DRIVEQUAL_WEBHOOK_KEY_FILE): webhook signing secrets are stored unsealed in "
					+ "Elasticsearch; see docs/operations.md, Webhooks");
		}
	}

	String seal(String secret) {
		if (this.key == null) {
			return UNSEALED + secret;
		}
		try {
			byte[] iv = new byte[IV_BYTES];
			RANDOM.nextBytes(iv);
			Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
			cipher.init(Cipher.ENCRYPT_MODE, this.key, new GCMParameterSpec(128, iv));
			byte[] sealed = cipher.doFinal(secret.getBytes(StandardCharsets.UTF_8));
			byte[] stored = Arrays.copyOf(iv, IV_BYTES + sealed.length);
			System.arraycopy(sealed, 0, stored, IV_BYTES, sealed.length);
			return SEALED + Base64.getEncoder().encodeToString(stored);
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("AES-GCM is part of every JDK", ex);
		}
	}

	/**
	 * @throws IllegalStateException when the secret was sealed under a key this service
	 * does not have
	 */
	String open(String stored) {
		if (stored.startsWith(UNSEALED)) {
			return stored.substring(UNSEALED.length());
		}
		if (!stored.startsWith(SEALED) || this.key == null) {
			throw new IllegalStateException("the signing secret is sealed and this service has no webhook key");
		}
		byte[] bytes = Base64.getDecoder().decode(stored.substring(SEALED.length()));
		try {
			Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
			cipher.init(Cipher.DECRYPT_MODE, this.key, new GCMParameterSpec(128, bytes, 0, IV_BYTES));
			return new String(cipher.doFinal(bytes, IV_BYTES, bytes.length - IV_BYTES), StandardCharsets.UTF_8);
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("the signing secret was sealed under another webhook key", ex);
		}
	}

	private static SecretKeySpec key(WebhookSettings settings) {
		String encoded = settings.secretKey();
		if (StringUtils.hasText(settings.secretKeyFile())) {
			if (StringUtils.hasText(encoded)) {
				throw new IllegalStateException("set DRIVEQUAL_WEBHOOK_KEY or DRIVEQUAL_WEBHOOK_KEY_FILE, not both");
			}
			try {
				encoded = Files.readString(Path.of(settings.secretKeyFile()), StandardCharsets.US_ASCII);
			}
			catch (IOException ex) {
				throw new IllegalStateException("DRIVEQUAL_WEBHOOK_KEY_FILE: cannot read " + settings.secretKeyFile()
						+ " (" + ex.getClass().getSimpleName() + ")");
			}
		}
		if (!StringUtils.hasText(encoded)) {
			return null;
		}
		byte[] bytes;
		try {
			bytes = Base64.getDecoder().decode(encoded.trim());
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalStateException("the webhook key is not base64");
		}
		if (bytes.length != 32) {
			throw new IllegalStateException(
					"the webhook key must be 32 bytes (openssl rand -base64 32), not " + bytes.length);
		}
		return new SecretKeySpec(bytes, "AES");
	}

}
