/*
 * GET /api/v1/criteria-sets and /criteria-sets/{name}: the sets a buyer can pick, with their
 * sources, and the refusal of an unknown name.
 */
package io.drivequal.service.catalog;

import io.drivequal.service.security.ApiSecurity;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.web.servlet.MockMvc;

import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

@WebMvcTest(CriteriaSetController.class)
@Import({ ApiSecurity.class, Catalog.class })
class CriteriaSetControllerTest {

	@Autowired
	private MockMvc mvc;

	@Test
	void listsTheSetsWithTheirSources() throws Exception {
		this.mvc.perform(get("/api/v1/criteria-sets").with(user("ops").roles("VIEWER")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.length()").value(3))
			.andExpect(jsonPath("$[2].name").value("fiosynth-4k-l2r6dwpd-wtrim"))
			.andExpect(jsonPath("$[2].criteria[0].source")
				.value(org.hamcrest.Matchers.endsWith("4K_L2R6DWPD_wTRIM / P99_Read_Latency_MAX <1500")))
			.andExpect(jsonPath("$[1].name").value("intel-optane-p4800x-qd1"))
			.andExpect(jsonPath("$[1].profiles[0]").value("latency-qos"))
			.andExpect(jsonPath("$[1].source.section")
				.value(org.hamcrest.Matchers.containsString("Random Read 99.999% Latency (QD1)")))
			.andExpect(jsonPath("$[1].criteria[0].metric").value("readLatencyP99999Us"))
			.andExpect(jsonPath("$[1].criteria[0].limit").value(60.0))
			.andExpect(jsonPath("$[1].criteria[0].phase").value("randread-4k-qd1"))
			.andExpect(jsonPath("$[0].criteria[0].phase").doesNotExist());
	}

	@Test
	void unknownSetIsA404Problem() throws Exception {
		this.mvc.perform(get("/api/v1/criteria-sets/ocp-qos").with(user("ops").roles("VIEWER")))
			.andExpect(status().isNotFound())
			.andExpect(content().contentType("application/problem+json"))
			.andExpect(jsonPath("$.detail").value("no criteria set named ocp-qos"));
		this.mvc.perform(get("/api/v1/criteria-sets")).andExpect(status().isUnauthorized());
	}

}
