/*
 * The index a sample goes to is its own time's, whatever the period and whichever time was asked
 * for before: the remembered period must never answer for a time outside it.
 */
package io.drivequal.service.ingest;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Random;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SampleIndexPeriodTest {

	private static final long HOUR_MS = 3_600_000L;

	@Test
	void everyTimeGetsItsOwnPeriodsIndexAtAndAcrossEveryBoundary() {
		Random random = new Random(20261127);
		// 2024-02-29 (a leap day) to 2027: month ends of 28 to 31 days, year ends
		long start = Instant.parse("2024-01-31T22:00:00Z").toEpochMilli();
		for (SampleIndexPeriod period : SampleIndexPeriod.values()) {
			int checked = 0;
			for (long hour = start; hour < start + 3 * 365 * 24 * HOUR_MS; hour += HOUR_MS) {
				for (long offset : new long[] { -1, 0, 1, HOUR_MS / 2 }) {
					long timeMs = hour + offset;
					assertThat(period.indexFor(timeMs)).as("%s at %d", period, timeMs)
						.isEqualTo(expected(period, timeMs));
					checked++;
				}
			}
			for (int i = 0; i < 20_000; i++) {
				// jumping back and forth, as a batch of old and new samples does
				long timeMs = start + (long) (random.nextDouble() * 3 * 365 * 24 * HOUR_MS);
				assertThat(period.indexFor(timeMs)).as("%s at %d", period, timeMs).isEqualTo(expected(period, timeMs));
				checked++;
			}
			assertThat(checked).isGreaterThan(100_000);
		}
	}

	@Test
	void theFirstInstantOfAPeriodIsItsAndTheLastOfTheOneBeforeIsNot() {
		long newYear = Instant.parse("2027-01-01T00:00:00Z").toEpochMilli();
		assertThat(SampleIndexPeriod.MONTH.indexFor(newYear - 1)).isEqualTo("drivequal-samples-2026.12");
		assertThat(SampleIndexPeriod.MONTH.indexFor(newYear)).isEqualTo("drivequal-samples-2027.01");
		assertThat(SampleIndexPeriod.MONTH.indexFor(newYear - 1)).isEqualTo("drivequal-samples-2026.12");
		assertThat(SampleIndexPeriod.DAY.indexFor(newYear)).isEqualTo("drivequal-samples-2027.01.01");
		assertThat(SampleIndexPeriod.HOUR.indexFor(newYear - 1)).isEqualTo("drivequal-samples-2026.12.31.23");
	}

	private static String expected(SampleIndexPeriod period, long timeMs) {
		String pattern = switch (period) {
			case MONTH -> "yyyy.MM";
			case DAY -> "yyyy.MM.dd";
			case HOUR -> "yyyy.MM.dd.HH";
		};
		return "drivequal-samples-"
				+ DateTimeFormatter.ofPattern(pattern).withZone(ZoneOffset.UTC).format(Instant.ofEpochMilli(timeMs));
	}

}
