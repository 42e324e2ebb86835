/*
 * The pace of the scheduler and of runner-loss detection.
 */
package io.drivequal.service.qualification;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * @param redispatchAfter a DISPATCHED job its runner has not accepted within this time
 * gets its start command again (same commandId: the runner acts once)
 * @param maxEventSize a phase-completed event carries two full histograms; far larger is
 * poison
 * @param dispatchConcurrency how many drives' queue heads one replica dispatches at once:
 * each dispatch waits on Elasticsearch and Kafka round trips, so a lab of many drives is
 * dispatched as fast as these round trips overlap, not one after another
 */
@ConfigurationProperties("drivequal.scheduling")
record SchedulingSettings(@DefaultValue("30s") Duration redispatchAfter, @DefaultValue("2MB") DataSize maxEventSize,
		@DefaultValue("8") int dispatchConcurrency) {

	SchedulingSettings {
		if (dispatchConcurrency < 1) {
			throw new IllegalArgumentException(
					"drivequal.scheduling.dispatch-concurrency must be at least 1, not " + dispatchConcurrency);
		}
	}

}
