/*
 * One event on its way to one subscription, as stored in drivequal-webhook-deliveries (id =
 * eventId~subscriptionId): the exact body every attempt sends, and the delivery log's facts
 * (status, attempts, last answer or error). Immutable; each attempt writes a new version.
 */
package io.drivequal.service.webhooks;

import java.time.Instant;

/**
 * @param status PENDING (waiting for its next attempt, or in one), DELIVERED, or FAILED
 * (given up)
 * @param nextAttemptAt while PENDING: when it is due; while an attempt runs, when the
 * claim on it expires
 * @param payload the CloudEvents JSON body, identical on every attempt
 */
record Delivery(String deliveryId, String subscriptionId, String eventId, String eventType, String jobId, Status status,
		int attempts, Instant createdAt, Instant nextAttemptAt, Instant lastAttemptAt, Instant deliveredAt,
		Integer lastStatusCode, String lastError, Long lastDurationMs, String payload) {

	enum Status {

		PENDING, DELIVERED, FAILED

	}

	static String idOf(String eventId, String subscriptionId) {
		return eventId + "~" + subscriptionId;
	}

	static Delivery queued(String eventId, String eventType, String jobId, String subscriptionId, String payload,
			Instant now) {
		return new Delivery(idOf(eventId, subscriptionId), subscriptionId, eventId, eventType, jobId, Status.PENDING, 0,
				now, now, null, null, null, null, null, payload);
	}

	Delivery claimedUntil(Instant until) {
		return new Delivery(this.deliveryId, this.subscriptionId, this.eventId, this.eventType, this.jobId, this.status,
				this.attempts, this.createdAt, until, this.lastAttemptAt, this.deliveredAt, this.lastStatusCode,
				this.lastError, this.lastDurationMs, this.payload);
	}

	/**
	 * After an attempt: {@code status} with the attempt counted, due again at
	 * {@code nextAttemptAt} when still PENDING.
	 */
	Delivery attempted(Status status, Instant attemptAt, Instant nextAttemptAt, Integer statusCode, String error,
			long durationMs) {
		return new Delivery(this.deliveryId, this.subscriptionId, this.eventId, this.eventType, this.jobId, status,
				this.attempts + 1, this.createdAt, (status == Status.PENDING) ? nextAttemptAt : null, attemptAt,
				(status == Status.DELIVERED) ? attemptAt : null, statusCode, error, durationMs, this.payload);
	}

	/** Closed without an attempt (its subscription is gone). */
	Delivery abandoned(String reason) {
		return new Delivery(this.deliveryId, this.subscriptionId, this.eventId, this.eventType, this.jobId,
				Status.FAILED, this.attempts, this.createdAt, null, this.lastAttemptAt, null, this.lastStatusCode,
				reason, this.lastDurationMs, this.payload);
	}

}
