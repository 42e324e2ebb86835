/*
 * Every path of /api/v1/qualifications at the HTTP edge: 201/200/202, and 400 naming the field,
 * 401, 403, 404, 409 — with the real security rules and problem-details mapping.
 */
package io.drivequal.service.qualification;

import java.time.Instant;
import java.util.List;

import io.drivequal.service.platform.BadRequestException;
import io.drivequal.service.platform.ConflictException;
import io.drivequal.service.platform.ForbiddenException;
import io.drivequal.service.platform.NotFoundException;
import io.drivequal.service.security.ApiSecurity;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.argThat;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.ArgumentMatchers.isNull;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

@WebMvcTest(QualificationController.class)
@Import(ApiSecurity.class)
class QualificationControllerTest {

	private static final String VALID = """
			{"drive":{"serial":"SIM-0001"},"plan":{"profile":"consistency-2000s"},
			 "criteria":[{"metric":"consistencyRatio","comparator":"atLeast","limit":0.9}]}
			""";

	@Autowired
	private MockMvc mvc;

	@MockitoBean
	private QualificationService service;

	@MockitoBean
	private DriveQueues queues;

	@MockitoBean
	private Views views;

	private final Job queued = new Job.Draft().build().edit((draft) -> {
		draft.jobId = "q-1";
		draft.state = JobState.QUEUED;
		draft.submitter = "alice";
		draft.deviceSerial = "SIM-0001";
		draft.queuedAt = Instant.parse("2026-11-22T21:00:00Z");
	});

	@BeforeEach
	@SuppressWarnings("unchecked")
	void views() {
		given(this.views.full(any(), any())).willAnswer((call) -> view(call.getArgument(0)));
		given(this.views.page(any())).willAnswer(
				(call) -> ((List<Job>) call.getArgument(0)).stream().map(QualificationControllerTest::view).toList());
	}

	@Test
	void submitReturns201WithLocation() throws Exception {
		given(this.service.submit(any(), argThat((caller) -> caller.getName().equals("alice")), isNull()))
			.willReturn(new QualificationService.Submitted(this.queued, true, List.of()));
		this.mvc
			.perform(post("/api/v1/qualifications").with(user("alice").roles("SUBMITTER"))
				.contentType(MediaType.APPLICATION_JSON)
				.content(VALID))
			.andExpect(status().isCreated())
			.andExpect(header().string("Location", "/api/v1/qualifications/q-1"))
			.andExpect(jsonPath("$.state").value("QUEUED"));
	}

	@Test
	void repeatedIdempotencyKeyReturns200WithTheOriginalJob() throws Exception {
		given(this.service.submit(any(), argThat((caller) -> caller.getName().equals("alice")), eq("po-4711")))
			.willReturn(new QualificationService.Submitted(this.queued, false, List.of()));
		this.mvc
			.perform(post("/api/v1/qualifications").with(user("alice").roles("SUBMITTER"))
				.header("Idempotency-Key", "po-4711")
				.contentType(MediaType.APPLICATION_JSON)
				.content(VALID))
			.andExpect(status().isOk())
			.andExpect(header().string("Location", "/api/v1/qualifications/q-1"));
	}

	@Test
	void submitNeedsAuthenticationAndTheSubmitterRole() throws Exception {
		this.mvc.perform(post("/api/v1/qualifications").contentType(MediaType.APPLICATION_JSON).content(VALID))
			.andExpect(status().isUnauthorized());
		this.mvc
			.perform(post("/api/v1/qualifications").with(user("ops").roles("VIEWER"))
				.contentType(MediaType.APPLICATION_JSON)
				.content(VALID))
			.andExpect(status().isForbidden())
			.andExpect(content().contentType("application/problem+json"));
		verify(this.service, never()).submit(any(), any(), any());
	}

	@Test
	void aNegativeWIsA400NamingTheFieldAndReachesNoService() throws Exception {
		this.mvc
			.perform(post("/api/v1/qualifications").with(user("alice").roles("SUBMITTER"))
				.contentType(MediaType.APPLICATION_JSON)
				.content("""
						{"drive":{"serial":"SIM-0001"},
						 "plan":{"profile":"consistency-2000s","analysis":{"rangeWritesRequired":-0.5}}}
						"""))
			.andExpect(status().isBadRequest())
			.andExpect(content().contentType("application/problem+json"))
			.andExpect(jsonPath("$.errors[0].field").value("plan.analysis.rangeWritesRequired"))
			.andExpect(jsonPath("$.errors[0].message").value("must be >= 0 (a multiple of the tested range)"));
		verify(this.service, never()).submit(any(), any(), any());
	}

