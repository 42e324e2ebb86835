/*
 * Writes a batch of samples as one bulk request into the sample indices of their time (a month,
 * day or hour each), each under its deterministic id, so redelivered samples overwrite themselves.
 */
package io.drivequal.service.ingest;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import co.elastic.clients.elasticsearch.core.bulk.BulkOperation;
import io.drivequal.service.platform.BulkWriter;
import io.drivequal.service.platform.PoisonAwareBatch;

import org.springframework.stereotype.Component;

@Component
public class SampleIndexer {

	private static final int IMPORT_BATCH = 2000;

	private final BulkWriter writer;

	private final JobLabels labels;

	private final SampleIndexPeriod period;

	SampleIndexer(BulkWriter writer, JobLabels labels, IngestSettings settings) {
		this.writer = writer;
		this.labels = labels;
		this.period = settings.sampleIndexPeriod();
	}

	/**
	 * Returns when Elasticsearch acknowledged every sample, or with the first one it
	 * refused for good; throws when the batch should be retried (see {@link BulkWriter}).
	 */
	Optional<PoisonAwareBatch.Rejection> index(List<SampleMessage> samples) {
		Map<String, DriveLabels> drives = this.labels.of(samples.stream().map(SampleMessage::jobId).toList());
		return write(samples, (jobId) -> drives.get(jobId));
	}

	private Optional<PoisonAwareBatch.Rejection> write(List<SampleMessage> samples,
			Function<String, DriveLabels> drives) {
		List<BulkOperation> operations = samples.stream()
			.map((sample) -> BulkOperation
				.of((op) -> op.index((index) -> index.index(SampleDocument.indexFor(sample, this.period))
					.id(sample.documentId())
					.document(SampleDocument.of(sample, drives.apply(sample.jobId()))))))
			.toList();
		return this.writer.write(operations, false);
	}

	/**
	 * Indexes samples that did not come from a runner (an import of a vendor's fio logs)
	 * into the same indices under the same ids as runner samples.
	 * @throws IllegalStateException when Elasticsearch refuses one
	 */
	public void indexImported(String jobId, String runnerId, String serial, DriveLabels drive,
			List<SamplePoint> points) {
		List<SampleMessage> samples = points.stream()
			.map((point) -> new SampleMessage(1, jobId, runnerId, serial, point.phaseIndex(), point.phaseName(),
					point.t(), point.timeMs(), direction(point.readIops(), point.readBytes(), point.readLatencyNs()),
					direction(point.writeIops(), point.writeBytes(), point.writeLatencyNs()), null))
			.toList();
		for (int from = 0; from < samples.size(); from += IMPORT_BATCH) {
			write(samples.subList(from, Math.min(samples.size(), from + IMPORT_BATCH)), (job) -> drive)
				.ifPresent((rejection) -> {
					throw new IllegalStateException(rejection.reason());
				});
		}
	}

	private static SampleMessage.Direction direction(long ios, long bytes, SamplePoint.Latency latency) {
		return new SampleMessage.Direction(ios, bytes, (latency != null)
				? new SampleMessage.LatencyNs(latency.p50(), latency.p99(), latency.p999(), latency.max()) : null);
	}

}
