/*
 * GET /api/v1/profiles and /profiles/{name}: the catalog as callers see it, and its refusals.
 */
package io.drivequal.service.catalog;

import io.drivequal.service.security.ApiSecurity;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.web.servlet.MockMvc;

import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

@WebMvcTest(CatalogController.class)
@Import({ ApiSecurity.class, Catalog.class })
class CatalogControllerTest {

	@Autowired
	private MockMvc mvc;

	@Test
	void listsTheWholeCatalogToAViewer() throws Exception {
		this.mvc.perform(get("/api/v1/profiles").with(httpBasic("viewer", "viewer-pw")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.length()").value(16))
			.andExpect(jsonPath("$[*].name").value(org.hamcrest.Matchers.hasItems("pts-iops", "pts-throughput",
					"pts-latency", "pts-wsat", "pts-hir", "pts-xsr")))
			.andExpect(
					jsonPath("$[*].name").value(org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasItem("snia-iops"))))
			.andExpect(jsonPath("$[0].name").value("consistency-2000s"))
			.andExpect(jsonPath("$[0].phases[2].runtimeS").value(2000))
			.andExpect(jsonPath("$[0].expectedDurationS").isNumber());
	}

	@Test
	void showsOneProfileWithItsReference() throws Exception {
		this.mvc.perform(get("/api/v1/profiles/steady-state-2h").with(user("ops").roles("VIEWER")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.reference").value(org.hamcrest.Matchers.containsString("SNIA")))
			.andExpect(jsonPath("$.phases[2].runtimeS").value(7200));
	}

	@Test
	void unknownProfileIsA404Problem() throws Exception {
		this.mvc.perform(get("/api/v1/profiles/no-such").with(user("ops").roles("VIEWER")))
			.andExpect(status().isNotFound())
			.andExpect(content().contentType("application/problem+json"))
			.andExpect(jsonPath("$.detail").value("no profile named no-such"));
	}

	@Test
	void anonymousIsA401AndAWrongPasswordToo() throws Exception {
		this.mvc.perform(get("/api/v1/profiles"))
			.andExpect(status().isUnauthorized())
			.andExpect(content().contentType("application/problem+json"));
		this.mvc.perform(get("/api/v1/profiles").with(httpBasic("viewer", "wrong")))
			.andExpect(status().isUnauthorized());
	}

}
