/*
 * Everything a finished job left in Elasticsearch that its analysis reads: per phase the runner's
 * phase-completed result (totals, histograms, sample count), the indexed samples, and the SMART
 * snapshots taken around it; for the job, the drive's health readings.
 */
package io.drivequal.service.analysis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch.core.search.Hit;
import com.fasterxml.jackson.core.type.TypeReference;
import io.drivequal.service.ingest.HealthQueries;
import io.drivequal.service.ingest.HealthReading;
import io.drivequal.service.ingest.PhaseResult;
import io.drivequal.service.ingest.SamplePoint;
import io.drivequal.service.ingest.SampleQueries;
import io.drivequal.service.qualification.JobEventDocument;
import io.drivequal.service.qualification.SmartSnapshot;

import org.springframework.stereotype.Component;

@Component
class JobData {

	private static final int PAGE = 10_000;

	private final ElasticsearchClient client;

	private final SampleQueries samples;

	private final HealthQueries health;

	JobData(ElasticsearchClient client, SampleQueries samples, HealthQueries health) {
		this.client = client;
		this.samples = samples;
		this.health = health;
	}

	/**
	 * Makes searchable what the finished jobs' events wrote. The event consumer writes a
	 * job's health readings, phase results and events (SMART snapshots among them) before
	 * it moves the job to its final state, so they are acknowledged by the time a sweep
	 * sees the job finished; but searchable only after their index refreshes, which runs
	 * on its own schedule (or, for an index nobody searched lately, at the next search).
	 * Samples have a count to wait for (the phase result's); these have none, so an
	 * analysis that read them before the refresh judged a hot drive's temperature unknown
	 * (it happened in CI, with the events consumer catching up on a whole job at once).
	 */
	void refreshEventIndices() {
		try {
			this.client.indices()
				.refresh((refresh) -> refresh.index(HealthReading.INDEX, PhaseResult.INDEX, JobEventDocument.INDEX)
					.ignoreUnavailable(true)
					.allowNoIndices(true));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The drive's health readings during the job, in the order they were taken. */
	List<HealthReading> healthReadings(String jobId) {
		return this.health.ofJob(jobId);
	}

	/** Phase-completed results by phase index. */
	Map<Integer, PhaseResult> phaseResults(String jobId) {
		Map<Integer, PhaseResult> byPhase = new HashMap<>();
		for (Hit<PhaseResult> hit : this.<PhaseResult>search(PhaseResult.INDEX, jobId, null, "phaseIndex",
				PhaseResult.class)) {
			byPhase.put(hit.source().phaseIndex(), hit.source());
		}
		return byPhase;
	}

	/** SMART snapshots by phase index and "before"/"after". */
	Map<Integer, Map<String, SmartSnapshot>> smartSnapshots(String jobId) {
		Map<Integer, Map<String, SmartSnapshot>> byPhase = new HashMap<>();
		Type document = new TypeReference<JobEventDocument<JobEventDocument.SmartSnapshotPayload>>() {
		}.getType();
		for (Hit<JobEventDocument<JobEventDocument.SmartSnapshotPayload>> hit : this.<JobEventDocument<JobEventDocument.SmartSnapshotPayload>>search(
				JobEventDocument.INDEX, jobId, JobEventDocument.SMART_SNAPSHOT, "seq", document)) {
			JobEventDocument.SmartSnapshotPayload payload = hit.source().payload();
			byPhase.computeIfAbsent(payload.phaseIndex(), (index) -> new HashMap<>())
				.put(payload.when(), payload.smart());
		}
		return byPhase;
	}

	List<SamplePoint> samples(String jobId, int phaseIndex) {
		List<SamplePoint> all = new ArrayList<>();
		int afterT = 0;
		int afterPhase = -1;
		while (true) {
			List<SamplePoint> page = this.samples.after(jobId, phaseIndex, afterPhase, afterT, PAGE);
			all.addAll(page);
			if (page.size() < PAGE) {
				return all;
			}
			afterPhase = phaseIndex;
			afterT = page.get(page.size() - 1).t();
		}
	}

	long sampleCount(String jobId, int phaseIndex) {
		return this.samples.count(jobId, phaseIndex);
	}

	private <T> List<Hit<T>> search(String index, String jobId, String type, String sortField, Type documentType) {
		try {
			return this.client.<T>search((search) -> search.index(index)
				.ignoreUnavailable(true)
				.allowNoIndices(true)
				.size(1000)
				.query((q) -> q.bool((bool) -> {
					bool.filter((f) -> f.term((term) -> term.field("jobId").value(jobId)));
					Optional.ofNullable(type)
						.ifPresent((t) -> bool.filter((f) -> f.term((term) -> term.field("type").value(t))));
					return bool;
				}))
				.sort((sort) -> sort.field((field) -> field.field(sortField).order(SortOrder.Asc))), documentType)
				.hits()
				.hits();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
