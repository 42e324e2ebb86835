/*
 * Consumes per-second samples in batches. The container commits a batch's offsets only after this
 * method returns, i.e. after Elasticsearch acknowledged every sample of it: a crash replays, and
 * the deterministic ids make the replay harmless.
 */
package io.drivequal.service.ingest;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.drivequal.schemas.Contracts;
import io.drivequal.schemas.MessageType;
import io.drivequal.schemas.Validation;
import io.drivequal.service.platform.InvalidMessageException;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.stereotype.Component;

@Component
class SampleListener {

	private final Contracts contracts;

	private final SampleIndexer indexer;

	private final IngestSettings settings;

	SampleListener(Contracts contracts, SampleIndexer indexer, IngestSettings settings) {
		this.contracts = contracts;
		this.indexer = indexer;
		this.settings = settings;
	}

	@KafkaListener(id = "drivequal-samples", groupId = "drivequal-service-samples",
			topics = "#{@contracts.topicCarrying(T(io.drivequal.schemas.MessageType).SAMPLE).name()}", batch = "true")
	void onSamples(List<ConsumerRecord<String, byte[]>> records) {
		List<SampleMessage> decoded = new ArrayList<>(records.size());
		for (ConsumerRecord<String, byte[]> record : records) {
			try {
				decoded.add(decode(record));
			}
			catch (InvalidMessageException ex) {
				// Index what precedes the poison record, so committing up to it loses
				// nothing.
				indexOrFail(decoded, records);
				throw new BatchListenerFailedException(ex.getMessage(), ex, record);
			}
		}
		indexOrFail(decoded, records);
	}

	private void indexOrFail(List<SampleMessage> decoded, List<ConsumerRecord<String, byte[]>> records) {
		Optional<SampleIndexer.Rejection> rejection = this.indexer.index(decoded);
		if (rejection.isPresent()) {
			InvalidMessageException poison = new InvalidMessageException(rejection.get().reason());
			throw new BatchListenerFailedException(poison.getMessage(), poison,
					records.get(rejection.get().batchIndex()));
		}
	}

	SampleMessage decode(ConsumerRecord<String, byte[]> record) {
		byte[] value = record.value();
		if (value == null) {
			throw new InvalidMessageException("sample has no value (tombstone)");
		}
		if (value.length > this.settings.maxSampleSize().toBytes()) {
			throw new InvalidMessageException(
					"sample of " + value.length + " bytes exceeds " + this.settings.maxSampleSize());
		}
		Validation validation = this.contracts.validate(MessageType.SAMPLE, value);
		if (!validation.valid()) {
			throw new InvalidMessageException("sample violates schema: " + validation.summary());
		}
		SampleMessage sample = this.contracts.mapper().treeToValue(validation.message(), SampleMessage.class);
		if (record.key() != null && !record.key().equals(sample.jobId())) {
			throw new InvalidMessageException(
					"sample key " + record.key() + " is not its jobId " + sample.jobId() + " (breaks per-job order)");
		}
		return sample;
	}

}
