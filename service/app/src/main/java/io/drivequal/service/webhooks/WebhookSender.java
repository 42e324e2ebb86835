/*
 * One attempt of one delivery over HTTP, with the JDK's HttpClient: the destination checked again
 * (DNS answers change), the body signed for this attempt's timestamp, redirects not followed (a
 * redirect could lead past the destination policy), and the whole exchange bounded in time: a
 * receiver that answers too slowly is cut off and the attempt counts as failed.
 */
package io.drivequal.service.webhooks;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.springframework.stereotype.Component;

@Component
class WebhookSender {

	static final String USER_AGENT = "drivequal-webhooks/1";

	private final HttpClient http;

	private final DestinationPolicy policy;

	private final SecretBox secrets;

	private final WebhookSettings settings;

	private final Clock clock;

	WebhookSender(DestinationPolicy policy, SecretBox secrets, WebhookSettings settings, Clock clock) {
		this.policy = policy;
		this.secrets = secrets;
		this.settings = settings;
		this.clock = clock;
		this.http = HttpClient.newBuilder()
			.connectTimeout(settings.connectTimeout())
			.followRedirects(HttpClient.Redirect.NEVER)
			.version(HttpClient.Version.HTTP_1_1)
			.build();
	}

	/**
	 * @param statusCode the receiver's answer, null when there was none
	 * @param error why the attempt failed, null when it succeeded
	 */
	record Outcome(Integer statusCode, String error, long durationMs) {

		boolean delivered() {
			return this.error == null;
		}

	}

	Outcome send(Subscription subscription, Delivery delivery) {
		long started = System.nanoTime();
		URI uri;
		try {
			uri = this.policy.check(subscription.url());
		}
		catch (DestinationPolicy.RefusedDestination ex) {
			return new Outcome(null, "destination refused: the URL " + ex.getMessage(), 0);
		}
		long timestampS = this.clock.instant().getEpochSecond();
		byte[] body = delivery.payload().getBytes(StandardCharsets.UTF_8);
		String signature = WebhookSignature.sign(this.secrets.open(subscription.secret()), delivery.eventId(),
				timestampS, body);
		HttpRequest request = HttpRequest.newBuilder(uri)
			.timeout(this.settings.responseTimeout())
			.header("Content-Type", CloudEventPayloads.CONTENT_TYPE)
			.header("User-Agent", USER_AGENT)
			.header("webhook-id", delivery.eventId())
			.header("webhook-timestamp", Long.toString(timestampS))
			.header("webhook-signature", signature)
			.POST(HttpRequest.BodyPublishers.ofByteArray(body))
			.build();
		Duration bound = this.settings.connectTimeout().plus(this.settings.responseTimeout());
		CompletableFuture<HttpResponse<Void>> exchange = this.http.sendAsync(request,
				HttpResponse.BodyHandlers.discarding());
		try {
			HttpResponse<Void> response = exchange.get(bound.toMillis(), TimeUnit.MILLISECONDS);
			int status = response.statusCode();
			long durationMs = elapsedMs(started);
			return (status >= 200 && status < 300) ? new Outcome(status, null, durationMs)
					: new Outcome(status, "the receiver answered HTTP " + status, durationMs);
		}
		catch (TimeoutException ex) {
			exchange.cancel(true);
			return new Outcome(null, "no complete answer within " + bound.toMillis() + " ms", elapsedMs(started));
		}
		catch (ExecutionException ex) {
			Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
			return new Outcome(null, describe(cause), elapsedMs(started));
		}
		catch (InterruptedException ex) {
			exchange.cancel(true);
			Thread.currentThread().interrupt();
			return new Outcome(null, "interrupted (the service is stopping)", elapsedMs(started));
		}
	}

	/** The failure's kind and message; java.net's messages name no URL path or query. */
	private static String describe(Throwable cause) {
		String message = cause.getMessage();
		return cause.getClass().getSimpleName() + ((message != null && !message.isBlank()) ? ": " + message : "");
	}

	private static long elapsedMs(long startedNanos) {
		return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos);
	}

}
