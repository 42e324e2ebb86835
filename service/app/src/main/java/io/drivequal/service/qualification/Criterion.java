/*
 * One acceptance criterion of the buyer, e.g. consistencyRatio atLeast 0.9.
 */
package io.drivequal.service.qualification;

import java.util.Set;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

/**
 * @param metric a metric name of docs/methodology.md
 * @param comparator atLeast (measured >= limit) or atMost (measured <= limit)
 * @param phase the phase it applies to; the profile's primary phase when absent
 */
public record Criterion(@NotBlank String metric, @NotNull @Pattern(regexp = "atLeast|atMost") String comparator,
		@NotNull Double limit, String phase) {

	/** The metrics a criterion may name (docs/methodology.md defines each). */
	static final Set<String> METRICS = Set.of("steadyStateReached", "steadyStateIops", "consistencyRatio",
			"consistencyRatioFixedWindow", "writeLatencyP99Us", "writeLatencyP999Us", "writeLatencyP9999Us",
			"readLatencyP99Us", "readLatencyP9999Us", "waf", "dwpd", "tbwBytes", "trimRecovery", "idleRecovery",
			"throughputMBps");

}
