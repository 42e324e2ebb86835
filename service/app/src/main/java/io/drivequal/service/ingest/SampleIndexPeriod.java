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
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

public enum SampleIndexPeriod {

	MONTH("yyyy.MM", ChronoUnit.MONTHS), DAY("yyyy.MM.dd", ChronoUnit.DAYS), HOUR("yyyy.MM.dd.HH", ChronoUnit.HOURS);

	private final DateTimeFormatter suffix;

	private final ChronoUnit unit;

	/**
	 * The period of the last name asked for: a batch's samples nearly all fall in the
	 * same one, and formatting a date costs more than the rest of a sample's document.
	 */
	private volatile Span last = new Span(0, 0, "");

	SampleIndexPeriod(String pattern, ChronoUnit unit) {
		this.suffix = DateTimeFormatter.ofPattern(pattern).withZone(ZoneOffset.UTC);
		this.unit = unit;
	}

	/** The name of the index that holds samples of {@code timeMs} (UTC). */
	String indexFor(long timeMs) {
		Span span = this.last;
		if (timeMs >= span.fromMs() && timeMs < span.untilMs()) {
			return span.index();
		}
		ZonedDateTime time = Instant.ofEpochMilli(timeMs).atZone(ZoneOffset.UTC);
		ZonedDateTime from = (this.unit == ChronoUnit.MONTHS) ? time.truncatedTo(ChronoUnit.DAYS).withDayOfMonth(1)
				: time.truncatedTo(this.unit);
		span = new Span(from.toInstant().toEpochMilli(), from.plus(1, this.unit).toInstant().toEpochMilli(),
				SampleDocument.INDEX_PREFIX + this.suffix.format(time));
		this.last = span;
		return span.index();
	}

	/** The epoch milliseconds [fromMs, untilMs) one index holds. */
	private record Span(long fromMs, long untilMs, String index) {
	}

}
