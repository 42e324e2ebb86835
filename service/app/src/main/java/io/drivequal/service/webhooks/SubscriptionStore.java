/*
 * Subscriptions in Elasticsearch. Few (bounded per owner), so matching an event reads them all and
 * decides in Java. A lab changes hundreds of jobs a second when it starts a fleet, so the fanout
 * reads them through a one-second cache rather than with a search per change; the catch-up
 * (NotificationFanout) covers a subscription created on another replica within that second.
 */
package io.drivequal.service.webhooks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch.core.GetResponse;
import co.elastic.clients.elasticsearch.core.search.Hit;
import io.drivequal.service.platform.Documents;

import org.springframework.stereotype.Component;

@Component
class SubscriptionStore {

	static final String INDEX = "drivequal-webhook-subscriptions";

	/** More than any deployment holds (maxSubscriptionsPerOwner per user and team). */
	private static final int ALL = 10000;

	/** How long the fanout may use a listing it read before. */
	static final Duration RECENT = Duration.ofSeconds(1);

	private final ElasticsearchClient client;

	private final Clock clock;

	private volatile Listing recent;

	SubscriptionStore(ElasticsearchClient client, Clock clock) {
		this.client = client;
		this.clock = clock;
	}

	private record Listing(List<Subscription> subscriptions, Instant readAt) {
	}

	void create(Subscription subscription) {
		try {
			this.client.create((create) -> create.index(INDEX)
				.id(subscription.subscriptionId())
				.document(subscription)
				.refresh(co.elastic.clients.elasticsearch._types.Refresh.WaitFor));
			this.recent = null;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	Optional<Subscription> find(String subscriptionId) {
		return Documents.get(this.client, INDEX, subscriptionId, Subscription.class).map(GetResponse::source);
	}

	/**
	 * @return false when it was not there
	 */
	boolean delete(String subscriptionId) {
		this.recent = null;
		try {
			return this.client
				.delete((delete) -> delete.index(INDEX)
					.id(subscriptionId)
					.refresh(co.elastic.clients.elasticsearch._types.Refresh.WaitFor))
				.result() == co.elastic.clients.elasticsearch._types.Result.Deleted;
		}
		catch (ElasticsearchException ex) {
			if (ex.status() == 404) {
				return false;
			}
			throw ex;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Every subscription, as read at most {@link #RECENT} ago (or just now, after this
	 * replica created or deleted one).
	 */
	List<Subscription> allRecent() {
		Listing listing = this.recent;
		Instant now = this.clock.instant();
		if (listing == null || listing.readAt().isBefore(now.minus(RECENT)) || listing.readAt().isAfter(now)) {
			listing = new Listing(all(), now);
			this.recent = listing;
		}
		return listing.subscriptions();
	}

	/** Every subscription, newest first. */
	List<Subscription> all() {
		try {
			return this.client
				.search((search) -> search.index(INDEX)
					.ignoreUnavailable(true)
					.allowNoIndices(true)
					.size(ALL)
					.sort((sort) -> sort.field((field) -> field.field("createdAt").order(SortOrder.Desc))),
						Subscription.class)
				.hits()
				.hits()
				.stream()
				.map(Hit::source)
				.toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Subscriptions held by {@code owner} as a user (team null) or by {@code team}. */
	long countHeldBy(String owner, String team) {
		return all().stream()
			.filter((s) -> (team == null) ? (s.team() == null && owner.equals(s.owner())) : team.equals(s.team()))
			.count();
	}

}
