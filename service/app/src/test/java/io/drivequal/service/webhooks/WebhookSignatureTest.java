/*
 * The signature against the Standard Webhooks specification's published test vector, and the
 * sealing of secrets at rest.
 */
package io.drivequal.service.webhooks;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WebhookSignatureTest {

	@Test
	void signsLikeTheStandardWebhooksTestVector() {
		String signature = WebhookSignature.sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
				"msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330L, "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8));
		assertThat(signature).isEqualTo("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
	}

	@Test
	void newSecretsAreDistinct32ByteKeys() {
		String secret = WebhookSignature.newSecret();
		assertThat(secret).startsWith("whsec_");
		assertThat(java.util.Base64.getDecoder().decode(secret.substring(6))).hasSize(32);
		assertThat(WebhookSignature.newSecret()).isNotEqualTo(secret);
	}

	@Test
	void sealedSecretsOpenOnlyUnderTheirKey() {
		SecretBox box = box("q0l2m1XGQ8Ww4b2qJYxv0bq5o0Wq8M4Q4t0cKx2Xh6U=");
		String secret = WebhookSignature.newSecret();
		String sealed = box.seal(secret);
		assertThat(sealed).startsWith("aes256gcm:").doesNotContain(secret.substring(6));
		assertThat(box.open(sealed)).isEqualTo(secret);
		assertThatThrownBy(() -> box("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=").open(sealed))
			.hasMessageContaining("another webhook key");
		SecretBox keyless = box(null);
		assertThat(keyless.open(keyless.seal(secret))).isEqualTo(secret);
		assertThat(box.open(keyless.seal(secret))).as("a key configured later still reads unsealed secrets")
			.isEqualTo(secret);
		assertThatThrownBy(() -> box("c2hvcnQ=")).hasMessageContaining("32 bytes");
	}

	private static SecretBox box(String key) {
		return new SecretBox(new WebhookSettings(4, Duration.ofSeconds(5), Duration.ofSeconds(10), 10,
				Duration.ofSeconds(10), Duration.ofHours(1), Duration.ofHours(1), 25, key, null,
				new WebhookSettings.Destinations(List.of(), List.of(), List.of())));
	}

}
