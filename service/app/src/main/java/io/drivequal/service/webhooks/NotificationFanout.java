/*
 * Turns job changes into queued deliveries: one per subscription that wants the change, stored
 * before anything is sent. Fed by the QualificationChanged events of this replica's writes and, as
 * a backstop, by a periodic catch-up over the jobs changed within the replay window, whose
 * deliveries already queued are recognised by their id and not queued twice.
 */
package io.drivequal.service.webhooks;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import io.drivequal.service.campaigns.CampaignChanged;
import io.drivequal.service.campaigns.CampaignChanges;
import io.drivequal.service.qualification.QualificationChanged;
import io.drivequal.service.qualification.QualificationChanges;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.annotation.Profile;
import org.springframework.context.event.EventListener;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

@Component
@Profile("!setup")
class NotificationFanout {

	private static final Logger log = LoggerFactory.getLogger(NotificationFanout.class);

	/** Jobs looked at per catch-up round. */
	private static final int REPLAY_BATCH = 2000;

	private final SubscriptionStore subscriptions;

	private final DeliveryStore deliveries;

	private final QualificationChanges changes;

	private final CampaignChanges campaignChanges;

	private final WebhookSettings settings;

	private final Clock clock;

	NotificationFanout(SubscriptionStore subscriptions, DeliveryStore deliveries, QualificationChanges changes,
			CampaignChanges campaignChanges, WebhookSettings settings, Clock clock) {
		this.campaignChanges = campaignChanges;
		this.subscriptions = subscriptions;
		this.deliveries = deliveries;
		this.changes = changes;
		this.settings = settings;
		this.clock = clock;
	}

	/**
	 * In the writer's thread, right after the job's write: must not fail it, so a failure
	 * here only waits for the catch-up.
	 */
	@EventListener
	void onChange(QualificationChanged change) {
		try {
			queue(List.of(change), this.subscriptions.allRecent());
		}
		catch (RuntimeException ex) {
			log.warn("could not queue the notifications of {} {} now ({}); the catch-up will", change.jobId(),
					EventKind.eventId(change), ex.toString());
		}
	}

	/** As {@link #onChange(QualificationChanged)}, for a campaign's change. */
	@EventListener
	void onCampaignChange(CampaignChanged change) {
		try {
			queueCampaigns(List.of(change), this.subscriptions.allRecent());
		}
		catch (RuntimeException ex) {
			log.warn("could not queue the notifications of campaign {} {} now ({}); the catch-up will",
					change.campaignId(), change.eventId(), ex.toString());
		}
	}

	@Scheduled(fixedDelayString = "${drivequal.webhooks.replay-interval:30s}",
			initialDelayString = "${drivequal.webhooks.replay-interval:30s}")
	void catchUp() {
		try {
			List<Subscription> all = this.subscriptions.all();
			if (all.isEmpty()) {
				return;
			}
			Instant since = this.clock.instant().minus(this.settings.replayWindow());
			queue(this.changes.since(since, REPLAY_BATCH), all);
			queueCampaigns(this.campaignChanges.since(since, REPLAY_BATCH), all);
		}
		catch (RuntimeException ex) {
			log.warn("webhook catch-up round failed: {}", ex.toString());
		}
	}

	/**
	 * @return how many deliveries were offered for queueing (already queued included)
	 */
	int queueCampaigns(List<CampaignChanged> changed, List<Subscription> all) {
		return queueNotices(changed.stream()
			.map((change) -> new Notice(change.eventId(), EventKind.of(change), change.campaignId(), change.time(),
					change.submitter(), change.submitterTeams(), () -> CloudEventPayloads.of(change)))
			.toList(), all);
	}

	/**
	 * @return how many deliveries were offered for queueing (already queued included)
	 */
	int queue(List<QualificationChanged> changed, List<Subscription> all) {
		return queueNotices(changed.stream()
			.map((change) -> new Notice(EventKind.eventId(change), EventKind.of(change), change.jobId(), change.time(),
					change.submitter(), change.submitterTeams(), () -> CloudEventPayloads.of(change)))
			.toList(), all);
	}

	/** Each notice to every subscription that wants it, its payload written once. */
	private int queueNotices(List<Notice> notices, List<Subscription> all) {
		if (all.isEmpty()) {
			return 0;
		}
		Instant now = this.clock.instant();
		List<Delivery> queued = new ArrayList<>();
		for (Notice notice : notices) {
			String payload = null;
			for (Subscription subscription : all) {
				if (!subscription.wants(notice.kind(), notice.time(), notice.submitter(), notice.submitterTeams())) {
					continue;
				}
				if (payload == null) {
					payload = notice.payload().get();
				}
				queued.add(Delivery.queued(notice.eventId(), notice.kind().cloudEventType(), notice.subject(),
						subscription.subscriptionId(), payload, now));
			}
		}
		if (!queued.isEmpty()) {
			this.deliveries.enqueue(queued);
		}
		return queued.size();
	}

	/** A job's or a campaign's change as the subscriptions see it. */
	private record Notice(String eventId, EventKind kind, String subject, Instant time, String submitter,
			List<String> submitterTeams, Supplier<String> payload) {
	}

}
