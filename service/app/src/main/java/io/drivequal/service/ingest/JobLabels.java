/*
 * The drive labels of the jobs a batch of samples belongs to, asked of the jobs' owner once per
 * job and then kept: a job never changes the drive it qualifies, so a batch usually costs no
 * request at all. The jobs index is qualification's: it answers through JobLabelSource.
 */
package io.drivequal.service.ingest;

import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.stereotype.Component;

@Component
class JobLabels {

	private static final int CACHED_JOBS = 4096;

	private final JobLabelSource source;

	private final Map<String, DriveLabels> cache = new LinkedHashMap<>(256, 0.75f, true) {

		@Override
		protected boolean removeEldestEntry(Map.Entry<String, DriveLabels> eldest) {
			return size() > CACHED_JOBS;
		}

	};

	JobLabels(JobLabelSource source) {
		this.source = source;
	}

	/**
	 * The labels of every job in {@code jobIds}; {@link DriveLabels#UNKNOWN} for a job
	 * the jobs index does not hold. That answer is kept too: the service writes a job
	 * before it dispatches it and a get is real-time, so a job missing now is not one of
	 * ours (a replayed or foreign sample stream) and will not appear later.
	 * @throws UncheckedIOException when the jobs cannot be read (the batch is retried
	 * like a failed bulk request)
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
		return new HashMap<>(this.source.labelsOf(jobIds));
	}

}
