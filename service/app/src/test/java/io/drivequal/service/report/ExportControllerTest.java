/*
 * The exports and the report's routes at the HTTP edge: CSV rows and quoting, the JSON array of
 * samples across pages, results flattened to figures, 401 and 404 as problem details, public pages
 * that forward to their static files, and the API's 401 without a challenge for page scripts.
 */
package io.drivequal.service.report;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.drivequal.service.ingest.SamplePoint;
import io.drivequal.service.ingest.SampleQueries;
import io.drivequal.service.platform.NotFoundException;
import io.drivequal.service.qualification.JobReports;
import io.drivequal.service.qualification.JobReports.JobReport;
import io.drivequal.service.qualification.JobState;
import io.drivequal.service.security.ApiSecurity;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.forwardedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

@WebMvcTest({ ExportController.class, ReportPages.class })
@Import(ApiSecurity.class)
class ExportControllerTest {

	@Autowired
	private MockMvc mvc;

	@MockitoBean
	private JobReports jobs;

	@MockitoBean
	private SampleQueries samples;

	private static SamplePoint point(int phase, String name, int t) {
		return new SamplePoint(phase, name, t, 1000L * t, 0, 50000, 0, 50000L * 4096, 0, 204.8, null,
				new SamplePoint.Latency(600000, 900000, 1500000, 4000000), null);
	}

	private static JobReport report(Map<String, Object> analysis) {
		return new JobReport("q-1", JobState.COMPLETED, "alice", "consistency-2000s",
				new JobReport.Drive("S1", "DQSIM", "F1", "r1", "sim", 8000000000L), List.of(), null, List.of(),
				Instant.EPOCH, Instant.EPOCH, Instant.EPOCH, "PASS", null, analysis, null, null);
	}

	@Test
	void samplesCsvHasAHeaderAndOneRowPerSecondAcrossPages() throws Exception {
		List<SamplePoint> first = new ArrayList<>();
		for (int t = 1; t <= 10000; t++) {
			first.add(point(2, "rand,write", t));
		}
		given(this.jobs.get("q-1")).willReturn(report(null));
		given(this.samples.after("q-1", null, -1, 0, 10000)).willReturn(first);
		given(this.samples.after("q-1", null, 2, 10000, 10000)).willReturn(List.of(point(3, "seq", 1)));
		MvcResult result = this.mvc
			.perform(get("/api/v1/qualifications/q-1/samples.csv").with(user("ops").roles("VIEWER")))
			.andExpect(status().isOk())
			.andExpect(content().contentTypeCompatibleWith("text/csv"))
			.andExpect(header().string("Content-Disposition", "attachment; filename=\"q-1-samples.csv\""))
			.andReturn();
		String[] lines = result.getResponse().getContentAsString().split("\n");
		assertThat(lines).hasSize(1 + 10001);
		assertThat(lines[0]).startsWith("phaseIndex,phaseName,t,timeMs,totalIops");
		assertThat(lines[1])
			.isEqualTo("2,\"rand,write\",1,1000,50000,0,50000,0.000,204.800,,,,,600000,900000,1500000,4000000");
		assertThat(lines[10001]).startsWith("3,seq,1,");
	}

	@Test
	void samplesJsonIsOneArrayOfThePagedObjects() throws Exception {
		given(this.jobs.get("q-1")).willReturn(report(null));
		given(this.samples.after("q-1", 2, -1, 0, 10000)).willReturn(List.of(point(2, "w", 1), point(2, "w", 2)));
		this.mvc.perform(get("/api/v1/qualifications/q-1/samples.json?phase=2").with(user("ops").roles("VIEWER")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.length()").value(2))
			.andExpect(jsonPath("$[1].t").value(2))
			.andExpect(jsonPath("$[1].writeLatencyNs.p99").value(900000))
			.andExpect(jsonPath("$[1].readLatencyNs").doesNotExist());
	}

	@Test
	void resultsAsJsonAndAsFigureRows() throws Exception {
		Map<String, Object> analysis = Map.of("phases",
				List.of(Map.of("phaseIndex", 2, "phaseName", "randwrite-4k-qd32", "iops",
						Map.of("steadyState", Map.of("reached", true, "window", Map.of("avgIops", 10633.5))))),
				"trimRecovery", Map.of("known", false, "reason", "no seq-clean, seq-dirty phases"));
		given(this.jobs.get("q-1")).willReturn(report(analysis));
		this.mvc.perform(get("/api/v1/qualifications/q-1/results.json").with(user("ops").roles("VIEWER")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.verdict").value("PASS"))
			.andExpect(jsonPath("$.analysis.phases[0].iops.steadyState.window.avgIops").value(10633.5));
		String csv = this.mvc.perform(get("/api/v1/qualifications/q-1/results.csv").with(user("ops").roles("VIEWER")))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(csv).startsWith("phaseIndex,phaseName,figure,value\n")
			.contains(",,verdict,PASS\n")
			.contains("2,randwrite-4k-qd32,iops.steadyState.window.avgIops,10633.5\n")
			.contains(",,trimRecovery.reason,\"no seq-clean, seq-dirty phases\"\n");
	}

	@Test
	void exportsNeedAViewerAndAKnownJob() throws Exception {
		this.mvc.perform(get("/api/v1/qualifications/q-1/samples.csv"))
			.andExpect(status().isUnauthorized())
			.andExpect(header().string("WWW-Authenticate", "Basic realm=\"drivequal\""))
			.andExpect(content().contentTypeCompatibleWith("application/problem+json"));
		given(this.jobs.get("q-404")).willThrow(new NotFoundException("no qualification q-404"));
		this.mvc.perform(get("/api/v1/qualifications/q-404/samples.csv").with(user("ops").roles("VIEWER")))
			.andExpect(status().isNotFound());
	}

	@Test
	void aPageScriptGetsItsUnauthorizedAnswerWithoutABasicChallenge() throws Exception {
		this.mvc.perform(get("/api/v1/qualifications/q-1/results.json").header("X-Requested-With", "XMLHttpRequest"))
			.andExpect(status().isUnauthorized())
			.andExpect(header().doesNotExist("WWW-Authenticate"))
			.andExpect(jsonPath("$.status").value(401));
	}

	@Test
	void thePagesArePublicAndForwardToTheirStaticFiles() throws Exception {
		this.mvc.perform(get("/")).andExpect(status().isFound()).andExpect(redirectedUrl("/ui/"));
		this.mvc.perform(get("/ui/")).andExpect(status().isOk()).andExpect(forwardedUrl("/ui/index.html"));
		this.mvc.perform(get("/ui/jobs/q-1")).andExpect(status().isOk()).andExpect(forwardedUrl("/ui/job.html"));
		this.mvc.perform(get("/ui/compare?jobs=q-1,q-2"))
			.andExpect(status().isOk())
			.andExpect(forwardedUrl("/ui/compare.html"));
		this.mvc.perform(get("/ui/submit")).andExpect(status().isOk()).andExpect(forwardedUrl("/ui/submit.html"));
		this.mvc.perform(get("/ui/drives")).andExpect(status().isOk()).andExpect(forwardedUrl("/ui/drives.html"));
		this.mvc.perform(get("/ui/js/api.js")).andExpect(status().isOk());
		this.mvc.perform(get("/webjars/uplot/1.6.30/dist/uPlot.iife.min.js")).andExpect(status().isOk());
	}

}
