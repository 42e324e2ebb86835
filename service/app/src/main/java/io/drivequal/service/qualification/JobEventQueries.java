/*
 * Reads job-event documents (drivequal-events) back into their record: qualification's event
 * consumer writes the index, so the queries that read it live here too, and other features reach
 * them through CompletedJobs. Today that is the SMART snapshots around each phase, for the WAF and
 * endurance figures.
 */
package io.drivequal.service.qualification;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Type;
import java.util.HashMap;
import java.util.Map;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch.core.search.Hit;
import com.fasterxml.jackson.core.type.TypeReference;
import io.drivequal.service.platform.Documents;

import org.springframework.stereotype.Component;

@Component
class JobEventQueries {

	/**
	 * More smart-snapshot events than a job's plan can take (one before, one after a
	 * phase).
	 */
	private static final int MAX_SNAPSHOTS = 1000;

	private static final Type SMART_SNAPSHOT_DOCUMENT = new TypeReference<JobEventDocument<JobEventDocument.SmartSnapshotPayload>>() {
	}.getType();

	private final ElasticsearchClient client;

	JobEventQueries(ElasticsearchClient client) {
		this.client = client;
	}

	/** The job's SMART snapshots by phase index and "before"/"after", in event order. */
	Map<Integer, Map<String, SmartSnapshot>> smartSnapshots(String jobId) {
		Map<Integer, Map<String, SmartSnapshot>> byPhase = new HashMap<>();
		try {
			for (Hit<JobEventDocument<JobEventDocument.SmartSnapshotPayload>> hit : this.client.<JobEventDocument<JobEventDocument.SmartSnapshotPayload>>search(
					(search) -> search.index(JobEventDocument.INDEX)
						.ignoreUnavailable(true)
						.allowNoIndices(true)
						.size(MAX_SNAPSHOTS)
						.query((q) -> q.bool((bool) -> bool.filter(Documents.term("jobId", jobId))
							.filter(Documents.term("type", JobEventDocument.SMART_SNAPSHOT))))
						.sort((sort) -> sort.field((field) -> field.field("seq").order(SortOrder.Asc))),
					SMART_SNAPSHOT_DOCUMENT)
				.hits()
				.hits()) {
				JobEventDocument.SmartSnapshotPayload payload = hit.source().payload();
				byPhase.computeIfAbsent(payload.phaseIndex(), (index) -> new HashMap<>())
					.put(payload.when(), payload.smart());
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return byPhase;
	}

	/** Makes the events written so far searchable now (Documents.refresh). */
	void refresh() {
		Documents.refresh(this.client, JobEventDocument.INDEX);
	}

}
