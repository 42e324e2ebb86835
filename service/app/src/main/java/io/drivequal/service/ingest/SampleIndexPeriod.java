/*
 * How much time one sample index covers. A sample's index is a function of the sample's own time,
 * never of when it was written, so a redelivered sample overwrites itself in the same index (the
 * reason the service does not use rollover, which would put a late redelivery into the next index
 * beside its first copy). A month suits a lab of hundreds of drives; a day or an hour keeps each
 * index's shards a sensible size at tens of thousands (docs/operations.md, capacity plan).
 */
package io.drivequal.service.ingest;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

public enum SampleIndexPeriod {

	MONTH("yyyy.MM"), DAY("yyyy.MM.dd"), HOUR("yyyy.MM.dd.HH");

	private final DateTimeFormatter suffix;

	SampleIndexPeriod(String pattern) {
		this.suffix = DateTimeFormatter.ofPattern(pattern).withZone(ZoneOffset.UTC);
	}

	/** The name of the index that holds samples of {@code timeMs} (UTC). */
	String indexFor(long timeMs) {
		return SampleDocument.INDEX_PREFIX + this.suffix.format(Instant.ofEpochMilli(timeMs));
	}

}
