/*
 * POST /api/v1/imports: a vendor's fio results (JSON output plus per-second logs) as a
 * qualification, analysed and judged like one drivequal ran.
 */
package io.drivequal.service.imports;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.ArrayList;
import java.util.List;

import io.drivequal.analysis.fio.FioImportException;
import io.drivequal.analysis.fio.FioLogFile;
import io.drivequal.service.platform.BadRequestException;
import io.drivequal.service.qualification.QualificationView;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.validation.Valid;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestPart;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.multipart.MultipartFile;

@RestController
@RequestMapping("/api/v1/imports")
class ImportController {

	private final FioImports imports;

	ImportController(FioImports imports) {
		this.imports = imports;
	}

	/**
	 * Multipart: {@code request} (JSON: drive, optional profile, spec, criteria),
	 * {@code fio} (fio's --output-format=json output) and {@code logs} (per-second logs
	 * written with log_avg_msec=1000: *_iops.N.log, *_bw.N.log, *_clat.N.log, optionally
	 * *_clat_hist.N.log).
	 */
	@PostMapping(consumes = MediaType.MULTIPART_FORM_DATA_VALUE)
	@ApiResponse(responseCode = "201", description = "the imported qualification, analysed and judged")
	@ApiResponse(responseCode = "413", ref = "#/components/responses/PayloadTooLarge")
	ResponseEntity<QualificationView> importFio(@Valid @RequestPart("request") ImportRequest request,
			@RequestPart("fio") MultipartFile fio,
			@RequestPart(name = "logs", required = false) List<MultipartFile> logs, Principal principal) {
		List<FioLogFile> logFiles = new ArrayList<>();
		for (MultipartFile log : (logs != null) ? logs : List.<MultipartFile>of()) {
			if (log.getOriginalFilename() == null || log.getOriginalFilename().isBlank()) {
				throw new BadRequestException("logs", "every log needs its file name (fio's name tells its kind)");
			}
			logFiles.add(new FioLogFile(log.getOriginalFilename(), text(log)));
		}
		QualificationView job = this.imports.importFio(request, text(fio), logFiles, principal.getName());
		return ResponseEntity.created(URI.create("/api/v1/qualifications/" + job.id())).body(job);
	}

	@ExceptionHandler(FioImportException.class)
	ResponseEntity<org.springframework.http.ProblemDetail> unusable(FioImportException ex) {
		var problem = org.springframework.http.ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST,
				ex.getMessage());
		problem.setTitle("Unusable fio results");
		return ResponseEntity.badRequest().body(problem);
	}

	private static String text(MultipartFile file) {
		try {
			return new String(file.getBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
