/*
 * Writes a batch of samples with one bulk request and reports which documents Elasticsearch refused
 * for good, so only those are dead-lettered; overload and outages surface as retryable errors.
 */
package io.drivequal.service.ingest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch.core.BulkRequest;
import co.elastic.clients.elasticsearch.core.BulkResponse;
import co.elastic.clients.elasticsearch.core.bulk.BulkResponseItem;

import org.springframework.stereotype.Component;

@Component
class SampleIndexer {

	/**
	 * A document Elasticsearch rejected for good (e.g. the strict mapping refused it).
	 */
	record Rejection(int batchIndex, String reason) {
	}

	private final ElasticsearchClient client;

	SampleIndexer(ElasticsearchClient client) {
		this.client = client;
	}

	/**
	 * Indexes the batch; returns when Elasticsearch acknowledged every document or
	 * refused one permanently (the first such refusal is returned).
	 * @throws TransientIndexingException when a document should be retried
	 * @throws UncheckedIOException when Elasticsearch cannot be reached
	 */
	Optional<Rejection> index(List<SampleMessage> samples) {
		if (samples.isEmpty()) {
			return Optional.empty();
		}
		BulkRequest.Builder bulk = new BulkRequest.Builder();
		for (SampleMessage sample : samples) {
			bulk.operations((op) -> op.index((index) -> index.index(SampleDocument.indexFor(sample))
				.id(sample.documentId())
				.document(SampleDocument.of(sample))));
		}
		BulkResponse response;
		try {
			response = this.client.bulk(bulk.build());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Elasticsearch bulk request failed", ex);
		}
		if (!response.errors()) {
			return Optional.empty();
		}
		List<BulkResponseItem> items = response.items();
		for (BulkResponseItem item : items) {
			if (item.error() != null && isTransient(item.status())) {
				throw new TransientIndexingException(
						"Elasticsearch deferred " + item.id() + ": " + item.status() + " " + item.error().reason());
			}
		}
		for (int i = 0; i < items.size(); i++) {
			BulkResponseItem item = items.get(i);
			if (item.error() != null) {
				return Optional.of(new Rejection(i, "Elasticsearch rejected document " + item.id() + ": "
						+ item.error().type() + ": " + item.error().reason()));
			}
		}
		return Optional.empty();
	}

	private static boolean isTransient(int status) {
		return status == 429 || status >= 500;
	}

}
