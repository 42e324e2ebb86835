/*
 * The signing scheme of webhook deliveries, that of the Standard Webhooks specification, so
 * receivers can use its libraries or a few lines of their own (docs/api.md, "Webhooks"):
 *
 *   webhook-id:        the event id (stable across retries: receivers dedupe on it)
 *   webhook-timestamp: the attempt's time, Unix seconds (receivers refuse old ones: replay)
 *   webhook-signature: "v1," + base64(HMAC-SHA256(key, id + "." + timestamp + "." + body))
 *
 * where key is the base64-decoded part of the subscription's secret after "whsec_".
 */
package io.drivequal.service.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

final class WebhookSignature {

	static final String SECRET_PREFIX = "whsec_";

	private static final int SECRET_BYTES = 32;

	private static final SecureRandom RANDOM = new SecureRandom();

	private WebhookSignature() {
	}

	/** A new secret: "whsec_" and 32 random bytes in base64. */
	static String newSecret() {
		byte[] key = new byte[SECRET_BYTES];
		RANDOM.nextBytes(key);
		return SECRET_PREFIX + Base64.getEncoder().encodeToString(key);
	}

	/** The webhook-signature header's value for one attempt. */
	static String sign(String secret, String id, long timestampS, byte[] body) {
		byte[] key = Base64.getDecoder().decode(secret.substring(SECRET_PREFIX.length()));
		try {
			Mac mac = Mac.getInstance("HmacSHA256");
			mac.init(new SecretKeySpec(key, "HmacSHA256"));
			mac.update((id + "." + timestampS + ".").getBytes(StandardCharsets.UTF_8));
			mac.update(body);
			return "v1," + Base64.getEncoder().encodeToString(mac.doFinal());
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("HmacSHA256 is part of every JDK", ex);
		}
	}

}
