/*
 * Campaigns in Elasticsearch. Every change is a compare-and-set on the document's sequence number
 * and primary term, as for jobs, so replicas that refresh the same campaign cannot both win; the
 * winner announces the change (CampaignChanged) to this replica's listeners.
 */
package io.drivequal.service.campaigns;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.FieldValue;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch._types.query_dsl.BoolQuery;
import co.elastic.clients.elasticsearch.core.SearchRequest;
import co.elastic.clients.elasticsearch.core.SearchResponse;
import co.elastic.clients.json.JsonData;
import co.elastic.clients.util.ObjectBuilder;
import io.drivequal.service.platform.Documents;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

@Component
class CampaignStore {

	static final String INDEX = "drivequal-campaigns";

	private static final int MAX_ATTEMPTS = 20;

	private final ElasticsearchClient client;

	private final ApplicationEventPublisher events;

	CampaignStore(ElasticsearchClient client, ApplicationEventPublisher events) {
		this.client = client;
		this.events = events;
	}

	record Page(long total, List<Campaign> campaigns) {
	}

	/**
	 * @param state, submitter, model, firmware exact filters, each optional
	 */
	record CampaignQuery(CampaignState state, String submitter, String model, String firmware, int page, int size) {
	}

	/** False when a campaign with this id exists already (a repeated Idempotency-Key). */
	boolean create(Campaign campaign) {
		if (!Documents.create(this.client, INDEX, campaign.campaignId(), campaign)) {
			return false;
		}
		this.events.publishEvent(CampaignChanged.of(campaign, null, false));
		return true;
	}

	Optional<Campaign> find(String campaignId) {
		return Documents.get(this.client, INDEX, campaignId, Campaign.class).map((response) -> response.source());
	}

	/**
	 * Applies {@code change} to the current campaign and writes it back if nobody changed
	 * it in between, else re-reads and re-applies; {@code change} returns empty to
	 * decline.
	 * @return the campaign as written, or empty when missing or declined
	 */
	Optional<Campaign> update(String campaignId, Function<Campaign, Optional<Campaign>> change) {
		for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
			var read = Documents.get(this.client, INDEX, campaignId, Campaign.class).orElse(null);
			if (read == null) {
				return Optional.empty();
			}
			Campaign before = read.source();
			Optional<Campaign> changed = change.apply(before);
			if (changed.isEmpty()) {
				return Optional.empty();
			}
			if (Documents.writeIfUnchanged(this.client, INDEX, campaignId, read.seqNo(), read.primaryTerm(),
					changed.get())) {
				announce(before, changed.get());
				return changed;
			}
		}
		throw new IllegalStateException(
				"campaign " + campaignId + " kept changing under " + MAX_ATTEMPTS + " attempts");
	}

	private void announce(Campaign before, Campaign after) {
		if (before.state() != after.state() || after.reruns() != before.reruns()) {
			this.events.publishEvent(CampaignChanged.of(after, before.state(), false));
		}
		if (before.verdict() == null && after.verdict() != null) {
			this.events.publishEvent(CampaignChanged.of(after, before.state(), true));
		}
	}

	Page search(CampaignQuery query) {
		BoolQuery.Builder filters = new BoolQuery.Builder();
		if (query.state() != null) {
			filters.filter(Documents.term("state", query.state().name()));
		}
		if (query.submitter() != null) {
			filters.filter(Documents.term("submitter", query.submitter()));
		}
		if (query.model() != null) {
			filters.filter(Documents.term("model.model", query.model()));
		}
		if (query.firmware() != null) {
			filters.filter(Documents.term("model.firmware", query.firmware()));
		}
		SearchResponse<Campaign> response = search((search) -> search.query((q) -> q.bool(filters.build()))
			.from(query.page() * query.size())
			.size(query.size())
			.trackTotalHits((total) -> total.enabled(true))
			.sort((sort) -> sort.field((field) -> field.field("createdAt").order(SortOrder.Desc))));
		long total = (response.hits().total() != null) ? response.hits().total().value() : 0;
		return new Page(total, Documents.sources(response));
	}

	/** Campaigns not yet COMPLETED or CANCELLED, oldest first. */
	List<Campaign> active(int limit) {
		List<FieldValue> states = List.of(FieldValue.of(CampaignState.QUEUED.name()),
				FieldValue.of(CampaignState.RUNNING.name()));
		return Documents.sources(search(
				(search) -> search.query((q) -> q.terms((terms) -> terms.field("state").terms((t) -> t.value(states))))
					.size(limit)
					.sort((sort) -> sort.field((field) -> field.field("createdAt").order(SortOrder.Asc)))));
	}

	/**
	 * Campaigns whose document changed at or after {@code since}, oldest change first.
	 */
	List<Campaign> updatedSince(Instant since, int limit) {
		return Documents.sources(search((search) -> search
			.query((q) -> q.range((range) -> range
				.untyped((untyped) -> untyped.field("updatedAt").gte(JsonData.of(since.toString())))))
			.size(limit)
			.sort((sort) -> sort.field((field) -> field.field("updatedAt").order(SortOrder.Asc)))));
	}

	private SearchResponse<Campaign> search(Function<SearchRequest.Builder, ObjectBuilder<SearchRequest>> request) {
		return Documents.search(this.client, INDEX, Campaign.class, request);
	}

}
