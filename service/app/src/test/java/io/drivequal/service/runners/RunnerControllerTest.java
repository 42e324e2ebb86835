/*
 * /api/v1/runners: the fleet with liveness and drain state, drain and undrain, and the refusals.
 */
package io.drivequal.service.runners;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.drivequal.service.security.ApiSecurity;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verify;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

@WebMvcTest(RunnerController.class)
@Import(ApiSecurity.class)
class RunnerControllerTest {

	@Autowired
	private MockMvc mvc;

	@MockitoBean
	private RunnerRegistry registry;

	@MockitoBean
	private RunnerDrains drains;

	@MockitoBean
	private HeldJobs heldJobs;

	private final Runner runner = new Runner("rack7-host3", "rack7-host3.lab", "0.1.0", List.of("uring", "sim"), 5000,
			2, List.of("q-1"), Instant.parse("2026-11-22T21:00:00Z"));

	@Test
	void listsRunnersWithTheirLiveness() throws Exception {
		given(this.registry.runners()).willReturn(List.of(this.runner));
		given(this.registry.isAlive(any(Runner.class))).willReturn(true);
		this.mvc.perform(get("/api/v1/runners").with(user("ops").roles("VIEWER")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$[0].runnerId").value("rack7-host3"))
			.andExpect(jsonPath("$[0].alive").value(true))
			.andExpect(jsonPath("$[0].engines[1]").value("sim"))
			.andExpect(jsonPath("$[0].state").value("active"));
	}

	@Test
	void aDrainedRunnerIsDrainingWhileItHoldsAJobThenDrained() throws Exception {
		RunnerDrains.Drain drain = new RunnerDrains.Drain("rack7-host3", Instant.parse("2026-11-22T21:01:00Z"), "root");
		given(this.registry.runner("rack7-host3")).willReturn(Optional.of(this.runner));
		given(this.drains.drain("rack7-host3", "root")).willReturn(drain);
		given(this.heldJobs.byRunner()).willReturn(Map.of("rack7-host3", List.of("q-1")));
		this.mvc.perform(post("/api/v1/runners/rack7-host3/drain").with(user("root").roles("ADMIN")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.state").value("draining"))
			.andExpect(jsonPath("$.drainRequestedBy").value("root"))
			.andExpect(jsonPath("$.heldJobIds[0]").value("q-1"));

		Runner idle = new Runner("rack7-host3", "rack7-host3.lab", "0.1.0", List.of("uring"), 5000, 2, List.of(),
				Instant.parse("2026-11-22T21:05:00Z"));
		given(this.registry.runner("rack7-host3")).willReturn(Optional.of(idle));
		given(this.drains.of("rack7-host3")).willReturn(Optional.of(drain));
		given(this.heldJobs.byRunner()).willReturn(Map.of());
		this.mvc.perform(get("/api/v1/runners/rack7-host3").with(user("ops").roles("VIEWER")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.state").value("drained"));

		this.mvc.perform(post("/api/v1/runners/rack7-host3/undrain").with(user("root").roles("ADMIN")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.state").value("active"));
		verify(this.drains).undrain("rack7-host3");
	}

	@Test
	void drainingAnUnknownRunnerIsA404() throws Exception {
		given(this.registry.runner("ghost")).willReturn(Optional.empty());
		this.mvc.perform(post("/api/v1/runners/ghost/drain").with(user("root").roles("ADMIN")))
			.andExpect(status().isNotFound());
	}

	@Test
	void unknownRunnerIsA404() throws Exception {
		given(this.registry.runner("ghost")).willReturn(Optional.empty());
		this.mvc.perform(get("/api/v1/runners/ghost").with(user("ops").roles("VIEWER")))
			.andExpect(status().isNotFound());
	}

	@Test
	void anonymousIsA401() throws Exception {
		this.mvc.perform(get("/api/v1/runners")).andExpect(status().isUnauthorized());
	}

	@Test
	void managingRunnersNeedsAnAdmin() throws Exception {
		this.mvc.perform(post("/api/v1/runners/rack7-host3/drain").with(user("alice").roles("SUBMITTER")))
			.andExpect(status().isForbidden());
		this.mvc.perform(post("/api/v1/runners/rack7-host3/undrain").with(user("eve").roles("VIEWER")))
			.andExpect(status().isForbidden());
	}

}
