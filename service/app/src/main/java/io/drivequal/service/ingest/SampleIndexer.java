/*
 * Writes a batch of samples as one bulk request into the monthly sample indices, each under its
 * deterministic id, so redelivered samples overwrite themselves.
 */
package io.drivequal.service.ingest;

import java.util.List;
import java.util.Optional;

import co.elastic.clients.elasticsearch.core.bulk.BulkOperation;
import io.drivequal.service.platform.BulkWriter;
import io.drivequal.service.platform.PoisonAwareBatch;

import org.springframework.stereotype.Component;

@Component
class SampleIndexer {

	private final BulkWriter writer;

	SampleIndexer(BulkWriter writer) {
		this.writer = writer;
	}

	/**
	 * Returns when Elasticsearch acknowledged every sample, or with the first one it
	 * refused for good; throws when the batch should be retried (see {@link BulkWriter}).
	 */
	Optional<PoisonAwareBatch.Rejection> index(List<SampleMessage> samples) {
		List<BulkOperation> operations = samples.stream()
			.map((sample) -> BulkOperation.of((op) -> op.index((index) -> index.index(SampleDocument.indexFor(sample))
				.id(sample.documentId())
				.document(SampleDocument.of(sample)))))
			.toList();
		return this.writer.write(operations, false);
	}

}
