/*
 * One acceptance criterion of the buyer, e.g. consistencyRatio atLeast 0.9.
 */
package io.drivequal.service.qualification;

import java.util.List;

import io.drivequal.analysis.Metric;
import io.drivequal.service.platform.BadRequestException;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

/**
 * @param metric a metric's wire name (io.drivequal.analysis.Metric; docs/methodology.md)
 * @param comparator atLeast (measured >= limit) or atMost (measured <= limit)
 * @param phase the phase it applies to; the profile's primary phase when absent
 */
public record Criterion(@NotBlank String metric, @NotNull @Pattern(regexp = "^(atLeast|atMost)$") String comparator,
		@NotNull Double limit, String phase) {

	/**
	 * Refuses a criterion whose metric the analysis does not compute, naming it as
	 * {@code field[i].metric}.
	 * @param criteria may be null (no criteria)
	 */
	public static void requireKnownMetrics(List<Criterion> criteria, String field) {
		if (criteria == null) {
			return;
		}
		for (int i = 0; i < criteria.size(); i++) {
			if (Metric.fromWireName(criteria.get(i).metric()).isEmpty()) {
				throw new BadRequestException(field + "[" + i + "].metric",
						"unknown metric " + criteria.get(i).metric() + "; known: " + Metric.wireNames());
			}
		}
	}

}
