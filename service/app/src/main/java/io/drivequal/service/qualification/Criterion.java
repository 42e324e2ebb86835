/*
 * One acceptance criterion of the buyer, e.g. consistencyRatio atLeast 0.9.
 */
package io.drivequal.service.qualification;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

/**
 * @param metric a metric's wire name (io.drivequal.analysis.Metric; docs/methodology.md)
 * @param comparator atLeast (measured >= limit) or atMost (measured <= limit)
 * @param phase the phase it applies to; the profile's primary phase when absent
 */
public record Criterion(@NotBlank String metric, @NotNull @Pattern(regexp = "atLeast|atMost") String comparator,
		@NotNull Double limit, String phase) {

}
