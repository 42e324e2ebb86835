/*
 * Subscriptions in Elasticsearch. Few (bounded per owner), so matching an event reads them all and
 * decides in Java; a search per job change is cheap next to the change itself.
 */
package io.drivequal.service.webhooks;

import java.io.IOException;
import java.io.UncheckedIOException;
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

	private final ElasticsearchClient client;

	SubscriptionStore(ElasticsearchClient client) {
		this.client = client;
	}

	void create(Subscription subscription) {
		try {
			this.client.create((create) -> create.index(INDEX)
				.id(subscription.subscriptionId())
				.document(subscription)
				.refresh(co.elastic.clients.elasticsearch._types.Refresh.WaitFor));
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
