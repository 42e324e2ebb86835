/*
 * The contract's timestamp form (RFC 3339, UTC, exactly three fraction digits) in one place.
 */
package io.drivequal.service.platform;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

public final class Timestamps {

	private static final DateTimeFormatter CONTRACT = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
		.withZone(ZoneOffset.UTC);

	private Timestamps() {
	}

	public static String format(Instant instant) {
		return CONTRACT.format(instant.truncatedTo(ChronoUnit.MILLIS));
	}

}
