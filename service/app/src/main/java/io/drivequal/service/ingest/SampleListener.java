/*
 * Consumes per-second samples in batches. The container commits a batch's offsets only after this
 * method returns, i.e. after Elasticsearch acknowledged every sample of it: a crash replays, and
 * the deterministic ids make the replay harmless.
 */
package io.drivequal.service.ingest;

import java.util.List;

import io.drivequal.schemas.MessageType;
import io.drivequal.service.platform.InvalidMessageException;
import io.drivequal.service.platform.MessageDecoder;
import io.drivequal.service.platform.PoisonAwareBatch;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

@Component
class SampleListener {

	private final MessageDecoder decoder;

	private final SampleIndexer indexer;

	private final IngestSettings settings;

	SampleListener(MessageDecoder decoder, SampleIndexer indexer, IngestSettings settings) {
		this.decoder = decoder;
		this.indexer = indexer;
		this.settings = settings;
	}

	@KafkaListener(id = "drivequal-samples", groupId = "drivequal-service-samples",
			topics = "#{@contracts.topicCarrying(T(io.drivequal.schemas.MessageType).SAMPLE).name()}", batch = "true")
	void onSamples(List<ConsumerRecord<String, byte[]>> records) {
		PoisonAwareBatch.process(records, this::decode, this.indexer::index);
	}

	SampleMessage decode(ConsumerRecord<String, byte[]> record) {
		SampleMessage sample = this.decoder.decode(record, MessageType.SAMPLE, this.settings.maxSampleSize(),
				SampleMessage.class);
		if (record.key() != null && !record.key().equals(sample.jobId())) {
			throw new InvalidMessageException(
					"sample key " + record.key() + " is not its jobId " + sample.jobId() + " (breaks per-job order)");
		}
		return sample;
	}

}
