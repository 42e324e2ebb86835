/*
 * GET /api/v1/metrics: what criteria can name, with units, the health criteria among them.
 */
package io.drivequal.service.catalog;

import io.drivequal.analysis.Metric;
import io.drivequal.service.security.ApiSecurity;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.web.servlet.MockMvc;

import static org.hamcrest.Matchers.hasItems;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

@WebMvcTest(MetricsController.class)
@Import(ApiSecurity.class)
class MetricsControllerTest {

	@Autowired
	private MockMvc mvc;

	@Test
	void listsEveryMetricWithItsUnit() throws Exception {
		this.mvc.perform(get("/api/v1/metrics").with(httpBasic("viewer", "viewer-pw")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.length()").value(Metric.values().length))
			.andExpect(jsonPath("$[0].name").value("steadyStateReached"))
			.andExpect(jsonPath("$[*].name")
				.value(hasItems("maxTemperatureC", "criticalWarning", "newMediaErrors", "thermalThrottleSeconds")))
			.andExpect(jsonPath("$[?(@.name == 'maxTemperatureC')].unit").value(hasItems("°C")));
	}

	@Test
	void anonymousIsA401() throws Exception {
		this.mvc.perform(get("/api/v1/metrics")).andExpect(status().isUnauthorized());
	}

}
