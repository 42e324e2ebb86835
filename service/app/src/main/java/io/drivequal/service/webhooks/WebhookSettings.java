/*
 * The operator's settings of webhook delivery: pace, bounds, timeouts, the key that seals the
 * signing secrets at rest, and which destinations subscriptions may name (docs/operations.md,
 * "Webhooks").
 */
package io.drivequal.service.webhooks;

import java.time.Duration;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param deliveryThreads deliveries in flight at once per replica; one subscription has
 * at most one of them, so a slow receiver holds one thread, never all
 * @param connectTimeout, responseTimeout bounds of one attempt: connecting, then the
 * whole answer
 * @param maxAttempts attempts before a delivery is given up (status FAILED)
 * @param initialBackoff, maxBackoff the wait after the first failed attempt, doubled
 * after each further one up to the maximum
 * @param replayWindow how far back the catch-up looks for job changes a crashed replica
 * did not turn into deliveries
 * @param maxSubscriptionsPerOwner subscriptions one user (or team) may hold
 * @param secretKey, secretKeyFile base64 of a 32-byte AES key that seals the signing
 * secrets in Elasticsearch; without one they are stored unsealed (a warning at start)
 */
@ConfigurationProperties("drivequal.webhooks")
record WebhookSettings(@DefaultValue("4") int deliveryThreads, @DefaultValue("5s") Duration connectTimeout,
		@DefaultValue("10s") Duration responseTimeout, @DefaultValue("10") int maxAttempts,
		@DefaultValue("10s") Duration initialBackoff, @DefaultValue("1h") Duration maxBackoff,
		@DefaultValue("1h") Duration replayWindow, @DefaultValue("25") int maxSubscriptionsPerOwner, String secretKey,
		String secretKeyFile, @DefaultValue Destinations destinations) {

	/**
	 * @param allowedHosts when not empty, the only host names (or {@code *.suffix}
	 * patterns) a subscription may name
	 * @param deniedNetworks networks (CIDR) refused on top of the built-in ones
	 * (loopback, link-local, cloud metadata addresses, multicast)
	 * @param allowedNetworks networks (CIDR) allowed even where a denied network covers
	 * them, e.g. 127.0.0.0/8 for a local stack
	 */
	record Destinations(@DefaultValue List<String> allowedHosts, @DefaultValue List<String> deniedNetworks,
			@DefaultValue List<String> allowedNetworks) {
	}

	/** The wait after {@code failedAttempts} failures, before jitter. */
	Duration backoffAfter(int failedAttempts) {
		Duration wait = this.initialBackoff;
		for (int i = 1; i < failedAttempts && wait.compareTo(this.maxBackoff) < 0; i++) {
			wait = wait.multipliedBy(2);
		}
		return (wait.compareTo(this.maxBackoff) > 0) ? this.maxBackoff : wait;
	}

	/**
	 * How long a claimed delivery stays with the replica that claimed it: one attempt's
	 * bounds and a margin, after which another replica may take it over.
	 */
	Duration claimTimeout() {
		return this.connectTimeout.plus(this.responseTimeout).plusSeconds(30);
	}

}
