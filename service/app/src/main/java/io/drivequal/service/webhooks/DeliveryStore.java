/*
 * Deliveries in Elasticsearch: queued with op_type=create (an event is queued once per
 * subscription however often it is announced), claimed and completed with compare-and-set on the
 * document's version, so two replicas never run the same attempt and a replica that died
 * mid-attempt leaves a claim that expires.
 */
package io.drivequal.service.webhooks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch._types.query_dsl.BoolQuery;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.SearchResponse;
import co.elastic.clients.elasticsearch.core.bulk.BulkOperation;
import co.elastic.clients.json.JsonData;
import io.drivequal.service.platform.BulkWriter;
import io.drivequal.service.platform.Documents;

import org.springframework.stereotype.Component;

@Component
class DeliveryStore {

	static final String INDEX = "drivequal-webhook-deliveries";

	private final ElasticsearchClient client;

	private final BulkWriter writer;

	DeliveryStore(ElasticsearchClient client, BulkWriter writer) {
		this.client = client;
		this.writer = writer;
	}

	record Versioned(Delivery delivery, long seqNo, long primaryTerm) {
	}

	record Page(long total, List<Delivery> deliveries) {
	}

	/**
	 * Queues each delivery unless it is already queued (same event, same subscription).
	 * @throws IllegalStateException when Elasticsearch refuses one for good
	 */
	void enqueue(List<Delivery> deliveries) {
		List<BulkOperation> creates = deliveries.stream()
			.map((delivery) -> BulkOperation
				.of((op) -> op.create((create) -> create.index(INDEX).id(delivery.deliveryId()).document(delivery))))
			.toList();
		// A conflict is the same delivery queued before: done, not an error.
		this.writer.write(creates, true).ifPresent((rejection) -> {
			throw new IllegalStateException(rejection.reason());
		});
	}

	/** PENDING deliveries due at {@code now}, the longest waiting first. */
	List<Versioned> due(Instant now, int limit) {
		SearchResponse<Delivery> response = search((search) -> search
			.query((q) -> q.bool((bool) -> bool.filter(term("status", Delivery.Status.PENDING.name()))
				.filter((f) -> f.range((range) -> range
					.untyped((untyped) -> untyped.field("nextAttemptAt").lte(JsonData.of(now.toString())))))))
			.seqNoPrimaryTerm(true)
			.size(limit)
			.sort((sort) -> sort.field((field) -> field.field("nextAttemptAt").order(SortOrder.Asc))));
		return response.hits()
			.hits()
			.stream()
			.map((hit) -> new Versioned(hit.source(), hit.seqNo(), hit.primaryTerm()))
			.toList();
	}

	/**
	 * Writes {@code changed} over {@code read} if nobody wrote the delivery since.
	 * @return the new version, or empty when another replica got there first
	 */
	Optional<Versioned> replace(Versioned read, Delivery changed) {
		try {
			var response = this.client.index((index) -> index.index(INDEX)
				.id(changed.deliveryId())
				.ifSeqNo(read.seqNo())
				.ifPrimaryTerm(read.primaryTerm())
				.document(changed));
			return Optional.of(new Versioned(changed, response.seqNo(), response.primaryTerm()));
		}
		catch (ElasticsearchException | IOException ex) {
			if (Documents.isConflict(ex)) {
				return Optional.empty();
			}
			throw (ex instanceof RuntimeException runtime) ? runtime : new UncheckedIOException((IOException) ex);
		}
	}

	/** A subscription's delivery log, newest first, optionally of one status. */
	Page log(String subscriptionId, Delivery.Status status, int page, int size) {
		BoolQuery.Builder filters = new BoolQuery.Builder().filter(term("subscriptionId", subscriptionId));
		if (status != null) {
			filters.filter(term("status", status.name()));
		}
		SearchResponse<Delivery> response = search((search) -> search.query((q) -> q.bool(filters.build()))
			.from(page * size)
			.size(size)
			.trackTotalHits((total) -> total.enabled(true))
			.sort((sort) -> sort.field((field) -> field.field("createdAt").order(SortOrder.Desc)))
			.sort((sort) -> sort.field((field) -> field.field("deliveryId").order(SortOrder.Asc))));
		long total = (response.hits().total() != null) ? response.hits().total().value() : 0;
		return new Page(total, response.hits().hits().stream().map((hit) -> hit.source()).toList());
	}

	private SearchResponse<Delivery> search(
			java.util.function.Function<co.elastic.clients.elasticsearch.core.SearchRequest.Builder, co.elastic.clients.util.ObjectBuilder<co.elastic.clients.elasticsearch.core.SearchRequest>> request) {
		try {
			return this.client.search(
					(search) -> request.apply(search.index(INDEX).ignoreUnavailable(true).allowNoIndices(true)),
					Delivery.class);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static Query term(String field, String value) {
		return Query.of((q) -> q.term((term) -> term.field(field).value(value)));
	}

}
