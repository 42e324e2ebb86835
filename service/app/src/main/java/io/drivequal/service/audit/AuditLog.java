/*
 * Writes and searches the audit trail. Append-only: an entry is created with op_type=create under
 * a fresh id, and nothing in the service updates or deletes one; a month's entries live in their
 * own index, so retention deletes whole months (docs/operations.md).
 */
package io.drivequal.service.audit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch._types.query_dsl.BoolQuery;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.SearchResponse;
import co.elastic.clients.elasticsearch.core.search.Hit;
import co.elastic.clients.json.JsonData;

import org.springframework.stereotype.Component;

@Component
class AuditLog {

	static final String INDEX_PREFIX = "drivequal-audit-";

	private static final DateTimeFormatter MONTH = DateTimeFormatter.ofPattern("yyyy.MM").withZone(ZoneOffset.UTC);

	private final ElasticsearchClient client;

	AuditLog(ElasticsearchClient client) {
		this.client = client;
	}

	/**
	 * @param actor, action, outcome, target, clientAddress exact filters, each optional;
	 * clientAddress may be a CIDR block
	 * @param from, to bounds on the entry's time, each optional
	 */
	record AuditQuery(String actor, String action, String outcome, String target, String clientAddress, Instant from,
			Instant to, int page, int size) {
	}

	record Page(long total, List<AuditEntry> entries) {
	}

	/**
	 * Appends {@code entry}; a second write of the same id is refused by Elasticsearch.
	 */
	void append(AuditEntry entry) {
		try {
			this.client.create((create) -> create.index(INDEX_PREFIX + MONTH.format(entry.timestamp()))
				.id(entry.entryId())
				.document(entry));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	Page search(AuditQuery query) {
		BoolQuery.Builder filters = new BoolQuery.Builder();
		term(filters, "actor", query.actor());
		term(filters, "action", query.action());
		term(filters, "outcome", query.outcome());
		term(filters, "target", query.target());
		term(filters, "clientAddress", query.clientAddress());
		if (query.from() != null || query.to() != null) {
			filters.filter((q) -> q.range((range) -> range.untyped((untyped) -> {
				untyped.field("@timestamp");
				if (query.from() != null) {
					untyped.gte(JsonData.of(query.from().toString()));
				}
				if (query.to() != null) {
					untyped.lt(JsonData.of(query.to().toString()));
				}
				return untyped;
			})));
		}
		try {
			SearchResponse<AuditEntry> response = this.client.search(
					(search) -> search.index(INDEX_PREFIX + "*")
						.ignoreUnavailable(true)
						.allowNoIndices(true)
						.query((q) -> q.bool(filters.build()))
						.from(query.page() * query.size())
						.size(query.size())
						.trackTotalHits((total) -> total.enabled(true))
						.sort((sort) -> sort.field((field) -> field.field("@timestamp").order(SortOrder.Desc)))
						.sort((sort) -> sort.field((field) -> field.field("entryId").order(SortOrder.Asc))),
					AuditEntry.class);
			long total = (response.hits().total() != null) ? response.hits().total().value() : 0;
			return new Page(total, response.hits().hits().stream().map(Hit::source).toList());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static void term(BoolQuery.Builder filters, String field, String value) {
		if (value != null && !value.isBlank()) {
			filters.filter(Query.of((q) -> q.term((term) -> term.field(field).value(value))));
		}
	}

}
