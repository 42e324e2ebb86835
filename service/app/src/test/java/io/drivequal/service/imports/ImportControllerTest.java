/*
 * POST /api/v1/imports at the HTTP edge: roles, the JSON part's validation, and unusable fio
 * results answered as a 400 that says why.
 */
package io.drivequal.service.imports;

import io.drivequal.analysis.fio.FioImportException;
import io.drivequal.service.security.ApiSecurity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockMultipartFile;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyList;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.then;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.multipart;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

@WebMvcTest(ImportController.class)
@Import(ApiSecurity.class)
class ImportControllerTest {

	@Autowired
	private MockMvc mvc;

	@MockitoBean
	private FioImports imports;

	private final MockMultipartFile request = new MockMultipartFile("request", "", MediaType.APPLICATION_JSON_VALUE,
			"{\"drive\":{\"serial\":\"VENDOR-1\"}}".getBytes());

	private final MockMultipartFile fio = new MockMultipartFile("fio", "vendor.json", "application/json",
			"{}".getBytes());

	@Test
	void unusableFioResultsAreA400ThatSaysWhy() throws Exception {
		given(this.imports.importFio(any(), anyString(), anyList(), anyString()))
			.willThrow(new FioImportException("job 1 ran with log_avg_msec=500: per-second logs need 1000"));
		this.mvc.perform(
				multipart("/api/v1/imports").file(this.request).file(this.fio).with(user("alice").roles("SUBMITTER")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.detail").value("job 1 ran with log_avg_msec=500: per-second logs need 1000"));
	}

	@Test
	void theDriveSerialIsRequired() throws Exception {
		MockMultipartFile noSerial = new MockMultipartFile("request", "", MediaType.APPLICATION_JSON_VALUE,
				"{\"drive\":{}}".getBytes());
		this.mvc
			.perform(multipart("/api/v1/imports").file(noSerial).file(this.fio).with(user("alice").roles("SUBMITTER")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.errors[0].field").value("drive.serial"));
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|',
			value = { "{\"drive\":{\"serial\":\"V-1\",\"capacityBytes\":0}}|drive.capacityBytes",
					"{\"drive\":{\"serial\":\"V-1\",\"capacityBytes\":-4096}}|drive.capacityBytes",
					"{\"drive\":{\"serial\":\"V-1\"},\"preconditioning\":\"secure-erase-twice\"}|preconditioning" })
	void aStatedCapacityOrPreconditioningThatCannotBeIsA400NamingTheFieldAndNothingIsImported(String json, String field)
			throws Exception {
		MockMultipartFile bad = new MockMultipartFile("request", "", MediaType.APPLICATION_JSON_VALUE, json.getBytes());
		this.mvc.perform(multipart("/api/v1/imports").file(bad).file(this.fio).with(user("alice").roles("SUBMITTER")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.errors[0].field").value(field));
		then(this.imports).shouldHaveNoInteractions();
	}

	@Test
	void aCapacityThatIsNotANumberIsA400NamingTheFieldAndNothingIsImported() throws Exception {
		MockMultipartFile bad = new MockMultipartFile("request", "", MediaType.APPLICATION_JSON_VALUE,
				"{\"drive\":{\"serial\":\"V-1\",\"capacityBytes\":\"3.84 TB\"}}".getBytes());
		this.mvc.perform(multipart("/api/v1/imports").file(bad).file(this.fio).with(user("alice").roles("SUBMITTER")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.errors[0].field").value("drive.capacityBytes"));
		then(this.imports).shouldHaveNoInteractions();
	}

	@Test
	void viewersCannotImportAndAnonymousIsA401() throws Exception {
		this.mvc
			.perform(multipart("/api/v1/imports").file(this.request).file(this.fio).with(user("ops").roles("VIEWER")))
			.andExpect(status().isForbidden());
		this.mvc.perform(multipart("/api/v1/imports").file(this.request).file(this.fio))
			.andExpect(status().isUnauthorized());
	}

}