	@Test
	void aCriterionIsReadOnceAtSubmissionAndAWrongMemberIsA400NamingIt() throws Exception {
		String[][] cases = {
				{ "{\"metric\":\"latencyP100\",\"comparator\":\"atMost\",\"limit\":1}", "criteria[1].metric",
						"unknown metric latencyP100; known: steadyStateReached, " },
				{ "{\"metric\":\"waf\",\"comparator\":\"below\",\"limit\":3}", "criteria[1].comparator",
						"must be atLeast or atMost, got below" },
				{ "{\"metric\":\"waf\",\"comparator\":\"atMost\"}", "criteria[1].limit",
						"must be a finite number, got null" } };
		for (String[] given : cases) {
			this.mvc.perform(post("/api/v1/qualifications").with(user("alice").roles("SUBMITTER"))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"drive\":{\"serial\":\"SIM-0001\"},\"plan\":{\"profile\":\"consistency-2000s\"},"
						+ "\"criteria\":[{\"metric\":\"consistencyRatio\",\"comparator\":\"atLeast\",\"limit\":0.9},"
						+ given[0] + "]}"))
				.andExpect(status().isBadRequest())
				.andExpect(content().contentType("application/problem+json"))
				.andExpect(jsonPath("$.errors[0].field").value(given[1]))
				.andExpect(jsonPath("$.errors[0].message", org.hamcrest.Matchers.startsWith(given[2])))
				.andExpect(jsonPath("$.detail", org.hamcrest.Matchers.startsWith(given[1] + ": ")));
		}
		verify(this.service, never()).submit(any(), any(), any());
	}

	@Test
	void theServiceGetsTheTypedCriteria() throws Exception {
		given(this.service.submit(argThat((request) -> request.criteria()
			.equals(List
				.of(io.drivequal.analysis.Criterion.atLeast(io.drivequal.analysis.Metric.CONSISTENCY_RATIO, 0.9)))),
				any(), isNull()))
			.willReturn(new QualificationService.Submitted(this.queued, true, List.of()));
		this.mvc
			.perform(post("/api/v1/qualifications").with(user("alice").roles("SUBMITTER"))
				.contentType(MediaType.APPLICATION_JSON)
				.content(VALID))
			.andExpect(status().isCreated());
	}

	@Test
	void missingDriveIsA400NamingTheField() throws Exception {
		this.mvc
			.perform(post("/api/v1/qualifications").with(user("alice").roles("SUBMITTER"))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"plan\":{\"profile\":\"consistency-2000s\"}}"))
			.andExpect(status().isBadRequest())
			.andExpect(content().contentType("application/problem+json"))
			.andExpect(jsonPath("$.errors[0].field").value("drive"));
	}

	@Test
	void rangeOutsideZeroToHundredIsA400NamingTheField() throws Exception {
		this.mvc
			.perform(post("/api/v1/qualifications").with(user("alice").roles("SUBMITTER"))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"drive\":{\"serial\":\"S\"},\"plan\":{\"profile\":\"p\",\"rangePercent\":120}}"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.errors[0].field").value("plan.rangePercent"));
	}

	@Test
	void malformedJsonIsA400NotA500() throws Exception {
		this.mvc
			.perform(post("/api/v1/qualifications").with(user("alice").roles("SUBMITTER"))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"drive\":"))
			.andExpect(status().isBadRequest())
			.andExpect(content().contentType("application/problem+json"));
	}

	@Test
	void contractViolationFoundByTheServiceIsA400NamingThePhaseField() throws Exception {
		given(this.service.submit(any(), any(), any())).willThrow(new BadRequestException("plan.phases[0].queueDepth",
				"/phases/0/queueDepth: must have a maximum value of 1024"));
		this.mvc
			.perform(post("/api/v1/qualifications").with(user("alice").roles("SUBMITTER"))
				.contentType(MediaType.APPLICATION_JSON)
				.content(VALID))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.errors[0].field").value("plan.phases[0].queueDepth"));
	}

	@Test
	void unknownJobIsA404() throws Exception {
		given(this.service.get("q-none")).willThrow(new NotFoundException("no qualification q-none"));
		this.mvc.perform(get("/api/v1/qualifications/q-none").with(user("ops").roles("VIEWER")))
			.andExpect(status().isNotFound())
			.andExpect(jsonPath("$.detail").value("no qualification q-none"));
	}

	@Test
	void viewerReadsAJob() throws Exception {
		given(this.service.get("q-1")).willReturn(this.queued);
		this.mvc.perform(get("/api/v1/qualifications/q-1").with(user("ops").roles("VIEWER")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.id").value("q-1"));
	}

	@Test
	void listValidatesItsFilters() throws Exception {
		this.mvc.perform(get("/api/v1/qualifications?state=DONE").with(user("ops").roles("VIEWER")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.errors[0].field").value("state"));
		this.mvc.perform(get("/api/v1/qualifications?size=1000").with(user("ops").roles("VIEWER")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.errors[0].field").value("size"));
		// Empty is not a date-time: refused, not read as "no bound" (the contract
		// fuzzer's find).
		this.mvc.perform(get("/api/v1/qualifications?to=").with(user("ops").roles("VIEWER")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.errors[0].field").value("to"));
		verify(this.service, never()).list(any());
	}

	@Test
	void aPlanIsAProfileOrPhasesAndEnumeratedValuesMatchWhole() throws Exception {
		this.mvc
			.perform(post("/api/v1/qualifications").with(user("alice").roles("SUBMITTER"))
				.contentType(MediaType.APPLICATION_JSON)
				.content("""
						{"drive":{"serial":"SIM-0001"},"plan":{"profile":"consistency-2000s","phases":[]}}"""))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.errors[0].field").value("plan.phases"));
		this.mvc
			.perform(post("/api/v1/qualifications").with(user("alice").roles("SUBMITTER"))
				.contentType(MediaType.APPLICATION_JSON)
				.content("""
						{"drive":{"serial":"SIM-0001"},"plan":{"profile":"consistency-2000s"},"priority":"xhighx"}"""))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.errors[0].field").value("priority"));
		verify(this.service, never()).submit(any(), any(), any());
	}

	@Test
	void listReturnsAPage() throws Exception {
		given(this.service.list(any())).willReturn(new JobStore.Page(1, List.of(this.queued)));
		this.mvc.perform(get("/api/v1/qualifications?state=QUEUED&serial=SIM-0001").with(user("ops").roles("VIEWER")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.total").value(1))
			.andExpect(jsonPath("$.items[0].id").value("q-1"));
	}

	@Test
	void cancelOfAQueuedJobIs200AndOfARunningJob202() throws Exception {
		given(this.service.cancel("q-1", "alice", false))
			.willReturn(this.queued.edit((draft) -> draft.state = JobState.CANCELLED));
		this.mvc.perform(post("/api/v1/qualifications/q-1/cancel").with(user("alice").roles("SUBMITTER")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.state").value("CANCELLED"));
		given(this.service.cancel("q-2", "alice", false))
			.willReturn(this.queued.edit((draft) -> draft.state = JobState.RUNNING));
		this.mvc.perform(post("/api/v1/qualifications/q-2/cancel").with(user("alice").roles("SUBMITTER")))
			.andExpect(status().isAccepted());
	}

	@Test
	void cancelOfAFinishedJobIsA409() throws Exception {
		given(this.service.cancel(eq("q-1"), anyString(), anyBoolean()))
			.willThrow(new ConflictException("qualification q-1 is COMPLETED; only active jobs can be cancelled"));
		this.mvc.perform(post("/api/v1/qualifications/q-1/cancel").with(user("alice").roles("SUBMITTER")))
			.andExpect(status().isConflict())
			.andExpect(content().contentType("application/problem+json"));
	}

	@Test
	void cancelOfAnotherSubmittersJobIsA403ButAnAdminMay() throws Exception {
		given(this.service.cancel("q-1", "bob", false))
			.willThrow(new ForbiddenException("only alice or an admin may cancel q-1"));
		this.mvc.perform(post("/api/v1/qualifications/q-1/cancel").with(user("bob").roles("SUBMITTER")))
			.andExpect(status().isForbidden());
		given(this.service.cancel("q-1", "root", true))
			.willReturn(this.queued.edit((draft) -> draft.state = JobState.CANCELLED));
		this.mvc.perform(post("/api/v1/qualifications/q-1/cancel").with(user("root").roles("ADMIN")))
			.andExpect(status().isOk());
	}

	@Test
	void viewerCannotCancel() throws Exception {
		this.mvc.perform(post("/api/v1/qualifications/q-1/cancel").with(user("ops").roles("VIEWER")))
			.andExpect(status().isForbidden());
		verify(this.service, never()).cancel(anyString(), anyString(), anyBoolean());
	}

	private static QualificationView view(Job job) {
		return new QualificationView(job.jobId(), job.state(), job.submitter(), job.profile(), null, job.plan(), null,
				null, null, 0.0, 0L, null, null, job.queuedAt(), null, null, null, false, null, null, null, null, null,
				job.criteriaSet(), job.analysisSettings(), "normal", null, null, null);
	}

}
