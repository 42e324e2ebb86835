/*
 * Sends what is due. Every poll claims due deliveries (a compare-and-set that moves their due time
 * past one attempt's bounds) and hands them to a fixed pool of deliveryThreads workers; a
 * subscription has at most one delivery in flight per replica, so a slow or dead receiver ties up
 * one worker and every other subscription keeps being served. After an attempt the delivery is
 * DELIVERED, due again after an exponential backoff with jitter, or FAILED once maxAttempts are
 * spent. Claims and results live in Elasticsearch, so a restarted replica picks up where it was.
 */
package io.drivequal.service.webhooks;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.annotation.Profile;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

@Component
@Profile("!setup")
class DeliveryWorker implements DisposableBean {

	private static final Logger log = LoggerFactory.getLogger(DeliveryWorker.class);

	private final DeliveryStore deliveries;

	private final SubscriptionStore subscriptions;

	private final WebhookSender sender;

	private final WebhookSettings settings;

	private final Clock clock;

	private final ExecutorService workers;

	private final Semaphore freeWorkers;

	private final Set<String> subscriptionsInFlight = ConcurrentHashMap.newKeySet();

	DeliveryWorker(DeliveryStore deliveries, SubscriptionStore subscriptions, WebhookSender sender,
			WebhookSettings settings, Clock clock) {
		this.deliveries = deliveries;
		this.subscriptions = subscriptions;
		this.sender = sender;
		this.settings = settings;
		this.clock = clock;
		if (settings.deliveryThreads() < 1) {
			throw new IllegalStateException("drivequal.webhooks.delivery-threads must be at least 1");
		}
		AtomicInteger number = new AtomicInteger();
		this.workers = Executors.newFixedThreadPool(settings.deliveryThreads(), (task) -> {
			Thread thread = new Thread(task, "webhook-delivery-" + number.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		});
		this.freeWorkers = new Semaphore(settings.deliveryThreads());
	}

	@Scheduled(fixedDelayString = "${drivequal.webhooks.poll-interval:1s}")
	void poll() {
		try {
			dispatchDue();
		}
		catch (RuntimeException ex) {
			// Elasticsearch unavailable: the deliveries wait in it; the next poll
			// retries.
			log.warn("webhook delivery poll failed: {}", ex.toString());
		}
	}

	void dispatchDue() {
		if (this.freeWorkers.availablePermits() == 0) {
			return;
		}
		Instant now = this.clock.instant();
		for (DeliveryStore.Versioned due : this.deliveries.due(now, this.settings.deliveryThreads() * 8)) {
			String subscriptionId = due.delivery().subscriptionId();
			if (!this.subscriptionsInFlight.add(subscriptionId)) {
				continue;
			}
			if (!this.freeWorkers.tryAcquire()) {
				this.subscriptionsInFlight.remove(subscriptionId);
				return;
			}
			Optional<DeliveryStore.Versioned> claimed = this.deliveries.replace(due,
					due.delivery().claimedUntil(now.plus(this.settings.claimTimeout())));
			if (claimed.isEmpty()) {
				release(subscriptionId);
				continue;
			}
			this.workers.execute(() -> {
				try {
					attempt(claimed.get());
				}
				catch (RuntimeException ex) {
					log.warn("webhook delivery {} attempt failed to complete: {}", due.delivery().deliveryId(),
							ex.toString());
				}
				finally {
					release(subscriptionId);
				}
			});
		}
	}

	private void release(String subscriptionId) {
		this.subscriptionsInFlight.remove(subscriptionId);
		this.freeWorkers.release();
	}

	void attempt(DeliveryStore.Versioned claimed) {
		Delivery delivery = claimed.delivery();
		Optional<Subscription> subscription = this.subscriptions.find(delivery.subscriptionId());
		if (subscription.isEmpty()) {
			this.deliveries.replace(claimed, delivery.abandoned("the subscription was deleted"));
			return;
		}
		Instant attemptAt = this.clock.instant();
		WebhookSender.Outcome outcome = this.sender.send(subscription.get(), delivery);
		if (Thread.currentThread().isInterrupted()) {
			// Stopping: not an attempt the receiver judged; due again at once for whoever
			// polls next.
			this.deliveries.replace(claimed, delivery.claimedUntil(attemptAt));
			return;
		}
		int attempts = delivery.attempts() + 1;
		Delivery after;
		if (outcome.delivered()) {
			after = delivery.attempted(Delivery.Status.DELIVERED, attemptAt, null, outcome.statusCode(), null,
					outcome.durationMs());
			log.info("webhook {} delivered to subscription {} (attempt {}, HTTP {}, {} ms)", delivery.eventId(),
					delivery.subscriptionId(), attempts, outcome.statusCode(), outcome.durationMs());
		}
		else if (attempts >= this.settings.maxAttempts()) {
			after = delivery.attempted(Delivery.Status.FAILED, attemptAt, null, outcome.statusCode(), outcome.error(),
					outcome.durationMs());
			log.warn("webhook {} to subscription {} given up after {} attempts: {}", delivery.eventId(),
					delivery.subscriptionId(), attempts, outcome.error());
		}
		else {
			Instant next = this.clock.instant().plus(withJitter(this.settings.backoffAfter(attempts)));
			after = delivery.attempted(Delivery.Status.PENDING, attemptAt, next, outcome.statusCode(), outcome.error(),
					outcome.durationMs());
			log.info("webhook {} to subscription {} failed (attempt {} of {}: {}); next attempt at {}",
					delivery.eventId(), delivery.subscriptionId(), attempts, this.settings.maxAttempts(),
					outcome.error(), next);
		}
		if (this.deliveries.replace(claimed, after).isEmpty()) {
			log.warn("webhook delivery {} was taken over by another replica during its attempt", delivery.deliveryId());
		}
	}

	/**
	 * Up to a quarter more, so receivers coming back are not hit by every retry at once.
	 */
	private static Duration withJitter(Duration wait) {
		long millis = wait.toMillis();
		return Duration.ofMillis(millis + ThreadLocalRandom.current().nextLong(millis / 4 + 1));
	}

	@Override
	public void destroy() throws InterruptedException {
		this.workers.shutdownNow();
		this.workers.awaitTermination(5, TimeUnit.SECONDS);
	}

}
