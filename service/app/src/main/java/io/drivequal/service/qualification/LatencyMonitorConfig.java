/*
 * What a submission asks of the drive's OCP latency monitor (Set Features C5h before the first
 * phase, when the drive has the log): its four thresholds. Sent as the start command's
 * latencyMonitor (schemas/messages/common.schema.json latencyMonitorConfig).
 */
package io.drivequal.service.qualification;

import java.util.List;

import io.drivequal.service.platform.BadRequestException;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/**
 * @param thresholdsMs thresholds A..D, milliseconds: multiples of 5 from 5 to 1280,
 * strictly increasing (docs/methodology.md "The OCP logs")
 */
public record LatencyMonitorConfig(@NotNull @Size(min = 4, max = 4) List<@NotNull Integer> thresholdsMs) {

	/** Refuses thresholds that do not increase (the contract checks the rest). */
	void requireIncreasing(String field) {
		for (int i = 1; i < this.thresholdsMs.size(); i++) {
			if (this.thresholdsMs.get(i) <= this.thresholdsMs.get(i - 1)) {
				throw new BadRequestException(field + ".thresholdsMs[" + i + "]", "thresholds must increase: "
						+ this.thresholdsMs.get(i) + " ms is not above " + this.thresholdsMs.get(i - 1) + " ms");
			}
		}
	}

}
