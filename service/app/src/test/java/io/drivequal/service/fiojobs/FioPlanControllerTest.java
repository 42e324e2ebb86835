/*
 * POST /api/v1/plans/fio over HTTP: a job file in, the plan out; a refused file is a 400 listing
 * each problem with its line and option; viewers may not (translating is part of submitting).
 */
package io.drivequal.service.fiojobs;

import java.nio.file.Files;

import io.drivequal.service.security.ApiSecurity;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;

import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

@WebMvcTest(FioPlanController.class)
@Import(ApiSecurity.class)
class FioPlanControllerTest {

	@Autowired
	private MockMvc mvc;

	@Test
	void anAcceptedFileAnswersItsPlan() throws Exception {
		String file = Files.readString(FioPlansTest.EXAMPLES.resolve("accepted/flash-read-write-trim.fio"));
		this.mvc
			.perform(post("/api/v1/plans/fio").with(httpBasic("alice", "alice-pw"))
				.contentType(MediaType.TEXT_PLAIN)
				.content(file))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.phases[0].kind").value("workload"))
			.andExpect(jsonPath("$.phases[0].runtimeS").value(600))
			.andExpect(jsonPath("$.phases[0].streams[0].rateBytesPerS").value(419430400))
			.andExpect(jsonPath("$.phases[0].streams[3].blockSizeBytes").value(2147483648L))
			.andExpect(jsonPath("$.phases[0].rw").doesNotExist());
	}

	@Test
	void aRefusedFileIsA400WithEachLineAndOption() throws Exception {
		String file = Files.readString(FioPlansTest.EXAMPLES.resolve("refused/zipf-distribution.fio"));
		this.mvc
			.perform(post("/api/v1/plans/fio").with(httpBasic("alice", "alice-pw"))
				.contentType(MediaType.TEXT_PLAIN)
				.content(file))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.errors[0].line").value(11))
			.andExpect(jsonPath("$.errors[0].option").value("random_distribution"))
			.andExpect(jsonPath("$.errors[0].field").value("line 11: random_distribution"));
		this.mvc
			.perform(post("/api/v1/plans/fio").with(httpBasic("alice", "alice-pw"))
				.contentType(MediaType.TEXT_PLAIN)
				.content("[global]\ndirect=1\n[w]\nrw write\n"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.errors[0].line").value(4))
			.andExpect(jsonPath("$.errors[0].option").doesNotExist());
	}

	@Test
	void aViewerMayNot() throws Exception {
		this.mvc
			.perform(post("/api/v1/plans/fio").with(httpBasic("viewer", "viewer-pw"))
				.contentType(MediaType.TEXT_PLAIN)
				.content("[w]\n"))
			.andExpect(status().isForbidden());
	}

}
