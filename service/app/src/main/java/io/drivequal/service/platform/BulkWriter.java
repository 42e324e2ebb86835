/*
 * Sends one bulk request and sorts its failures: overload and outages are retryable (thrown), a
 * document refused for good is reported as a rejection, and version conflicts that mean "a newer
 * document is already there" (external versioning) are success.
 */
package io.drivequal.service.platform;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch.core.BulkResponse;
import co.elastic.clients.elasticsearch.core.bulk.BulkOperation;
import co.elastic.clients.elasticsearch.core.bulk.BulkResponseItem;

import org.springframework.stereotype.Component;

@Component
public class BulkWriter {

	private final ElasticsearchClient client;

	BulkWriter(ElasticsearchClient client) {
		this.client = client;
	}

	/**
	 * @param staleIsSuccess treat 409 version conflicts as done (the operations carry
	 * external versions, so a conflict means a newer document already won)
	 * @return the first document Elasticsearch refused for good, by its position in
	 * {@code operations}
	 * @throws TransientIndexingException when a document should be retried
	 * @throws UncheckedIOException when Elasticsearch cannot be reached
	 */
	public Optional<PoisonAwareBatch.Rejection> write(List<BulkOperation> operations, boolean staleIsSuccess) {
		if (operations.isEmpty()) {
			return Optional.empty();
		}
		BulkResponse response;
		try {
			response = this.client.bulk((bulk) -> bulk.operations(operations));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Elasticsearch bulk request failed", ex);
		}
		if (!response.errors()) {
			return Optional.empty();
		}
		List<BulkResponseItem> items = response.items();
		for (BulkResponseItem item : items) {
			if (item.error() != null && (item.status() == 429 || item.status() >= 500)) {
				throw new TransientIndexingException(
						"Elasticsearch deferred " + item.id() + ": " + item.status() + " " + item.error().reason());
			}
		}
		for (int i = 0; i < items.size(); i++) {
			BulkResponseItem item = items.get(i);
			if (item.error() != null && !(staleIsSuccess && item.status() == 409)) {
				return Optional.of(new PoisonAwareBatch.Rejection(i, "Elasticsearch rejected document " + item.id()
						+ " of " + item.index() + ": " + item.error().type() + ": " + item.error().reason()));
			}
		}
		return Optional.empty();
	}

}
