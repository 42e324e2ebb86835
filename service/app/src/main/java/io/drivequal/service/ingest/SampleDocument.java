/*
 * A sample as stored in Elasticsearch (schemas/elasticsearch/index-templates/drivequal-samples.json):
 * the message plus the fields charts and Kibana need directly (IOPS, MB/s, @timestamp, the drive's
 * model, firmware and whether it is simulated, the effective queue depth as a plain number), and in
 * a multi-stream phase the trims and each stream's second (totalIops stays reads plus writes). On a
 * simulated clock: when the runner sent it (wallMs) and its clock's rate as a plain number (the ETA
 * reads them).
 */
package io.drivequal.service.ingest;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

@JsonInclude(JsonInclude.Include.NON_NULL)
record SampleDocument(@JsonProperty("@timestamp") long timestampMs, String jobId, String runnerId, String deviceSerial,
		String driveModel, String firmware, Boolean simulated, int phaseIndex, String phaseName, int t, long totalIops,
		DirectionDocument read, DirectionDocument write, Double effectiveQueueDepth, Integer round, Integer step,
		Long wallMs, Double clockRate, DirectionDocument trim, List<StreamDocument> streams) {

	static final String INDEX_PREFIX = "drivequal-samples-";

	@JsonInclude(JsonInclude.Include.NON_NULL)
	record DirectionDocument(long iops, long bytes, double mbPerS, SampleMessage.LatencyNs latencyNs) {

		/** A sample covers exactly one second, so its IO count is its IOPS. */
		static DirectionDocument of(SampleMessage.Direction direction) {
			return new DirectionDocument(direction.ios(), direction.bytes(), direction.bytes() / 1e6,
					direction.latencyNs());
		}

	}

	/**
	 * One stream's second: offered and achieved IOPS (per direction), service and, for an
	 * open loop, response time percentiles.
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	record StreamDocument(int index, Long offeredIops, long achievedIops, StreamDirectionDocument read,
			StreamDirectionDocument write, StreamDirectionDocument trim) {

		static StreamDocument of(SampleMessage.StreamSecond stream) {
			return new StreamDocument(stream.index(), stream.offeredIos(),
					stream.read().ios() + stream.write().ios() + stream.trim().ios(),
					StreamDirectionDocument.of(stream.read()), StreamDirectionDocument.of(stream.write()),
					StreamDirectionDocument.of(stream.trim()));
		}

	}

	@JsonInclude(JsonInclude.Include.NON_NULL)
	record StreamDirectionDocument(long iops, long bytes, double mbPerS, SampleMessage.LatencyNs latencyNs,
			SampleMessage.LatencyNs responseLatencyNs) {

		static StreamDirectionDocument of(SampleMessage.StreamDirection direction) {
			return new StreamDirectionDocument(direction.ios(), direction.bytes(), direction.bytes() / 1e6,
					direction.latencyNs(), direction.responseLatencyNs());
		}

	}

	/** Labels of an unknown job leave the three drive fields out of the document. */
	static SampleDocument of(SampleMessage sample, DriveLabels drive) {
		boolean known = drive != DriveLabels.UNKNOWN;
		return new SampleDocument(sample.timeMs(), sample.jobId(), sample.runnerId(), sample.deviceSerial(),
				drive.driveModel(), drive.firmware(), known ? drive.simulated() : null, sample.phaseIndex(),
				sample.phaseName(), sample.t(), sample.read().ios() + sample.write().ios(),
				DirectionDocument.of(sample.read()), DirectionDocument.of(sample.write()),
				(sample.effectiveQueueDepthMilli() != null) ? sample.effectiveQueueDepthMilli() / 1000.0 : null,
				sample.round(), sample.step(), sample.wallMs(),
				(sample.clockRateMilli() != null) ? sample.clockRateMilli() / 1000.0 : null,
				(sample.trim() != null) ? DirectionDocument.of(sample.trim()) : null,
				(sample.streams() != null) ? sample.streams().stream().map(StreamDocument::of).toList() : null);
	}

	/**
	 * Indices by the sample's own time (a month, day or hour each): retention drops whole
	 * indices.
	 */
	static String indexFor(SampleMessage sample, SampleIndexPeriod period) {
		return period.indexFor(sample.timeMs());
	}

}
