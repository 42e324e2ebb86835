/*
 * The drive labels of the jobs a batch of samples belongs to, read from the jobs index once per
 * job and then kept: a job never changes the drive it qualifies, so a batch usually costs no
 * request at all.
 */
package io.drivequal.service.ingest;

import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import io.drivequal.service.platform.Documents;

import org.springframework.stereotype.Component;

@Component
class JobLabels {

	static final String JOBS_INDEX = "drivequal-jobs";

	private static final int CACHED_JOBS = 4096;

	private final ElasticsearchClient client;

	private final Map<String, DriveLabels> cache = new LinkedHashMap<>(256, 0.75f, true) {

		@Override
		protected boolean removeEldestEntry(Map.Entry<String, DriveLabels> eldest) {
			return size() > CACHED_JOBS;
		}

	};

	JobLabels(ElasticsearchClient client) {
		this.client = client;
	}

	/**
	 * The labels of every job in {@code jobIds}; {@link DriveLabels#UNKNOWN} for a job
	 * the jobs index does not hold. That answer is kept too: the service writes a job
	 * before it dispatches it and a get is real-time, so a job missing now is not one of
	 * ours (a replayed or foreign sample stream) and will not appear later.
	 * @throws UncheckedIOException when Elasticsearch cannot be reached (the batch is
	 * retried like a failed bulk request)
	 */
	Map<String, DriveLabels> of(Collection<String> jobIds) {
		Map<String, DriveLabels> labels = new HashMap<>();
		List<String> missing;
		synchronized (this.cache) {
			for (String jobId : jobIds) {
				DriveLabels cached = this.cache.get(jobId);
				if (cached != null) {
					labels.put(jobId, cached);
				}
			}
			missing = jobIds.stream().distinct().filter((jobId) -> !labels.containsKey(jobId)).toList();
		}
		if (missing.isEmpty()) {
			return labels;
		}
		Map<String, DriveLabels> fetched = fetch(missing);
		missing.forEach((jobId) -> fetched.putIfAbsent(jobId, DriveLabels.UNKNOWN));
		synchronized (this.cache) {
			this.cache.putAll(fetched);
		}
		labels.putAll(fetched);
		return labels;
	}

	private Map<String, DriveLabels> fetch(List<String> jobIds) {
		Map<String, DriveLabels> found = new HashMap<>();
		Documents.getAll(this.client, JOBS_INDEX, jobIds, JobDrive.class, "driveModel", "firmware", "engine")
			.forEach((jobId, job) -> found.put(jobId,
					new DriveLabels(job.driveModel(), job.firmware(), "sim".equals(job.engine()))));
		return found;
	}

	/** The part of a job document the labels come from. */
	record JobDrive(String driveModel, String firmware, String engine) {
	}

}
