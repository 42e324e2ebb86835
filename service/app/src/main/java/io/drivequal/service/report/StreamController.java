/*
 * The per-stream figures of a job's multi-stream phases (StreamFigures), for the report page's
 * stream panels and for API clients.
 */
package io.drivequal.service.report;

import io.drivequal.service.ingest.StreamQueries;
import io.drivequal.service.qualification.JobReports;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

@RestController
class StreamController {

	private final JobReports jobs;

	private final StreamQueries streams;

	StreamController(JobReports jobs, StreamQueries streams) {
		this.jobs = jobs;
		this.streams = streams;
	}

	/**
	 * Each multi-stream phase's streams: spec, totals per direction with service and
	 * response time percentiles, and per-second offered vs achieved rate; phases without
	 * streams are left out (an empty list for a job without any).
	 */
	@GetMapping("/api/v1/qualifications/{id}/streams")
	StreamFigures.JobStreams streams(@PathVariable String id) {
		return StreamFigures.of(this.jobs.get(id), this.streams);
	}

}
