/*
 * Limits of the ingest path.
 */
package io.drivequal.service.ingest;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * @param maxSampleSize a sample is a few hundred bytes; anything far larger is poison,
 * not data
 * @param sampleIndexPeriod the time one sample index covers (month, day or hour of the
 * samples' own time)
 */
@ConfigurationProperties("drivequal.ingest")
record IngestSettings(@DefaultValue("64KB") DataSize maxSampleSize,
		@DefaultValue("month") SampleIndexPeriod sampleIndexPeriod) {
}
