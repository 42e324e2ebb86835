/*
 * The jobs' drive labels for ingest (ingest/JobLabelSource), read from the jobs index with one
 * multi-get of just the fields they come from.
 */
package io.drivequal.service.qualification;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import io.drivequal.service.ingest.DriveLabels;
import io.drivequal.service.ingest.JobLabelSource;
import io.drivequal.service.platform.Documents;

import org.springframework.stereotype.Component;

@Component
class JobDriveLabels implements JobLabelSource {

	private final ElasticsearchClient client;

	JobDriveLabels(ElasticsearchClient client) {
		this.client = client;
	}

	@Override
	public Map<String, DriveLabels> labelsOf(List<String> jobIds) {
		Map<String, DriveLabels> found = new HashMap<>();
		Documents.getAll(this.client, JobStore.INDEX, jobIds, JobDrive.class, "driveModel", "firmware", "engine")
			.forEach((jobId, job) -> found.put(jobId,
					new DriveLabels(job.driveModel(), job.firmware(), "sim".equals(job.engine()))));
		return found;
	}

	/** The part of a job document the labels come from. */
	record JobDrive(String driveModel, String firmware, String engine) {
	}

}
