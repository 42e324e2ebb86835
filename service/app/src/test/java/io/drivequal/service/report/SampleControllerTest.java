/*
 * A job's samples at the HTTP edge: raw pages with the cursor to the next one, chart buckets, the
 * SSE stream's media type, and 400/401/404.
 */
package io.drivequal.service.report;

import java.util.List;

import io.drivequal.service.ingest.ChartBucket;
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

import static org.mockito.BDDMockito.given;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.request;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

@WebMvcTest(SampleController.class)
@Import(ApiSecurity.class)
class SampleControllerTest {

	@Autowired
	private MockMvc mvc;

	@MockitoBean
	private JobReports jobs;

	@MockitoBean
	private SampleQueries samples;

	private static SamplePoint point(int t) {
		return new SamplePoint(2, "randwrite-4k-qd32", t, t * 1000L, 0, 50000, 0, 50000L * 4096, 0, 204.8, null,
				new SamplePoint.Latency(600000, 900000, 1500000, 4000000), null);
	}

	@Test
	void aFullRawPageCarriesTheCursorToTheNext() throws Exception {
		given(this.samples.after("q-1", 2, -1, 0, 2)).willReturn(List.of(point(1), point(2)));
		this.mvc.perform(get("/api/v1/qualifications/q-1/samples?phase=2&limit=2").with(user("ops").roles("VIEWER")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.items.length()").value(2))
			.andExpect(jsonPath("$.items[1].writeIops").value(50000))
			.andExpect(jsonPath("$.nextAfterPhase").value(2))
			.andExpect(jsonPath("$.nextAfterT").value(2));
	}

	@Test
	void theLastPageHasNoCursor() throws Exception {
		given(this.samples.after("q-1", null, 2, 2, 1000)).willReturn(List.of(point(3)));
		this.mvc
			.perform(get("/api/v1/qualifications/q-1/samples?afterPhase=2&afterT=2").with(user("ops").roles("VIEWER")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.nextAfterT").doesNotExist());
	}

	@Test
	void chartBucketsKeepTheDips() throws Exception {
		given(this.samples.chart("q-1", 2, 100)).willReturn(List.of(new ChartBucket(2, 1, 20, 20, 4000, 48000, 52000)));
		this.mvc
			.perform(get("/api/v1/qualifications/q-1/samples/chart?phase=2&maxPoints=100")
				.with(user("ops").roles("VIEWER")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$[0].minIops").value(4000.0));
	}

	@Test
	void theLiveStreamIsServerSentEvents() throws Exception {
		given(this.jobs.get("q-1")).willReturn(new JobReport("q-1", JobState.QUEUED, "alice", "consistency-2000s", null,
				List.of(), null, List.of(), null, null, null, null, null, null, null, null));
		this.mvc.perform(get("/api/v1/qualifications/q-1/samples/stream").with(user("ops").roles("VIEWER")))
			.andExpect(status().isOk())
			.andExpect(request().asyncStarted());
	}

	@Test
	void badPagingIsA400AndAnUnknownJobA404() throws Exception {
		this.mvc.perform(get("/api/v1/qualifications/q-1/samples?limit=0").with(user("ops").roles("VIEWER")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.errors[0].field").value("limit"));
		this.mvc.perform(get("/api/v1/qualifications/q-1/samples/chart").with(user("ops").roles("VIEWER")))
			.andExpect(status().isBadRequest());
		given(this.jobs.get("q-none")).willThrow(new NotFoundException("no qualification q-none"));
		this.mvc.perform(get("/api/v1/qualifications/q-none/samples").with(user("ops").roles("VIEWER")))
			.andExpect(status().isNotFound());
		this.mvc.perform(get("/api/v1/qualifications/q-1/samples")).andExpect(status().isUnauthorized());
	}

}
