/*
 * GET /api/v1/drives and /drives/{serial} at the HTTP edge: inventory with liveness, one drive
 * with its history, and the refusals.
 */
package io.drivequal.service.drives;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.drivequal.service.qualification.DriveHistory;
import io.drivequal.service.qualification.JobState;
import io.drivequal.service.qualification.QualificationView;
import io.drivequal.service.runners.Drive;
import io.drivequal.service.runners.Runner;
import io.drivequal.service.runners.RunnerRegistry;
import io.drivequal.service.security.ApiSecurity;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import static org.mockito.BDDMockito.given;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

@WebMvcTest(DriveController.class)
@Import(ApiSecurity.class)
class DriveControllerTest {

	@Autowired
	private MockMvc mvc;

	@MockitoBean
	private RunnerRegistry registry;

	@MockitoBean
	private DriveHistory history;

	private final Drive drive = new Drive("SIM-1", "DQSIM Enterprise 256GB", "SIM0100", 256_000_000_000L, 4096, "sim",
			"sim:enterprise-eager", "local", true, "idle", null, Instant.parse("2026-11-22T21:00:00Z"));

	@Test
	void inventoryShowsEachDriveWithItsRunnersLiveness() throws Exception {
		Runner local = new Runner("local", "host", "1.0", List.of("sim"), 1000, 1, List.of(),
				Instant.parse("2026-11-22T21:00:00Z"));
		given(this.registry.drives()).willReturn(List.of(this.drive));
		given(this.registry.runners(Set.of("local"))).willReturn(Map.of("local", local));
		given(this.registry.isAlive(local)).willReturn(true);
		this.mvc.perform(get("/api/v1/drives").with(user("ops").roles("VIEWER")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$[0].drive.serial").value("SIM-1"))
			.andExpect(jsonPath("$[0].drive.allowlisted").value(true))
			.andExpect(jsonPath("$[0].runnerAlive").value(true));
	}

	@Test
	void oneDriveComesWithItsQualificationHistory() throws Exception {
		given(this.registry.drive("SIM-1")).willReturn(Optional.of(this.drive));
		given(this.history.of("SIM-1")).willReturn(List.of(new QualificationView("q-1", JobState.COMPLETED, null, null,
				null, null, null, null, null, 100.0, 0L, null, null, null, null, null, null, false, "PASS", null, null,
				null, null, null, null, "normal", null, null, null)));
		this.mvc.perform(get("/api/v1/drives/SIM-1").with(user("ops").roles("VIEWER")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.drive.model").value("DQSIM Enterprise 256GB"))
			.andExpect(jsonPath("$.qualifications[0].id").value("q-1"))
			.andExpect(jsonPath("$.qualifications[0].verdict").value("PASS"));
	}

	@Test
	void unknownDriveIsA404AndAnonymousA401() throws Exception {
		given(this.registry.drive("NOPE")).willReturn(Optional.empty());
		this.mvc.perform(get("/api/v1/drives/NOPE").with(user("ops").roles("VIEWER"))).andExpect(status().isNotFound());
		this.mvc.perform(get("/api/v1/drives")).andExpect(status().isUnauthorized());
	}

	@Test
	void changingTheInventoryOverHttpIsForAdminsOnly() throws Exception {
		this.mvc.perform(delete("/api/v1/drives/SIM-1").with(user("alice").roles("SUBMITTER")))
			.andExpect(status().isForbidden());
	}

}
