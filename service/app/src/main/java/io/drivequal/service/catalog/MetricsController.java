/*
 * GET /api/v1/metrics: every metric a criterion can name, with its unit, so the submit form and API
 * clients list what the service can judge instead of copying the list (docs/methodology.md defines
 * each).
 */
package io.drivequal.service.catalog;

import java.util.Arrays;
import java.util.List;

import io.drivequal.analysis.Metric;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/metrics")
class MetricsController {

	record MetricView(String name, String unit) {
	}

	@GetMapping
	List<MetricView> metrics() {
		return Arrays.stream(Metric.values())
			.map((metric) -> new MetricView(metric.wireName(), metric.unit()))
			.toList();
	}

}
