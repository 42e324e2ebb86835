/*
 * GET /api/v1/qualifications/{id}/health: the drive's health readings during a job, in the order
 * they were taken, for the report's temperature chart and health table (and anyone charting them).
 */
package io.drivequal.service.report;

import java.util.List;

import io.drivequal.service.ingest.HealthQueries;
import io.drivequal.service.ingest.HealthReading;
import io.drivequal.service.qualification.JobReports;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/qualifications/{id}/health")
class HealthController {

	private final JobReports jobs;

	private final HealthQueries health;

	HealthController(JobReports jobs, HealthQueries health) {
		this.jobs = jobs;
		this.health = health;
	}

	@GetMapping
	List<HealthReading> readings(@PathVariable String id) {
		this.jobs.get(id);
		return this.health.ofJob(id);
	}

}
