/*
 * CSV and JSON exports of a job's per-second samples and of its results (analysis and verdict),
 * for spreadsheets, notebooks and archives. Samples are written a page at a time, so a 6-hour
 * phase never sits in memory whole.
 */
package io.drivequal.service.report;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.drivequal.service.ingest.SamplePoint;
import io.drivequal.service.ingest.SampleQueries;
import io.drivequal.service.qualification.JobReports;
import io.drivequal.service.qualification.JobReports.JobReport;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.validation.annotation.Validated;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/qualifications/{id}")
@Validated
class ExportController {

	static final MediaType TEXT_CSV = new MediaType("text", "csv", StandardCharsets.UTF_8);

	/** The largest page Elasticsearch returns without a scroll. */
	private static final int PAGE = 10000;

	private final JobReports jobs;

	private final SampleQueries samples;

	private final JsonMapper json;

	ExportController(JobReports jobs, SampleQueries samples, JsonMapper json) {
		this.jobs = jobs;
		this.samples = samples;
		this.json = json;
	}

	/** Every sample of the job (or of one phase) in (phase, t) order, one row each. */
	@GetMapping("/samples.csv")
	@ApiResponse(responseCode = "200", description = "one row per sample, with a header row",
			content = @Content(mediaType = "text/csv", schema = @Schema(type = "string")))
	void samplesCsv(@PathVariable String id, @RequestParam(required = false) @Min(0) @Max(255) Integer phase,
			HttpServletResponse response) throws IOException {
		this.jobs.get(id);
		start(response, TEXT_CSV, attachment(id, phase, "samples.csv"));
		Writer out = new OutputStreamWriter(response.getOutputStream(), StandardCharsets.UTF_8);
		out.write(SampleCsv.HEADER);
		forEachPage(id, phase, (page) -> {
			for (SamplePoint point : page) {
				out.write(SampleCsv.row(point));
			}
		});
		out.flush();
	}

	/** The same samples as a JSON array of the objects GET .../samples pages through. */
	@GetMapping("/samples.json")
	@ApiResponse(responseCode = "200", description = "every sample, in (phase, t) order",
			content = @Content(mediaType = "application/json",
					array = @ArraySchema(schema = @Schema(implementation = SamplePoint.class))))
	void samplesJson(@PathVariable String id, @RequestParam(required = false) @Min(0) @Max(255) Integer phase,
			HttpServletResponse response) throws IOException {
		this.jobs.get(id);
		start(response, MediaType.APPLICATION_JSON, attachment(id, phase, "samples.json"));
		OutputStream out = response.getOutputStream();
		out.write('[');
		boolean[] first = { true };
		forEachPage(id, phase, (page) -> {
			for (SamplePoint point : page) {
				if (!first[0]) {
					out.write(',');
				}
				first[0] = false;
				out.write(this.json.writeValueAsBytes(point));
			}
		});
		out.write(']');
		out.flush();
	}

	/** The job, its analysis and verdict, as one document. */
	@GetMapping(path = "/results.json", produces = MediaType.APPLICATION_JSON_VALUE)
	ResponseEntity<JobReport> resultsJson(@PathVariable String id) {
		JobReport report = this.jobs.get(id);
		return ResponseEntity.ok()
			.header(HttpHeaders.CONTENT_DISPOSITION, attachment(id, null, "results.json"))
			.contentType(MediaType.APPLICATION_JSON)
			.body(report);
	}

	/** Every figure of the results as one (phase, figure, value) row. */
	@GetMapping(path = "/results.csv", produces = "text/csv")
	@ApiResponse(responseCode = "200", description = "one (phase, figure, value) row per figure, with a header row",
			content = @Content(mediaType = "text/csv", schema = @Schema(type = "string")))
	ResponseEntity<String> resultsCsv(@PathVariable String id) {
		JobReport report = this.jobs.get(id);
		return ResponseEntity.ok()
			.header(HttpHeaders.CONTENT_DISPOSITION, attachment(id, null, "results.csv"))
			.contentType(TEXT_CSV)
			.body(ResultsCsv.of(report));
	}

	private interface PageConsumer {

		void accept(List<SamplePoint> page) throws IOException;

	}

	private void forEachPage(String id, Integer phase, PageConsumer consumer) throws IOException {
		int afterPhase = -1;
		int afterT = 0;
		while (true) {
			List<SamplePoint> page = this.samples.after(id, phase, afterPhase, afterT, PAGE);
			consumer.accept(page);
			if (page.size() < PAGE) {
				return;
			}
			SamplePoint last = page.get(page.size() - 1);
			afterPhase = last.phaseIndex();
			afterT = last.t();
		}
	}

	private static void start(HttpServletResponse response, MediaType type, String disposition) {
		response.setStatus(HttpServletResponse.SC_OK);
		response.setContentType(type.toString());
		response.setHeader(HttpHeaders.CONTENT_DISPOSITION, disposition);
	}

	private static String attachment(String id, Integer phase, String what) {
		String name = id + ((phase != null) ? "-phase" + phase : "") + "-" + what;
		return ContentDisposition.attachment().filename(name).build().toString();
	}

}
